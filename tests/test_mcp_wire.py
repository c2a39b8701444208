"""The raw wire, as any client might send it: a malformed line gets a JSON-RPC parse error,
bad params get -32602, and the server keeps answering; stdout carries nothing but protocol."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rawwire import INITIALIZE, INITIALIZED, RawServer, tool_answer, tool_call

QUIET = ("--no-index", "--no-watch", "--no-embed")


@pytest.mark.parametrize("stdin", ["pipe", "file"])  # the event loop's pipes; the SDK's threads
def test_malformed_messages_get_errors_and_the_session_continues(
    stdlib_part: Path, cache_dir: Path, tmp_path: Path, stdin: str
) -> None:
    lines = [
        "this is not json",
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "0"},
                },
            }
        ),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "ping"}),
        json.dumps(
            {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "find_symbols", "arguments": "oops"}}
        ),
        json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "stats", "arguments": {}}}),
    ]
    requests = tmp_path / "requests.jsonl"
    requests.write_text("\n".join(lines) + "\n")
    with requests.open() as source:
        proc = subprocess.Popen(
            [sys.executable, "-m", "codecairn.cli", "serve", str(stdlib_part), "--no-index"],
            stdin=subprocess.PIPE if stdin == "pipe" else source,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache_dir)},
        )
        # Input ends right after the last request: every request is still answered, then the
        # server exits.
        out, _ = proc.communicate(requests.read_text() if stdin == "pipe" else None, timeout=120)
    replies = {}
    for line in out.splitlines():
        msg = json.loads(line)  # every stdout line is JSON-RPC
        replies[msg.get("id")] = msg
    assert replies[None]["error"]["code"] == -32700
    assert replies[1]["result"]["serverInfo"]["name"] == "codecairn"
    assert replies[2]["result"] == {}
    assert replies[3]["error"]["code"] == -32602
    stats = json.loads(replies[4]["result"]["content"][0]["text"])
    assert stats["files"] == 0 and "generation" in stats
    assert proc.returncode == 0, "the server exits cleanly when stdin closes"


def test_a_client_that_stops_reading_ends_the_session_cleanly(stdlib_part: Path, cache_dir: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "codecairn.cli", "serve", str(stdlib_part), "--no-index", "--no-watch", "--no-embed"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache_dir)},
    )
    assert proc.stdin and proc.stdout and proc.stderr

    def send(message: dict) -> None:
        proc.stdin.write(json.dumps(message).encode() + b"\n")
        proc.stdin.flush()

    send(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        }
    )
    assert json.loads(proc.stdout.readline())["id"] == 1
    proc.stdout.close()  # the client goes away without closing its side of stdin
    # Requests keep coming; the server's first answer that cannot be written must end the session.
    deadline = time.monotonic() + 60
    pings = itertools.count(2)
    try:
        while proc.poll() is None:
            assert time.monotonic() < deadline, "the server kept serving a client that stopped reading"
            send({"jsonrpc": "2.0", "id": next(pings), "method": "ping"})
            try:
                proc.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                pass
    except BrokenPipeError:
        pass  # the server already left
    assert proc.wait(timeout=30) == 0
    err = proc.stderr.read().decode()
    assert "closed the server's output" in err and "Traceback" not in err


def test_a_message_over_the_size_limit_is_refused_and_the_next_one_is_answered(
    stdlib_part: Path, cache_dir: Path
) -> None:
    huge = json.dumps({"jsonrpc": "2.0", "id": 9, "method": "ping", "params": {"padding": "x" * 20000}})
    lines = [
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "0"},
                },
            }
        ),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        huge,
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "ping"}),  # sent in the same write as the huge one
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "codecairn.cli", "serve", str(stdlib_part), "--no-index", "--no-watch", "--no-embed"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache_dir), "CODECAIRN_MAX_MESSAGE_BYTES": "4096"},
    )
    replies = {r.get("id"): r for r in map(json.loads, proc.stdout.splitlines())}
    # The long line is never parsed, but its id is read off its first bytes: the caller's request
    # fails at once (instead of waiting for an answer that never comes).
    assert sorted(replies, key=str) == sorted([1, 9, 2], key=str)
    assert replies[9]["error"]["code"] == -32600 and "exceeds 4096 bytes" in replies[9]["error"]["message"]
    assert replies[2]["result"] == {}
    assert proc.returncode == 0


@pytest.mark.parametrize("stdin", ["pipe", "file"])
def test_a_request_with_an_invalid_id_is_answered_invalid_request(
    stdlib_part: Path, cache_dir: Path, tmp_path: Path, stdin: str
) -> None:
    bad_ids = [None, {"a": 1}, [1], 1.5, True]
    lines = [
        json.dumps(INITIALIZE),
        json.dumps(INITIALIZED),
        *(json.dumps({"jsonrpc": "2.0", "id": bad, "method": "ping"}) for bad in bad_ids),
        json.dumps({"jsonrpc": "2.0", "id": 7, "method": 42}),  # JSON, but no request: its id is kept
        json.dumps({"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}),  # a notification: no answer
        json.dumps({"jsonrpc": "2.0", "id": 8, "method": "ping"}),
    ]
    requests = tmp_path / "requests.jsonl"
    requests.write_text("\n".join(lines) + "\n")
    with requests.open() as source:
        proc = subprocess.run(
            [sys.executable, "-m", "codecairn.cli", "serve", str(stdlib_part), *QUIET],
            stdin=source if stdin == "file" else None,
            input=None if stdin == "file" else requests.read_text(),
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache_dir)},
        )
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    # Refusals are written as each line is read, ahead of answers still being worked on.
    assert sorted(str(r.get("id")) for r in replies) == sorted(["init", *["None"] * len(bad_ids), "7", "8"])
    refused = [r for r in replies if r.get("id") in (None, 7)]
    assert [r["error"]["code"] for r in refused] == [-32600] * (len(bad_ids) + 1)
    assert next(r for r in replies if r.get("id") == 8)["result"] == {}
    assert proc.returncode == 0


def test_a_call_before_initialize_says_the_session_is_not_initialized(stdlib_part: Path, cache_dir: Path) -> None:
    lines = [
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "stats", "arguments": {}}}),
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        json.dumps({"jsonrpc": "2.0", "id": 3, "method": "ping"}),  # allowed before initialize
        json.dumps(INITIALIZE),
        json.dumps(INITIALIZED),
        json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "stats", "arguments": {}}}),
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "codecairn.cli", "serve", str(stdlib_part), *QUIET],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache_dir)},
    )
    replies = {r.get("id"): r for r in map(json.loads, proc.stdout.splitlines())}
    for early in (1, 2):
        error = replies[early]["error"]
        assert error["code"] == -32602
        assert "not initialized" in error["message"] and "initialize" in error["data"]
    assert replies[3]["result"] == {}
    assert "files" in json.loads(replies[4]["result"]["content"][0]["text"])


def test_errors_during_the_first_index_say_indexing_and_generation(stdlib_part: Path, cache_dir: Path) -> None:
    failing = {
        "missing": ("get_symbol", {"name": "NoSuchThingAnywhere"}),
        "language": ("find_symbols", {"language": "cobol"}),
        "schema": ("find_symbols", {"limit": "many"}),
    }
    with RawServer(stdlib_part, cache_dir, *QUIET) as server:
        server.initialize()
        # The index call takes the index lock before the calls after it are read: they are all
        # answered while it runs.
        server.send(
            tool_call("index", "index", {}), *(tool_call(key, tool, args) for key, (tool, args) in failing.items())
        )
        during = {key: tool_answer(server.reply(key)) for key in failing}
        assert tool_answer(server.reply("index"))["files"] > 50
        assert server.order()[-1] == "index", "the errors came while the index was being built"
        for key, answer in during.items():
            assert answer["_error"] and answer["indexing"] is True and answer["generation"] == 0, (key, answer)
            assert "not_found may only be not yet" in answer["first_index"], "an early miss is told apart"

        server.send(tool_call("after", "get_symbol", {"name": "NoSuchThingAnywhere"}))
        after = tool_answer(server.reply("after"))
        assert after["_error"] and after["generation"] >= 1 and "indexing" not in after and "first_index" not in after
        server.close()
