"""A raw JSON-RPC client over the real server's stdin/stdout pipes, for what an MCP client
library would never send (bad ids, calls before `initialize`, megabytes of arguments) and for
watching the order in which answers arrive. Replies are read by a thread, kept in arrival order."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": "init",
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def tool_call(request_id: Any, name: str, arguments: Any) -> dict:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }


class RawServer:
    """``codecairn serve`` with pipes for stdin and stdout; ``send`` messages, ``reply`` by id."""

    def __init__(self, root: Path, cache: Path, *args: str, **env: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "codecairn.cli", "serve", str(root), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache), **env},
        )
        self.arrived: list[dict] = []  # every reply and notification, in the order they came
        self.sizes: dict[Any, int] = {}  # reply id -> bytes on the wire
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._stderr = b""
        threading.Thread(target=self._read, daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        self._stderr = self.proc.stderr.read()

    def send(self, *messages: dict | str) -> None:
        """Write the messages in one write, one line each (a str is sent as it is)."""
        assert self.proc.stdin is not None
        data = b"".join((m if isinstance(m, str) else json.dumps(m)).encode() + b"\n" for m in messages)
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def initialize(self) -> dict:
        self.send(INITIALIZE, INITIALIZED)
        return self.reply("init")

    def reply(self, request_id: Any, timeout: float = 120) -> dict:
        """The reply to ``request_id``, waiting for it (and keeping whatever else arrives)."""
        while True:
            for message in self.arrived:
                if "method" not in message and message.get("id") == request_id:
                    return message
            line = self._lines.get(timeout=timeout)
            if line is None:
                raise EOFError(f"the server closed its output before answering {request_id!r}")
            message = json.loads(line)
            if "method" not in message:
                self.sizes[message.get("id")] = len(line)
            self.arrived.append(message)

    def order(self) -> list[Any]:
        """Ids of the replies so far, in arrival order."""
        return [m.get("id") for m in self.arrived if "method" not in m]

    def close(self) -> str:
        """Close stdin, wait for the server to exit; its stderr."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)
        self._stderr_reader.join(timeout=10)
        return self._stderr.decode(errors="replace")

    def __enter__(self) -> RawServer:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)


# Tools whose answers are sent as text blocks: a JSON header line, then this field verbatim
# (structuredContent carries every field beside them).
TEXT_FIELDS = {"read": "text", "read_snippets": "text", "read_symbol": "source", "compare_symbols": "unified_diff"}


def answer_from_blocks(tool: str, result: dict) -> dict:
    """A text-block answer put back together from its blocks, as an agent reading them would."""
    field = TEXT_FIELDS[tool]
    blocks = [c["text"] for c in result["content"]]

    def unblock(block: str) -> dict:
        head, newline, text = block.partition("\n")
        return {**json.loads(head), **({field: text} if newline else {})}

    if tool == "read_snippets":  # the answer's other fields, then one block per snippet
        return {**json.loads(blocks[0]), "snippets": [unblock(b) for b in blocks[1:]]}
    (block,) = blocks
    return unblock(block)


def tool_answer(reply: dict) -> dict:
    """The JSON answer of a tools/call reply, with ``_error`` when the tool failed."""
    result = reply["result"]
    # A tool whose code comes as text blocks (read_symbol, read...) has its fields in structuredContent.
    payload = result.get("structuredContent") or json.loads(result["content"][0]["text"])
    return {"_error": True, **payload} if result.get("isError") else payload
