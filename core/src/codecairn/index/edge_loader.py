"""A first index's edges, inserted and indexed by a helper process while the next chunk resolves.

By the time the edges resolve, the parse workers are done: one core idles. Inserting the resolved
rows and then building the four edge indexes took ≈ 1.5 s of CPython's Lib's ≈ 2.9 s resolution
phase in the indexing process itself, where the store's thread and the resolver only take turns
(both need the GIL). A helper process with its own SQLite connection does that part on the other
core, with up to IN_FLIGHT chunks on their way while the next one resolves. The indexes that rows
append to are kept up as they come (Store.EDGE_INDEXES_KEPT_WHILE_LOADING); the others are built at
the end.

The store stays as consistent as before: each chunk is one transaction, the chunks written are always
the first ones (once one fails, the helper refuses the rest), and a cancelled run waits for the
chunks in flight before it counts what was written (see EdgeBuffer.written).
"""

from __future__ import annotations

import asyncio
from collections import deque
from pathlib import Path

import anyio

from codecairn.index.edge_buffer import EdgeBuffer
from codecairn.index.process_pool import ProcessPool
from codecairn.store.bulk import build_indexes, create_indexes, insert_edges
from codecairn.store.store import Store, edge_index_statements

# Chunks handed to the helper before the indexing process waits for the oldest: the two sides take
# about as long over a whole run, but not chunk by chunk (a test directory's edges resolve fast and
# insert slowly, a package's the other way round); with one in flight each waited for the other in
# turn (0.3-0.5 s of CPython's Lib's resolution phase), a second one evens that out.
IN_FLIGHT = 2


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
        self._in_flight: deque[tuple[asyncio.Future, int]] = deque()  # (chunk written, its end), oldest first
        self._failed = False  # a chunk failed: the error was raised once, the chunks after it refused

    async def insert(self, rows: list[tuple], end: int, edges: EdgeBuffer) -> None:
        """Send a chunk (edges up to position ``end``) once fewer than IN_FLIGHT are on their way."""
        await self._ready()
        while len(self._in_flight) >= IN_FLIGHT:
            await self._written_one(edges)
        self._in_flight.append((asyncio.wrap_future(self._helper.submit(insert_edges, self._path, rows)), end))

    async def settle(self, edges: EdgeBuffer) -> None:
        """Wait for every chunk in flight — a cancel waits too: a chunk is written whole or not at
        all — and count them as written."""
        await self._ready()
        while self._in_flight:
            await self._written_one(edges)

    async def _ready(self) -> None:
        prepared, self._prepared = self._prepared, None
        if prepared is not None:
            with anyio.CancelScope(shield=True):
                await prepared

    async def _written_one(self, edges: EdgeBuffer) -> None:
        """Wait for the oldest chunk in flight (the helper writes them in order) and count it."""
        fut, end = self._in_flight.popleft()
        try:
            with anyio.CancelScope(shield=True):
                await fut
        except Exception:
            if self._failed:  # refused after the chunk that failed (bulk.insert_edges): no hole
                return
            self._failed = True
            raise
        if not self._failed:
            edges.written = end

    async def finish(self, edges: EdgeBuffer) -> None:
        await self.settle(edges)
        with anyio.CancelScope(shield=True):
            # Every index, IF NOT EXISTS: those kept up while loading are passed over.
            await asyncio.wrap_future(self._helper.submit(build_indexes, self._path, edge_index_statements()))

    def close(self) -> None:
        self._helper.shutdown()
