"""One served root: its store, its in-memory indexes, its pipeline. Tools talk to this, never
to the store directly.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from codecairn.errors import StoreError
from codecairn.host import PluginHost
from codecairn.index.embeddings import EmbeddingJob
from codecairn.index.parse_pool import ParsePool, content_hash
from codecairn.index.pipeline import IndexSummary, Progress, collector_paused, run_index
from codecairn.index.resolver import FileInfo
from codecairn.memory import Memories
from codecairn.paths import confine, read_confined, validate_root
from codecairn.query.answers import Answers
from codecairn.query.semantic import SemanticSearch
from codecairn.query.symbol_index import SymbolIndex
from codecairn.store import failures
from codecairn.store.store import FileRow, ParsedFile, Store, database_path
from codecairn.workspaces import Lease

if TYPE_CHECKING:
    from codecairn.freshness.reindex import Reindexer

log = logging.getLogger("codecairn.workspace")

FRESH_WAIT_SECONDS = 2.0  # the longest a query waits for a changed file's re-index
# "Last used" (what `codecairn workspaces --gc` ages indexes by) is written at most this often: a
# run that changes nothing then writes nothing, and its close keeps the seal it verified at open.
LAST_USED_EVERY_SECONDS = 3600.0


@dataclass(slots=True)
class FileState:
    id: int
    path: str
    language: str
    module: str
    size: int
    mtime_ns: int
    hash: str
    lines: int
    partial: bool
    extractor: str


class Workspace:
    def __init__(self, root: Path, host: PluginHost, store: Store | None, failure: StoreError | None = None) -> None:
        self.root = root
        self.root_real = os.path.realpath(root)  # what every file the workspace opens is confined to
        self._root_prefix = os.path.join(self.root_real, "")
        self.host = host
        self.store = store
        self.index = SymbolIndex()
        self.files_by_path: dict[str, FileState] = {}
        self.files_by_id: dict[int, FileState] = {}
        self.generation = 0
        self.pool = ParsePool(host.languages)
        self.index_lock = asyncio.Lock()
        self.hits = 0
        self.misses = 0
        self.started_at = time.time()
        self.last_summary: IndexSummary | None = None
        self.answers = Answers(self)
        self.embeddings = EmbeddingJob(self)
        self.semantic = SemanticSearch(self.embeddings)
        # Location memory (codecairn.memory): re-anchored after each index run, see index_now.
        self.memory = Memories(self)
        # Paths the watcher (codecairn.freshness) is re-indexing now: queries wait for them.
        self.pending: set[str] = set()
        self._settled = asyncio.Event()
        self._settled.set()
        self.lease: Lease | None = None  # "in use": `codecairn workspaces --gc` leaves it alone
        # The symbol index is loaded at open for a server; `codecairn index` defers it until
        # something changed (an unchanged re-index then never reads the symbols table).
        self.symbols_loaded = False
        self._reindexer: Reindexer | None = None
        self._symbols_lock = asyncio.Lock()
        self._failure = failure  # see unusable()
        self._last_used_at = 0.0

    @classmethod
    async def open(
        cls,
        root: str | os.PathLike,
        host: PluginHost | None = None,
        *,
        db_path: Path | None = None,
        cache_dir: Path | None = None,
        load_symbols: bool = True,
    ) -> Workspace:
        real = validate_root(root)
        host = host or PluginHost()
        db = db_path or database_path(real, cache_dir)
        lease = Lease.acquire(db)
        try:
            store = await Store.open(db)
        except BaseException:
            lease.release()
            raise
        ws = cls(real, host, store)
        ws.lease = lease
        try:
            await ws._load_files()
            if load_symbols:
                await ws.ensure_symbols()
        except BaseException:
            await store.close()
            lease.release()
            raise
        return ws

    @classmethod
    def unusable(cls, root: str | os.PathLike, failure: StoreError, host: PluginHost | None = None) -> Workspace:
        """A served root whose index cannot be used (damaged): every answer is ``failure``."""
        return cls(validate_root(root), host or PluginHost(), None, failure)

    async def _load_files(self) -> None:
        if self.store.read_only is None:
            stored_root = await self.store.get_meta("root")
            if stored_root is None:
                await self.store.set_meta({"root": str(self.root), "created_at": time.time()})
            await self._mark_used()
        self.generation = int(await self.store.get_meta("generation", "0") or 0)
        for row in (await self.store.files()).values():
            self._set_file(row)

    async def _mark_used(self) -> None:
        now = time.time()
        if not self._last_used_at:
            self._last_used_at = float(await self.store.get_meta("last_used_at", "0") or 0)
        if now - self._last_used_at >= LAST_USED_EVERY_SECONDS:
            await self.store.set_meta({"last_used_at": now})
            self._last_used_at = now

    # ---- what cannot be done, and why ------------------------------------------------------------

    @property
    def failure(self) -> StoreError | None:
        """Why nothing can be answered from this root's index (it is damaged), or None."""
        if self._failure is not None:
            return self._failure
        return self.store.damage if self.store is not None else None

    @property
    def read_only(self) -> str | None:
        """Why this index cannot be written (it is answered from as it is), or None."""
        return self.store.read_only if self.store is not None else None

    def explain(self, exc: BaseException) -> StoreError:
        """What a failure met by anything working on this index means, as a StoreError whose
        message says the file, the cause and what to do (damage is remembered: see failure)."""
        if self.store is None:
            return self._failure or StoreError(str(exc))
        return self.store.explain(exc) or StoreError(str(exc))

    def _check_writable(self) -> None:
        if self.failure is not None:
            raise self.failure
        if self.read_only is not None:
            raise failures.not_writable(self.store.path, self.read_only)

    async def ensure_symbols(self) -> None:
        """Load the symbol index and the inheritance graph from the store, once."""
        async with self._symbols_lock:
            if self.symbols_loaded:
                return
            with collector_paused():  # loading is hundreds of thousands of tuples, none garbage
                await self._load_symbols()
            self.symbols_loaded = True

    async def _load_symbols(self) -> None:
        self.index.add(await self.store.all_symbols())
        rows = await self.store.fetch_writer(
            "SELECT source_id, target_id, receiver_type FROM edges WHERE kind IN ('extends','implements') "
            "AND target_id IS NOT NULL"
        )
        by_qn = self.index.by_qn
        self.index.set_bases(
            (owner, target)
            for source, target, owner_qn in rows
            for owner in ([source] if source is not None else by_qn.get(owner_qn, ()))
        )

    def _set_file(self, row: FileRow) -> None:
        state = FileState(
            row.id,
            row.path,
            row.language,
            row.module,
            row.size,
            row.mtime_ns,
            row.hash,
            row.lines,
            row.partial,
            row.extractor,
        )
        self.files_by_path[row.path] = state
        self.files_by_id[row.id] = state

    async def close(self) -> None:
        self.pool.close()
        if self.store is not None:
            if self.read_only is None and self.failure is None:
                try:
                    await self._mark_used()
                except Exception:  # a closed or broken store: last use stays at the open time
                    pass
            await self.store.close()
        if self.lease is not None:
            self.lease.release()

    # ---- indexing -------------------------------------------------------------------------------

    async def index_now(self, progress: Progress | None = None) -> IndexSummary:
        """Index the root; raises the StoreError that says why it cannot (a damaged or read-only
        index) — failures of SQLite met on the way (the edge loader's, too) arrive as one."""
        self._check_writable()
        async with self.index_lock:
            try:
                summary = await run_index(self, progress)
            except sqlite3.DatabaseError as exc:
                raise self.explain(exc) from exc
            self.last_summary = summary
            await self.after_change()
            return summary

    async def after_change(self) -> None:
        """After every index run — this full one, or the watcher's narrow re-index of a few files."""
        await self.memory.after_index()  # memories follow the code that just changed
        self.embeddings.notify()  # the background job embeds what changed

    def apply_batch(
        self,
        parsed: list[ParsedFile],
        deleted: list[int],
        known: dict[str, FileRow],
        rows: list[tuple],
        file_ids: dict[str, int],
    ) -> set[str]:
        """Mirror one committed batch into the in-memory indexes; returns the names of the
        symbols that went away (edges naming them may resolve differently now)."""
        gone = [file_ids[p.path] for p in parsed if p.path in known] + list(deleted)
        rows_before = self.index.rows
        removed_names = {rows_before[i].name for fid in gone for i in self.index.by_file.get(fid, ())}
        self.index.remove_files(gone)
        for fid in deleted:
            state = self.files_by_id.pop(fid, None)
            if state is not None:
                self.files_by_path.pop(state.path, None)
        self.index.add(rows)
        for p in parsed:
            state = FileState(
                file_ids[p.path],
                p.path,
                p.language,
                p.facts.module,
                p.size,
                p.mtime_ns,
                p.hash,
                p.lines,
                p.facts.partial,
                p.facts.extractor,
            )
            self.files_by_path[p.path] = state
            self.files_by_id[state.id] = state
        return removed_names

    @property
    def reindexer(self) -> Reindexer:
        """The narrow re-indexer of a few named files (codecairn.freshness.reindex), shared by
        the watcher and by full runs that find only a few changed files: its caches (every
        file's import bindings) survive between them."""
        if self._reindexer is None:
            from codecairn.freshness.reindex import Reindexer

            self._reindexer = Reindexer(self)
        return self._reindexer

    def forget_all(self) -> None:
        self.index = SymbolIndex()
        self.symbols_loaded = True  # the store was cleared: empty is the truth
        self.files_by_path.clear()
        self.files_by_id.clear()

    def touch(self, touched: list[tuple[int, int]]) -> None:
        for fid, mtime in touched:
            state = self.files_by_id.get(fid)
            if state is not None:
                state.mtime_ns = mtime

    def language_counts(self) -> dict[str, int]:
        """Indexed files per language, by name."""
        return dict(sorted(Counter(f.language for f in self.files_by_id.values()).items()))

    def file_infos(self) -> dict[int, FileInfo]:
        return {f.id: FileInfo(f.path, f.language, f.module) for f in self.files_by_id.values()}

    # ---- paths and freshness ------------------------------------------------------------------

    def relpath(self, given: str) -> str:
        return confine(self.root, given)

    def changed_since_indexed(self, path: str) -> bool:
        """Has the file's content changed since it was indexed? (stat first, hash only if needed)"""
        state = self.files_by_path.get(path)
        if state is None:
            return True
        try:
            st = os.stat(f"{self._root_prefix}{path}")  # every answer stats its paths: no Path objects
        except OSError:
            return True
        if st.st_size == state.size and st.st_mtime_ns == state.mtime_ns:
            return False
        try:
            return content_hash(read_confined(self.root_real, path)) != state.hash
        except OSError:  # gone, unreadable, or now a link out of the root: not what was indexed
            return True

    def stale_paths(self, paths: list[str]) -> list[str]:
        return sorted({p for p in paths if self.changed_since_indexed(p)})

    def mark_pending(self, paths: set[str]) -> None:
        self.pending |= paths
        self._settled.clear()

    def clear_pending(self, paths: set[str]) -> None:
        self.pending -= paths
        if not self.pending:
            self._settled.set()

    async def wait_fresh(self, timeout: float = FRESH_WAIT_SECONDS) -> bool:
        """Called before answering: while changed files are being re-indexed, wait for them
        (at most ``timeout``) rather than answer from the old state. False if still pending."""
        if not self.pending:
            return True
        try:
            await asyncio.wait_for(self._settled.wait(), timeout)
        except TimeoutError:
            return False
        return True
