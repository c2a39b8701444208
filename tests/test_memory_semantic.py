"""Recall by meaning: with an embedder installed, a question in other words finds the memory
whose reason means the same; without one, recall matches words only and says nothing more.

In-process (a Workspace with the default embedder plugin registered when it can be imported),
because whether the embedder runs depends on optional packages of the environment; each
environment checks the branch it has."""

from __future__ import annotations

from pathlib import Path

import pytest
from codecairn import host as host_module
from codecairn.host import PluginHost
from codecairn.workspace import Workspace
from realcode import copy_stdlib

pytestmark = pytest.mark.anyio


def embedder_plugins() -> tuple:
    try:
        from codecairn.semantic import plugin
    except ImportError:  # semantic search is optional: recall still works by words
        return ()
    return () if plugin.__name__ in host_module.DEFAULT_PLUGINS else (plugin,)


async def test_recall_finds_reasons_by_meaning_when_an_embedder_is_installed(tmp_path: Path, cache_dir: Path) -> None:
    root = copy_stdlib(tmp_path, ("json",))
    host = PluginHost(extra_plugins=embedder_plugins())
    ws = await Workspace.open(root, host)
    try:
        await ws.index_now()
        errors = await ws.memory.remember(
            symbol="JSONDecoder.raw_decode", reason="where a decoding failure becomes JSONDecodeError"
        )
        await ws.memory.remember(
            path="json/tool.py", start_line=1, end_line=3, reason="the command-line pretty printer"
        )

        by_words = await ws.memory.recall(query="decoding failure")
        assert [m["id"] for m in by_words["memories"]] == [errors["id"]]

        asked = await ws.memory.recall(query="parse errors")  # no word in common with any reason
        if host.embedder() is None:
            assert asked["memories"] == [] and "semantic" not in asked
        else:
            assert asked["semantic"] is True
            assert [m["id"] for m in asked["memories"]][:1] == [errors["id"]]
    finally:
        await ws.close()
