"""The graph answers' whole-index facts, kept per index generation: the aggregates the
architecture map is computed from (GraphFacts, built in a thread from three store scans), Go's
method sets, and the members of types by qualified name. Built on the first question that needs
them after the index changed; every later answer of that generation is arithmetic over them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection

from codecairn.index.state import IndexState
from codecairn.model import Edge
from codecairn.query.architecture import GraphFacts, build
from codecairn.query.graph import Around, most_telling
from codecairn.query.hierarchy import MembersByOwner, MethodSets
from codecairn.store import graph as graph_reads
from codecairn.store.store import Store

# Edges a trace follows by default: calls, and the HTTP hops (a client's call reaches a route,
# a route its handler), so a walk can cross from a client to the service that answers it.
CALL_KINDS = ("calls", "routes_to", "http_calls")


class GraphIndex:
    def __init__(self, state: IndexState, store: Store | None) -> None:
        self.state = state
        self.store = store
        self._facts: GraphFacts | None = None
        self._method_sets: MethodSets | None = None
        self._members: MembersByOwner | None = None
        self._lock = asyncio.Lock()

    async def facts(self) -> GraphFacts:
        state, store = self.state, self.store
        assert store is not None
        async with self._lock:
            if self._facts is not None and self._facts.generation == state.generation:
                return self._facts
            generation = state.generation
            references = await graph_reads.reference_counts(store)
            fan_out = await graph_reads.call_fan_out(store)
            imports = await graph_reads.import_rows(store)
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
