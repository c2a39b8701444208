"""One rule per kind of bad argument, the same in every tool: an empty path is refused with the same
message everywhere (leave it out to mean the whole workspace), and a refusal names the real problem."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

pytestmark = pytest.mark.anyio

# Every built-in tool argument that names a path, with the other arguments the call needs.
EMPTY_PATH_CALLS = [
    ("find_symbols", {"name": "Util", "path": ""}),
    ("find_symbols", {"path": ""}),
    ("get_symbol", {"name": "Util", "path": ""}),
    ("read_symbol", {"name": "Util", "path": ""}),
    ("file_outline", {"path": ""}),
    ("remember", {"reason": "r", "path": "", "start_line": 1}),
    ("remember", {"reason": "r", "symbol": "Util", "path": ""}),
    ("recall", {"path": ""}),
    ("forget", {"path": ""}),
]


async def test_an_empty_path_is_refused_the_same_way_by_every_tool(tmp_path: Path, cache_dir: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "util.py").write_text("class Util:\n    pass\n")
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "codecairn.cli", "serve", str(root), "--no-index", "--no-watch", "--no-embed"],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache_dir)},
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("index", {})
            messages = set()
            for tool, args in EMPTY_PATH_CALLS:
                result = await session.call_tool(tool, args)
                payload = json.loads(result.content[0].text)
                assert result.is_error, (tool, args, payload)
                assert payload["error"] == "bad_argument", (tool, payload)
                messages.add(payload["message"])
            assert messages == {"path is empty: leave it out to mean the whole workspace"}

            # "." is the whole workspace where a path narrows; a NUL in a reason is named as such.
            everything = await session.call_tool("find_symbols", {"name": "Util", "path": "."})
            assert not everything.is_error and json.loads(everything.content[0].text)["results"]
            nul = await session.call_tool("remember", {"reason": "why\0not", "path": "util.py", "start_line": 1})
            assert nul.is_error and "NUL" in json.loads(nul.content[0].text)["message"]
            assert json.loads((await session.call_tool("recall", {})).content[0].text)["memories"] == []
