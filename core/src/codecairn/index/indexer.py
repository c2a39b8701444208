"""The one object that keeps a root's index up to date. Whoever asks — `codecairn index`, the `index`
tool, the watcher, an edit — asks it, and it chooses the way:

* ``run()`` walks the whole root and compares it with the state; a handful of changed files go the
  narrow way (index/narrow.py: in-process, resolving only what the change can have moved), more
  go through the full pipeline (index/pipeline.py: the parse pool, batches, resolution);
* ``refresh(paths)`` decides by stat alone what a few named paths need (index/plan.py), and falls
  back to ``run()`` when that cannot be decided from them (many files, changed ignore rules).

One run at a time (``lock``). After a run, the listeners hear of it (memories follow the code,
the embedding job wakes up): the indexer never reaches up into who uses it. While named paths are
being re-indexed they are *pending*, so a query can wait for them (``wait_fresh``) instead of
answering from the old state.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable

import anyio

from codecairn.errors import UNAVAILABLE, StoreError, ToolError
from codecairn.index import extractor_versions, resolver, route_detectors
from codecairn.index.collector import collector_paused
from codecairn.index.heap import give_back_free_memory
from codecairn.index.narrow import NarrowIndexer
from codecairn.index.pipeline import Progress, run_full
from codecairn.index.plan import NARROW_LIMIT, Plan, plan_paths, plan_walk
from codecairn.index.rules import WalkRules
from codecairn.index.target import IndexTarget
from codecairn.index.walker import walk
from codecairn.model import IndexSummary

log = logging.getLogger("codecairn.index")

Listener = Callable[[IndexSummary], Awaitable[None]]
FRESH_WAIT_SECONDS = 2.0  # the longest a query waits for a changed file's re-index
UNREADABLE_SHOWN = 20  # unreadable directories named in a summary


class Indexer:
    def __init__(self, target: IndexTarget) -> None:
        self.target = target
        self.lock = asyncio.Lock()
        self.narrow = NarrowIndexer(target)
        self.rules = WalkRules(
            target.root, target.language_for, exclude=target.exclude, max_file_bytes=target.max_file_bytes
        )
        self.last_summary: IndexSummary | None = None
        self._listeners: list[Listener] = []
        self.pending: set[str] = set()
        self._settled = asyncio.Event()
        self._settled.set()

    @property
    def running(self) -> bool:
        return self.lock.locked()

    def on_change(self, listener: Listener) -> None:
        """``await listener(summary)`` after every run (even one that found nothing changed)."""
        self._listeners.append(listener)

    async def _announce(self, summary: IndexSummary) -> None:
        state = self.target.state
        summary.symbols = len(state.symbols) if state.symbols_loaded else None
        for listener in self._listeners:
            await listener(summary)

    def _check_writable(self) -> None:
        store = self.target.store
        problem = store.damage or store.not_writable()
        if problem is not None:
            raise problem

    # ---- the whole root ---------------------------------------------------------------------

    async def run(self, progress: Progress | None = None) -> IndexSummary:
        """Index the root; raises the StoreError that says why it cannot (a damaged or read-only
        index) — failures of SQLite met on the way (the edge loader's, too) arrive as one."""
        self._check_writable()
        async with self.lock:
            try:
                with collector_paused():
                    summary = await self._run(progress)
            except sqlite3.DatabaseError as exc:
                raise self.target.store.explain(exc) or StoreError(str(exc)) from exc
            if summary.parsed or summary.deleted:
                self.target.state.symbols.forget_ancestry()
                # The resolution and the last writes freed their buffers after the pipeline's own
                # trims: a cold index of CPython's Lib leaves 31 MB to give back here (188 -> 157 MB).
                give_back_free_memory()
            self.last_summary = summary
        await self._announce(summary)
        return summary

    async def _run(self, progress: Progress | None) -> IndexSummary:
        target = self.target
        state, store = target.state, target.store
        started = time.perf_counter()
        summary = IndexSummary()
        walked = await asyncio.to_thread(
            walk, target.root_real, target.language_for, limit_bytes=target.max_file_bytes, exclude=target.exclude
        )
        summary.phases["walk"] = time.perf_counter() - started
        if walked.root_error:
            raise unreadable_root_error(target.root, walked.root_error, len(state.files_by_path))
        summary.skipped = dict(walked.skipped)
        summary.unreadable = walked.unreadable[:UNREADABLE_SHOWN]
        if await store.get_meta("edges_pending") == "1":
            # A first index was killed before its edges were written: start it over, cleanly.
            log.warning("the previous first index of %s did not finish; indexing from scratch", target.root)
            await store.clear()
            state.forget_all()
        todo = plan_walk(state, walked)
        extractors_changed, extractors = await extractor_versions.changed(target)
        if not state.files_by_path:
            # A first index: whatever it stores (a cancelled run too) is by today's extractors.
            await store.set_meta({extractor_versions.META_KEY: json.dumps(extractors, sort_keys=True)})
            extractors_changed = set()
        elif extractors_changed:  # every file of those languages is extracted again, with the changes
            extractor_versions.add_stale(target, todo, extractors_changed)
        resolver_changed = await store.get_meta(resolver.RESOLVER_META_KEY) != resolver.VERSION
        if resolver_changed and state.files_by_path:  # edges resolved by an older resolver: all again
            log.info("the resolver changed: every edge of %s is resolved again", target.root)
            await store.set_meta({"resolution_pending": 1})
        detectors_changed, detectors = await route_detectors.changed(target)
        if detectors_changed:  # their files' routes are extracted again, with the rest of the changes
            await route_detectors.add_stale(target, todo, detectors_changed)
        summary = await self._apply(todo, summary, started, progress)
        if detectors_changed or await store.get_meta(route_detectors.META_KEY) is None:
            await store.set_meta({route_detectors.META_KEY: json.dumps(detectors, sort_keys=True)})
        if extractors_changed or await store.get_meta(extractor_versions.META_KEY) is None:
            await store.set_meta({extractor_versions.META_KEY: json.dumps(extractors, sort_keys=True)})
        if resolver_changed:
            await store.set_meta({resolver.RESOLVER_META_KEY: resolver.VERSION})
        return summary

    async def _apply(
        self, todo: Plan, summary: IndexSummary, started: float, progress: Progress | None
    ) -> IndexSummary:
        target = self.target
        state, store = target.state, target.store
        pending_resolution = await store.get_meta("resolution_pending") == "1"
        if not todo.jobs and not todo.deleted and not pending_resolution:
            summary.unchanged = todo.unchanged
            summary.files = len(state.files_by_path)
            summary.seconds = time.perf_counter() - started
            summary.generation = state.generation
            if progress:
                await progress(0, 0, "up to date")
            return summary
        await state.ensure_symbols(store)  # `codecairn index` loads them only now that something changed
        changed = len(todo.jobs) + len(todo.deleted)
        if state.files_by_path and not pending_resolution and changed <= NARROW_LIMIT:
            # A few files: the narrow path. Edges into symbols that are still there are re-pointed,
            # not resolved again (one edited file of CPython: ≈ 0.1 s in all, not ≈ 0.6 s).
            summary = await self.narrow.apply(todo, summary, started)
            if progress:
                await progress(len(todo.jobs), len(todo.jobs), "indexed")
            return summary
        summary.unchanged = todo.unchanged
        summary.deleted = len(todo.deleted)
        return await run_full(target, todo, summary, started, progress)

    # ---- named paths --------------------------------------------------------------------------

    async def refresh(self, paths: Iterable[str]) -> IndexSummary:
        """Bring the named root-relative paths (files, or directories that appeared or went away)
        up to date. Raises on failure (disk full, database locked...), having changed nothing."""
        self._check_writable()
        paths = list(paths)
        started = time.perf_counter()
        async with self.lock:
            todo = await anyio.to_thread.run_sync(plan_paths, self.target.state, self.rules, paths)
            summary = None
            if not todo.full_run:
                await self.target.state.ensure_symbols(self.target.store)
                summary = await self.narrow.apply(todo, IndexSummary(), started)
                summary.phases["plan"] = todo.seconds
                self.last_summary = summary
        if summary is None:
            log.info("full refresh of %s: %s", self.target.root, todo.full_run)
            return await self.run()
        await self._announce(summary)
        return summary

    # ---- dropping facts (the invalidate and clear tools) ----------------------------------------

    async def invalidate(self, paths: Iterable[str]) -> tuple[list[str], int]:
        """Drop the facts of the named root-relative files (a directory: every indexed file under
        it) as if they were gone, until a run indexes them again. Returns the paths dropped and
        how many symbols went with them."""
        self._check_writable()
        async with self.lock:
            state = self.target.state
            wanted = list(paths)
            todo = Plan()
            for rel in wanted:
                if rel == "":
                    todo.deleted.update((p, f.id) for p, f in state.files_by_path.items())
                    continue
                if rel in state.files_by_path:
                    todo.deleted[rel] = state.files_by_path[rel].id
                prefix = rel + "/"
                todo.deleted.update((p, f.id) for p, f in state.files_by_path.items() if p.startswith(prefix))
            if not todo.deleted:
                return [], 0
            await state.ensure_symbols(self.target.store)
            symbols = sum(len(state.symbols.by_file.get(fid, ())) for fid in todo.deleted.values())
            summary = await self.narrow.apply(todo, IndexSummary(), time.perf_counter())
            self.last_summary = summary
        await self._announce(summary)
        return sorted(todo.deleted), symbols

    async def clear(self) -> tuple[int, int]:
        """Drop every indexed file's facts at once (a new generation); the next run indexes the
        root from scratch. Returns how many files and symbols were dropped."""
        self._check_writable()
        async with self.lock:
            state, store = self.target.state, self.target.store
            await state.ensure_symbols(store)
            files, symbols = len(state.files_by_path), len(state.symbols)
            generation = state.generation + 1
            await store.drop_index(generation)
            state.forget_all()
            state.generation = generation
            summary = IndexSummary(deleted=files, generation=generation)
            self.last_summary = summary
        await self._announce(summary)
        return files, symbols

    async def warm(self) -> bool:
        """Build what the narrow path needs now, while nothing is waiting (the watcher calls this
        when idle), so the next edit costs only its own work. True if there was anything to do."""
        if not self.narrow.cold() or self.lock.locked():
            return False
        async with self.lock:
            await self.narrow.warm()
        return True

    # ---- waiting for what is being re-indexed -----------------------------------------------

    def mark_pending(self, paths: set[str]) -> None:
        self.pending |= paths
        self._settled.clear()

    def clear_pending(self, paths: set[str]) -> None:
        self.pending -= paths
        if not self.pending:
            self._settled.set()

    async def wait_fresh(self, timeout: float = FRESH_WAIT_SECONDS) -> bool:
        """Called before answering: while changed files are being re-indexed, wait for them
        (at most ``timeout``) rather than answer from the old state. False if still pending."""
        if not self.pending:
            return True
        try:
            await asyncio.wait_for(self._settled.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def close(self) -> None:
        self.target.pool.close()


def unreadable_root_error(root: object, why: str, kept: int) -> ToolError:
    return ToolError(
        UNAVAILABLE,
        f"cannot read the root {root} ({why}): nothing was indexed, and nothing was forgotten"
        + (f": the {kept} files indexed from it keep their facts until it can be read" if kept else ""),
    )


def unreadable_root(root: object) -> ToolError | None:
    """The error to give before anything is opened, when ``root`` cannot be listed; else None."""
    import os

    try:
        with os.scandir(root):  # type: ignore[call-overload]
            return None
    except OSError as exc:
        return unreadable_root_error(root, exc.strerror or str(exc), 0)
