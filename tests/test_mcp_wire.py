"""The raw wire, as any client might send it: a malformed line gets a JSON-RPC parse error,
bad params get -32602, and the server keeps answering; stdout carries nothing but protocol."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path


def test_malformed_messages_get_errors_and_the_session_continues(stdlib_part: Path, cache_dir: Path) -> None:
    lines = [
        "this is not json",
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "ping"}),
        json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "find_symbols", "arguments": "oops"}}),
        json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "stats", "arguments": {}}}),
    ]
    proc = subprocess.Popen([sys.executable, "-m", "codecairn.cli", "serve", str(stdlib_part), "--no-index"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache_dir)})
    assert proc.stdin and proc.stdout
    proc.stdin.write("\n".join(lines) + "\n")
    proc.stdin.flush()
    replies: dict = {}
    deadline = time.monotonic() + 60
    while len(replies) < 5 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        msg = json.loads(line)  # every stdout line is JSON-RPC
        replies[msg.get("id")] = msg
    proc.stdin.close()
    proc.wait(timeout=30)
    assert replies[None]["error"]["code"] == -32700
    assert replies[1]["result"]["serverInfo"]["name"] == "codecairn"
    assert replies[2]["result"] == {}
    assert replies[3]["error"]["code"] == -32602
    stats = json.loads(replies[4]["result"]["content"][0]["text"])
    assert stats["files"] == 0 and "generation" in stats
    assert proc.returncode == 0, "the server exits cleanly when stdin closes"
