"""Measuring helpers for the benchmarks: corpora by tier, whole-process-tree peak RSS, a timed
subprocess, and an MCP client living in a background thread so a synchronous pytest-benchmark
can time single tool calls through the real server."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from codecairn.testing.corpora import corpus_path

TIER = os.environ.get("CODECAIRN_BENCH_TIER", "small")


def corpus(small: str, large: str | None = None) -> Path:
    """The corpus for this tier; a missing one fails with the command that fetches it."""
    if TIER == "large" and large:
        return corpus_path(large, "large")
    return corpus_path(small, "small")


def _tree_rss_kb(root_pid: int) -> int:
    """RSS of a process and all its descendants (the parse workers), from /proc."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            ppid = int(fields[1])
            with open(f"/proc/{entry}/statm") as fh:
                pages = int(fh.read().split()[1])
        except (OSError, IndexError, ValueError):
            continue
        pid = int(entry)
        children.setdefault(ppid, []).append(pid)
        rss[pid] = pages * (os.sysconf("SC_PAGE_SIZE") // 1024)
    total, stack = 0, [root_pid]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, ()))
    return total


def run_measured(cmd: list[str], env: dict[str, str] | None = None, interval: float = 0.02) -> dict[str, Any]:
    """Run a command; return wall seconds, peak RSS of its whole process tree (MB), stdout."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})}
    )
    peak = 0
    while proc.poll() is None:
        peak = max(peak, _tree_rss_kb(proc.pid))
        time.sleep(interval)
    out, err = proc.communicate()
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        raise RuntimeError(f"{cmd[0]} failed ({proc.returncode}): {err[-2000:]}")
    return {"seconds": seconds, "peak_rss_mb": peak / 1024, "stdout": out, "stderr": err}


def codecairn_cmd(*args: str) -> list[str]:
    """What a user types: the installed `codecairn` script of this environment (`python -m
    codecairn.cli` would compile cli.py afresh on every run: `__main__` keeps no bytecode)."""
    script = Path(sys.executable).parent / "codecairn"
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "codecairn.cli", *args]


def cold_cache(path: Path) -> Path:
    """A cache directory for a cold index: no index database, but the grammar packs' queries
    already checked. That check (≈ 1 s with the five bundled packs installed) is paid once per
    cache directory, whatever is indexed — a user's first command pays it, not every repository's
    first index — so a fresh directory per timed run would add it to every figure."""
    if not (path / "checked-queries").is_dir():
        subprocess.run(codecairn_cmd("--cache-dir", str(path), "plugins"), check=True, capture_output=True)
    shutil.rmtree(path / "workspaces", ignore_errors=True)
    return path


class McpClientThread:
    """A real MCP client session (stdio, the official SDK) on an event loop in a background thread."""

    def __init__(self, root: Path, cache: Path, *serve_args: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self.session = None
        self._task = asyncio.run_coroutine_threadsafe(self._run(root, cache, serve_args), self.loop)
        if not self._ready.wait(120):
            raise RuntimeError("the MCP server did not start")

    async def _run(self, root: Path, cache: Path, serve_args: tuple[str, ...]) -> None:
        from mcp import ClientSession, StdioServerParameters, stdio_client

        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "codecairn.cli", "serve", str(root), *serve_args],
            env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache)},
        )
        self._stop = asyncio.Event()
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                self.session = session
                self._ready.set()
                await self._stop.wait()

    def call(self, tool: str, args: dict[str, Any] | None = None, timeout: float = 600) -> dict[str, Any]:
        async def go() -> dict[str, Any]:
            result = await self.session.call_tool(tool, args or {})
            # Tools whose answer is code (read_symbol, read...) send it as text blocks; fields structured.
            payload = result.structured_content or json.loads(result.content[0].text)
            if result.is_error:
                raise RuntimeError(payload)
            return payload

        return asyncio.run_coroutine_threadsafe(go(), self.loop).result(timeout)

    def close(self) -> None:
        if self._stop is not None:
            self.loop.call_soon_threadsafe(self._stop.set)
        try:
            self._task.result(30)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)


class RawMcpClient:
    """The server's own latency: newline-delimited JSON-RPC over the pipes, no client library.
    (The SDK client adds its own validation and a thread hop per call: its figures are the
    server's plus the client's.)"""

    def __init__(self, root: Path, cache: Path, *serve_args: str, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "codecairn.cli", "serve", str(root), *serve_args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache), **(env or {})},
        )
        self._id = 0
        self.request(
            "initialize",
            {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "benchmark", "version": "0"}},
        )
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self._id += 1
        self._send({"jsonrpc": "2.0", "id": self._id, "method": method, **({"params": params} if params else {})})
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the MCP server closed its output")
            message = json.loads(line)
            if message.get("id") == self._id:
                if "error" in message:
                    raise RuntimeError(message["error"])
                return message["result"]

    def call(self, tool: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        result = self.request("tools/call", {"name": tool, "arguments": args or {}})
        # Tools whose answer is code (read_symbol, read...) send it as text blocks; fields structured.
        payload = result.get("structuredContent") or json.loads(result["content"][0]["text"])
        if result.get("isError"):
            raise RuntimeError(payload)
        return payload

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(30)


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def report(title: str, figures: dict[str, Any]) -> None:
    print(f"\n[{title}] " + json.dumps(figures, default=lambda v: round(v, 3) if isinstance(v, float) else str(v)))


__all__ = ["TIER", "corpus", "run_measured", "codecairn_cmd", "McpClientThread", "percentile", "report", "statistics"]
