"""A small process pool over plain pipes: worker processes started with ``subprocess``, each fed
pickled calls on its stdin and answering on its stdout.

Why not ``concurrent.futures.ProcessPoolExecutor``: started safely from a process that already
runs threads (the store's, asyncio's), it needs the forkserver start method, and its queues need
named semaphores, which start multiprocessing's resource tracker. Those are two more Python
processes (≈ 32 MB of the 290 MB a first index of CPython's Lib took, summed over the process
tree) that do nothing for us. Here the workers are the only children; a worker that dies breaks
the pool the same way (``BrokenProcessPool``), and the caller starts a new one.

Calls are queued here and handed out two at a time per worker, so a worker never waits for its
next call, and a slow call does not hold up calls that another worker could take.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from queue import SimpleQueue
from typing import Any

from codecairn.index.heap import give_back_free_memory

PER_WORKER = 2  # calls handed to a worker at once: one running, one waiting in its pipe

# The child's first step: take the parent's import path (plugins may live anywhere on it), then
# serve. Everything after that travels pickled over the same stdin.
_BOOT = (
    "import sys, pickle; sys.path[:] = pickle.load(sys.stdin.buffer); "
    "from codecairn.index.process_pool import serve; serve()"
)


def serve() -> None:
    """A worker's main loop. The first call is the initializer (or None), then (function, args)
    calls until stdin closes. Every call is answered, in order; a failed initializer is answered
    and ends the worker, before any other call runs."""
    _die_with_parent()
    calls = sys.stdin.buffer
    # The answers get a descriptor of their own; fd 1 becomes stderr, so a plugin that prints
    # cannot corrupt the channel.
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    initialised = False
    while True:
        try:
            call = pickle.load(calls)
        except EOFError:
            return
        try:
            reply = (True, call[0](*call[1]) if call is not None else None)
        except BaseException as exc:  # noqa: BLE001 - the caller gets it, as ProcessPoolExecutor would
            reply = (False, exc)
        del call
        try:
            data = pickle.dumps(reply, pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # an unpicklable result or exception
            data = pickle.dumps((False, RuntimeError(f"{type(exc).__name__}: {exc}")), pickle.HIGHEST_PROTOCOL)
        answers.write(data)
        answers.flush()
        if not initialised and not reply[0]:
            sys.exit(1)
        initialised = True
        del reply, data
        give_back_free_memory()  # what the call built and handed back, while the worker waits


def _die_with_parent() -> None:
    """A worker must not outlive the process that started it (a killed server or CLI would
    otherwise leave workers parsing for nobody). Linux only; elsewhere stdin's EOF ends it, after
    the call in progress."""
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class _Worker:
    def __init__(self, initializer: tuple[Callable, tuple] | None) -> None:
        if not sys.executable:
            raise RuntimeError("no Python interpreter to start parse workers with (sys.executable is empty)")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _BOOT], stdin=subprocess.PIPE, stdout=subprocess.PIPE, close_fds=True
        )
        self.running: deque[Future] = deque()  # handed to this worker, in the order it answers
        # Calls are written by a thread of their own: a write to a full pipe must not block the
        # caller (an event loop) while holding the pool's lock.
        self._outbox: SimpleQueue[bytes | None] = SimpleQueue()
        self._outbox.put(pickle.dumps(sys.path, pickle.HIGHEST_PROTOCOL))
        self._outbox.put(pickle.dumps(initializer, pickle.HIGHEST_PROTOCOL))
        self.init: Future = Future()  # the initializer's answer, read first like any other
        self.init.set_running_or_notify_cancel()
        self.running.append(self.init)
        self.failure = ""  # why it ended, when known

    def start(self, pool: ProcessPool) -> None:
        """Its writer and reader threads: only once the pool knows all its workers (a reader hands
        out calls to any of them)."""
        for target, args, role in ((self._write, (), "writer"), (pool._read, (self,), "reader")):
            threading.Thread(
                target=target, args=args, daemon=True, name=f"codecairn-pool-{self.proc.pid}-{role}"
            ).start()

    def send(self, call: tuple[Callable, tuple]) -> None:
        """Raises if the call does not pickle; the pipe's own errors show up as the worker's EOF."""
        self._outbox.put(pickle.dumps(call, pickle.HIGHEST_PROTOCOL))

    def _write(self) -> None:
        pipe = self.proc.stdin
        assert pipe is not None  # started with stdin=PIPE
        while (data := self._outbox.get()) is not None:
            try:
                pipe.write(data)
                pipe.flush()
            except OSError:
                return  # the worker is gone: its reader breaks the pool
        try:
            pipe.close()  # EOF: the worker ends after the call in progress
        except OSError:
            pass

    def stop(self) -> None:
        self._outbox.put(None)


class ProcessPool:
    """``submit(fn, *args) -> Future``, like an executor; ``fn`` and its arguments must pickle."""

    def __init__(self, workers: int, initializer: Callable | None = None, initargs: tuple = ()) -> None:
        self._lock = threading.Lock()
        self._queue: deque[tuple[Future, Callable, tuple]] = deque()
        self._broken: str | None = None
        self._closed = False
        init = (initializer, initargs) if initializer is not None else None
        self._workers: list[_Worker] = []
        try:
            for _ in range(workers):
                self._workers.append(_Worker(init))
        except BaseException:
            for started in self._workers:
                started.proc.kill()
            raise
        for worker in self._workers:
            worker.start(self)

    @property
    def pids(self) -> list[int]:
        return [w.proc.pid for w in self._workers]

    def submit(self, fn: Callable, *args: Any) -> Future:
        fut: Future = Future()
        with self._lock:
            if self._broken is not None:
                raise BrokenProcessPool(self._broken)
            if self._closed:
                raise RuntimeError("cannot submit to a closed pool")
            self._queue.append((fut, fn, args))
            self._dispatch()
        return fut

    def _dispatch(self) -> None:
        """Hand queued calls to workers with room (the lock is held)."""
        for worker in self._workers:
            while self._queue and len(worker.running) < PER_WORKER:
                fut, fn, args = self._queue.popleft()
                if not fut.set_running_or_notify_cancel():
                    continue  # cancelled while it waited here
                try:
                    worker.send((fn, args))
                except Exception as exc:  # the call does not pickle: only this call fails
                    fut.set_exception(exc)
                    continue
                worker.running.append(fut)

    def _read(self, worker: _Worker) -> None:
        """A worker's answers, in order; EOF before close means it died."""
        answers = worker.proc.stdout
        assert answers is not None  # started with stdout=PIPE
        while True:
            try:
                ok, value = pickle.load(answers)
            except Exception as exc:
                self._died(worker, exc)
                return
            with self._lock:
                if not worker.running:
                    continue  # another worker died and the pool failed this call already
                fut = worker.running.popleft()
                self._dispatch()
            if fut is worker.init and not ok:
                worker.failure = f"it could not start: {type(value).__name__}: {value}"
                continue  # it exits now, before running anything else: EOF comes next
            if ok:
                fut.set_result(value)
            else:
                fut.set_exception(value)
            del value

    def _died(self, worker: _Worker, exc: BaseException) -> None:
        code = worker.proc.wait()
        with self._lock:
            if self._closed and not worker.running:
                return  # a clean exit after close()
            self._broken = (
                f"a worker process (pid {worker.proc.pid}) ended abruptly: "
                f"{worker.failure or f'exit status {code}, {type(exc).__name__}'}"
            )
            failed = [f for w in self._workers for f in w.running] + [f for f, _, _ in self._queue]
            for w in self._workers:
                w.running.clear()
            self._queue.clear()
        for fut in failed:
            if not fut.done():
                fut.set_exception(BrokenProcessPool(self._broken))
        self.shutdown()

    def shutdown(self) -> None:
        """Cancel what has not started and let the workers go; does not wait for them."""
        with self._lock:
            self._closed = True
            queued = [f for f, _, _ in self._queue]
            self._queue.clear()
        for fut in queued:
            fut.cancel()
        for worker in self._workers:
            worker.stop()
