"""The seed's cache tools, as an agent uses them: `index` with paths refreshes just those files
now, `invalidate` drops named files' facts until they are indexed again, `clear` drops the whole
index of the root and keeps memories and notes unless asked. Paths outside the root change nothing."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from realcode import copy_stdlib

pytestmark = pytest.mark.anyio


async def ask(session: ClientSession, tool: str, args: dict | None = None) -> dict:
    result = await session.call_tool(tool, args or {})
    payload = result.structured_content or json.loads(result.content[0].text)
    return {"_error": True, **payload} if result.is_error else payload


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "code"
    root.mkdir()
    return copy_stdlib(root, ("json", "textwrap", "shlex"))


def serve(root: Path, cache: Path) -> StdioServerParameters:
    # No watcher: only the tools under test change the index.
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "codecairn.cli", "serve", str(root), "--no-index", "--no-watch", "--no-embed"],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache)},
    )


async def test_index_paths_invalidate_and_refusals(tree: Path, cache_dir: Path) -> None:
    async with stdio_client(serve(tree, cache_dir)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            first = await ask(session, "index")

            # an edit the server was not told about: index with its path refreshes that file now
            (tree / "shlex.py").write_text((tree / "shlex.py").read_text() + "\n\ndef brand_new(x):\n    return x\n")
            assert (await ask(session, "get_symbol", {"name": "shlex.brand_new"}))["error"] == "not_found"
            refreshed = await ask(session, "index", {"paths": ["shlex.py"]})
            assert refreshed["parsed"] == 1 and refreshed["generation"] == first["generation"] + 1
            assert (await ask(session, "get_symbol", {"name": "shlex.brand_new"}))["path"] == "shlex.py"

            # a path outside the root is refused, and nothing is dropped
            before = await ask(session, "stats")
            refused = await ask(session, "invalidate", {"paths": ["json/decoder.py", "../outside.py"]})
            assert refused["error"] == "outside_workspace"
            assert "../outside.py" in refused["message"]
            assert (await ask(session, "stats"))["symbols"] == before["symbols"]
            assert (await ask(session, "index", {"paths": ["/etc/passwd"]}))["error"] == "outside_workspace"
            assert (await ask(session, "invalidate", {"paths": []}))["error"] == "bad_argument"

            # invalidate: the facts are gone, the file is not, until it is indexed again
            dropped = await ask(session, "invalidate", {"paths": ["json", "textwrap.py", "nothing_here.py"]})
            assert dropped["paths"] == sorted(p for p in dropped["paths"]) and "textwrap.py" in dropped["paths"]
            assert {p for p in dropped["paths"] if p.startswith("json/")} == {
                f"json/{p.name}" for p in (tree / "json").glob("*.py")
            }
            assert dropped["invalidated"] == len(dropped["paths"]) and dropped["symbols"] > 50
            assert dropped["not_indexed"] == ["nothing_here.py"]
            assert (await ask(session, "get_symbol", {"name": "json.decoder.JSONDecoder"}))["error"] == "not_found"
            outline = await ask(session, "file_outline", {"path": "textwrap.py"})
            assert outline["error"] == "not_found" and "not indexed" in outline["message"]
            assert (tree / "textwrap.py").exists()
            stats = await ask(session, "stats")
            assert stats["files"] == before["files"] - dropped["invalidated"]
            assert (await ask(session, "get_symbol", {"name": "shlex.split"}))["path"] == "shlex.py"  # others stay

            # ...until indexed again
            again = await ask(session, "index", {"paths": ["textwrap.py"]})
            assert again["parsed"] == 1
            assert (await ask(session, "get_symbol", {"name": "textwrap.dedent"}))["path"] == "textwrap.py"
            full = await ask(session, "index")
            assert full["parsed"] == dropped["invalidated"] - 1  # the json files, found new by the walk
            assert (await ask(session, "get_symbol", {"name": "json.decoder.JSONDecoder"}))["path"] == "json/decoder.py"

            # "." is the whole root, as for index
            everything = await ask(session, "invalidate", {"paths": ["."]})
            assert everything["invalidated"] == before["files"] and "not_indexed" not in everything, everything
            assert (await ask(session, "stats"))["files"] == 0


async def test_clear_keeps_memories_and_notes_unless_asked(tree: Path, cache_dir: Path) -> None:
    async with stdio_client(serve(tree, cache_dir)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            indexed = await ask(session, "index")
            await ask(session, "remember", {"symbol": "shlex.split", "reason": "how arguments are split"})
            await ask(session, "notes", {"action": "set", "heading": "ADR-001: split with shlex", "text": "Because."})
            notes = tree / ".codecairn" / "adr.md"
            assert notes.exists()

            cleared = await ask(session, "clear")
            assert cleared["cleared"] is True and cleared["files"] == indexed["files"] and cleared["memories_kept"] == 1
            stats = await ask(session, "stats")
            assert stats["files"] == 0 and stats["symbols"] == 0 and stats["memories"] == 1
            assert stats["generation"] > indexed["generation"]
            assert (await ask(session, "find_symbols", {"name": "split"}))["results"] == {}
            recalled = await ask(session, "recall", {"symbol": "shlex.split"})
            assert [m["reason"] for m in recalled["memories"]] == ["how arguments are split"]
            assert notes.exists()

            rebuilt = await ask(session, "index")
            assert rebuilt["parsed"] == indexed["files"]
            assert (await ask(session, "get_symbol", {"name": "shlex.split"}))["path"] == "shlex.py"

            everything = await ask(session, "clear", {"include_memories": True})
            assert everything["memories_forgotten"] == 1 and everything["notes_deleted"] == ".codecairn/adr.md"
            assert not notes.exists() and (tree / "shlex.py").exists()
            assert (await ask(session, "recall", {"symbol": "shlex.split"}))["memories"] == []
            assert (await ask(session, "stats"))["memories"] == 0
