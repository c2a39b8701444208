"""The ``mcp_calls`` table in PostgreSQL: the metrics log's records, one row each, for SQL
analysis across sessions and workspaces (docs/metrics.md has example queries).

Created on first connection, with indexes for the questions people ask of it (by session, over
time, by tool, by workspace). Rows are keyed by the record's id, so writing a record twice — a
backfill after an outage re-sends what may already be there — changes nothing.

Functions take an open psycopg 3 connection (codecairn.metrics.postgres owns connections);
psycopg itself is only imported by that module, when the ``postgres`` extra is installed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

COLUMNS = (
    "id", "ts", "session_id", "root", "tool", "outcome", "cache_hit", "error", "symbol", "file_path",
    "duration_ms", "answer_bytes", "tokens_used", "tokens_saved", "file_tokens", "files", "tokenizer",
)  # fmt: skip

CREATE = [
    # One creator at a time: two servers starting together would otherwise race on the catalog.
    "SELECT pg_advisory_xact_lock(hashtext('codecairn.mcp_calls'))",
    """
    CREATE TABLE IF NOT EXISTS mcp_calls (
        id TEXT PRIMARY KEY,                  -- the record's id: re-sending a record is a no-op
        ts TIMESTAMPTZ NOT NULL,              -- when the call was received
        session_id TEXT NOT NULL,             -- one server run
        root TEXT NOT NULL,                   -- the served workspace
        tool TEXT NOT NULL,
        outcome TEXT NOT NULL,                -- hit | miss | error
        cache_hit BOOLEAN NOT NULL,           -- outcome = 'hit'
        error TEXT,                           -- the error code, when there was one
        symbol TEXT,
        file_path TEXT,
        duration_ms DOUBLE PRECISION NOT NULL,
        answer_bytes INTEGER NOT NULL,
        tokens_used INTEGER NOT NULL,         -- the answer's tokens
        tokens_saved INTEGER NOT NULL,        -- file_tokens - tokens_used for a hit, else 0
        file_tokens INTEGER NOT NULL,         -- the whole files the answer stands in for
        files JSONB,                          -- [[path, tokens], ...] of those files (at most 50)
        tokenizer TEXT NOT NULL               -- cl100k_base, or bytes/4
    )
    """,
    "CREATE INDEX IF NOT EXISTS mcp_calls_session ON mcp_calls (session_id, ts)",
    "CREATE INDEX IF NOT EXISTS mcp_calls_ts ON mcp_calls (ts)",
    "CREATE INDEX IF NOT EXISTS mcp_calls_tool ON mcp_calls (tool, ts)",
    "CREATE INDEX IF NOT EXISTS mcp_calls_root ON mcp_calls (root, ts)",
]

INSERT = (
    f"INSERT INTO mcp_calls ({', '.join(COLUMNS)}) VALUES ({', '.join(['%s'] * len(COLUMNS))}) "
    "ON CONFLICT (id) DO NOTHING"
)


def ensure_table(conn: Any) -> None:
    """Create the table and its indexes if they are not there (one transaction)."""
    with conn.transaction():
        for statement in CREATE:
            conn.execute(statement)


def row_of(record: Any) -> tuple:
    """A metrics.record.CallRecord as a row of mcp_calls."""
    return (
        record.id, record.time, record.session_id, record.root, record.tool, record.outcome,
        record.outcome == "hit", record.error, record.symbol, record.path, float(record.duration_ms),
        int(record.answer_bytes), int(record.tokens_used), int(record.tokens_saved), int(record.file_tokens),
        json.dumps(record.files) if record.files else None, record.tokenizer or "",
    )  # fmt: skip


def insert(conn: Any, records: Sequence[Any]) -> None:
    """Write records in one transaction; those already there are left as they are."""
    if not records:
        return
    with conn.transaction(), conn.cursor() as cur:
        cur.executemany(INSERT, [row_of(r) for r in records])


def count(conn: Any, root: str | None = None) -> int:
    sql = "SELECT count(*) FROM mcp_calls" + (" WHERE root = %s" if root is not None else "")
    return int(conn.execute(sql, (root,) if root is not None else ()).fetchone()[0])


def ids(conn: Any, root: str | None = None) -> set[str]:
    sql = "SELECT id FROM mcp_calls" + (" WHERE root = %s" if root is not None else "")
    return {r[0] for r in conn.execute(sql, (root,) if root is not None else ())}


def rows(conn: Any, root: str | None = None, since: str | None = None) -> Iterable[dict[str, Any]]:
    """Every row (of one workspace, from a time on), oldest first, as a metrics record's JSON."""
    where, params = [], []
    if root is not None:
        where.append("root = %s")
        params.append(root)
    if since is not None:
        where.append("ts >= %s")
        params.append(since)
    sql = (
        "SELECT id, ts, session_id, root, tool, outcome, error, symbol, file_path, duration_ms, answer_bytes, "
        "tokens_used, tokens_saved, file_tokens, files, tokenizer FROM mcp_calls"
        + (f" WHERE {' AND '.join(where)}" if where else "")
        + " ORDER BY ts, id"
    )
    with conn.cursor() as cur:
        cur.execute(sql, params)
        for r in cur:
            files = r[14]
            if isinstance(files, str):
                files = json.loads(files)
            yield {
                "id": r[0], "time": r[1].isoformat(), "session_id": r[2], "root": r[3], "tool": r[4],
                "outcome": r[5], "error": r[6], "symbol": r[7], "path": r[8], "duration_ms": r[9],
                "answer_bytes": r[10], "tokens_used": r[11], "tokens_saved": r[12], "file_tokens": r[13],
                "files": files or [], "tokenizer": r[15],
            }  # fmt: skip
