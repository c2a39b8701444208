"""codecairn's pytest plugin as a plugin author meets it: in a project of their own, loaded from
their root conftest — the test from docs/plugins.md runs and passes there — and not loaded at all
by merely installing codecairn."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs" / "plugins.md"


def run_pytest(project: Path, cache: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-s", str(project)],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache), **env},
    )


def documented_files() -> dict[str, str]:
    """The files of the "Testing a plugin" example, by the name in their first line."""
    text = DOCS.read_text()
    section = text[text.index("## Testing a plugin") : text.index("## Publishing")]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    return {block.split("\n", 1)[0].lstrip("# ").strip(): block for block in blocks}


def test_the_documented_plugin_test_passes_in_a_project_of_its_own(tmp_path: Path) -> None:
    project = tmp_path / "codecairn-grammar-example"
    project.mkdir()
    files = documented_files()
    assert set(files) == {"conftest.py", "test_ruby.py"}
    for name, text in files.items():
        (project / name).write_text(text)

    result = run_pytest(project, tmp_path / "cache")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 passed" in result.stdout
    assert re.search(r"rack: \d+/\d+ ctags definitions found", result.stdout)


def test_installing_codecairn_does_not_load_it_into_other_projects(tmp_path: Path) -> None:
    project = tmp_path / "unrelated"
    project.mkdir()
    (project / "test_other.py").write_text("def test_uses_a_fixture(extract_source):\n    pass\n")

    result = run_pytest(project, tmp_path / "cache")

    assert result.returncode != 0
    assert "fixture 'extract_source' not found" in result.stdout


def test_a_missing_corpus_fails_the_test_with_the_command_that_fetches_it(tmp_path: Path) -> None:
    project = tmp_path / "needs-a-corpus"
    project.mkdir()
    (project / "conftest.py").write_text('pytest_plugins = ["codecairn.testing"]\n')
    (project / "test_corpus.py").write_text('def test_reads_go(corpus):\n    corpus("go-xtools")\n')

    result = run_pytest(project, tmp_path / "cache", CODECAIRN_CORPORA=str(tmp_path / "no-corpora"))

    assert result.returncode == 1
    assert "1 failed" in result.stdout and "skipped" not in result.stdout
    assert "corpus go-xtools is missing" in result.stdout
    assert "run `scripts/test-prerequisites.sh small`" in result.stdout
