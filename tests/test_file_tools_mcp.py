"""The file tools through the official MCP client over stdio, on a copy of part of the standard
library: what an agent sees (text blocks for code, structured fields beside them, true
annotations), edits the index follows before answering, the client's own roots (roots/list,
changed mid-session), and no ripgrep child outliving the server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp import types as t
from rawwire import INITIALIZE, INITIALIZED, tool_call
from realcode import until

pytestmark = pytest.mark.anyio

FILE_TOOLS = {
    "read": "r",
    "read_snippets": "r",
    "file_hash": "r",
    "validate_json": "r",
    "search_text": "r",
    "find_files": "r",
    "list_files": "r",
    "project_map": "r",
    "compare_directories": "r",
    "compare_symbols": "r",
    "history": "r",
    "edit": "w",
    "edit_symbol": "w",
    "edit_files": "w",
    "undo": "w",
}


def params(root: Path, cache: Path, *extra: str, more_roots: tuple[Path, ...] = ()) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "codecairn.cli", "serve", str(root), *map(str, more_roots), "--no-watch", "--no-embed", *extra],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache)},
    )


async def call(session: ClientSession, tool: str, args: dict) -> t.CallToolResult:
    return await session.call_tool(tool, args)


def fields(result: t.CallToolResult) -> dict:
    """The answer's fields: structuredContent where the text is rendered as blocks, else the JSON text."""
    assert not result.is_error, result.content[0].text
    if result.structured_content is not None:
        return result.structured_content
    return json.loads(result.content[0].text)


