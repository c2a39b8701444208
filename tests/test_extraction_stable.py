"""The same file always gives the same facts. tree-sitter's query captures of one name do not always
come in the same order (two extractions of one Java file in one process differed in half of JUnit's
files); an extractor that followed that order gave a file's edges in a different order each time,
and in Python and Go a variable declared twice could be given either type, so a call resolved one
way on one run and another way on the next."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from codecairn.host import PluginHost
from codecairn.index import parse_pool
from realcode import STDLIB

SAMPLE = 120
REPEATS = 4
# Files that differed before, in the sample or not.
KNOWN = {
    "python": ["unittest/test/testmock/testmock.py"],
    "go": ["golang.org/x/tools/go/analysis/passes/loopclosure/testdata/src/subtests/subtest.go"],
}


@pytest.fixture(scope="module")
def host() -> PluginHost:
    host = PluginHost()
    parse_pool._init(host.languages)
    return host


def sample(host: PluginHost, root: Path, language: str) -> list[str]:
    def ours(p: Path) -> bool:
        found = host.language_for(p.name)
        return found is not None and found.name == language and "site-packages" not in p.parts and p.is_file()

    paths = sorted(str(p.relative_to(root)) for p in root.rglob("*") if ours(p))
    step = max(1, len(paths) // SAMPLE)
    chosen = paths[::step][:SAMPLE]
    return chosen + [p for p in KNOWN.get(language, []) if (root / p).is_file()]


@pytest.mark.parametrize(
    ("language", "source"),
    [
        ("python", "stdlib"),  # the running interpreter's own
        ("java", "java-junit4"),
        ("go", "go-xtools"),
        ("rust", "rust-tokio"),
        ("typescript", "ts-rxjs"),
    ],
)
def test_extracting_a_file_again_gives_the_same_facts(host: PluginHost, corpus, language: str, source: str) -> None:
    root = STDLIB if source == "stdlib" else corpus(source)
    paths = sample(host, root, language)
    assert len(paths) >= 50
    unstable = []
    for path in paths:
        results = [parse_pool.parse_one(os.path.realpath(root), path, language, None) for _ in range(REPEATS)]
        assert results[0][0] == "parsed", results[0]
        if any(r != results[0] for r in results[1:]):
            unstable.append(path)
    assert not unstable, f"{len(unstable)} of {len(paths)} {language} files: {unstable[:5]}"
