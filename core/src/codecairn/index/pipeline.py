"""One indexing run: walk -> stat -> parse + extract (process pool) -> batched writes -> resolve.

Incremental by construction: a file whose mtime and size are unchanged is not read; one whose
content hash is unchanged is not parsed; deleted files lose their symbols and edges; a rename is a
delete plus an add. Each batch is one transaction, shielded from cancellation so a cancelled run
stops *between* batches and leaves the store consistent; the next run continues from there.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import os
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import anyio

from codecairn.errors import UNAVAILABLE, ToolError
from codecairn.index.edge_buffer import EdgeBuffer
from codecairn.index.edge_loader import EdgeLoader
from codecairn.index.heap import give_back_free_memory
from codecairn.index.parse_pool import from_wire
from codecairn.index.resolver import Resolver, add_default_exports, build_bindings
from codecairn.index.walker import walk
from codecairn.model import INHERITANCE_KINDS
from codecairn.query.overview import META_KEY, EdgeTally
from codecairn.store.store import ParsedFile

if TYPE_CHECKING:
    from codecairn.workspace import Workspace

log = logging.getLogger("codecairn.index")

Progress = Callable[[int, int, str], Awaitable[None]]
CHUNK_FILES = 48  # files per worker task (24 cost Go's stdlib 0.5 s more in round trips)
INLINE_SLICE = 24  # files parsed in-process between two turns of the event loop
BATCH_FILES = 256  # files per write transaction
INLINE_LIMIT = 12  # fewer changed files than this: parse in-process, skip the pool
# This many changed files or fewer: re-indexed the watcher's way (freshness.reindex), without
# the process pool and resolving only what the change can have moved; more, the full pipeline.
NARROW_LIMIT = 12
INLINE_BYTES = 3 << 20  # ...or less code than this: a pool's start-up costs more than it saves
RESOLVE_CHUNK = 20000
HELPER_LOADS_EDGES = 3 * RESOLVE_CHUNK  # fewer edges: the helper's start costs more than it saves


@dataclass
class IndexSummary:
    files: int = 0
    parsed: int = 0
    unchanged: int = 0
    deleted: int = 0
    failed: dict[str, str] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    resolved_edges: int = 0
    seconds: float = 0.0
    generation: int = 0
    cancelled: bool = False
    phases: dict[str, float] = field(default_factory=dict)  # seconds per phase: walk, parse, write, resolve
    # Directories (and entries) that could not be read: their files' facts were kept, not deleted.
    unreadable: list[str] = field(default_factory=list)


UNREADABLE_SHOWN = 20  # unreadable directories named in a summary


def _unreadable_root_error(root: Path, why: str, kept: int) -> ToolError:
    return ToolError(
        UNAVAILABLE,
        f"cannot read the root {root} ({why}): nothing was indexed, and nothing was forgotten"
        + (f": the {kept} files indexed from it keep their facts until it can be read" if kept else ""),
    )


def unreadable_root(root: Path) -> ToolError | None:
    """The error to give before anything is opened, when ``root`` cannot be listed; else None."""
    try:
        with os.scandir(root):
            return None
    except OSError as exc:
        return _unreadable_root_error(root, exc.strerror or str(exc), 0)


_paused_runs = 0


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while indexing. A run allocates hundreds of thousands of
    long-lived tuples (symbols, edges, index entries) and no reference cycles worth collecting;
    the collector would walk all of them again and again — a quarter of the main process's time
    on a cold index of CPython's Lib. What survives the run lives as long as the index, so it is
    then frozen out of the collector's sight (its full passes would otherwise land inside later
    queries). Counted, so overlapping runs (several roots) nest."""
    global _paused_runs
    if _paused_runs == 0 and not gc.isenabled():
        yield  # someone else turned it off: not ours to turn back on
        return
    _paused_runs += 1
    gc.disable()
    try:
        yield
    finally:
        _paused_runs -= 1
        if _paused_runs == 0:
            gc.freeze()
            gc.enable()


async def run_index(ws: Workspace, progress: Progress | None = None) -> IndexSummary:
    with collector_paused():
        return await _run_index(ws, progress)


