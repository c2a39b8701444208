"""The graph answers' whole-index facts, kept per index generation: the aggregates the
architecture map is computed from (GraphFacts, built in a thread from three store scans), Go's
method sets, and the members of types by qualified name — and the answers derived from them
(packages, dependencies, cycles, hotspots, entry points, the unseeded map).

Those are prepared in the background after an index run (``after_index``: the next run's
generation cancels a preparation still under way), by whatever a higher layer registered with
``prepare_with`` (the server: the architecture tool's own default call, then the facts), and the
derived answers are saved in the store per generation (``graph_answers``), so a restarted server
answers from them at once. A question arriving while they are prepared waits a bounded time
(``ready``), then is told how far the preparation is (``progress``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Collection
from typing import Any

from codecairn.index.heap import give_back_free_memory
from codecairn.index.state import IndexState
from codecairn.model import Edge
from codecairn.numeric import load_numpy
from codecairn.query.architecture import GraphFacts, build
from codecairn.query.graph import Around, most_telling
from codecairn.query.hierarchy import MembersByOwner, MethodSets
from codecairn.store import graph as graph_reads
from codecairn.store.store import Store

log = logging.getLogger("codecairn.graph")

# Edges a trace follows by default: calls, and the HTTP hops (a client's call reaches a route,
# a route its handler), so a walk can cross from a client to the service that answers it.
CALL_KINDS = ("calls", "routes_to", "http_calls")

# How long closing waits for answers still being saved: they are only a cache, a shutdown must not hang.
SAVE_GRACE_SECONDS = 5


class GraphIndex:
    def __init__(self, state: IndexState, store: Store | None) -> None:
        self.state = state
        self.store = store
        self._facts: GraphFacts | None = None
        self._method_sets: MethodSets | None = None
        self._members: MembersByOwner | None = None
        self._lock = asyncio.Lock()
        # answers derived from the whole index, for self._derived_generation: key -> value
        self._derived: dict[tuple, Any] = {}
        self._derived_generation = -1
        self._saved: dict[str, str] | None = None  # the store's saved answers for that generation
        self._saving: set[asyncio.Task] = set()
        self._preparer: Callable[[], Awaitable[None]] | None = None
        self._preparing: asyncio.Task | None = None
        self._preparing_generation = -1
        self._prepared_generation = -1  # its answers and facts are ready
        self._answered_generation = -1  # its default answers are ready (read back, or computed)
        self.progress: dict[str, Any] = {}  # what the preparation under way is doing

    # ---- answers derived per generation (kept in memory, saved in the store) ---------------------

    def _current(self) -> dict[tuple, Any]:
        if self._derived_generation != self.state.generation:
            self._derived, self._saved = {}, None
            self._derived_generation = self.state.generation
        return self._derived

    def derived(self, key: tuple) -> tuple[bool, Any]:
        """(True, the answer) when ``key`` was answered for the current generation."""
        current = self._current()
        return (key in current, current.get(key))

    async def saved(self, key: tuple) -> Any | None:
        """The JSON value saved in the store for ``key`` and the current generation, or None."""
        self._current()
        if self._saved is None and self.store is not None:
            generation = self.state.generation
            try:
                found = await graph_reads.saved_answers(self.store, generation)
            except Exception as exc:  # an older database, a damaged one: computed again instead
                log.info("saved graph answers unreadable: %s", exc)
                found = {}
            if generation == self.state.generation:
                self._saved = found
        raw = (self._saved or {}).get(repr(key))
        return json.loads(raw) if raw is not None else None

    def keep(self, key: tuple, generation: int, value: Any, encoded: Any | None = None) -> None:
        """Keep ``value`` as the answer to ``key`` for ``generation`` (dropped if the index moved on
        meanwhile); ``encoded`` (JSON-able) is also saved in the store, in the background."""
        if generation != self.state.generation:
            return
        self._current()[key] = value
        if encoded is None or self.store is None or self.store.read_only is not None:
            return
        if self._saved is not None and repr(key) in self._saved:
            return
        text = json.dumps(encoded, separators=(",", ":"))
        if self._saved is not None:
            self._saved[repr(key)] = text
        task = asyncio.ensure_future(self._save(generation, repr(key), text))
        self._saving.add(task)
        task.add_done_callback(self._saving.discard)

    async def _save(self, generation: int, key: str, text: str) -> None:
        assert self.store is not None
        try:
            await graph_reads.save_answer(self.store.path, generation, key, text)
        except Exception as exc:  # busy with a long write, read-only, full: it is only a cache
            log.info("graph answer %s not saved: %s", key, exc)

    # ---- preparing them in the background ----------------------------------------------------------

    def prepare_with(self, preparer: Callable[[], Awaitable[None]]) -> None:
        """Register what prepares a generation's answers (the server: the architecture tool's default
        call); from then on every index run starts it, and a question waits for it (``ready``)."""
        self._preparer = preparer

    def after_index(self) -> None:
        """An index run finished: prepare its generation's answers, cancelling the preparation of an
        older generation still under way."""
        if self._preparer is None or self._prepared_generation == self.state.generation:
            return
        if self._preparing is not None and not self._preparing.done():
            if self._preparing_generation == self.state.generation:
                return
            self._preparing.cancel()
        self._preparing_generation = self.state.generation
        self._preparing = asyncio.ensure_future(self._prepare(self.state.generation))

    async def _prepare(self, generation: int) -> None:
        assert self._preparer is not None
        started = time.perf_counter()
        self.progress = {"generation": generation, "phase": "starting", "started": started}
        try:
            load_numpy()  # here, not in the preparer's thread (codecairn.numeric)
            await self._preparer()
            if generation == self.state.generation:
                self._answered_generation = generation
            await self.facts()  # what a seeded map needs, too
            if generation == self.state.generation:
                self._prepared_generation = generation
            log.info("graph answers of generation %d prepared in %.2fs", generation, time.perf_counter() - started)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception(
                "preparing the graph answers of generation %d failed; they are computed on demand", generation
            )
            self._prepared_generation = generation  # not tried again for this generation: asked for, computed
        finally:
            self.progress = {}
            # The store's rows the answers and facts were built from are garbage now: on CPython's Lib
            # 12 MB of heap the server kept, measured.
            give_back_free_memory()

    async def close(self) -> None:
        """Before the store closes: the preparation under way is cancelled (it would read a closed
        database), the answers being saved are given a few seconds to finish."""
        preparing, self._preparer = self._preparing, None
        if preparing is not None and not preparing.done():
            preparing.cancel()
            await asyncio.gather(preparing, return_exceptions=True)
        if self._saving:
            await asyncio.wait(list(self._saving), timeout=SAVE_GRACE_SECONDS)

    def step(self, phase: str) -> None:
        """The preparation under way is now doing ``phase`` (shown to whoever waits)."""
        if self.progress:
            self.progress["phase"] = phase
            self.progress["steps"] = self.progress.get("steps", 0) + 1

    async def ready(self, wait: float, facts: bool = False) -> dict[str, Any] | None:
        """None when the current generation's answers can be had now (prepared, or nobody prepares
        them: they are computed on demand) — with ``facts``, also the whole-index facts a seeded or
        non-default answer is computed from; else, having waited at most ``wait`` seconds for the
        preparation (started now if it was not), how far it is."""
        if self._is_ready(facts) or self._preparer is None:
            return None
        if self._preparing is not None and asyncio.current_task() is self._preparing:
            return None  # the preparation's own questions
        self.after_index()
        deadline = time.perf_counter() + wait
        while (task := self._preparing) is not None:
            if self._is_ready(facts):
                return None
            left = deadline - time.perf_counter()
            if left <= 0:
                break
            # Waiting never cancels the preparation; a step at a time, so the default answer is
            # given as soon as it is there, while the facts go on being built.
            done, _ = await asyncio.wait({task}, timeout=min(left, 0.05))
            if done and not self._is_ready(facts):
                if task.cancelled() or self._preparing_generation == self.state.generation:
                    break
                self.after_index()  # it was for a generation the index has left since
        if self._is_ready(facts) or self._preparing is None:
            return None
        progress = dict(self.progress) or {"phase": "starting"}
        progress["seconds"] = round(time.perf_counter() - progress.pop("started", time.perf_counter()), 1)
        return progress

    def _is_ready(self, facts: bool) -> bool:
        generation = self.state.generation
        return self._prepared_generation == generation or (not facts and self._answered_generation == generation)

    async def facts(self) -> GraphFacts:
        state, store = self.state, self.store
        assert store is not None
        async with self._lock:
            if self._facts is not None and self._facts.generation == state.generation:
                return self._facts
            generation = state.generation
            self.step("reading the references")
            references = await graph_reads.reference_counts(store)
            fan_out = await graph_reads.call_fan_out(store)
            imports = await graph_reads.import_rows(store)
            self.step("aggregating them")
            facts = await asyncio.to_thread(build, state, references, fan_out, imports)
            facts.generation = generation
            self._facts = facts
            return facts

    def method_sets(self) -> MethodSets:
        if self._method_sets is None or self._method_sets.generation != self.state.generation:
            self._method_sets = MethodSets(self.state)
        return self._method_sets

    def members(self) -> MembersByOwner:
        if self._members is None or self._members.generation != self.state.generation:
            self._members = MembersByOwner(self.state)
        return self._members

    def fetcher(self, kinds: Collection[str]):
        """A query.graph.Fetch over the store, for edges of ``kinds``."""
        store = self.store
        assert store is not None
        kinds = tuple(kinds)

        async def fetch(ids: Collection[int], direction: str) -> list[Edge]:
            return await graph_reads.edges_touching(store, ids, direction, kinds)

        return fetch

    def around(self, kinds: Collection[str]) -> Around:
        """A query.graph.Around over the store, for edges of ``kinds``: the ends of every edge around
        a level's symbols from a covering index, the most telling chosen, whole rows for those only."""
        store = self.store
        assert store is not None
        kinds = tuple(kinds)

        async def around(
            ids: Collection[int], direction: str, fan_out: int
        ) -> tuple[dict[int, list[Edge]], dict[int, int]]:
            by_near: dict[int, list[graph_reads.EdgeEnds]] = {}
            for ends in await graph_reads.edge_ends(store, ids, direction, kinds):
                by_near.setdefault(ends[1], []).append(ends)
            totals = {near: len(found) for near, found in by_near.items()}
            for near, found in by_near.items():
                if len(found) > fan_out:
                    by_near[near] = most_telling(found, lambda r: r[2], lambda r: r[3])[:fan_out]
            edges = await graph_reads.edges_by_id(store, [r[0] for found in by_near.values() for r in found])
            return {near: [edges[r[0]] for r in found] for near, found in by_near.items()}, totals

        return around