async def test_an_agent_reads_searches_and_edits_over_mcp(stdlib_part: Path, cache_dir: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("declared by the client\n")
    named = tmp_path / "named"  # a second root on the command line
    named.mkdir()
    (named / "readme.txt").write_text("named on the command line\n")
    roots = [t.Root(uri=stdlib_part.as_uri())]

    async def list_roots(context) -> t.ListRootsResult:
        return t.ListRootsResult(roots=roots)

    async with stdio_client(params(stdlib_part, cache_dir, "--no-index", more_roots=(named,))) as (read, write):
        async with ClientSession(read, write, list_roots_callback=list_roots) as session:
            await session.initialize()
            listed = {tool.name: tool for tool in (await session.list_tools()).tools}
            for name, kind in FILE_TOOLS.items():
                hints = listed[name].annotations
                assert hints is not None and hints.title, name
                assert hints.read_only_hint is (kind == "r"), name
                assert hints.destructive_hint is (kind == "w"), name
                assert hints.open_world_hint is False, name
            await session.call_tool("index", {})

            # A read: a one-line JSON header, then the text verbatim; every field structured too.
            window = await call(session, "read", {"path": "json/decoder.py", "start_line": 1, "end_line": 3})
            assert window.structured_content is not None
            header, text = window.content[0].text.split("\n", 1)
            assert text == "\n".join((stdlib_part / "json/decoder.py").read_text().split("\n")[:3]) + "\n"
            assert json.loads(header)["sha256"] == fields(window)["sha256"] and "text" not in json.loads(header)
            assert fields(window)["text"] == text

            # read_symbol's source comes the same way, not as an escaped JSON string.
            body = await call(session, "read_symbol", {"name": "json.dumps"})
            header, source = body.content[0].text.split("\n", 1)
            assert source.startswith("def dumps(") and json.loads(header)["qualified_name"] == "json.dumps"

            found = fields(await call(session, "search_text", {"pattern": "def raw_decode", "literal": True}))
            (hit,) = [m for f in found["files"] for m in f["matches"]]
            assert (
                found["files"][0]["path"] == "json/decoder.py"
                and hit["symbol"] == "json.decoder.JSONDecoder.raw_decode"
            )

            quick = fields(await call(session, "find_files", {"query": "jsdeco"}))
            assert quick["files"][0] == "json/decoder.py"

            # An edit, with the hash the read gave; the index follows before the answer.
            sha = fields(window)["sha256"]
            edited = fields(
                await call(
                    session,
                    "edit",
                    {
                        "path": "json/decoder.py",
                        "old_text": "class JSONDecoder(object):",
                        "new_text": "class JSONReader(object):",
                        "expected_hash": sha,
                    },
                )
            )
            assert edited["sha256_before"] == sha and "index" not in edited
            renamed = json.loads((await call(session, "find_symbols", {"name": "JSONReader"})).content[0].text)
            assert [e["name"] for e in renamed["results"]["json/decoder.py"]] == ["JSONReader"]
            again = await call(session, "edit", {"path": "json/decoder.py", "old_text": "x", "new_text": "y",
                                                 "expected_hash": sha})  # fmt: skip
            assert again.is_error and json.loads(again.content[0].text)["error"] == "stale_precondition"
            undone = fields(await call(session, "undo", {}))
            assert [f["sha256_after"] for f in undone["files"]] == [sha], "one shape for one file or several"

            named_read = fields(await call(session, "read", {"path": str(named / "readme.txt")}))
            assert named_read["text"] == "named on the command line\n"

            # A root the client declares later is usable once it says its roots changed.
            outside = await call(session, "read", {"path": str(other / "notes.txt")})
            assert outside.is_error and json.loads(outside.content[0].text)["error"] == "outside_workspace"
            roots.append(t.Root(uri=other.as_uri()))
            await session.send_roots_list_changed()

            async def readable() -> bool:
                return not (await call(session, "read", {"path": str(other / "notes.txt")})).is_error

            await until(readable, "the client's new root is declared")
            got = fields(await call(session, "read", {"path": str(other / "notes.txt")}))
            assert got["text"] == "declared by the client\n" and got["path"] == str(other / "notes.txt")
            roots.pop()
            await session.send_roots_list_changed()

            async def refused_again() -> bool:
                return (await call(session, "read", {"path": str(other / "notes.txt")})).is_error

            await until(refused_again, "a root the client withdrew is no longer usable")


def _children_named(parent: int, name: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1 : stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        if ppid == parent and comm == name:
            found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped by whoever adopted it is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


@pytest.mark.parametrize("ending", ["SIGTERM", "SIGINT", "stdin closed"])
def test_no_ripgrep_child_outlives_the_server(tmp_path: Path, cache_dir: Path, ending: str) -> None:
    timeout = "3" if ending == "stdin closed" else "600"
    root = tmp_path / "proj"
    root.mkdir()
    (root / "a.py").write_text("x = 1\n")
    os.mkfifo(root / "pipe")  # ripgrep reading it blocks until a writer comes: a search that never ends
    proc = subprocess.Popen(
        [sys.executable, "-m", "codecairn.cli", "serve", str(root), "--no-index", "--no-watch", "--no-embed"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        # Closed input: requests already read are still answered (serve < requests.jsonl), so the
        # search runs to its time limit, says so, and the server exits; a signal ends it at once.
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache_dir), "CODECAIRN_SEARCH_TIMEOUT": timeout},
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for message in (INITIALIZE, INITIALIZED, tool_call(1, "search_text", {"pattern": "x", "path": "pipe"})):
            proc.stdin.write(json.dumps(message).encode() + b"\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == "init"
        deadline = time.monotonic() + 60
        while not (children := _children_named(proc.pid, "rg")) and time.monotonic() < deadline:
            time.sleep(0.05)
        (rg,) = children
        if ending == "stdin closed":
            proc.stdin.close()
            answer = json.loads(proc.stdout.readline())
            assert answer["id"] == 1
            assert json.loads(answer["result"]["content"][0]["text"])["limit_reason"] == "timeout"
        else:
            proc.send_signal(getattr(signal, ending))
        proc.wait(timeout=60)
        assert not _alive(rg), f"ripgrep ({rg}) outlived the server ({ending})"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
