"""An agent's session, for real: the official MCP client starts `codecairn serve` over stdio on a
copy of part of the standard library and calls every tool."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from pathlib import Path

import anyio
import pytest
from codecairn.index.pipeline import BATCH_FILES
from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client
from realcode import copy_most_of_stdlib, python_edges, until

pytestmark = pytest.mark.anyio

EXPECTED_TOOLS = {"index", "find_symbols", "get_symbol", "read_symbol", "file_outline", "stats"}


def server_params(root: Path, cache: Path, *extra: str) -> StdioServerParameters:
    env = {**os.environ, "CODECAIRN_CACHE_DIR": str(cache)}
    return StdioServerParameters(
        command=sys.executable, args=["-m", "codecairn.cli", "serve", str(root), *extra], env=env
    )


async def call(session: ClientSession, tool: str, args: dict | None = None, **kw) -> dict:
    result = await session.call_tool(tool, args or {}, **kw)
    # read_symbol's source comes as a text block after a one-line header; its fields are structured.
    payload = result.structured_content or json.loads(result.content[0].text)
    if result.is_error:
        return {"_error": True, **payload}
    return payload


async def test_an_agent_explores_the_standard_library(stdlib_part: Path, cache_dir: Path) -> None:
    async with stdio_client(server_params(stdlib_part, cache_dir, "--no-index")) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            assert init.server_info.name == "codecairn"
            tools = {t.name for t in (await session.list_tools()).tools}
            assert EXPECTED_TOOLS <= tools

            seen: list[tuple[float, float | None]] = []

            async def on_progress(done: float, total: float | None, message: str | None) -> None:
                seen.append((done, total))

            summary = await call(session, "index", progress_callback=on_progress)
            assert summary["parsed"] == summary["files"] > 50
            assert seen and seen[-1][0] == summary["files"], "progress reached the file count"

            found = await call(session, "find_symbols", {"name": "jsondecoder"})
            assert list(found["results"]) == ["json/decoder.py"]
            assert [r["name"] for r in found["results"]["json/decoder.py"]] == ["JSONDecoder"]
            assert "complete" not in found and "generation" in found

            cls = await call(session, "get_symbol", {"name": "json.decoder.JSONDecoder"})
            members = {name for by_name in cls["members"].values() for name in by_name}
            assert {"decode", "raw_decode", "__init__"} <= members
            assert cls["doc"].startswith("Simple JSON")

            decode = await call(session, "get_symbol", {"name": "JSONDecoder.decode"})
            assert "json.decoder.JSONDecoder.raw_decode" in python_edges(decode["callees"])  # self.raw_decode(...)
            # through `_default_decoder = JSONDecoder()` ... .decode
            assert "json.loads" in python_edges(decode["callers"])

            sub = await call(session, "get_symbol", {"name": "JSONDecodeError"})
            assert sub["bases"] == {"external": ["builtins.ValueError"]}  # a built-in: outside the index

            parser = await call(session, "get_symbol", {"name": "argparse.ArgumentParser"})
            assert set(python_edges(parser["bases"])) >= {"argparse._AttributeHolder", "argparse._ActionsContainer"}

            holder = await call(session, "get_symbol", {"name": "_AttributeHolder"})
            assert "argparse.ArgumentParser" in python_edges(holder["subclasses"])

            body = await call(session, "read_symbol", {"name": "json.dumps"})
            assert body["source"].startswith("def dumps(")
            assert "stale" not in body

            outline = await call(session, "file_outline", {"path": "json/__init__.py"})
            exported = {name for e in outline["exports"] for name in e["names"]}
            assert exported >= {"dump", "dumps", "load", "loads", "JSONDecoder"}
            assert "JSONDecoder" in outline["imports"][".decoder"]
            assert {"dump", "dumps", "load", "loads"} <= {
                f["signature"].split("(")[0][4:] for f in outline["symbols"]["function"]
            }

            stats = await call(session, "stats")
            assert stats["files"] == summary["files"] and stats["symbols"] > 1000
            assert stats["edges"]["calls"] > stats["unresolved_calls"] > 0
            assert stats["languages"] == {"python": summary["files"]}


async def test_bad_requests_get_clear_errors_and_change_nothing(
    stdlib_part: Path, cache_dir: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "secret.py"
    outside.write_text("SECRET = 1\n")
    (stdlib_part / "escape.py").symlink_to(outside)
    async with stdio_client(server_params(stdlib_part, cache_dir)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await call(session, "index")
            before = await call(session, "stats")

            with pytest.raises(MCPError) as unknown:
                await session.call_tool("no_such_tool", {})
            assert "no_such_tool" in unknown.value.error.message

            wrong_type = await call(session, "find_symbols", {"name": 42})
            assert wrong_type["_error"] and wrong_type["error"] == "bad_argument" and "name" in wrong_type["message"]

            extra = await call(session, "get_symbol", {"name": "x", "bogus": True})
            assert extra["error"] == "bad_argument"

            for path in ("../secret.py", str(outside), "escape.py", "json/\x00x.py"):
                answer = await call(session, "file_outline", {"path": path})
                assert answer["_error"], path
                assert answer["error"] in ("outside_workspace", "bad_argument"), answer

            missing = await call(session, "get_symbol", {"name": "NoSuchThingAnywhere"})
            assert missing["error"] == "not_found"

            after = await call(session, "stats")
            assert {k: after[k] for k in ("files", "symbols", "edges", "generation")} == {
                k: before[k] for k in ("files", "symbols", "edges", "generation")
            }


async def test_cancelling_an_index_stops_it_and_the_next_run_completes(tmp_path: Path, cache_dir: Path) -> None:
    root = tmp_path / "big"
    root.mkdir()
    copy_most_of_stdlib(root)
    async with stdio_client(server_params(root, cache_dir, "--no-index")) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            # Cancel once progress says the first batch is stored (the pipeline writes a batch
            # before it reports the files that filled it), not after a fixed time: how far a
            # machine gets in a second depends on the machine.
            first_batch = BATCH_FILES
            total = sum(1 for _ in root.rglob("*.py"))
            progress: list[float] = []

            with anyio.move_on_after(120) as scope:

                async def on_progress(done: float, total_: float | None, message: str | None) -> None:
                    progress.append(done)
                    if message == "parsing" and done >= first_batch:
                        scope.cancel()

                await session.call_tool("index", {}, progress_callback=on_progress)
            assert scope.cancelled_caught, (progress, total)
            # The server is alive and answers; the batch being written when the cancel arrived is
            # finished (shielded): wait until no run is going and the count holds still.
            seen = [await call(session, "stats")]

            async def settled() -> bool:
                seen.append(await call(session, "stats"))
                return seen[-1]["files"] == seen[-2]["files"] and not seen[-1].get("indexing")

            await until(settled, "the cancelled run's last batch is written", interval=0.2)
            partial = seen[-1]
            assert first_batch <= partial["files"] < total

            done = await call(session, "index")
            assert done["files"] == total
            assert done["unchanged"] == partial["files"], "work stored before the cancel was kept"
            assert done["parsed"] == total - partial["files"]

    db = next(cache_dir.rglob("*.db"))
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert con.execute("SELECT COUNT(*) FROM files").fetchone()[0] == total
        orphans = con.execute("SELECT COUNT(*) FROM symbols WHERE file_id NOT IN (SELECT id FROM files)").fetchone()[0]
        assert orphans == 0


async def test_tools_that_take_a_while_report_progress_while_they_work(stdlib_part: Path, cache_dir: Path) -> None:
    # The server's heartbeat, made frequent: what a client waiting on a slow call on a large tree
    # sees each second (CODECAIRN_PROGRESS_EVERY's default). The stdlib part alone answers in a
    # few milliseconds, too quick to hear from: thousands of notes beside it make the text search
    # walk long enough for several beats on any machine.
    notes_dir = stdlib_part / "notes"
    notes_dir.mkdir()
    for n in range(3000):
        (notes_dir / f"note{n}.txt").write_text(f"note {n}: nothing to see here\n" * 20)
    params = server_params(stdlib_part, cache_dir, "--no-index", "--no-watch", "--no-embed")
    params.env = {**(params.env or {}), "CODECAIRN_PROGRESS_EVERY": "0.005"}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await call(session, "index")
            heard: dict[str, list[tuple[float, float | None, str | None]]] = {}
            calls = {
                "architecture": {},
                "impact": {"symbols": ["json.decoder.JSONDecoder.raw_decode"]},
                "search_text": {"pattern": r"note \d+: something"},  # in no file: every note is read
            }
            for tool, args in calls.items():

                async def on_progress(done: float, total: float | None, message: str | None, tool: str = tool) -> None:
                    heard.setdefault(tool, []).append((done, total, message))

                answer = await call(session, tool, args, progress_callback=on_progress)
                assert "_error" not in answer, (tool, answer)
            quiet = await session.call_tool("architecture", {})  # no progressToken: nothing is sent for it
            assert not quiet.is_error
    assert heard.get("search_text"), "the search that read every note reported no progress"
    for tool, notes in heard.items():
        values = [done for done, _, _ in notes]
        assert values == sorted(set(values)), f"{tool}: progress must grow with each notification"
        assert all(message and message.startswith(f"{tool}: working") for _, _, message in notes)