async def _narrow(
    ws: Workspace,
    walked: IndexSummary,
    jobs: list[tuple[str, str, str | None]],
    stats: dict[str, tuple[int, int]],
    deleted: dict[str, int],
    started: float,
    progress: Progress | None,
) -> IndexSummary:
    from codecairn.freshness.reindex import Plan

    todo = Plan(jobs=jobs, stats=stats, deleted=deleted, unchanged=walked.unchanged)
    summary = await ws.reindexer.apply(todo, started, settle=False)
    if progress:
        await progress(len(jobs), len(jobs), "indexed")
    summary.skipped = {**walked.skipped, **summary.skipped}
    summary.unreadable = walked.unreadable
    summary.phases = {**walked.phases, **summary.phases}
    return summary


async def _run_index(ws: Workspace, progress: Progress | None = None) -> IndexSummary:
    started = time.perf_counter()
    summary = IndexSummary()
    store = ws.store
    walked = await asyncio.to_thread(walk, str(ws.root), ws.host.language_for)
    summary.phases["walk"] = time.perf_counter() - started
    if walked.root_error:
        raise _unreadable_root_error(ws.root, walked.root_error, len(ws.files_by_path))
    summary.skipped = dict(walked.skipped)
    summary.unreadable = walked.unreadable[:UNREADABLE_SHOWN]
    if await store.get_meta("edges_pending") == "1":
        # A first index was killed before its edges were written: start it over, cleanly.
        log.warning("the previous first index of %s did not finish; indexing from scratch", ws.root)
        await store.clear()
        ws.forget_all()
    # The workspace mirrors the files table (every committed batch updates both): compare the
    # walk with it, and read the table itself only for a run of the full pipeline.
    indexed = ws.files_by_path
    seen = set()
    jobs: list[tuple[str, str, str | None]] = []
    meta: dict[str, tuple[int, int]] = {}
    touched: list[tuple[int, int]] = []
    for f in walked.files:
        seen.add(f.path)
        old = indexed.get(f.path)
        if old is not None and old.language == f.language and old.size == f.size and old.mtime_ns == f.mtime_ns:
            summary.unchanged += 1
            continue
        jobs.append((f.path, f.language, old.hash if old is not None and old.language == f.language else None))
        meta[f.path] = (f.size, f.mtime_ns)
    # Not walked is not gone: what is under a directory that could not be read is kept as it was.
    vanished = {path: state.id for path, state in indexed.items() if path not in seen and not walked.hides(path)}
    deleted_ids = list(vanished.values())
    summary.deleted = len(deleted_ids)
    generation = ws.generation + 1
    total = len(jobs)
    pending_resolution = await store.get_meta("resolution_pending") == "1"
    if not jobs and not deleted_ids and not pending_resolution:
        summary.files = len(indexed)
        summary.seconds = time.perf_counter() - started
        summary.generation = ws.generation
        if progress:
            await progress(0, 0, "up to date")
        return summary

    await ws.ensure_symbols()  # `codecairn index` loads them only now that something changed
    if indexed and not pending_resolution and total + len(deleted_ids) <= NARROW_LIMIT:
        # A few files: the watcher's narrow path. Edges into symbols that are still there are
        # re-pointed, not resolved again (one edited file of CPython: ≈ 0.1 s in all, not ≈ 0.6 s).
        return await _narrow(ws, summary, jobs, meta, vanished, started, progress)
    known = await store.files()
    await store.set_meta({"resolution_pending": 1})
    # A first index resolves edges in memory and inserts them once, into an unindexed table.
    cold = not known
    if cold:
        await store.set_meta({"edges_pending": 1})
        await store.drop_edge_indexes()
    deferred = EdgeBuffer()
    done = 0
    new_file_ids: set[int] = set()
    new_names: set[str] = set()
    buffer: list[ParsedFile] = []

    async def flush(final: bool = False) -> None:
        nonlocal buffer, touched
        if not buffer and not touched and not (final and deleted_ids):
            return
        batch, buffer = buffer, []
        touch, touched = touched, []
        gone = list(deleted_ids) if final else []
        t = time.perf_counter()
        with anyio.CancelScope(shield=True):  # a batch is written whole or not at all
            rows, file_ids = await store.write_batch(
                batch, touch, gone, known, generation, edges_to=deferred if cold else None
            )
            removed_names = ws.apply_batch(batch, gone, known, rows, file_ids)
            ws.touch(touch)
        summary.phases["write"] = summary.phases.get("write", 0.0) + time.perf_counter() - t
        if cold:
            give_back_free_memory()  # what the batch's parsed facts took
        new_file_ids.update(file_ids.values())
        new_names.update(r[4] for r in rows)
        new_names.update(removed_names)

    def consume(results: list[tuple]) -> None:
        for res in results:
            status, path = res[0], res[1]
            if status == "parsed":
                size, mtime = meta[path]
                language = job_by_path[path][1]
                buffer.append(ParsedFile(path, language, size, mtime, res[2], res[3], res[4]))
                summary.parsed += 1
            elif status == "same":
                touched.append((known[path].id, meta[path][1]))
                summary.unchanged += 1
            elif status == "skipped":
                summary.skipped[res[2]] = summary.skipped.get(res[2], 0) + 1
            else:
                summary.failed[path] = res[2]
                log.warning("extraction failed for %s: %s", path, res[2])

    job_by_path = {j[0]: j for j in jobs}
    root = str(ws.root)
    try:
        if total <= INLINE_LIMIT or sum(meta[j[0]][0] for j in jobs) <= INLINE_BYTES:
            # Small slices, so the event loop (queries) gets turns between them.
            for i in range(0, total, INLINE_SLICE):
                results = await asyncio.to_thread(ws.pool.parse_inline, root, jobs[i : i + INLINE_SLICE])
                consume(results)
                done += len(results)
                if len(buffer) >= BATCH_FILES:
                    await flush()
                if progress:
                    await progress(done, total, "parsing")
        else:
            chunks = [jobs[i : i + CHUNK_FILES] for i in range(0, total, CHUNK_FILES)]
            # Keep a bounded number of chunks in flight so results stream into batches. Eight a
            # worker: while the main process writes a batch, the workers must not run dry (fewer
            # left them idle a fifth of the time on Go's standard library).
            inflight: list[asyncio.Future] = []
            it = iter(chunks)
            window = ws.pool.workers * 8
            for chunk in it:
                inflight.append(asyncio.wrap_future(ws.pool.submit(root, chunk)))
                if len(inflight) >= window:
                    break
            try:
                while inflight:
                    fut = inflight.pop(0)
                    results = from_wire(await fut)
                    nxt = next(it, None)
                    if nxt is not None:
                        inflight.append(asyncio.wrap_future(ws.pool.submit(root, nxt)))
                    consume(results)
                    done += len(results)
                    if len(buffer) >= BATCH_FILES or len(touched) >= BATCH_FILES:
                        await flush()
                    if progress:
                        await progress(done, total, "parsing")
            finally:
                for fut in inflight:
                    fut.cancel()
                # The workers would idle through the resolution holding ≈ 35 MB each, and a
                # server through its whole life: let them go; the next large run starts new ones.
                ws.pool.close()
        await flush(final=True)
        if cold:
            give_back_free_memory()  # the parsed batches are gone; the resolution needs room of its own
        summary.phases["parse"] = time.perf_counter() - started - summary.phases["walk"]
        if progress:
            await progress(done, total, "resolving")
        t = time.perf_counter()
        settled = {"resolution_pending": 0, "generation": generation, "last_indexed_at": time.time()}
        if cold:
            summary.resolved_edges, tally = await resolve_and_insert(ws, deferred)
            deferred = EdgeBuffer()
            # The summary's aggregates, counted on the way: no scan of the edges table afterwards.
            settled[META_KEY] = json.dumps(tally.overview(ws, generation))
        else:
            summary.resolved_edges = await resolve(ws, new_file_ids, new_names, full=pending_resolution)
        summary.phases["resolve"] = time.perf_counter() - t
        await store.set_meta(settled)
        ws.generation = generation
    except (asyncio.CancelledError, anyio.get_cancelled_exc_class()):
        summary.cancelled = True
        with anyio.CancelScope(shield=True):
            await flush(final=True)  # what was parsed is kept; resolution stays pending
            if cold:
                for _, chunk, lines in deferred.chunks(RESOLVE_CHUNK):
                    await store.insert_edges([(*e, line, None, None) for e, line in zip(chunk, lines)])
                await store.ensure_indexes()
                await store.set_meta({"edges_pending": 0})
        raise
    finally:
        summary.files = len(ws.files_by_path)
        summary.seconds = time.perf_counter() - started
        summary.generation = ws.generation
    return summary


