"""The SQL a helper process runs to bulk-load a first index's edges (index/edge_loader.py): its own
connection to the database, one transaction per chunk, then the edge indexes. Module-level
functions, so the helper can be handed them by name."""

from __future__ import annotations

import contextlib
import sqlite3

from codecairn.store.store import INSERT_EDGES_SQL

_connections: dict[str, sqlite3.Connection] = {}


def _connection(path: str) -> sqlite3.Connection:
    conn = _connections.get(path)
    if conn is None:
        conn = _connections[path] = sqlite3.connect(path, isolation_level=None)
        conn.execute("PRAGMA busy_timeout=5000")
        conn.execute("PRAGMA synchronous=NORMAL")
        # Index builds sort the whole table: through a temporary file, as Store.ensure_indexes does.
        conn.execute("PRAGMA temp_store=FILE")
    return conn


def insert_edges(path: str, rows: list[tuple]) -> int:
    """In the helper: one chunk, one transaction."""
    conn = _connection(path)
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.executemany(INSERT_EDGES_SQL, rows)
        conn.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):  # SQLite may have rolled back already
            conn.execute("ROLLBACK")
        raise
    return len(rows)


def build_indexes(path: str, statements: list[str]) -> None:
    """In the helper: the edge indexes, once every edge is in."""
    conn = _connection(path)
    try:
        for sql in statements:
            conn.execute(sql)
    finally:
        conn.close()
        del _connections[path]
