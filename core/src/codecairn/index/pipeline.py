"""The full run: parse + extract (process pool) -> batched writes -> resolve, for a plan the
indexer made from a walk (index/indexer.py chooses this or the narrow path).

Incremental by construction: a file whose mtime and size are unchanged is not read; one whose
content hash is unchanged is not parsed; deleted files lose their symbols and edges; a rename is a
delete plus an add. Each batch is one transaction, shielded from cancellation so a cancelled run
stops *between* batches and leaves the store consistent; the next run continues from there.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterable

import anyio

from codecairn.index.edge_buffer import EdgeBuffer
from codecairn.index.edge_loader import EdgeLoader
from codecairn.index.heap import give_back_free_memory
from codecairn.index.outcomes import Outcomes
from codecairn.index.parse_pool import from_wire
from codecairn.index.plan import Plan
from codecairn.index.resolver import Bindings, Resolver, add_exports, build_bindings
from codecairn.index.stale_calls import (
    calls_external_bases_decide,
    calls_their_subtypes_decide,
    calls_through_rebound,
    their_own_edges,
)
from codecairn.index.target import IndexTarget
from codecairn.model import ALSO, FLOW, RESOLVED_FIRST, IndexSummary
from codecairn.store.overview import META_KEY, EdgeTally
from codecairn.store.store import Store

log = logging.getLogger("codecairn.index")

Progress = Callable[[int, int, str], Awaitable[None]]
CHUNK_FILES = 48  # files per worker task (24 cost Go's stdlib 0.5 s more in round trips)
INLINE_SLICE = 24  # files parsed in-process between two turns of the event loop
# Files per write transaction. A batch's parsed facts are what the symbols stored from it sit among
# in the heap: 256 files' worth left 9 MB more of it held for good after a cold index of CPython's
# Lib than 128 (at the same speed, A/B); 64 gave no more.
BATCH_FILES = 128
INLINE_LIMIT = 12  # fewer changed files than this: parse in-process, skip the pool
INLINE_BYTES = 3 << 20  # ...or less code than this: a pool's start-up costs more than it saves
RESOLVE_CHUNK = 20000
HELPER_LOADS_EDGES = 3 * RESOLVE_CHUNK  # fewer edges: the helper's start costs more than it saves


async def run_full(
    target: IndexTarget, todo: Plan, summary: IndexSummary, started: float, progress: Progress | None = None
) -> IndexSummary:
    """Carry out ``todo`` the full way (the caller holds the index lock and has walked): parse in the
    pool, write batch by batch, then resolve — everything on a first index, else what moved."""
    store, state, pool = target.store, target.state, target.pool
    jobs, meta = todo.jobs, todo.stats
    deleted_ids = list(todo.deleted.values())
    generation = state.generation + 1
    total = len(jobs)
    pending_resolution = await store.get_meta("resolution_pending") == "1"
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
    outcomes = Outcomes(state, summary, meta, {j[0]: j[1] for j in jobs})

    async def flush(final: bool = False) -> None:
        if not outcomes.parsed and not outcomes.touched and not (final and deleted_ids):
            return
        batch, touch = outcomes.take()
        gone = list(deleted_ids) if final else []
        t = time.perf_counter()
        with anyio.CancelScope(shield=True):  # a batch is written whole or not at all
            rows, file_ids = await store.write_batch(
                batch, touch, gone, known, generation, edges_to=deferred.add_file if cold else None
            )
            removed_names = state.apply_batch(batch, gone, known, rows, file_ids)
            state.touch(touch)
        summary.phases["write"] = summary.phases.get("write", 0.0) + time.perf_counter() - t
        if cold:
            give_back_free_memory()  # what the batch's parsed facts took
        new_file_ids.update(file_ids.values())
        new_names.update(r[4] for r in rows)
        new_names.update(removed_names)

    root = target.root_real
    try:
        if total <= INLINE_LIMIT or sum(meta[j[0]][0] for j in jobs) <= INLINE_BYTES:
            # Small slices, so the event loop (queries) gets turns between them.
            for i in range(0, total, INLINE_SLICE):
                results = await asyncio.to_thread(pool.parse_inline, root, jobs[i : i + INLINE_SLICE])
                outcomes.consume(results)
                done += len(results)
                if len(outcomes.parsed) >= BATCH_FILES:
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
            window = pool.workers * 8
            for chunk in it:
                inflight.append(asyncio.wrap_future(pool.submit(root, chunk)))
                if len(inflight) >= window:
                    break
            try:
                while inflight:
                    fut = inflight.pop(0)
                    results = from_wire(await fut)
                    nxt = next(it, None)
                    if nxt is not None:
                        inflight.append(asyncio.wrap_future(pool.submit(root, nxt)))
                    outcomes.consume(results)
                    done += len(results)
                    if len(outcomes.parsed) >= BATCH_FILES or len(outcomes.touched) >= BATCH_FILES:
                        await flush()
                    if progress:
                        await progress(done, total, "parsing")
            finally:
                for fut in inflight:
                    fut.cancel()
                # The workers would idle through the resolution holding ≈ 35 MB each, and a
                # server through its whole life: let them go; the next large run starts new ones.
                pool.close()
        await flush(final=True)
        if cold:
            give_back_free_memory()  # the parsed batches are gone; the resolution needs room of its own
        summary.phases["parse"] = time.perf_counter() - started - summary.phases.get("walk", 0.0)
        if progress:
            await progress(done, total, "resolving")
        t = time.perf_counter()
        settled: dict[str, object] = {"resolution_pending": 0, "generation": generation, "last_indexed_at": time.time()}
        if cold:
            summary.resolved_edges, tally = await resolve_and_insert(target, deferred)
            deferred = EdgeBuffer()
            # The summary's aggregates, counted on the way: no scan of the edges table afterwards.
            settled[META_KEY] = json.dumps(tally.overview(state.symbols.rows, generation))
        else:
            summary.resolved_edges = await resolve(target, new_file_ids, new_names, full=pending_resolution)
        summary.phases["resolve"] = time.perf_counter() - t
        await store.set_meta(settled)
        state.generation = generation
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
        summary.files = len(state.files_by_path)
        summary.seconds = time.perf_counter() - started
        summary.generation = state.generation
    return summary


async def load_bindings(store: Store) -> dict[int, Bindings]:
    bindings = build_bindings(await store.import_bindings())
    add_exports(bindings, await store.binding_exports())
    return bindings


async def resolve_and_insert(target: IndexTarget, edges: EdgeBuffer) -> tuple[int, EdgeTally]:
    """First index: every edge is new, so resolve them all in memory and insert them resolved —
    a chunk at a time (the rows of all of them at once were ≈ 130 MB more on CPython's Lib). With
    many edges a helper process inserts each chunk while the next resolves (index/edge_loader.py)."""
    store = target.store
    loader = EdgeLoader(store.path) if len(edges.ids) - edges.written >= HELPER_LOADS_EDGES else None
    try:
        bindings = await load_bindings(store)
        target.state.symbols.passed.clear()  # every passes edge is new
        resolver = Resolver(target.state.symbols, target.state.file_infos(), target.languages, bindings)
        tally = EdgeTally()
        # extends/implements and returns first, all of them: call resolution walks what they give.
        inherited = {
            eid: (tid, how) for tid, how, eid in await asyncio.to_thread(resolver.resolve_first, edges.resolved_first())
        }
        target.state.symbols.take_hierarchy_changes()  # every call is resolved here
        target.state.symbols.take_external_base_changes()

        def resolved_rows(chunk: list[tuple], lines: Iterable[int]) -> list[tuple]:
            called = iter(resolver.resolve_calls([e for e in chunk if e[2] not in RESOLVED_FIRST]))
            rows = []
            also = resolver.also
            for e, line in zip(chunk, lines):
                if e[2] in RESOLVED_FIRST:
                    target_id, how = inherited.get(e[0], (None, None))
                else:
                    target_id, how, _ = next(called)
                rows.append((*e, line, target_id, how))
            if also:  # a call through a parameter a few values reach: a row beside it for each other
                beside = [(row, t) for row in rows if row[0] in also for t in also[row[0]]]
                first = store.reserve_edge_ids(len(beside))
                rows += [
                    (first + i, *row[1:6], f"{ALSO}{row[0]}", row[7], t, FLOW) for i, (row, t) in enumerate(beside)
                ]
                also.clear()
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


async def resolve(target: IndexTarget, new_file_ids: set[int], new_names: set[str], full: bool = False) -> int:
    """Resolve the edges this run may have changed: those of re-parsed files, those that pointed
    into them, and those whose target name a new symbol now provides."""
    store = target.store
    state = target.state
    everything = full or await store.get_meta("resolved_once") != "1"
    inheritance, calls = await store.edges_to_resolve(new_file_ids, new_names, everything)
    rebound: set[int] = set()
    if everything:
        state.symbols.returns.clear()  # every returns and passes edge is resolved again
        state.symbols.passed.clear()
    else:
        rebound, stale = state.symbols.passed.settle(new_file_ids, state.files_by_id, state.symbols.rows)
        if stale:
            seen = {e[0] for e in inheritance}
            inheritance += [e for e in await store.edges_by_id(stale) if e[0] not in seen]
    if not inheritance and not calls and not rebound:
        await store.set_meta({"resolved_once": 1})
        return 0
    bindings = await load_bindings(store)
    resolver = Resolver(state.symbols, state.file_infos(), target.languages, bindings)
    updates = await asyncio.to_thread(resolver.resolve_first, inheritance)
    calls = await their_own_edges(store, calls)
    calls += await calls_through_rebound(target, rebound | resolver.rebound, calls)
    changed = state.symbols.take_hierarchy_changes()
    bases_moved = state.symbols.take_external_base_changes()
    if not everything:  # (else every call is in `calls` already)
        calls += await calls_their_subtypes_decide(target, changed, calls)
        if bases_moved:
            calls += await calls_external_bases_decide(target, bases_moved, inheritance, bindings, calls)
    updates += await asyncio.to_thread(resolver.resolve_calls, calls)
    for i in range(0, len(updates), RESOLVE_CHUNK):
        with anyio.CancelScope(shield=True):
            await store.write_resolutions(updates[i : i + RESOLVE_CHUNK])
    with anyio.CancelScope(shield=True):
        await store.write_resolutions((), resolver.fan_out(calls))
    await store.ensure_indexes()
    await store.set_meta({"resolved_once": 1})
    return sum(1 for u in updates if u[0] is not None)