async def load_bindings(store):
    bindings = build_bindings(await store.fetch_writer("SELECT file_id, name, alias, target FROM imports"))
    add_default_exports(bindings, await store.fetch_writer("SELECT file_id, name FROM exports WHERE kind='default'"))
    return bindings


async def resolve_and_insert(ws: Workspace, edges: EdgeBuffer) -> tuple[int, EdgeTally]:
    """First index: every edge is new, so resolve them all in memory and insert them resolved —
    a chunk at a time (the rows of all of them at once were ≈ 130 MB more on CPython's Lib). With
    many edges a helper process inserts each chunk while the next resolves (index/edge_loader.py)."""
    store = ws.store
    loader = EdgeLoader(store.path) if len(edges.ids) - edges.written >= HELPER_LOADS_EDGES else None
    try:
        bindings = await load_bindings(store)
        resolver = Resolver(ws.index, ws.file_infos(), ws.host.languages, bindings)
        tally = EdgeTally()
        # extends/implements first, all of them: call resolution walks the supertypes they give.
        inherited = {
            eid: (tid, how)
            for tid, how, eid in await asyncio.to_thread(resolver.resolve_inheritance, edges.inheritance())
        }

        def resolved_rows(chunk: list[tuple], lines: Iterable[int]) -> list[tuple]:
            called = iter(resolver.resolve_calls([e for e in chunk if e[2] not in INHERITANCE_KINDS]))
            rows = []
            for e, line in zip(chunk, lines):
                if e[2] in INHERITANCE_KINDS:
                    target_id, how = inherited.get(e[0], (None, None))
                else:
                    target_id, how, _ = next(called)
                rows.append((*e, line, target_id, how))
            tally.add(rows)
            resolver.forget_file_scoped()
            return rows

        for start, chunk, lines in edges.chunks(RESOLVE_CHUNK):
            rows = await asyncio.to_thread(resolved_rows, chunk, lines)
            if loader is not None:
                await loader.insert(rows, start + len(chunk), edges)
                continue
            # Written while the next chunk waits: a thread of this process gains nothing (GIL).
            with anyio.CancelScope(shield=True):  # a chunk is written whole or not at all
                await store.insert_edges(rows)
            edges.written = start + len(chunk)
        with anyio.CancelScope(shield=True):
            if loader is not None:
                await loader.finish(edges)
            else:
                await store.ensure_indexes()
            await store.set_meta({"edges_pending": 0, "resolved_once": 1})
    except BaseException:
        if loader is not None:
            await loader.settle(edges)  # what is written must be counted before the caller stores the rest
        raise
    finally:
        if loader is not None:
            loader.close()
    return tally.resolved_total(), tally


