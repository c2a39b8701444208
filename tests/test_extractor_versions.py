"""A language plugin's extractor of a new version (``Language.version``) finds something else in the
same code: the next index extracts that language's files again though their text is unchanged —
only those — so an upgraded plugin never leaves the facts of the old one behind."""

from __future__ import annotations

from pathlib import Path

import pytest
import tree_sitter_python
from codecairn.hookspecs import ImportedOnCall, Language, hookimpl
from codecairn.host import PluginHost
from codecairn.workspace import Workspace

pytestmark = pytest.mark.anyio


class Stubs:
    """A third party's language (Python stub-like files, `.pyt`) at a given extractor version."""

    def __init__(self, version: str) -> None:
        self.version = version

    @hookimpl
    def codecairn_languages(self) -> list[Language]:
        return [
            Language(
                name="pytoy",
                extensions=(".pyt",),
                grammar=tree_sitter_python.language,
                extractor=ImportedOnCall("codecairn_python.extractor:extract"),
                version=self.version,
            )
        ]


async def test_a_new_extractor_version_extracts_its_files_again_and_only_those(tmp_path: Path, cache_dir: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    for i in range(3):
        (root / f"toy{i}.pyt").write_text(f"def toy{i}():\n    return {i}\n")
    (root / "app.py").write_text("def main():\n    return 0\n")

    async def index_with(*plugins) -> tuple[int, int]:
        ws = await Workspace.open(root, PluginHost(extra_plugins=plugins))
        try:
            summary = await ws.index_now()
            return summary.parsed, len(ws.state.files_by_path)
        finally:
            await ws.close()

    assert await index_with(Stubs("1")) == (4, 4)
    assert await index_with(Stubs("1")) == (0, 4)  # the same extractors: nothing is read again
    assert await index_with(Stubs("2")) == (3, 4)  # a new version: its language's files, not app.py
    assert await index_with(Stubs("2")) == (0, 4)  # and once only
    assert await index_with() == (0, 1)  # the language gone: its files leave the index, nothing re-read
