"""The ``memories`` table: rows in, rows out (codecairn.memory keeps what agents remember).

Reads go through the store's reader connection. Writes open their own short-lived connection:
the store's writer connection belongs to the indexer, whose batch transactions span several
awaits, and a memory written on it mid-batch would join (and could be rolled back with) the
indexer's transaction. SQLite serialises the two writers; each memory write is one small
transaction, shielded from cancellation so it is written whole or not at all.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import astuple, fields
from pathlib import Path
from typing import TYPE_CHECKING

import aiosqlite
import anyio

from codecairn.errors import UNAVAILABLE, ToolError
from codecairn.model import MemoryRow
from codecairn.store import failures

if TYPE_CHECKING:
    from codecairn.store.store import Store

BUSY_TIMEOUT_MS = 20_000
SQLITE_BUSY, SQLITE_LOCKED = 5, 6


COLUMNS = [f.name for f in fields(MemoryRow)]
_SELECT = f"SELECT {', '.join(COLUMNS)} FROM memories"


async def all_rows(reader: aiosqlite.Connection) -> list[MemoryRow]:
    return [MemoryRow(*r) for r in await reader.execute_fetchall(_SELECT + " ORDER BY id")]


async def count(reader: aiosqlite.Connection) -> int:
    row = await (await reader.execute("SELECT COUNT(*) FROM memories")).fetchone()
    return int(row[0]) if row else 0


@asynccontextmanager
async def _writing(db_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    """One write transaction on a connection of its own. A damaged or read-only database raises
    what store/failures.py says of it; a busy one, a ToolError saying so."""
    with anyio.CancelScope(shield=True):
        db = await aiosqlite.connect(db_path, isolation_level=None)
        try:
            await db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            try:
                await db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if (getattr(exc, "sqlite_errorcode", 0) & 0xFF) not in (SQLITE_BUSY, SQLITE_LOCKED):
                    raise
                raise ToolError(
                    UNAVAILABLE,
                    "the index database is busy with a long write (indexing); nothing was changed, try again shortly",
                ) from exc
            try:
                yield db
                await db.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):  # SQLite may have rolled back already
                    await db.execute("ROLLBACK")
                raise
        except sqlite3.DatabaseError as exc:
            fatal = failures.classify(exc, db_path)
            if fatal is None:
                raise
            raise fatal from exc
        finally:
            await db.close()


async def insert(db_path: Path, row: MemoryRow) -> int:
    cols = COLUMNS[1:]
    async with _writing(db_path) as db:
        cursor = await db.execute(
            f"INSERT INTO memories({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})", astuple(row)[1:]
        )
        assert cursor.lastrowid is not None
        return int(cursor.lastrowid)


async def update(db_path: Path, rows: Iterable[MemoryRow]) -> None:
    rows = list(rows)
    if not rows:
        return
    cols = COLUMNS[1:]
    sql = f"UPDATE memories SET {', '.join(c + '=?' for c in cols)} WHERE id=?"
    async with _writing(db_path) as db:
        await db.executemany(sql, [(*astuple(r)[1:], r.id) for r in rows])


async def delete(db_path: Path, ids: list[int]) -> int:
    if not ids:
        return 0
    async with _writing(db_path) as db:
        cursor = await db.executemany("DELETE FROM memories WHERE id=?", [(i,) for i in ids])
        return cursor.rowcount if cursor.rowcount is not None and cursor.rowcount >= 0 else len(ids)


def salvage(db_path: Path) -> list[tuple]:
    """The memories of a database about to be rebuilt, when they can be read: they are what agents
    wrote, not derived data (``codecairn index --rebuild`` keeps them)."""
    if not db_path.exists():
        return []
    try:
        with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as con:
            return con.execute("SELECT * FROM memories").fetchall()
    except sqlite3.DatabaseError:
        return []


async def restore(store: Store, rows: list[tuple]) -> None:
    """Put salvaged memories back into a rebuilt database."""
    if rows:
        async with _writing(store.path) as db:
            await db.executemany(f"INSERT OR IGNORE INTO memories VALUES ({','.join('?' * len(rows[0]))})", rows)
