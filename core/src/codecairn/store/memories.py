"""The ``memories`` table: rows in, rows out (codecairn.memory keeps what agents remember).

Reads go through the store's reader connection. Writes open their own short-lived connection:
the store's writer connection belongs to the indexer, whose batch transactions span several
awaits, and a memory written on it mid-batch would join (and could be rolled back with) the
indexer's transaction. SQLite serialises the two writers; each memory write is one small
transaction, shielded from cancellation so it is written whole or not at all.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import astuple, fields
from pathlib import Path
from typing import TYPE_CHECKING

import aiosqlite

from codecairn.model import MemoryRow
from codecairn.store.transactions import one_transaction as _writing

if TYPE_CHECKING:
    from codecairn.store.store import Store


COLUMNS = [f.name for f in fields(MemoryRow)]
_SELECT = f"SELECT {', '.join(COLUMNS)} FROM memories"


async def all_rows(reader: aiosqlite.Connection) -> list[MemoryRow]:
    return [MemoryRow(*r) for r in await reader.execute_fetchall(_SELECT + " ORDER BY id")]


async def count(reader: aiosqlite.Connection) -> int:
    row = await (await reader.execute("SELECT COUNT(*) FROM memories")).fetchone()
    return int(row[0]) if row else 0


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
