"""One SQLite file per workspace, opened through aiosqlite.

One writer connection (the indexer's) and one reader connection (queries), in WAL mode so
queries answer from the last committed batch while indexing goes on. A database that is damaged
(at open, or met later by any query) is reported and left exactly where it is; one this process
may not write is opened read-only, and every write is refused with the reason
(store/failures.py). The integrity seal (store/seal.py) decides whether an open must check the
whole file first.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from codecairn.errors import DamagedStore, StoreError, StoreNotWritable
from codecairn.model import ALSO, FLOW, PARAMETER, FileFacts
from codecairn.store import failures, seal
from codecairn.store.carried import Carried, matched, numbered
from codecairn.store.reads import IndexReads
from codecairn.store.schema import MIGRATIONS, SCHEMA_VERSION
from codecairn.store.seal import Seal

CACHE_ENV = "CODECAIRN_CACHE_DIR"
INSERT_EDGES_SQL = "INSERT INTO edges VALUES (?,?,?,?,?,?,?,?,?,?)"


def edge_index_statements(names: Iterable[str] | None = None) -> list[str]:
    """What builds the edge indexes (all, or those named) after a bulk load (Store.ensure_indexes,
    or the edge loader)."""
    chosen = Store.EDGE_INDEXES if names is None else {name: Store.EDGE_INDEXES[name] for name in names}
    return [f"CREATE INDEX IF NOT EXISTS {name} ON {target}" for name, target in chosen.items()]


def cache_dir() -> Path:
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "codecairn"


def database_path(root: Path, directory: Path | None = None) -> Path:
    """``<cache>/workspaces/<dirname>-<hash of the real root path>.db``: stable per root."""
    real = str(Path(root).resolve())
    digest = hashlib.blake2b(real.encode(), digest_size=6).hexdigest()
    name = "".join(c if c.isalnum() or c in "-_." else "_" for c in Path(real).name)[:40] or "root"
    return Path(directory or cache_dir()) / "workspaces" / f"{name}-{digest}.db"


@dataclass(slots=True)
class FileRow:
    id: int
    path: str
    language: str
    size: int
    mtime_ns: int
    hash: str
    lines: int
    module: str
    extractor: str
    partial: bool
    generation: int


@dataclass(slots=True)
class ParsedFile:
    """One file's new state, ready to be written."""

    path: str
    language: str
    size: int
    mtime_ns: int
    hash: str
    lines: int
    facts: FileFacts


def _guarded(method):
    """A store method whose SQLite failures arrive as what they mean (store/failures.py): a damaged
    file as DamagedStore (remembered: the store is not used for anything else then), a file this
    process may not write as StoreNotWritable; passing ones (busy, full...) as they are."""

    @functools.wraps(method)
    async def guarded(self: Store, *args: Any, **kwargs: Any) -> Any:
        try:
            return await method(self, *args, **kwargs)
        except sqlite3.DatabaseError as exc:
            fatal = self.explain(exc, passing=False)
            if fatal is None:
                raise
            raise fatal from exc

    return guarded


def _writes(method):
    """A store method that writes: refused at once on a read-only store, with the reason."""

    @functools.wraps(method)
    async def writing(self: Store, *args: Any, **kwargs: Any) -> Any:
        if self.read_only is not None:
            raise failures.not_writable(self.path, self.read_only)
        return await method(self, *args, **kwargs)

    return _guarded(writing)


async def _rollback(db: aiosqlite.Connection) -> None:
    """Roll back after a failure, keeping that failure: SQLite may have rolled back already (a full
    disk, an I/O error), and "no transaction is active" would hide what happened."""
    try:
        await db.execute("ROLLBACK")
    except sqlite3.Error:
        pass


async def _scalar(db: aiosqlite.Connection, sql: str) -> Any:
    """The first column of the one row ``sql`` gives (a PRAGMA, a COUNT)."""
    row = await (await db.execute(sql)).fetchone()
    assert row is not None, sql
    return row[0]


async def _connect(target: str | Path, uri: bool = False) -> aiosqlite.Connection:
    db = await aiosqlite.connect(target, uri=uri, isolation_level=None)
    try:
        await db.execute("PRAGMA busy_timeout=5000")
    except BaseException:
        await db.close()
        raise
    return db


