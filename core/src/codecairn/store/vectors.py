"""The ``embeddings`` table: vectors keyed by a hash of (model, embedded text), through a
connection of the embedding job's own (its writes must not join the indexer's transactions).
A read-only index is read through a read-only connection and never written."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import aiosqlite

from codecairn.store.failures import read_only_uri

BUSY_TIMEOUT_MS = 30_000


class VectorTable:
    def __init__(self, db: aiosqlite.Connection, writes: bool) -> None:
        self._db = db
        self.writes = writes

    @classmethod
    async def open(cls, path: Path, writes: bool) -> VectorTable:
        if writes:
            db = await aiosqlite.connect(path, isolation_level=None)
        else:
            db = await aiosqlite.connect(read_only_uri(path), uri=True, isolation_level=None)
        try:
            await db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        except BaseException:
            await db.close()
            raise
        return cls(db, writes)

    async def close(self) -> None:
        await self._db.close()

    async def start_over(self, model_id: str) -> None:
        """Another model: every stored vector is dropped, and the new model recorded."""
        await self._db.execute("DELETE FROM embeddings")
        await self._db.execute(
            "INSERT INTO meta(key, value) VALUES ('embedding_model', ?) "
            "ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            (model_id,),
        )

    async def stored(self, hashes: list[str]) -> dict[str, bytes]:
        if not hashes:
            return {}
        rows = await self._db.execute_fetchall(
            f"SELECT hash, vector FROM embeddings WHERE hash IN ({','.join('?' * len(hashes))})", hashes
        )
        return dict(rows)  # type: ignore[arg-type]

    async def insert(self, rows: list[tuple[str, str, bytes]]) -> None:
        """(hash, model, vector) rows."""
        await self._db.executemany("INSERT OR REPLACE INTO embeddings VALUES (?, ?, ?)", rows)

    async def delete(self, hashes: Iterable[str]) -> None:
        hashes = list(hashes)
        for i in range(0, len(hashes), 500):
            chunk = hashes[i : i + 500]
            await self._db.execute(f"DELETE FROM embeddings WHERE hash IN ({','.join('?' * len(chunk))})", chunk)
