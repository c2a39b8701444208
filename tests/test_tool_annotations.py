"""tools/list tells a client what each tool is: a title, and annotations that are true — a client
may skip asking before a read-only tool, and should ask before a destructive one."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

pytestmark = pytest.mark.anyio

# What each built-in tool does to the world, as a user would describe it.
WRITES = {"index", "invalidate", "clear", "remember", "forget", "notes"}  # the index, the memories, a notes file
# forget deletes memories; notes set/delete overwrite a section; invalidate and clear drop indexed facts
DESTROYS = {"forget", "notes", "invalidate", "clear"}


async def test_every_tool_has_a_title_and_true_annotations(stdlib_part: Path, cache_dir: Path) -> None:
    import os
    import sys

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "codecairn.cli", "serve", str(stdlib_part), "--no-index", "--no-watch", "--no-embed"],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache_dir)},
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = {t.name: t for t in (await session.list_tools()).tools}
    assert WRITES | DESTROYS <= set(tools)
    for name, tool in tools.items():
        assert tool.title, name
        hints = tool.annotations
        assert hints is not None, name
        assert hints.read_only_hint is (name not in WRITES), name
        assert hints.destructive_hint is (name in DESTROYS), name
        assert hints.open_world_hint is False, name
