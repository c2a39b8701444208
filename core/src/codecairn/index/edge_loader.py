"""A first index's edges, inserted and indexed by a helper process while the next chunk resolves.

By the time the edges resolve, the parse workers are done: one core idles. Inserting the resolved
rows and then building the four edge indexes took ≈ 1.5 s of CPython's Lib's ≈ 2.9 s resolution
phase in the indexing process itself, where the store's thread and the resolver only take turns
(both need the GIL). A helper process with its own SQLite connection does that part on the other
core: one chunk in flight while the next one resolves. The indexes that rows append to are kept up
as they come (Store.EDGE_INDEXES_KEPT_WHILE_LOADING); the others are built at the end.

The store stays as consistent as before: each chunk is one transaction, and a cancelled run waits
for the chunk in flight before it counts what was written (see EdgeBuffer.written).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import anyio

from codecairn.index.edge_buffer import EdgeBuffer
from codecairn.index.process_pool import ProcessPool
from codecairn.store.bulk import build_indexes, create_indexes, insert_edges
from codecairn.store.store import Store, edge_index_statements


class EdgeLoader:
    """The indexing process's side: ``insert`` a resolved chunk, ``finish`` with the indexes."""

    def __init__(self, path: Path) -> None:
        self._path = str(path)
        self._helper = ProcessPool(1)  # started now: it boots while the bindings load
        # The helper runs its calls in order: these indexes exist before the first chunk comes.
        self._prepared: asyncio.Future | None = asyncio.wrap_future(
            self._helper.submit(
                create_indexes, self._path, edge_index_statements(Store.EDGE_INDEXES_KEPT_WHILE_LOADING)
            )
        )
        self._in_flight: asyncio.Future | None = None
        self._in_flight_end = 0

    async def insert(self, rows: list[tuple], end: int, edges: EdgeBuffer) -> None:
        """Send a chunk (edges up to position ``end``) once the one before it is written."""
        await self.settle(edges)
        self._in_flight = asyncio.wrap_future(self._helper.submit(insert_edges, self._path, rows))
        self._in_flight_end = end

    async def settle(self, edges: EdgeBuffer) -> None:
        """Wait for the chunk in flight — a cancel waits too: a chunk is written whole or not at
        all — and count it as written."""
        prepared, self._prepared = self._prepared, None
        if prepared is not None:
            with anyio.CancelScope(shield=True):
                await prepared
        fut, self._in_flight = self._in_flight, None
        if fut is not None:
            with anyio.CancelScope(shield=True):
                await fut
            edges.written = self._in_flight_end

    async def finish(self, edges: EdgeBuffer) -> None:
        await self.settle(edges)
        with anyio.CancelScope(shield=True):
            # Every index, IF NOT EXISTS: those kept up while loading are passed over.
            await asyncio.wrap_future(self._helper.submit(build_indexes, self._path, edge_index_statements()))

    def close(self) -> None:
        self._helper.shutdown()
