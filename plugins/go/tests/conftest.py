"""Shared fixtures for the Go plugin's tests: the registered language, parsing, real corpora."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from codecairn_go.plugin import codecairn_languages
from tree_sitter import Language as TSLanguage
from tree_sitter import Parser


@pytest.fixture(scope="session")
def go_language():
    (language,) = codecairn_languages()
    return language


@pytest.fixture(scope="session")
def go_parser(go_language):
    return Parser(TSLanguage(go_language.grammar()))


@pytest.fixture(scope="session")
def extract_go(go_language, go_parser):
    """Extract facts from a Go snippet as the indexer would, from a root-relative path."""

    def extract(source: str | bytes, path: str = "app/server/server.go"):
        data = source if isinstance(source, bytes) else textwrap.dedent(source).lstrip("\n").encode()
        return go_language.extractor(data, go_parser.parse(data), path)

    return extract


from codecairn.testing import corpus  # noqa: E402  (one way to find real code)


@pytest.fixture(scope="session")
def xtools() -> Path:
    """golang.org/x/tools 0.5.0, rooted at the GOPATH `src` directory (holds golang.org/x/tools/...)."""
    return corpus("go-xtools")


@pytest.fixture(scope="session")
def xtools_facts(xtools, extract_go) -> dict:
    """Every .go file of x/tools extracted once per session: root-relative path -> FileFacts."""
    facts = {}
    for file in sorted(xtools.rglob("*.go")):
        if file.is_file():  # x/tools has a test directory named like a Go file
            path = file.relative_to(xtools).as_posix()
            facts[path] = extract_go(file.read_bytes(), path)
    return facts
