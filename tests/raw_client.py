"""A bare JSON-RPC client for `codecairn serve`, over the process's own pipes: each request waits a
bounded time for its answer, and closing waits a bounded time for the process to end — so a test
can tell "answered with an error" from "never answered" and "exited" from "hangs"."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path


class RawServer:
    def __init__(self, args: list[str], env: dict[str, str], prefix: list[str] | None = None) -> None:
        self.proc = subprocess.Popen(
            [*(prefix or []), sys.executable, "-m", "codecairn.cli", "serve", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, **env},
        )
        self._replies: queue.Queue[dict] = queue.Queue()
        self._next_id = 0
        self._stderr: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self._stderr.extend(self.proc.stderr), daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self._replies.put(json.loads(line))

    def send(self, message: dict) -> None:
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict | None = None, timeout: float = 60) -> dict:
        """The answer to one request (result or error); fails the test after ``timeout`` seconds."""
        self._next_id += 1
        self.send({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params or {}})
        while True:
            try:
                reply = self._replies.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(
                    f"no answer to {method} within {timeout}s; stderr: {self.stderr[-2000:]}"
                ) from None
            if reply.get("id") == self._next_id:
                return reply

    def initialize(self) -> dict:
        reply = self.request(
            "initialize",
            {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return reply

    def call(self, tool: str, arguments: dict | None = None, timeout: float = 120) -> tuple[bool, dict]:
        """(is_error, payload) of one tool call."""
        reply = self.request("tools/call", {"name": tool, "arguments": arguments or {}}, timeout)
        assert "result" in reply, reply
        result = reply["result"]
        structured = result.get("structuredContent")  # text blocks (read_symbol...) carry their fields there
        return bool(result.get("isError")), structured if structured is not None else json.loads(
            result["content"][0]["text"]
        )

    def close(self, timeout: float = 30) -> int:
        """End of input: the server must exit by itself within ``timeout`` seconds."""
        self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise AssertionError(f"the server did not exit within {timeout}s of its input ending") from None

    @property
    def stderr(self) -> str:
        return b"".join(self._stderr).decode(errors="replace")


def serve(
    root: Path, cache: Path, *flags: str, prefix: list[str] | None = None, env: dict[str, str] | None = None
) -> RawServer:
    return RawServer([str(root), *flags], {"CODECAIRN_CACHE_DIR": str(cache), **(env or {})}, prefix)
