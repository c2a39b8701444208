"""What semantic search reads from and writes to the store: the facts a symbol's text and its
ranking priors are made of, and the vectors themselves.

Vectors live in the ``embeddings`` table keyed by a hash of (model id, embedded text), so a symbol
whose text did not change keeps its vector whatever its row id becomes. They are written through
a connection of their own: the indexer's batch transactions stay open across awaits on the store's
writer connection, and a vector written there would join (and wait for) a batch it has nothing to
do with. SQLite serialises the two writers; the vectors' connection waits up to 30 s for a batch.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Iterator
from typing import TYPE_CHECKING, NamedTuple

import aiosqlite

if TYPE_CHECKING:
    from codecairn.store.store import Store

MODEL_KEY = "embedding_model"
COMPLETE_KEY = "embedded_generation"  # the index generation whose every symbol had a vector
_CHUNK = 500  # host parameters per statement, well under SQLite's limit
WRITER_CACHE_KIB = 256  # the vector writer's page cache (see VectorStore._writer)
_FACTS = "SELECT id, file_id, parent_id, kind, name, qualified_name, signature, doc, modifiers FROM symbols"


class SymbolFacts(NamedTuple):
    """A symbol as semantic search sees it: what its text is made of and what its priors read."""

    id: int
    file_id: int
    parent_id: int | None
    kind: str
    name: str
    qualified_name: str
    signature: str
    doc: str
    modifiers: str  # space separated, as stored


class ExportFacts(NamedTuple):
    file_id: int
    name: str
    kind: str  # "all" for a Python ``__all__`` entry
    source: str  # the module a re-exported name comes from ("" when defined here)


def _chunks(items: list, size: int = _CHUNK) -> Iterator[list]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class VectorStore:
    """The semantic queries of one store. Reads go through the store's reader connection."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._db: aiosqlite.Connection | None = None

    @property
    def writes(self) -> bool:
        """False for an index served read-only: its stored vectors are used, new ones live in
        memory only."""
        return self.store.read_only is None

    async def _writer(self) -> aiosqlite.Connection:
        if self._db is None:
            self._db = await aiosqlite.connect(self.store.path, isolation_level=None)
            await self._db.execute("PRAGMA busy_timeout=30000")
            # It appends vectors and deletes unused ones: a few pages of the hash index at a time.
            # SQLite's default cache (2 MB) filled up for nothing while CPython's Lib was embedded.
            await self._db.execute(f"PRAGMA cache_size=-{WRITER_CACHE_KIB}")
        return self._db

    async def close(self) -> None:
        if self._db is not None:
            db, self._db = self._db, None
            await db.close()

    # ---- facts ----------------------------------------------------------------------------------

    async def symbol_facts(self, ids: Iterable[int] | None = None) -> list[SymbolFacts]:
        """Facts of the given symbols (all symbols when ``ids`` is None), in no particular order."""
        new = tuple.__new__
        if ids is None:
            return [new(SymbolFacts, r) for r in await self.store.fetch(_FACTS)]
        out: list[SymbolFacts] = []
        for chunk in _chunks(list(ids)):
            rows = await self.store.fetch(f"{_FACTS} WHERE id IN ({','.join('?' * len(chunk))})", chunk)
            out.extend(new(SymbolFacts, r) for r in rows)
        return out

    async def scope_facts(self, kinds: Iterable[str]) -> list[SymbolFacts]:
        """Facts of every symbol of the given kinds (the modules, packages and classes that other
        symbols sit inside)."""
        kinds = list(kinds)
        new = tuple.__new__
        rows = await self.store.fetch(f"{_FACTS} WHERE kind IN ({','.join('?' * len(kinds))})", kinds)
        return [new(SymbolFacts, r) for r in rows]

    async def exports(self) -> list[ExportFacts]:
        new = tuple.__new__
        return [new(ExportFacts, r) for r in await self.store.fetch("SELECT file_id, name, kind, source FROM exports")]

    async def referencing_files(self, ids: Iterable[int] | None = None) -> dict[int, int]:
        """Symbol id -> how many files use it through a resolved edge (calls, extends, implements,
        references): how central it is to the project. Symbols nobody uses are absent."""
        sql = "SELECT target_id, COUNT(DISTINCT file_id) FROM edges WHERE target_id IS NOT NULL"
        if ids is None:
            return dict(await self.store.fetch(f"{sql} GROUP BY target_id"))
        out: dict[int, int] = {}
        for chunk in _chunks(list(ids)):
            rows = await self.store.fetch(
                f"{sql} AND target_id IN ({','.join('?' * len(chunk))}) GROUP BY target_id", chunk
            )
            out.update(rows)
        return out

    # ---- vectors --------------------------------------------------------------------------------

    async def model(self) -> str | None:
        return await self.store.get_meta(MODEL_KEY)

    async def complete_generation(self) -> int | None:
        value = await self.store.get_meta(COMPLETE_KEY)
        return int(value) if value is not None else None

    async def set_complete_generation(self, generation: int) -> None:
        if not self.writes:
            return
        db = await self._writer()
        await db.execute(
            "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            (COMPLETE_KEY, str(generation)),
        )

    async def reset(self, model_id: str) -> None:
        """A new model (or text recipe): every stored vector is void."""
        if not self.writes:
            return
        db = await self._writer()
        await db.execute("BEGIN IMMEDIATE")
        try:
            await db.execute("DELETE FROM embeddings")
            await db.execute("DELETE FROM meta WHERE key=?", (COMPLETE_KEY,))
            await db.execute(
                "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                (MODEL_KEY, model_id),
            )
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise

    async def all_vectors(self) -> list[tuple[str, bytes]]:
        """Every stored (hash, vector BLOB)."""
        return await self.store.fetch("SELECT hash, vector FROM embeddings")

    async def hash_chunks(self, chunk: int = 8192) -> AsyncIterator[list[str]]:
        """Every stored vector's hash, ``chunk`` at a time in order; never the BLOBs (reading every
        (hash, vector) row at once put 40 MB on the server's peak at the end of embedding
        CPython's Lib)."""
        after = ""
        while True:
            rows = await self.store.fetch(
                "SELECT hash FROM embeddings WHERE hash > ? ORDER BY hash LIMIT ?", (after, chunk)
            )
            if not rows:
                return
            yield [h for (h,) in rows]
            after = rows[-1][0]

    async def vectors(self, hashes: Iterable[str]) -> dict[str, bytes]:
        out: dict[str, bytes] = {}
        for chunk in _chunks(list(hashes)):
            rows = await self.store.fetch(
                f"SELECT hash, vector FROM embeddings WHERE hash IN ({','.join('?' * len(chunk))})", chunk
            )
            out.update(rows)
        return out

    async def put_vectors(self, model_id: str, rows: list[tuple[str, bytes]]) -> None:
        """Store (hash, vector BLOB) pairs in one transaction."""
        if not rows:
            return
        if not self.writes:
            return
        db = await self._writer()
        await db.execute("BEGIN IMMEDIATE")
        try:
            await db.executemany(
                "INSERT OR REPLACE INTO embeddings(hash, model, vector) VALUES (?, ?, ?)",
                [(h, model_id, blob) for h, blob in rows],
            )
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise

    async def delete_vectors(self, hashes: Iterable[str]) -> None:
        if not self.writes:
            return
        db = await self._writer()
        await db.execute("BEGIN IMMEDIATE")
        try:
            for chunk in _chunks(list(hashes)):
                await db.execute(f"DELETE FROM embeddings WHERE hash IN ({','.join('?' * len(chunk))})", chunk)
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise

    async def count(self) -> int:
        rows = await self.store.fetch("SELECT COUNT(*) FROM embeddings")
        return rows[0][0]
