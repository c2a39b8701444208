"""One write transaction on a connection of its own, for writers other than the indexer (memories,
the edit history): the store's writer connection belongs to the indexer, whose batch transactions
span several awaits, and a write made on it mid-batch would join (and could be rolled back with)
the indexer's transaction. SQLite serialises the two writers; each of these is one small
transaction, shielded from cancellation so it is written whole or not at all.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite
import anyio

from codecairn.errors import UNAVAILABLE, ToolError
from codecairn.store import failures

BUSY_TIMEOUT_MS = 20_000
SQLITE_BUSY, SQLITE_LOCKED = 5, 6


@asynccontextmanager
async def one_transaction(db_path: Path) -> AsyncIterator[aiosqlite.Connection]:
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