async def resolve(ws: Workspace, new_file_ids: set[int], new_names: set[str], full: bool = False) -> int:
    """Resolve the edges this run may have changed: those of re-parsed files, those that pointed
    into them, and those whose target name a new symbol now provides."""
    store = ws.store
    too_many = len(new_file_ids) + len(new_names) > 30000  # SQLite's bound-parameter limit
    if full or too_many or await store.get_meta("resolved_once") != "1":
        where, params = "1", ()
    else:
        conds, params_list = [], []
        if new_file_ids:
            conds.append(f"file_id IN ({','.join('?' * len(new_file_ids))})")
            params_list.extend(new_file_ids)
        if new_names:
            conds.append(f"target IN ({','.join('?' * len(new_names))})")
            params_list.extend(new_names)
        where, params = (" OR ".join(conds) or "0"), tuple(params_list)
    cols = "id, file_id, kind, source_id, target, receiver, receiver_type"
    inheritance = await store.fetch_writer(
        f"SELECT {cols} FROM edges WHERE kind IN ('extends','implements') AND ({where})", params
    )
    calls = await store.fetch_writer(
        f"SELECT {cols} FROM edges WHERE kind NOT IN ('extends','implements') AND ({where})", params
    )
    if not inheritance and not calls:
        await store.set_meta({"resolved_once": 1})
        return 0
    bindings = await load_bindings(store)
    resolver = Resolver(ws.index, ws.file_infos(), ws.host.languages, bindings)

    def work() -> list[tuple]:
        out = resolver.resolve_inheritance(inheritance)
        out.extend(resolver.resolve_calls(calls))
        return out

    updates = await asyncio.to_thread(work)
    for i in range(0, len(updates), RESOLVE_CHUNK):
        with anyio.CancelScope(shield=True):
            await store.write_resolutions(updates[i : i + RESOLVE_CHUNK])
    await store.ensure_indexes()
    await store.set_meta({"resolved_once": 1})
    return sum(1 for u in updates if u[0] is not None)
