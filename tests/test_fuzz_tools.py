"""Fuzzing every tool through the real server (tests/fuzzing.py): a few hundred cases in CI;
benchmarks/test_fuzz_tools.py runs ten thousand."""

from __future__ import annotations

import os
from pathlib import Path

from fuzzing import fuzz_every_tool
from rawwire import RawServer, tool_answer, tool_call
from realcode import copy_stdlib

CASES = int(os.environ.get("CODECAIRN_FUZZ_CASES", 300))


def test_fuzzed_calls_get_valid_answers_or_documented_errors(tmp_path: Path, cache_dir: Path) -> None:
    root = copy_stdlib(tmp_path / "root", ("json", "textwrap", "shlex"))
    seen = fuzz_every_tool(root, cache_dir, CASES)
    assert sum(seen.values()) == CASES
    assert seen.get("answer", 0) > CASES // 20 and seen.get("bad_argument", 0) > CASES // 10, seen


def test_hostile_lines_on_the_wire_get_errors_and_the_session_continues(tmp_path: Path, cache_dir: Path) -> None:
    """What no schema-driven generator sends: arguments nested ten thousand deep, bytes that are
    not UTF-8 inside a string, a request whose params are a string."""
    (tmp_path / "root").mkdir()
    root = copy_stdlib(tmp_path / "root", ("textwrap",))
    deep = "[" * 10_000 + "]" * 10_000
    lines = [
        '{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"find_symbols","arguments":{"name":'
        + deep
        + "}}}",
        '{"jsonrpc":"2.0","id":"params","method":"tools/call","params":"find_symbols"}',
    ]
    with RawServer(root, cache_dir, "--no-index", "--no-watch", "--no-embed") as server:
        server.initialize()
        server.send(tool_call("index", "index", {}))
        server.reply("index")
        server.send(*lines)
        assert server.proc.stdin is not None  # bytes that are no UTF-8, inside a string
        server.proc.stdin.write(
            b'{"jsonrpc":"2.0","id":"bytes","method":"tools/call","params":{"name":"find_symbols","arguments":'
            b'{"name":"wrap\xff\xfe"}}}\n'
        )
        server.proc.stdin.flush()
        assert "error" in server.reply("params")
        # Too deep to read (it once killed the server): a parse error, as for any unreadable line.
        assert server.reply(None)["error"]["code"] == -32700
        # Not UTF-8: read with replacement characters, answered like any other name.
        assert "results" in tool_answer(server.reply("bytes"))
        server.send(tool_call("after", "find_symbols", {"name": "TextWrapper"}))
        assert "textwrap.py" in tool_answer(server.reply("after"))["results"]
        server.close()
