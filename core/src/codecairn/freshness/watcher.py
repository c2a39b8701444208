"""The watcher: re-index what changed on disk, soon after it changed, and nothing else.

File-system events first (``watchfiles``' Rust notifier: inotify on Linux, FSEvents on macOS):
changes are grouped for up to ``debounce_ms`` and handed over once ``step_ms`` pass without a new
one, filtered by the walker's own rules, then re-indexed by a :class:`Reindexer`. Where events are
not delivered (network file systems, some container mounts), or cannot be set up (the inotify
watch limit), it polls instead: ``git status`` and ``HEAD`` where the root is in a git work tree,
a stat walk otherwise, at an interval that grows with the number of files (5 s + 1 s per 500
files, at most 60 s; ``CODECAIRN_POLL_SECONDS`` sets the 5).

While a change is being re-indexed its paths are *pending* on the workspace, so a query arriving
then waits for them (bounded: ``Indexer.wait_fresh``). A failed re-index changes nothing (see
``reindex``) and is retried with a growing delay; a file that keeps failing is retried five times,
then again when it next changes.

``CODECAIRN_WATCH=auto|events|poll`` chooses the mechanism (auto: events unless the root's file
system is known not to deliver them).
"""

from __future__ import annotations

import gc
import logging
import os
import re
import threading
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

import anyio

from codecairn.errors import DamagedStore, StoreNotWritable
from codecairn.freshness.git import GitTree, GitUnavailable
from codecairn.index.pipeline import IndexSummary
from codecairn.index.walker import walk

if TYPE_CHECKING:
    from codecairn.index.indexer import Indexer

log = logging.getLogger("codecairn.watcher")

WATCH_ENV = "CODECAIRN_WATCH"
POLL_ENV = "CODECAIRN_POLL_SECONDS"
DEBOUNCE_MS = 100  # longest a burst of changes is grouped
STEP_MS = 20  # quiet time that ends a burst (an editor's save is a burst of ~1 ms)
POLL_BASE_SECONDS = 5.0
POLL_MAX_SECONDS = 60.0
POLL_FILES_PER_SECOND = 500
RETRY_FIRST_SECONDS = 1.0
RETRY_MAX_SECONDS = 60.0
RETRY_ATTEMPTS = 5
IDLE_MS = 1000  # how often an idle watcher looks for preparation to do

# File systems whose changes made elsewhere (another machine, the host of a VM or container)
# produce no local events.
NETWORK_FILESYSTEMS = frozenset(
    {
        "nfs",
        "nfs4",
        "cifs",
        "smb3",
        "smbfs",
        "9p",
        "virtiofs",
        "afs",
        "ceph",
        "glusterfs",
        "lustre",
        "gpfs",
        "beegfs",
        "davfs",
        "vboxsf",
        "vmhgfs",
        "drvfs",
        "prl_fs",
        "fakeowner",
        "fuse.sshfs",
        "sshfs",
        "fuse.glusterfs",
        "fuse.rclone",
        "fuse.s3fs",
        "fuse.gcsfuse",
        "fuse.vmhgfs-fuse",
        "fuse.grpcfuse",
    }
)


# A damaged index, or one that cannot be written: retrying cannot help, so watching stops.
STOPS = (DamagedStore, StoreNotWritable)


class WatchUnavailable(Exception):
    pass


def poll_interval(files: int, base: float = POLL_BASE_SECONDS) -> float:
    return min(POLL_MAX_SECONDS, base + files / POLL_FILES_PER_SECOND)


def filesystem_type(path: str) -> str:
    """The type of the file system ``path`` is on, from /proc/self/mountinfo ('' if unknown)."""
    best, kind = "", ""
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                fields = line.split()
                if "-" not in fields:
                    continue
                mount = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4])
                inside = path == mount or path.startswith(mount.rstrip("/") + "/")
                if inside and len(mount) >= len(best):
                    best, kind = mount, fields[fields.index("-") + 1]
    except OSError:
        return ""
    return kind


def events_unavailable(root: str) -> str | None:
    """Why file-system events cannot be trusted for ``root``, or None."""
    kind = filesystem_type(root)
    if kind in NETWORK_FILESYSTEMS:
        return f"{root} is on a {kind} file system, whose remote changes raise no events"
    return None


