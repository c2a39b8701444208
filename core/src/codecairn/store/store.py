"""One SQLite file per workspace, opened through aiosqlite.

One writer connection (the indexer's) and one reader connection (queries), in WAL mode so
queries answer from the last committed batch while indexing goes on. A database that cannot be
opened or fails its integrity check is reported and left exactly where it is.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiosqlite

from codecairn.errors import StoreError
from codecairn.model import FileFacts
from codecairn.store.schema import MIGRATIONS, SCHEMA_VERSION

if TYPE_CHECKING:
    from codecairn.index.edge_buffer import EdgeBuffer

CACHE_ENV = "CODECAIRN_CACHE_DIR"
INSERT_EDGES_SQL = "INSERT INTO edges VALUES (?,?,?,?,?,?,?,?,?,?)"


def edge_index_statements() -> list[str]:
    """What builds the edge indexes after a bulk load (Store.ensure_indexes, or the edge loader)."""
    return [f"CREATE INDEX IF NOT EXISTS {name} ON {target}" for name, target in Store.EDGE_INDEXES.items()]


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


def _rebuild_hint(path: Path) -> str:
    return (
        f"The index database {path} is unusable and was left untouched. "
        f"To rebuild it, run `codecairn index ROOT --rebuild` (this deletes that file), "
        f"or move it away and index again."
    )


# ---- the integrity seal ---------------------------------------------------------------------
# `PRAGMA quick_check` reads the whole database (0.25 s for CPython's Lib, seconds for the JDK):
# too slow for every `codecairn index`. A clean close records the file's identity beside it;
# the next open skips the check when the file is exactly as that close left it (same inode, size
# and mtime, and no write-ahead log: the last connection closed cleanly). Anything that touched
# the file since, a crash included, breaks the seal and the check runs.


def _seal_path(path: Path) -> Path:
    return path.with_name(path.name + ".sealed")


def _identity(path: Path) -> str | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return f"{st.st_ino} {st.st_size} {st.st_mtime_ns}"


def _seal_holds(path: Path) -> bool:
    wal = Path(str(path) + "-wal")
    try:
        if wal.exists() and wal.stat().st_size > 0:
            return False
        return _seal_path(path).read_text() == _identity(path)
    except OSError:
        return False


def _seal(path: Path) -> None:
    if Path(str(path) + "-wal").exists():  # another connection is still open: it seals on close
        return
    identity = _identity(path)
    if identity is not None:
        try:
            _seal_path(path).write_text(identity)
        except OSError:  # an unsealed database is only checked again, never trusted less
            pass


def _break_seal(path: Path) -> None:
    try:
        _seal_path(path).unlink(missing_ok=True)
    except OSError:
        pass


class Store:
    def __init__(self, path: Path, writer: aiosqlite.Connection, reader: aiosqlite.Connection) -> None:
        self.path = path
        self.db = writer
        self.reader = reader
        self._point: sqlite3.Connection | None = None  # see fetch_now
        self._next_symbol_id = 1
        self._next_file_id = 1
        self._next_edge_id = 1

    # ---- opening ---------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: Path, *, check: bool = True) -> Store:
        path = Path(path)
        existed = path.exists()
        if existed and not path.is_file():
            raise StoreError(f"{path} is not a file. " + _rebuild_hint(path))
        path.parent.mkdir(parents=True, exist_ok=True)
        writer = reader = None
        try:
            writer = await aiosqlite.connect(path, isolation_level=None)
            await writer.execute("PRAGMA busy_timeout=5000")
            if existed:
                version = (await (await writer.execute("PRAGMA user_version")).fetchone())[0]
                if version > SCHEMA_VERSION:
                    raise StoreError(
                        f"{path} was written by a newer codecairn (schema {version} > {SCHEMA_VERSION}). "
                        "Upgrade codecairn, or index into another cache directory."
                    )
                if check and not _seal_holds(path):
                    rows = await (await writer.execute("PRAGMA quick_check")).fetchall()
                    if [r[0] for r in rows] != ["ok"]:
                        detail = "; ".join(str(r[0]) for r in rows[:3])
                        raise StoreError(f"integrity check failed ({detail}). " + _rebuild_hint(path))
            mode = (await (await writer.execute("PRAGMA journal_mode=WAL")).fetchone())[0]
            if mode.lower() != "wal":
                raise StoreError(f"{path}: could not switch to WAL mode (got {mode})")
            await writer.execute("PRAGMA synchronous=NORMAL")
            await writer.execute("PRAGMA temp_store=MEMORY")
            await cls._migrate(writer)
            reader = await aiosqlite.connect(f"file:{path}?mode=ro", uri=True)
            await reader.execute("PRAGMA busy_timeout=5000")
        except sqlite3.DatabaseError as exc:
            for conn in (writer, reader):
                if conn is not None:
                    await conn.close()
            raise StoreError(f"{path}: {exc}. " + _rebuild_hint(path)) from exc
        except BaseException:
            for conn in (writer, reader):
                if conn is not None:
                    await conn.close()
            raise
        _break_seal(path)  # from here on this process may write; its close seals again
        store = cls(path, writer, reader)
        await store._load_counters()
        return store

    @staticmethod
    async def _migrate(db: aiosqlite.Connection) -> None:
        version = (await (await db.execute("PRAGMA user_version")).fetchone())[0]
        for number in range(version, SCHEMA_VERSION):
            await db.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[number].split(";"):
                    if statement.strip():
                        await db.execute(statement)
                await db.execute(f"PRAGMA user_version={number + 1}")
                await db.execute("COMMIT")
            except BaseException:
                await db.execute("ROLLBACK")
                raise

    async def _load_counters(self) -> None:
        for table, attr in (("symbols", "_next_symbol_id"), ("files", "_next_file_id"), ("edges", "_next_edge_id")):
            row = await (await self.db.execute(f"SELECT COALESCE(MAX(id), 0) + 1 FROM {table}")).fetchone()
            setattr(self, attr, row[0])

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
        if closed:
            _seal(self.path)

    # ---- meta -------------------------------------------------------------------------------

    async def get_meta(self, key: str, default: str | None = None) -> str | None:
        row = await (await self.db.execute("SELECT value FROM meta WHERE key=?", (key,))).fetchone()
        return row[0] if row else default

    async def set_meta(self, items: dict[str, Any]) -> None:
        await self.db.executemany(
            "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            [(k, str(v)) for k, v in items.items()],
        )

    # ---- files ------------------------------------------------------------------------------

    async def files(self) -> dict[str, FileRow]:
        rows = await self.db.execute_fetchall(
            "SELECT id, path, language, size, mtime_ns, hash, lines, module, extractor, partial, generation FROM files"
        )
        return {r[1]: FileRow(*r[:9], bool(r[9]), r[10]) for r in rows}

    # ---- writing ------------------------------------------------------------------------------

    async def write_batch(
        self,
        parsed: list[ParsedFile],
        touched: list[tuple[int, int]],
        deleted: list[int],
        known: dict[str, FileRow],
        generation: int,
        edges_to: EdgeBuffer | None = None,
    ) -> tuple[list[tuple], dict[str, int]]:
        """Replace the facts of ``parsed`` files, update mtimes of ``touched`` (file id, mtime_ns)
        files whose content hash did not change, drop ``deleted`` file ids — in one transaction.

        Returns the new symbol rows ``(id, file_id, parent_id, kind, name, qualified_name,
        start_line, end_line)`` for the in-memory index, and each written path's file id. With
        ``edges_to`` (a first index: resolve in memory, insert once) edges are numbered and put
        there instead of written.
        """
        db = self.db
        replaced = [known[p.path].id for p in parsed if p.path in known]
        gone = replaced + deleted
        file_rows, symbol_rows, edge_rows, import_rows, export_rows = [], [], [], [], []
        new_symbols: list[tuple] = []
        deferred: list[tuple] = []  # for edges_to, once the batch is committed
        file_ids: dict[str, int] = {}
        next_symbol, next_file, next_edge = self._next_symbol_id, self._next_file_id, self._next_edge_id
        for p in parsed:
            old = known.get(p.path)
            if old is not None:
                file_id = old.id
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
            next_symbol += len(facts.symbols)
            # Facts from the parse workers arrive as plain tuples (see parse_pool.from_wire): fields
            # by position, in the model's order.
            for i, s in enumerate(facts.symbols):
                kind, name, qualified_name, start_line, start_col, end_line, end_col, signature, doc, up, mods = s
                parent = base + up if up >= 0 else None
                symbol_rows.append(
                    (
                        base + i,
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
                new_symbols.append((base + i, file_id, parent, kind, name, qualified_name, start_line, end_line))
            if edges_to is not None:
                deferred.append((next_edge, file_id, base, facts.relations))
                next_edge += len(facts.relations)
            else:
                for kind, source, target, line, receiver, receiver_type in facts.relations:
                    edge_rows.append(
                        (
                            next_edge,
                            file_id,
                            kind,
                            base + source if source >= 0 else None,
                            target,
                            receiver,
                            receiver_type,
                            line,
                        )
                    )
                    next_edge += 1
            # The columns of imports and exports are the model's fields, in order.
            import_rows.extend((file_id, *i) for i in facts.imports)
            export_rows.extend((file_id, *e) for e in facts.exports)

        await db.execute("BEGIN IMMEDIATE")
        try:
            if gone:
                await db.execute("CREATE TEMP TABLE IF NOT EXISTS gone_files(id INTEGER PRIMARY KEY)")
                await db.execute("DELETE FROM gone_files")
                await db.executemany("INSERT OR IGNORE INTO gone_files(id) VALUES (?)", [(i,) for i in gone])
                # Edges elsewhere that pointed into these files must be resolved again.
                await db.execute(
                    "UPDATE edges SET target_id=NULL, resolution=NULL WHERE target_id IN "
                    "(SELECT id FROM symbols WHERE file_id IN (SELECT id FROM gone_files))"  # by index, no scan
                )
                for table in ("symbols", "edges", "imports", "exports"):
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
            if edge_rows:
                await db.executemany(
                    "INSERT INTO edges(id, file_id, kind, source_id, target, receiver, receiver_type, line) "
                    "VALUES (?,?,?,?,?,?,?,?)",
                    edge_rows,
                )
            if import_rows:
                await db.executemany("INSERT INTO imports VALUES (?,?,?,?,?,?,?)", import_rows)
            if export_rows:
                await db.executemany("INSERT INTO exports VALUES (?,?,?,?,?,?)", export_rows)
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        # Only now: a batch that did not commit must leave no edges behind to be stored later.
        for args in deferred:
            edges_to.add_file(*args)
        self._next_symbol_id, self._next_file_id, self._next_edge_id = next_symbol, next_file, next_edge
        return new_symbols, file_ids

    EDGE_INDEXES = {
        "edges_file": "edges(file_id)",
        "edges_source": "edges(source_id)",
        "edges_target_id": "edges(target_id)",
        "edges_target": "edges(target)",
    }

    async def drop_edge_indexes(self) -> None:
        """Bulk loads are several times faster into an unindexed table; ensure_indexes rebuilds."""
        for name in self.EDGE_INDEXES:
            await self.db.execute(f"DROP INDEX IF EXISTS {name}")

    async def ensure_indexes(self) -> None:
        # Building an index sorts the whole table; in memory that sort kept ≈ 17 MB (CPython's Lib)
        # in the process for good, and a temporary file is no slower (the OS caches it).
        await self.db.execute("PRAGMA temp_store=FILE")
        try:
            for sql in edge_index_statements():
                await self.db.execute(sql)
        finally:
            await self.db.execute("PRAGMA temp_store=MEMORY")

    async def insert_edges(self, rows: list[tuple]) -> None:
        """rows: (id, file_id, kind, source_id, target, receiver, receiver_type, line, target_id, resolution)."""
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            await self.db.executemany(INSERT_EDGES_SQL, rows)
            await self.db.execute("COMMIT")
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise

    async def clear(self) -> None:
        """Forget every indexed file (a first index that was killed before its edges were written)."""
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            for table in ("files", "symbols", "edges", "imports", "exports"):
                await self.db.execute(f"DELETE FROM {table}")
            await self.db.execute("COMMIT")
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise
        await self._load_counters()

    async def write_resolutions(self, rows: Iterable[tuple[int | None, str | None, int]]) -> None:
        """``rows`` are (target_id, resolution, edge_id)."""
        rows = list(rows)
        if not rows:
            return
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            await self.db.executemany("UPDATE edges SET target_id=?, resolution=? WHERE id=?", rows)
            await self.db.execute("COMMIT")
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise

    # ---- reading (reader connection: never waits for the indexer's transaction) ---------------

    async def fetch(self, sql: str, params: Iterable[Any] = ()) -> list[tuple]:
        return list(await self.reader.execute_fetchall(sql, tuple(params)))

    async def fetch_now(self, sql: str, params: Iterable[Any] = ()) -> list[tuple]:
        """A primary-key lookup of a few rows, read on the event loop's own thread: it takes
        microseconds, less than the hop to aiosqlite's thread and back (the larger part of a
        `find_symbols` answer's signatures). Never for scans. A busy database (a WAL reader can
        meet one only while the log is being reset) falls back to the reader connection."""
        params = tuple(params)
        try:
            if self._point is None:
                self._point = sqlite3.connect(
                    f"file:{self.path}?mode=ro", uri=True, timeout=0.05, check_same_thread=False
                )
            return self._point.execute(sql, params).fetchall()
        except sqlite3.OperationalError:
            return await self.fetch(sql, params)

    async def fetch_writer(self, sql: str, params: Iterable[Any] = ()) -> list[tuple]:
        """Read through the writer connection: sees the indexer's own uncommitted view (resolver)."""
        return list(await self.db.execute_fetchall(sql, tuple(params)))

    async def all_symbols(self) -> list[tuple]:
        return await self.fetch_writer(
            "SELECT id, file_id, parent_id, kind, name, qualified_name, start_line, end_line FROM symbols"
        )

    async def size_bytes(self) -> int:
        total = 0
        for suffix in ("", "-wal"):
            try:
                total += os.path.getsize(str(self.path) + suffix)
            except OSError:
                pass
        return total