class Store(IndexReads):
    def __init__(
        self,
        path: Path,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        *,
        read_only: str | None = None,
        sealed: Seal | None = None,
    ) -> None:
        self.path = path
        self.db = writer
        self.reader = reader
        # Why this process may not write the file (store/failures.py), or None: then every write
        # is refused with that reason, and `db` is a read-only connection like `reader`.
        self.read_only = read_only
        self.damage: DamagedStore | None = None  # met while in use: answers say so, nothing is sealed
        self._sealed = sealed  # the seal this open verified: reused at close if nothing changed
        self._point: sqlite3.Connection | None = None  # see fetch_now
        self._next_symbol_id = 1
        self._next_file_id = 1
        self._next_edge_id = 1

    # ---- opening ---------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: Path, *, check: bool = True) -> Store:
        """Open (or create) the database at ``path``: for writing when this process may write it,
        else read-only (``read_only`` says why). Raises DamagedStore for a damaged file (it is left
        exactly as it is), StoreNotWritable when it does not exist and cannot be created."""
        path = Path(path)
        existed = path.exists()
        if existed and not path.is_file():
            raise failures.damaged(path, "it is not a file")
        problem = failures.write_problem(path)
        if not existed:
            if problem is not None:
                raise failures.cannot_create(path, problem)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise failures.cannot_create(path, f"{exc.filename}: {exc.strerror}") from None
        try:
            return await cls._open(path, existed, check, problem)
        except StoreNotWritable:
            if not existed or problem is not None:
                raise
            # The kernel said yes, SQLite met a refusal (a read-only mount it saw first...): read-only.
            return await cls._open(path, existed, check, failures.write_problem(path) or "SQLite refused to write")

    @classmethod
    async def _open(cls, path: Path, existed: bool, check: bool, read_only: str | None) -> Store:
        writer = reader = store = None
        sealed: Seal | None = None
        try:
            if read_only is None:
                writer = await _connect(path)
            else:
                writer = await _connect(failures.read_only_uri(path), uri=True)
            if existed:
                version = await _scalar(writer, "PRAGMA user_version")
                if version > SCHEMA_VERSION:
                    raise StoreError(
                        f"{path} was written by a newer codecairn (schema {version} > {SCHEMA_VERSION}). "
                        "Upgrade codecairn, or index into another cache directory."
                    )
                if read_only is not None and version < SCHEMA_VERSION:
                    raise failures.not_writable(path, f"{read_only}; it needs an upgrade to schema {SCHEMA_VERSION}")
                if check:
                    sealed = await asyncio.to_thread(seal.verified, path)
                    if sealed is None:
                        rows = list(await (await writer.execute("PRAGMA quick_check")).fetchall())
                        if [r[0] for r in rows] != ["ok"]:
                            detail = "; ".join(str(r[0]) for r in rows[:3])
                            raise failures.damaged(path, f"integrity check failed: {detail}")
            if read_only is None:
                mode = await _scalar(writer, "PRAGMA journal_mode=WAL")
                if mode.lower() != "wal":
                    raise StoreError(f"{path}: could not switch to WAL mode (got {mode})")
                await writer.execute("PRAGMA synchronous=NORMAL")
                await cls._migrate(writer)
            await writer.execute("PRAGMA temp_store=MEMORY")
            reader = await _connect(failures.read_only_uri(path), uri=True)
            store = cls(path, writer, reader, read_only=read_only, sealed=sealed)
            await store._load_counters()
        except BaseException as exc:
            for conn in (writer, reader):  # a connection left open would keep the process alive
                if conn is not None:
                    await conn.close()
            if isinstance(exc, sqlite3.DatabaseError):
                raise failures.explained(exc, path) from exc
            raise
        if read_only is None:
            seal.break_seal(path)  # from here on this process may write; its close seals again
        return store

    @staticmethod
    async def _migrate(db: aiosqlite.Connection) -> None:
        version = await _scalar(db, "PRAGMA user_version")
        for number in range(version, SCHEMA_VERSION):
            await db.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[number].split(";"):
                    if statement.strip():
                        await db.execute(statement)
                await db.execute(f"PRAGMA user_version={number + 1}")
                await db.execute("COMMIT")
            except BaseException:
                await _rollback(db)
                raise

    async def _rows_in(self, sql: str, values: list) -> list[tuple]:
        """The writer's rows of ``sql``, whose one ``{marks}`` is the placeholders of an IN list,
        for ``values`` 500 at a time (SQLite bounds a statement's parameters)."""
        rows: list[tuple] = []
        for i in range(0, len(values), 500):
            chunk = values[i : i + 500]
            rows += map(tuple, await self.db.execute_fetchall(sql.format(marks=",".join("?" * len(chunk))), chunk))
        return rows

    async def _file_ids(self, paths: list[str]) -> dict[str, int]:
        """The stored id of each of ``paths`` that has one."""
        return dict(await self._rows_in("SELECT path, id FROM files WHERE path IN ({marks})", paths))

    async def _edges_of(self, file_ids: Collection[int]) -> dict[int, list[tuple]]:
        """file id -> its edge rows (id, kind, source id, target, receiver, receiver type, line,
        target id, resolution), in line order."""
        out: dict[int, list[tuple]] = {}
        sql = (
            "SELECT file_id, id, kind, source_id, target, receiver, receiver_type, line, target_id, resolution "
            "FROM edges WHERE file_id IN ({marks})"
        )
        for row in sorted(await self._rows_in(sql, list(file_ids)), key=lambda r: (r[7], r[1])):
            out.setdefault(row[0], []).append(row[1:])
        return out

    async def _symbol_ids_of(self, file_ids: list[int]) -> dict[int, int]:
        """symbol id -> file id, for the symbols the store gives these files."""
        return dict(await self._rows_in("SELECT id, file_id FROM symbols WHERE file_id IN ({marks})", file_ids))

    async def _load_counters(self, at_least: bool = False) -> None:
        """The next free id of each table; ``at_least``: never below what this store handed out."""
        for table, attr in (("symbols", "_next_symbol_id"), ("files", "_next_file_id"), ("edges", "_next_edge_id")):
            free = await _scalar(self.db, f"SELECT COALESCE(MAX(id), 0) + 1 FROM {table}")
            setattr(self, attr, max(free, getattr(self, attr)) if at_least else free)

    async def close(self) -> None:
        closed = True
        if self._point is not None:
            self._point.close()
            self._point = None
        for conn in (self.reader, self.db):
            try:
                await conn.close()
            except Exception:  # closing twice, or after the loop went away: nothing left to do
                closed = False
        if closed and self.damage is None:
            await asyncio.to_thread(seal.write, self.path, self._sealed)

    # ---- failures -------------------------------------------------------------------------------

    def not_writable(self) -> StoreNotWritable | None:
        """Why nothing may be written to this store (it is served read-only), or None."""
        return failures.not_writable(self.path, self.read_only) if self.read_only is not None else None

    def explain(self, exc: BaseException, *, passing: bool = True) -> StoreError | None:
        """What ``exc``, met by any connection to this database, means (store/failures.py). Damage
        is remembered. ``passing=False``: None for a passing failure (busy, full...)."""
        found = failures.classify(exc, self.path)
        if isinstance(found, DamagedStore) and self.damage is None:
            self.damage = found
        if found is None and passing:
            return failures.explained(exc, self.path)
        return found

    # ---- meta -------------------------------------------------------------------------------

    @_guarded
    async def get_meta(self, key: str, default: str | None = None) -> str | None:
        row = await (await self.db.execute("SELECT value FROM meta WHERE key=?", (key,))).fetchone()
        return row[0] if row else default

    @_writes
    async def set_meta(self, items: dict[str, Any]) -> None:
        await self.db.executemany(
            "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            [(k, str(v)) for k, v in items.items()],
        )

    # ---- files ------------------------------------------------------------------------------

    @_guarded
    async def files(self) -> dict[str, FileRow]:
        rows = await self.db.execute_fetchall(
            "SELECT id, path, language, size, mtime_ns, hash, lines, module, extractor, partial, generation FROM files"
        )
        return {r[1]: FileRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], bool(r[9]), r[10]) for r in rows}

    # ---- writing ------------------------------------------------------------------------------

    @_writes
    async def write_batch(
        self,
        parsed: list[ParsedFile],
        touched: list[tuple[int, int]],
        deleted: list[int],
        known: dict[str, FileRow],
        generation: int,
        edges_to: Callable[[int, int, int, list], None] | None = None,
        carried: Carried | None = None,
    ) -> tuple[list[tuple], dict[str, int]]:
        """Replace the facts of ``parsed`` files, update mtimes of ``touched`` (file id, mtime_ns)
        files whose content hash did not change, drop ``deleted`` file ids — in one transaction.

        Returns the new symbol rows ``(id, file_id, parent_id, kind, name, qualified_name,
        start_line, end_line)`` for the in-memory index, and each written path's file id. With
        ``edges_to`` (a first index: resolve in memory, insert once) edges are numbered and handed
        to it, ``edges_to(first edge id, file id, first symbol id, relations)`` per file, once the
        batch is committed, instead of written.

        ``carried``: what re-parsed files carry over from their old rows (store/carried.py): the
        ids of their symbols still there, the resolutions of their edges still there. Not with
        ``edges_to``.
        """
        db = self.db
        file_rows: list[tuple] = []
        symbol_rows: list[tuple] = []
        edge_rows: list[tuple] = []
        import_rows: list[tuple] = []
        export_rows: list[tuple] = []
        new_symbols: list[tuple] = []
        deferred: list[tuple] = []  # for edges_to, once the batch is committed
        file_ids: dict[str, int] = {}
        # The write lock first, then the ids: another server of this root (several agents on one
        # project share its database) may have written since this one's counters were read, and
        # numbering from them failed every re-index with "UNIQUE constraint failed: symbols.id"
        # (found by benchmarks/test_soak.py). MAX(id) of a rowid table is one b-tree descent.
        await db.execute("BEGIN IMMEDIATE")
        try:
            await self._load_counters(at_least=True)
            # The files' ids as stored now, not as ``known`` says: another server may have added
            # (or replaced) one of these files since; its row and facts are replaced, not orphaned.
            stored = await self._file_ids([p.path for p in parsed])
            gone = [*stored.values(), *deleted]
            # An id is kept only if the store still gives it to this file (another server of the
            # root may have re-indexed the file since this one's memory of it).
            owned = await self._symbol_ids_of(gone) if carried is not None and carried.ids else {}
            reusable = dict(owned)
            kept: list[int] = []
            # The re-parsed files whose edges are matched with their old rows (store/carried.py).
            diffed = {stored[p] for p in carried.ids if p in stored} if carried is not None else set()
            old_edges = await self._edges_of(diffed) if diffed else {}
            written = carried.written if carried is not None else {}
            moved: list[tuple[int, int]] = []  # (line, id) of the old rows kept whose line changed
            dropped_edges: list[int] = []  # ...and those no new edge matched
            next_symbol, next_file, next_edge = self._next_symbol_id, self._next_file_id, self._next_edge_id
            for p in parsed:
                old_id = stored.get(p.path)
                if old_id is not None:
                    file_id = old_id
                else:
                    file_id, next_file = next_file, next_file + 1
                file_ids[p.path] = file_id
                facts = p.facts
                file_rows.append(
                    (
                        file_id,
                        p.path,
                        p.language,
                        p.size,
                        p.mtime_ns,
                        p.hash,
                        p.lines,
                        facts.module,
                        facts.extractor,
                        int(facts.partial),
                        generation,
                    )
                )
                base = next_symbol
                ids: Sequence[int]
                if reusable and old_id is not None and (wanted := carried.ids.get(p.path)):  # type: ignore[union-attr]
                    ids, next_symbol = numbered(facts.symbols, wanted, reusable, file_id, next_symbol)
                    kept.extend(i for i in ids if i < base)
                else:
                    ids = range(base, base + len(facts.symbols))
                    next_symbol += len(facts.symbols)
                # Facts from the parse workers arrive as plain tuples (see parse_pool.from_wire): fields
                # by position, in the model's order.
                for i, s in enumerate(facts.symbols):
                    kind, name, qualified_name, start_line, start_col, end_line, end_col, signature, doc, up, mods = s
                    parent = ids[up] if up >= 0 else None
                    symbol_rows.append(
                        (
                            ids[i],
                            file_id,
                            parent,
                            kind,
                            name,
                            qualified_name,
                            start_line,
                            start_col,
                            end_line,
                            end_col,
                            signature,
                            doc,
                            " ".join(mods),
                        )
                    )
                    new_symbols.append((ids[i], file_id, parent, kind, name, qualified_name, start_line, end_line))
                if edges_to is not None:
                    deferred.append((next_edge, file_id, base, facts.relations))
                    next_edge += len(facts.relations)
                elif file_id in diffed:
                    by_key, beside = matched(old_edges.get(file_id, []))
                    for kind, source, target, line, receiver, receiver_type in facts.relations:
                        source_id = ids[source] if source >= 0 else None
                        if queue := by_key.get((kind, source_id, target, receiver, receiver_type)):
                            old = queue.popleft()
                            if old[6] != line:
                                moved.append((line, old[0]))
                            written[old[0]] = (old[7], old[8])
                            continue
                        edge_rows.append(
                            (next_edge, file_id, kind, source_id, target, receiver, receiver_type, line, None, None)
                        )
                        written[next_edge] = (None, None)
                        next_edge += 1
                    gone_edges = {row[0] for queue in by_key.values() for row in queue}
                    dropped_edges += gone_edges
                    # A row beside a call (model.ALSO) goes with its call, else the resolution rewrites it.
                    dropped_edges += [
                        row[0] for row in beside if row[5][1:].isdigit() and int(row[5][1:]) in gone_edges
                    ]
                else:
                    for kind, source, target, line, receiver, receiver_type in facts.relations:
                        edge_rows.append(
                            (
                                next_edge,
                                file_id,
                                kind,
                                ids[source] if source >= 0 else None,
                                target,
                                receiver,
                                receiver_type,
                                line,
                                None,
                                None,
                            )
                        )
                        next_edge += 1
                # The columns of imports and exports are the model's fields, in order.
                import_rows.extend((file_id, *i) for i in facts.imports)
                export_rows.extend((file_id, *e) for e in facts.exports)
            if written and (dropped := owned.keys() - set(kept)):
                for eid, (target_id, _) in written.items():  # into a symbol that went: emptied below
                    if target_id in dropped:
                        written[eid] = (None, None)
        except BaseException:
            await _rollback(db)
            raise

        try:
            if gone:
                await db.execute("CREATE TEMP TABLE IF NOT EXISTS gone_files(id INTEGER PRIMARY KEY)")
                await db.execute("DELETE FROM gone_files")
                await db.executemany("INSERT OR IGNORE INTO gone_files(id) VALUES (?)", [(i,) for i in gone])
                # The files' own edges go first (a file's calls of its own functions, a third of an
                # edited argparse.py's, were emptied only to be deleted); of a re-parsed file's
                # (``diffed``), only those no new edge matched: the others keep their rows. What is
                # left pointing at a symbol that goes is emptied next, to be resolved again.
                if diffed:
                    await db.execute(
                        f"DELETE FROM edges WHERE file_id IN (SELECT id FROM gone_files) AND file_id NOT IN "
                        f"({','.join(map(str, diffed))})"
                    )
                    await db.executemany("DELETE FROM edges WHERE id=?", [(i,) for i in dropped_edges])
                else:
                    await db.execute("DELETE FROM edges WHERE file_id IN (SELECT id FROM gone_files)")
                if kept:  # (what points at a symbol that keeps its id stays)
                    await db.execute("CREATE TEMP TABLE IF NOT EXISTS kept_symbols(id INTEGER PRIMARY KEY)")
                    await db.execute("DELETE FROM kept_symbols")
                    await db.executemany("INSERT INTO kept_symbols(id) VALUES (?)", [(i,) for i in kept])
                await db.execute(
                    "UPDATE edges SET target_id=NULL, resolution=NULL WHERE target_id IN "
                    "(SELECT id FROM symbols WHERE file_id IN (SELECT id FROM gone_files)"  # by index, no scan
                    + (" AND id NOT IN (SELECT id FROM kept_symbols))" if kept else ")")
                )
                for table in ("symbols", "imports", "exports"):
                    await db.execute(f"DELETE FROM {table} WHERE file_id IN (SELECT id FROM gone_files)")
                if deleted:
                    await db.executemany("DELETE FROM files WHERE id=?", [(i,) for i in deleted])
            if file_rows:
                await db.executemany(
                    "INSERT OR REPLACE INTO files(id, path, language, size, mtime_ns, hash, lines, module, "
                    "extractor, partial, generation) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    file_rows,
                )
            if touched:
                await db.executemany("UPDATE files SET mtime_ns=? WHERE id=?", [(m, i) for i, m in touched])
            if symbol_rows:
                await db.executemany("INSERT INTO symbols VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", symbol_rows)
            if moved:
                await db.executemany("UPDATE edges SET line=? WHERE id=?", moved)
            if edge_rows:
                await db.executemany(INSERT_EDGES_SQL, edge_rows)
            if import_rows:
                await db.executemany("INSERT INTO imports VALUES (?,?,?,?,?,?,?)", import_rows)
            if export_rows:
                await db.executemany("INSERT INTO exports VALUES (?,?,?,?,?,?)", export_rows)
            await db.execute("COMMIT")
        except BaseException:
            await _rollback(db)
            raise
        # Only now: a batch that did not commit must leave no edges behind to be stored later.
        if edges_to is not None:
            for args in deferred:
                edges_to(*args)
        self._next_symbol_id, self._next_file_id, self._next_edge_id = next_symbol, next_file, next_edge
        return new_symbols, file_ids

    # edges_in / edges_out cover what a graph walk chooses by (store/graph.py's edge_ends);
    # edges_unresolved holds only the unresolved edges, counted by name for "might call" answers.
    # edges_through_parameter holds only the calls through a parameter (1 % of the edges), which an
    # edit that changes what a function is passed looks up by the tail of their mark: without it,
    # one scan of the whole table (50 ms on CPython's Lib) in every such edit's re-index.
    # edges_in holds the resolved edges only: every read through it asks for given targets (`=`,
    # `IN`, a join on target_id), which SQLite matches to "target_id IS NOT NULL". The unresolved
    # and external two fifths of CPython's calls were half its size and 0.25 s of the 0.39 s a
    # first index spent building it after the last edge was in.
    # (The same in schema migrations 6, 8 and 9, for databases made before.)
    EDGE_INDEXES = {
        "edges_file": "edges(file_id)",
        "edges_out": "edges(source_id, kind, target_id, resolution, file_id, line)",
        "edges_in": "edges(target_id, kind, source_id, resolution, file_id, line) WHERE target_id IS NOT NULL",
        "edges_target": "edges(target)",
        "edges_unresolved": "edges(target, kind, file_id, line) WHERE target_id IS NULL",
        "edges_through_parameter": f"edges(receiver_type) WHERE substr(receiver_type, 1, 1) = '{PARAMETER}'",
    }
    # Kept up while a first index's edges load (index/edge_loader.py) instead of built after: the
    # rows come file by file with rising ids, so edges_file and edges_out grow at their end, and
    # few calls go through a parameter. Built after the load they were ≈ 0.6 s of CPython's Lib's
    # resolution phase with the indexing process waiting; kept up, the helper spends that time
    # while the next chunk resolves. edges_in, edges_target and edges_unresolved take rows all over
    # their range (by target, by name): one sort at the end costs less than keeping them up
    # (edges_unresolved: 0.25-0.3 s of the helper's inserts, 0.07-0.09 s to build at the end).
    EDGE_INDEXES_KEPT_WHILE_LOADING = ("edges_file", "edges_out", "edges_through_parameter")

    @_writes
    async def drop_edge_indexes(self) -> None:
        """Bulk loads are several times faster into an unindexed table; ensure_indexes rebuilds."""
        for name in self.EDGE_INDEXES:
            await self.db.execute(f"DROP INDEX IF EXISTS {name}")

    @_writes
    async def ensure_indexes(self) -> None:
        # Building an index sorts the whole table; in memory that sort kept ≈ 17 MB (CPython's Lib)
        # in the process for good, and a temporary file is no slower (the OS caches it).
        await self.db.execute("PRAGMA temp_store=FILE")
        try:
            for sql in edge_index_statements():
                await self.db.execute(sql)
        finally:
            await self.db.execute("PRAGMA temp_store=MEMORY")

    @_writes
    async def insert_edges(self, rows: list[tuple]) -> None:
        """rows: (id, file_id, kind, source_id, target, receiver, receiver_type, line, target_id, resolution)."""
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            await self.db.executemany(INSERT_EDGES_SQL, rows)
            await self.db.execute("COMMIT")
        except BaseException:
            await _rollback(self.db)
            raise

    @_writes
    async def clear(self) -> None:
        """Forget every indexed file (a first index that was killed before its edges were written)."""
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            for table in ("files", "symbols", "edges", "imports", "exports"):
                await self.db.execute(f"DELETE FROM {table}")
            await self.db.execute("COMMIT")
        except BaseException:
            await _rollback(self.db)
            raise
        await self._load_counters()

    @_writes
    async def drop_index(self, generation: int) -> None:
        """Forget every indexed file (the `clear` tool) in one transaction, at a new generation.
        Row ids keep counting up, so nothing that still holds an old id (the embedding job, an
        answer being shaped) can meet it again on a different symbol. Memories stay."""
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            for table in ("files", "symbols", "edges", "imports", "exports"):
                await self.db.execute(f"DELETE FROM {table}")
            await self.db.executemany(
                "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                [("generation", str(generation)), ("resolution_pending", "0"), ("edges_pending", "0")],
            )
            await self.db.execute("COMMIT")
        except BaseException:
            await _rollback(self.db)
            raise

    @_writes
    async def write_resolutions(
        self,
        rows: Iterable[tuple[int | None, str | None, int]],
        also: Collection[tuple[int, int, tuple[int, ...]]] = (),
    ) -> None:
        """``rows`` are (target_id, resolution, edge_id). ``also``: (edge id, its file id, targets
        past the first) of calls through a parameter resolved again: the rows beside each
        (model.ALSO) are replaced by one per target, a copy of the call's edge otherwise."""
        rows = list(rows)
        if not rows and not also:
            return
        next_edge = self._next_edge_id
        beside = []
        for eid, _, targets in also:
            for target_id in targets:
                beside.append((next_edge, f"{ALSO}{eid}", target_id, FLOW, eid))
                next_edge += 1
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            await self.db.executemany("UPDATE edges SET target_id=?, resolution=? WHERE id=?", rows)
            if also:  # by file: edges_file finds the few rows to look at
                await self.db.executemany(
                    "DELETE FROM edges WHERE file_id=? AND receiver_type=?", [(f, f"{ALSO}{e}") for e, f, _ in also]
                )
            if beside:
                await self.db.executemany(
                    "INSERT INTO edges SELECT ?, file_id, kind, source_id, target, receiver, ?, line, ?, ? "
                    "FROM edges WHERE id=?",
                    beside,
                )
            await self.db.execute("COMMIT")
        except BaseException:
            await _rollback(self.db)
            raise
        self._next_edge_id = next_edge

    def reserve_edge_ids(self, count: int) -> int:
        """The first of ``count`` edge ids no row has or will be given (rows a first index's
        resolution adds: model.ALSO)."""
        first = self._next_edge_id
        self._next_edge_id += count
        return first

    # ---- reading (reader connection: never waits for the indexer's transaction) ---------------

    @_guarded
    async def fetch(self, sql: str, params: Iterable[Any] = ()) -> list[tuple]:
        return [tuple(r) for r in await self.reader.execute_fetchall(sql, tuple(params))]

    async def fetch_now(self, sql: str, params: Iterable[Any] = ()) -> list[tuple]:
        """A primary-key lookup of a few rows, read on the event loop's own thread: it takes
        microseconds, less than the hop to aiosqlite's thread and back (the larger part of a
        `find_symbols` answer's signatures). Never for scans. A busy database (a WAL reader can
        meet one only while the log is being reset) falls back to the reader connection.
        (Guarded by hand, not by @_guarded: one coroutine less on the hottest read.)"""
        params = tuple(params)
        try:
            if self._point is None:
                self._point = sqlite3.connect(
                    failures.read_only_uri(self.path), uri=True, timeout=0.05, check_same_thread=False
                )
            return self._point.execute(sql, params).fetchall()
        except sqlite3.OperationalError:
            return await self.fetch(sql, params)
        except sqlite3.DatabaseError as exc:
            raise (self.explain(exc) or exc) from exc

    @_guarded
    async def fetch_writer(self, sql: str, params: Iterable[Any] = ()) -> list[tuple]:
        """Read through the writer connection: sees the indexer's own uncommitted view (resolver)."""
        return [tuple(r) for r in await self.db.execute_fetchall(sql, tuple(params))]

    async def all_symbols(self, chunk: int = 8192) -> AsyncIterator[list[tuple]]:
        """Every symbol's identity and place, ``chunk`` rows at a time in id order. In chunks, so that
        what is read and let go reuses the memory of the chunk before: read whole, CPython's 92,000
        rows left holes among the symbol index's objects that kept 20 MB of RSS for good."""
        after = -1
        while True:
            rows = await self.fetch_writer(
                "SELECT id, file_id, parent_id, kind, name, qualified_name, start_line, end_line FROM symbols"
                " WHERE id > ? ORDER BY id LIMIT ?",
                (after, chunk),
            )
            if not rows:
                return
            yield rows
            after = rows[-1][0]
            del rows

    async def size_bytes(self) -> int:
        total = 0
        for suffix in ("", "-wal"):
            try:
                total += os.path.getsize(str(self.path) + suffix)
            except OSError:
                pass
        return total
