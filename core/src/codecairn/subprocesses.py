"""The only way codecairn runs other programs: an allowlist (ripgrep, git), an argument vector
(never a shell), stdin closed, a time limit, and a register of the children that are running.

A child is killed when the call that started it ends early — cancelled, timed out, or done with
what it wanted (a search that has its 100 matches) — and every child still running is killed
when the server exits, whatever ended it: SIGTERM, SIGINT, stdin closed (``kill_all``, called by
the server on its way out and registered with ``atexit``). Only SIGKILL of the server itself
cannot be handled; its children then die on their next write to the closed pipe.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import select
import shutil
import signal
import subprocess
import sysconfig
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path

# Program name -> where to look first. ripgrep comes from PyPI (the `ripgrep` wheel installs `rg`
# beside this interpreter's scripts), so the one the project pinned wins over whatever is on PATH.
ALLOWED_PROGRAMS = ("rg", "git")
STDERR_KEPT_BYTES = 4096  # of a child's stderr, for the error message; the rest is drained unread
KILL_WAIT_SECONDS = 5.0


class ProgramUnavailable(Exception):
    """The program is not installed, could not start, failed, or took longer than allowed."""


@dataclass(frozen=True)
class Finished:
    returncode: int
    stdout: bytes
    stderr: bytes


def program(name: str) -> str:
    """The executable of an allowlisted program; raises ProgramUnavailable when it is not installed."""
    if name not in ALLOWED_PROGRAMS:
        raise ValueError(f"{name!r} is not an allowed program (allowed: {', '.join(ALLOWED_PROGRAMS)})")
    found = _found.get(name)
    if found is None:
        found = shutil.which(name, path=sysconfig.get_path("scripts")) or shutil.which(name)
        if found is None:
            raise ProgramUnavailable(f"{name} is not installed")
        _found[name] = found
    return found


_found: dict[str, str] = {}
_children: set[asyncio.subprocess.Process | subprocess.Popen] = set()


def running_children() -> list[int]:
    """Process ids of the children running now (for tests and logs)."""
    return [p.pid for p in _children if p.returncode is None]


def kill_all() -> int:
    """Kill every child still running; returns how many. Synchronous: safe at exit and in a signal
    handler's aftermath, with or without an event loop."""
    killed = 0
    for proc in list(_children):
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError, OSError):
                os.kill(proc.pid, signal.SIGKILL)
                killed += 1
    return killed


atexit.register(kill_all)


@contextlib.asynccontextmanager
async def started(
    name: str, args: list[str], cwd: str | Path, env: Mapping[str, str] | None = None
) -> AsyncIterator[asyncio.subprocess.Process]:
    """``name ARGS`` running in ``cwd`` with stdout piped to the caller; killed (and reaped) when
    the block is left, however it is left. stderr is drained in the background so the child never
    blocks on it; its first bytes are ``proc.stderr_head`` (set once the child ends)."""
    exe = program(name)
    try:
        proc = await asyncio.create_subprocess_exec(
            exe,
            *args,
            cwd=str(cwd),
            env=dict(env) if env is not None else None,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
    except OSError as exc:
        raise ProgramUnavailable(f"{name} could not start: {exc.strerror or exc}") from None
    _children.add(proc)
    head = bytearray()

    async def drain_stderr() -> None:
        assert proc.stderr is not None
        while chunk := await proc.stderr.read(65536):
            if len(head) < STDERR_KEPT_BYTES:
                head.extend(chunk[: STDERR_KEPT_BYTES - len(head)])

    drainer = asyncio.create_task(drain_stderr())
    try:
        yield proc
    finally:
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
        # Reaped even when the caller was cancelled: no zombie, no child left behind.
        await _shielded(_reap(proc, drainer))
        proc.stderr_head = bytes(head)  # type: ignore[attr-defined]
        _children.discard(proc)


async def _reap(proc: asyncio.subprocess.Process, drainer: asyncio.Task) -> None:
    try:
        await asyncio.wait_for(proc.wait(), KILL_WAIT_SECONDS)
    except TimeoutError:
        return
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await asyncio.wait_for(drainer, KILL_WAIT_SECONDS)


async def _shielded(coro) -> None:
    task = asyncio.ensure_future(coro)
    try:
        await asyncio.shield(task)
    except asyncio.CancelledError:
        await task  # finish the clean-up, then let the cancellation go on
        raise


async def run(
    name: str, args: list[str], cwd: str | Path, timeout: float, env: Mapping[str, str] | None = None
) -> Finished:
    """Run to completion within ``timeout`` seconds (killed after it: ProgramUnavailable)."""
    async with started(name, args, cwd, env) as proc:
        assert proc.stdout is not None
        try:
            async with asyncio.timeout(timeout):
                out = await proc.stdout.read()
                code = await proc.wait()
        except TimeoutError:
            raise ProgramUnavailable(f"{name} {args[:1]} took longer than {timeout:g}s and was stopped") from None
    return Finished(code, out, getattr(proc, "stderr_head", b""))


def read_blocking(name: str, args: list[str], cwd: str | Path, timeout: float, max_bytes: int) -> bytes:
    """For a thread without an event loop (the metrics writer): ``name ARGS``'s stdout, up to
    ``max_bytes``, within ``timeout`` seconds (ProgramUnavailable after it). An event loop of its
    own in that thread would reap children behind the server loop's child watcher ("Unknown child
    process pid"), so this is plain ``subprocess``; registered like the others, killed at exit."""
    exe = program(name)
    try:
        proc = subprocess.Popen(
            [exe, *args], cwd=str(cwd), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
    except OSError as exc:
        raise ProgramUnavailable(f"{name} could not start: {exc.strerror or exc}") from None
    _children.add(proc)
    assert proc.stdout is not None
    out = bytearray()
    try:
        deadline = time.monotonic() + timeout
        while len(out) < max_bytes:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ProgramUnavailable(f"{name} {args[:1]} took longer than {timeout:g}s and was stopped")
            ready, _, _ = select.select([proc.stdout], [], [], remaining)
            if ready:
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    break
                out.extend(chunk)
    finally:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(KILL_WAIT_SECONDS)
        proc.stdout.close()
        _children.discard(proc)
    return bytes(out[:max_bytes])
