"""query_graph's SQL: an agent's own SELECT over the documented graph views, and nothing else.

Each query gets a connection of its own, opened read-only (``mode=ro``) and ``query_only``, in a
worker thread. Its unqualified names ``files``, ``symbols``, ``edges``, ``imports`` and ``routes``
are temporary views over the stable views of migration 5 (``graph_*``), so a query reads the same
columns whatever the tables underneath become. An authorizer lets a statement read those views and
nothing else (no table behind them directly, no memories, no vectors, no PRAGMA, no ATTACH); a
progress handler stops it inside SQLite once its time is up or the call was cancelled; rows stop at
the limit. An error names what was wrong and, for a bad column or table, what there is.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import threading
import time
from pathlib import Path

from codecairn.model import QueryResult
from codecairn.store.failures import read_only_uri

# The views an agent queries, their columns and what each column holds (docs/tools.md repeats it).
VIEWS: dict[str, dict[str, str]] = {
    "files": {
        "id": "file id",
        "path": "root-relative path",
        "language": "language name",
        "module": "the file's module / package as its language names it",
        "lines": "line count",
        "size_bytes": "size",
        "partial": "1 when the parse had errors (facts outside them are still there)",
    },
    "symbols": {
        "id": "symbol id",
        "kind": "class, method, function, route, ...",
        "name": "short name",
        "qualified_name": "pkg.mod.Class.method",
        "path": "file path",
        "file_id": "files.id",
        "parent_id": "the enclosing symbol's id, NULL at top level",
        "start_line": "first line (1-based)",
        "end_line": "last line",
        "signature": "declaration line(s); NULL when none",
        "doc": "first line of the doc comment; NULL when none",
    },
    "edges": {
        "id": "edge id",
        "kind": "calls, references, extends, implements, routes_to, http_calls",
        "source_id": "the symbol it occurs in (NULL: file level)",
        "source": "its qualified name",
        "target_id": "the resolved symbol, NULL when unresolved",
        "target": "its qualified name",
        "written": "the target as written at the site",
        "receiver": "text before the name at a call site (self, obj.items); NULL when none",
        "path": "file of the site",
        "line": "line of the site",
        "resolution": "exact, import, inherited, name-only, route; NULL when unresolved",
    },
    "imports": {
        "file_id": "files.id",
        "path": "importing file",
        "module": "module as written",
        "name": "imported member ('' = the module, '*' = wildcard)",
        "alias": "local name; NULL when none",
        "line": "line",
        "kind": "language variant (static, type, require, ...); NULL for the plain form",
        "target": "qualified name of what is bound; NULL when not known",
    },
    "routes": {
        "id": "the route symbol's id",
        "method": "GET, POST, ... or ANY",
        "pattern": "path pattern as the framework writes it",
        "handler_id": "the handler symbol, NULL when unresolved",
        "handler": "its qualified name",
        "handler_written": "the handler as written",
        "framework": "flask, fastapi, django, spring, express, ...",
        "path": "file declaring the route",
        "line": "line",
    },
}
# Queries graph_schema shows an agent, one per kind of question (tests run every one of them).
EXAMPLES = [
    "SELECT kind, COUNT(*) FROM symbols GROUP BY kind ORDER BY 2 DESC",
    "SELECT source, path, line, resolution FROM edges WHERE kind='calls' AND target LIKE '%.Session.send'",
    "SELECT method, pattern, handler FROM routes ORDER BY pattern",
    "SELECT e.source, COUNT(*) n FROM edges e WHERE e.kind='calls' GROUP BY e.source ORDER BY n DESC LIMIT 10",
]
# The stable views (migration 5) and the tables they read: the only reads a query may make.
_STABLE = {f"graph_{v}" for v in VIEWS}
_TABLES_BEHIND = {"files", "symbols", "edges", "imports"}
_OTHER_TABLES = {"meta", "exports", "memories", "embeddings"}
PROGRESS_EVERY = 2000  # SQLite VM instructions between two looks at the clock (~0.1 ms)
MAX_CELL_CHARS = 2000  # a text cell longer than this is cut (signatures, docs)


class QueryRefused(Exception):
    """The statement is not a read of the graph views, failed, or ran out of time."""


def _authorizer(action: int, table: str | None, column: str | None, db: str | None, view: str | None) -> int:
    if action in (sqlite3.SQLITE_SELECT, sqlite3.SQLITE_FUNCTION, getattr(sqlite3, "SQLITE_RECURSIVE", 33)):
        return sqlite3.SQLITE_OK
    if action != sqlite3.SQLITE_READ:
        return sqlite3.SQLITE_DENY
    if (table in VIEWS and db == "temp") or table in _STABLE:
        return sqlite3.SQLITE_OK
    if table in _TABLES_BEHIND:
        # read by a view (or only counted, with no column read): never directly by the statement
        return sqlite3.SQLITE_OK if view in _STABLE or view in VIEWS or not column else sqlite3.SQLITE_DENY
    if table in _OTHER_TABLES or (table or "").startswith("sqlite_"):
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK  # a CTE or subquery of the statement's own


def _connect(path: Path) -> sqlite3.Connection:
    con = sqlite3.connect(read_only_uri(path), uri=True, timeout=1.0, check_same_thread=False)
    for view in VIEWS:
        con.execute(f"CREATE TEMP VIEW {view} AS SELECT * FROM main.graph_{view}")
    con.execute("PRAGMA query_only=1")
    con.set_authorizer(_authorizer)
    return con


_NO_COLUMN = re.compile(r"no such column: (\S+)")
_NO_TABLE = re.compile(r"no such table: (\S+)")


def _explained(exc: sqlite3.Error, sql: str) -> str:
    text = str(exc)
    m = _NO_COLUMN.search(text)
    if m:
        name = m.group(1).split(".")[-1]
        having = sorted(v for v, cols in VIEWS.items() if name in cols)
        where = f" ({name} is a column of {', '.join(having)})" if having else ""
        return f"no such column: {m.group(1)}{where}. Columns: " + "; ".join(
            f"{v}({', '.join(cols)})" for v, cols in VIEWS.items()
        )
    m = _NO_TABLE.search(text)
    if m:
        return f"no such view: {m.group(1)}. Query one of: {', '.join(VIEWS)} (see graph_schema)"
    if "not authorized" in text or "prohibited" in text:
        return "only SELECT over the views " + ", ".join(VIEWS) + " is allowed"
    if "interrupted" in text:
        return "interrupted"
    return text[:300]


def run_query(path: Path, sql: str, limit: int, seconds: float, stop: threading.Event) -> QueryResult:
    """Run one SELECT in this thread; raises QueryRefused with what was wrong."""
    started = time.perf_counter()
    deadline = started + seconds
    con = _connect(path)
    timed_out = False

    def progress() -> int:
        nonlocal timed_out
        if stop.is_set():
            return 1
        if time.perf_counter() > deadline:
            timed_out = True
            return 1
        return 0

    con.set_progress_handler(progress, PROGRESS_EVERY)
    try:
        try:
            cur = con.execute(sql)
        except (sqlite3.Warning, sqlite3.ProgrammingError):  # "You can only execute one statement at a time."
            raise QueryRefused("one statement at a time: a single SELECT (a WITH ... SELECT is fine)") from None
        if cur.description is None:
            raise QueryRefused("only SELECT statements are answered")
        columns = [d[0] for d in cur.description]
        fetched = cur.fetchmany(limit + 1)
    except sqlite3.Error as exc:
        if timed_out:
            raise QueryRefused(
                f"the query ran longer than {seconds:g}s and was stopped inside SQLite; narrow it "
                "(a WHERE on kind, path or name, a LIMIT) or join less"
            ) from None
        if stop.is_set():
            raise QueryRefused("cancelled") from None
        raise QueryRefused(_explained(exc, sql)) from None
    finally:
        con.close()
    more = len(fetched) > limit
    rows, cut = [], 0
    for row in fetched[:limit]:
        out = []
        for value in row:
            if isinstance(value, str) and len(value) > MAX_CELL_CHARS:
                value, cut = value[:MAX_CELL_CHARS] + "…", cut + 1
            elif isinstance(value, bytes):
                value, cut = f"<{len(value)} bytes>", cut + 1
            out.append(value)
        rows.append(out)
    return QueryResult(columns, rows, more, time.perf_counter() - started, cut)


async def query(path: Path, sql: str, limit: int, seconds: float) -> QueryResult:
    """run_query in a worker thread; a cancelled call stops the statement inside SQLite."""
    stop = threading.Event()
    task = asyncio.ensure_future(asyncio.to_thread(run_query, path, sql, limit, seconds, stop))
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        stop.set()
        raise