class Watcher:
    """Keeps one workspace's index as fresh as its files. ``await run()`` until cancelled."""

    def __init__(
        self,
        indexer: Indexer,
        *,
        mode: str | None = None,
        debounce_ms: int = DEBOUNCE_MS,
        step_ms: int = STEP_MS,
        poll_seconds: float | None = None,
    ) -> None:
        self.indexer = indexer
        self.target = indexer.target
        self.rules = indexer.rules
        self.mode = (mode or os.environ.get(WATCH_ENV) or "auto").lower()
        if self.mode not in ("auto", "events", "poll"):
            raise ValueError(f"{WATCH_ENV} must be auto, events or poll, not {self.mode!r}")
        self.debounce_ms, self.step_ms = debounce_ms, step_ms
        self.poll_base = (
            poll_seconds if poll_seconds is not None else float(os.environ.get(POLL_ENV) or POLL_BASE_SECONDS)
        )
        self.ready = anyio.Event()  # set once changes are being watched
        self.active = ""  # "events", "git" or "mtime" once running
        self.refreshes = 0
        self.failures = 0
        self.last_error = ""
        self.last_summary: IndexSummary | None = None  # of the last successful narrow re-index
        self.last_started = 0.0  # perf_counter() when the last refresh began
        self._retry: set[str] = set()  # paths whose re-index failed: tried again after a delay
        self._attempts: dict[str, int] = {}  # path -> extraction failures in a row
        self._retry_full = False
        self._retry_delay = RETRY_FIRST_SECONDS
        self._retry_due = anyio.Event()
        # Polling state: the work tree, and what git said last time (HEAD None: not asked yet).
        self._git: GitTree | None = None
        self._head: str | None = None
        self._dirty: frozenset[str] = frozenset()

    # ---- running --------------------------------------------------------------------------------

    async def run(self) -> None:
        store = self.target.store
        if store.damage is not None or store.read_only is not None:
            why = store.damage or f"its index cannot be written ({store.read_only})"
            log.warning("not watching %s for changes: %s", self.target.root, why)
            return
        try:
            await self._run()
        except* STOPS as stopped:  # retrying cannot help: said once, and the answers say it too
            log.warning("stopped watching %s for changes: %s", self.target.root, stopped.exceptions[0])

    async def _run(self) -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(self._retry_loop)
            why = None
            if self.mode == "poll":
                why = f"{WATCH_ENV}=poll"
            elif self.mode == "auto":
                why = events_unavailable(str(self.target.root))
            if why is None:
                try:
                    await self._run_events()
                    tg.cancel_scope.cancel()  # stopped
                    return
                except WatchUnavailable as exc:
                    why = str(exc)
            log.log(
                logging.INFO if self.mode == "poll" else logging.WARNING,
                "watching %s by polling: %s",
                self.target.root,
                why,
            )
            await self._run_polling()

    async def _run_events(self) -> None:
        from watchfiles._rust_notify import RustNotify  # the notifier itself: lets us know when watches exist

        root = str(self.target.root)
        try:
            notify = await anyio.to_thread.run_sync(RustNotify, [root], False, False, 300, True, True)
        except (OSError, RuntimeError) as exc:  # the inotify watch limit, an unsupported file system
            raise WatchUnavailable(f"file events unavailable: {type(exc).__name__}: {exc}") from None
        stop = threading.Event()
        broken = ""
        try:
            async with anyio.create_task_group() as tg:

                async def stop_on_cancel() -> None:
                    try:
                        await anyio.sleep_forever()
                    finally:
                        stop.set()  # the notifier returns within step_ms, so cancelling is prompt

                tg.start_soon(stop_on_cancel)
                self.active = "events"
                self.ready.set()
                log.info("watching %s for file events", root)
                while True:
                    try:
                        raw = await anyio.to_thread.run_sync(
                            notify.watch, self.debounce_ms, self.step_ms, IDLE_MS, stop
                        )
                    except Exception as exc:  # the notifier broke (watch limit hit on a new directory...)
                        broken = f"file events stopped: {type(exc).__name__}: {exc}"
                        break
                    if raw == "stop":
                        break
                    if raw == "timeout":
                        await self._idle()
                        continue
                    if isinstance(raw, str):  # a signal: the main thread handles it
                        continue
                    paths = self._relevant(path for _, path in raw)
                    if paths:
                        await self.refresh(paths)
                tg.cancel_scope.cancel()
        finally:
            notify.close()
        if broken:
            raise WatchUnavailable(broken)

    async def _idle(self) -> None:
        try:
            warmed = await self.indexer.warm()
        except STOPS:
            raise
        except Exception as exc:  # the next re-index builds it anyway
            log.info("could not prepare for the next re-index of %s: %s", self.target.root, exc)
            return
        if warmed:
            # Everything loaded so far lives as long as the index: move it out of the cyclic
            # collector's way, or its full passes (300 ms over a large index) land inside re-indexes.
            gc.collect()
            gc.freeze()

    def _relevant(self, absolute_paths: Iterable[str]) -> set[str]:
        """Root-relative paths among these that the index may care about."""
        out = set()
        known = self.target.state.files_by_path
        for absolute in absolute_paths:
            rel = self.rules.relative(absolute)
            if not rel or self.rules.inside_ignored_dir(rel):
                continue
            if rel.rsplit("/", 1)[-1] == ".gitignore" or rel in known or self.rules.language(rel) is not None:
                out.add(rel)
            elif os.path.isdir(absolute) or any(p.startswith(rel + "/") for p in known):
                out.add(rel)  # a directory came or went: its files produce no events of their own
        return out

    async def _run_polling(self) -> None:
        self._git = await GitTree.find(self.target.root)
        self.active = "git" if self._git else "mtime"
        self.ready.set()
        while True:
            try:
                await self._poll_once()
            except STOPS:
                raise
            except Exception as exc:  # one bad poll (a file vanished mid-walk...) must not end watching
                log.warning(
                    "polling %s failed, trying again next time: %s: %s", self.target.root, type(exc).__name__, exc
                )
            await self._idle()
            await anyio.sleep(poll_interval(len(self.target.state.files_by_path), self.poll_base))

    async def _poll_once(self) -> None:
        if self._git is not None:
            try:
                state = await self._git.state()
            except GitUnavailable as exc:
                log.warning("git polling of %s failed (%s); scanning modification times instead", self.target.root, exc)
                self._git, self.active = None, "mtime"
                return
            if self._head is None:
                self._head, self._dirty = state.head, state.dirty
            if state.head != self._head:
                self._head, self._dirty = state.head, state.dirty  # a checkout, pull, commit, reset...
                await self.refresh_all()  # ...anything may differ
                return
            # Dirty now, or dirty before and clean now (reverted): compare with the index.
            changed = self._differs(state.dirty | self._dirty)
            self._dirty = state.dirty
        else:
            known = {p: (s.size, s.mtime_ns, s.language) for p, s in self.target.state.files_by_path.items()}
            changed = await anyio.to_thread.run_sync(self._scan, known)
        if changed:
            await self.refresh(changed)

    def _differs(self, paths: Iterable[str]) -> set[str]:
        """Those of ``paths`` whose size or mtime differs from what was indexed (or that came or went)."""
        out = set()
        root = self.target.root
        known = self.target.state.files_by_path
        for rel in paths:
            state = known.get(rel)
            if state is None and self.rules.language(rel) is None:
                continue
            try:
                st = os.stat(root / rel)
            except OSError:
                if state is not None:
                    out.add(rel)
                continue
            if state is None or st.st_size != state.size or st.st_mtime_ns != state.mtime_ns:
                out.add(rel)
        return out

    def _scan(self, known: dict[str, tuple[int, int, str]]) -> set[str]:
        """A stat walk of the whole root, compared with ``known`` (path -> size, mtime, language:
        a copy, as the index may change while this runs in its thread)."""
        walked = walk(
            str(self.target.root),
            self.target.language_for,
            limit_bytes=self.target.max_file_bytes,
            exclude=self.target.exclude,
        )
        seen = set()
        out = set()
        for f in walked.files:
            seen.add(f.path)
            if known.get(f.path) != (f.size, f.mtime_ns, f.language):
                out.add(f.path)
        out.update(p for p in known if p not in seen and not walked.hides(p))  # unreadable is not gone
        return out

    # ---- re-indexing ----------------------------------------------------------------------------

    async def refresh(self, paths: set[str]) -> bool:
        """Re-index these root-relative paths now; queries wait for them meanwhile."""
        indexer = self.indexer
        self.last_started = time.perf_counter()
        indexer.mark_pending(paths)
        try:
            summary = await self.indexer.refresh(paths)
        except STOPS:
            raise
        except Exception as exc:
            self._failed(exc, paths)
            return False
        finally:
            indexer.clear_pending(paths)
        self.refreshes += 1
        self.last_summary = summary
        self._retry.difference_update(paths)
        for path in paths:
            if path not in summary.failed:
                self._attempts.pop(path, None)
        for path in summary.failed:  # the extractor failed on it: its previous facts are kept
            self._attempts[path] = self._attempts.get(path, 0) + 1
            if self._attempts[path] <= RETRY_ATTEMPTS:
                self._retry.add(path)
            else:
                log.warning("extraction of %s keeps failing; trying again when it next changes", path)
        if self._retry:
            self._retry_due.set()
        log.info(
            "re-indexed %d changed path(s) of %s in %.0f ms: %d parsed, %d deleted (generation %d)",
            len(paths),
            self.target.root,
            summary.seconds * 1000,
            summary.parsed,
            summary.deleted,
            summary.generation,
        )
        return True

    async def refresh_all(self) -> bool:
        try:
            await self.indexer.run()
        except STOPS:
            raise
        except Exception as exc:
            self._failed(exc, None)
            return False
        self.refreshes += 1
        return True

    def _failed(self, exc: Exception, paths: set[str] | None) -> None:
        """Nothing was written (see reindex): remember what to try again, and when."""
        self.failures += 1
        self.last_error = f"{type(exc).__name__}: {exc}"
        log.warning(
            "re-index of %s failed; the previous state is kept and it will be retried: %s",
            f"{len(paths)} path(s)" if paths else "the whole root",
            self.last_error,
        )
        if paths is None:
            self._retry_full = True
        else:
            self._retry.update(paths)
        self._retry_due.set()

    async def _retry_loop(self) -> None:
        while True:
            await self._retry_due.wait()
            await anyio.sleep(self._retry_delay)
            self._retry_due = anyio.Event()
            paths, full = set(self._retry), self._retry_full
            self._retry_full = False
            ok = await self.refresh_all() if full else await self.refresh(paths) if paths else True
            self._retry_delay = RETRY_FIRST_SECONDS if ok else min(RETRY_MAX_SECONDS, self._retry_delay * 2)
