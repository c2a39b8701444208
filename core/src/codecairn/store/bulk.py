"""The SQL a helper process runs to bulk-load a first index's edges (index/edge_loader.py): its own
connection to the database, one transaction per chunk, then the edge indexes. Module-level
functions, so the helper can be handed them by name."""

from __future__ import annotations

import contextlib
import sqlite3

from codecairn.store.store import INSERT_EDGES_SQL

_connections: dict[str, sqlite3.Connection] = {}
_failed: set[str] = set()  # databases a chunk of edges failed to go into (insert_edges)


def _connection(path: str) -> sqlite3.Connection:
    conn = _connections.get(path)
    if conn is None:
        conn = _connections[path] = sqlite3.connect(path, isolation_level=None)
        conn.execute("PRAGMA busy_timeout=5000")
        conn.execute("PRAGMA synchronous=NORMAL")
        # Index builds sort the whole table: through a temporary file, as Store.ensure_indexes does,
        # and with a second thread (the indexing process only waits for the last ones).
        conn.execute("PRAGMA temp_store=FILE")
        conn.execute("PRAGMA threads=2")
    return conn


def insert_edges(path: str, rows: list[tuple]) -> int:
    """In the helper: one chunk, one transaction. Once a chunk fails, so does every later one: the
    indexing process counts the chunks written from the first (EdgeLoader), and a later chunk
    already on its way must not leave a hole behind the one that failed."""
    if path in _failed:
        raise RuntimeError("an earlier chunk of edges was not written")
    conn = _connection(path)
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.executemany(INSERT_EDGES_SQL, rows)
        conn.execute("COMMIT")
    except BaseException:
        _failed.add(path)
        with contextlib.suppress(sqlite3.Error):  # SQLite may have rolled back already
            conn.execute("ROLLBACK")
        raise
    return len(rows)


def create_indexes(path: str, statements: list[str]) -> None:
    """In the helper, before the first chunk: the edge indexes kept up while the rows come."""
    conn = _connection(path)
    for sql in statements:
        conn.execute(sql)


def build_indexes(path: str, statements: list[str]) -> None:
    """In the helper: the other edge indexes, once every edge is in; then the connection goes."""
    try:
        create_indexes(path, statements)
    finally:
        _failed.discard(path)
        _connections.pop(path).close()
