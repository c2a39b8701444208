"""One served root, wired: it opens the root's store (adopting a teammate's shared snapshot, or
keeping the memories across a rebuild), builds the parts — the in-memory index state, the
indexer, name search, the embedding job and semantic search, location memory — connects them
(memories and the embedding job listen to the indexer), and owns their lifecycle. Nothing else:
what the parts do lives in the parts, and tools reach them through the tool API (context.py).
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import cast

from codecairn import config as project_config
from codecairn.config import ProjectConfig
from codecairn.errors import StoreError
from codecairn.hookspecs import Language
from codecairn.host import PluginHost
from codecairn.index.indexer import Indexer
from codecairn.index.parse_pool import ParsePool
from codecairn.index.pipeline import Progress
from codecairn.index.state import IndexState
from codecairn.index.target import IndexTarget
from codecairn.memory.memories import Memories
from codecairn.model import Dropped, IndexSummary
from codecairn.paths import validate_root
from codecairn.query.graph_index import GraphIndex
from codecairn.query.names import NameSearch
from codecairn.semantic.job import EmbeddingJob
from codecairn.semantic.search import SemanticSearch
from codecairn.snapshot import Imported, import_if_new
from codecairn.store import memories as memory_table
from codecairn.store.store import Store, database_path
from codecairn.workspaces import Lease

log = logging.getLogger("codecairn.workspace")

# "Last used" (what `codecairn workspaces --gc` ages indexes by) is written at most this often: a
# run that changes nothing then writes nothing, and its close keeps the seal it verified at open.
LAST_USED_EVERY_SECONDS = 3600.0


class _Unusable:
    """Stands in for the store of a workspace whose index cannot be used: every use raises why."""

    def __init__(self, failure: StoreError | None) -> None:
        self._failure = failure or StoreError("no index database")

    def __getattr__(self, name: str):
        raise self._failure


def _only(languages: tuple[str, ...], language_for: Callable[[str], Language | None]):
    """``language_for`` narrowed to the languages a project's configuration names."""
    wanted = frozenset(languages)

    def narrowed(path: str) -> Language | None:
        language = language_for(path)
        return language if language is not None and language.name in wanted else None

    return narrowed


class Workspace:
    def __init__(
        self,
        root: Path,
        host: PluginHost,
        store: Store | None,
        failure: StoreError | None = None,
        config: ProjectConfig | None = None,
    ) -> None:
        self.root = root
        self.host = host
        self.config = config or ProjectConfig()  # the project's own settings (codecairn.config)
        language_for = host.language_for
        if self.config.languages is not None:
            language_for = _only(self.config.languages, language_for)
        self._store = store  # None only for an unusable workspace (see unusable)
        self.state = IndexState(os.path.realpath(root))
        self._failure = failure  # see unusable()
        self.lease: Lease | None = None  # "in use": `codecairn workspaces --gc` leaves it alone
        self.imported: Imported | None = None  # the shared snapshot this index started from, if any
        self._last_used_at = 0.0
        parts_store = store if store is not None else cast(Store, _Unusable(failure))  # never asked
        self.language_for = language_for
        self.indexer = Indexer(
            IndexTarget(
                root,
                host.languages,
                language_for,
                parts_store,
                self.state,
                ParsePool(host.languages),
                exclude=self.config.exclude_spec(),
                max_file_bytes=self.config.max_file_bytes,
            )
        )
        self.names = NameSearch(self.state)
        self.graph = GraphIndex(self.state, parts_store)
        self.embeddings = EmbeddingJob(self.state, parts_store, host.embedder)
        self.semantic = SemanticSearch(self.embeddings, host.embedder)
        self.memory = Memories(root, self.state, parts_store, language_for, host.embedder)
        self.indexer.on_change(self._after_change)

    async def _after_change(self, summary: IndexSummary) -> None:
        await self.memory.after_index()  # memories follow the code that just changed
        self.embeddings.notify()  # the background job embeds what changed
        self.graph.after_index()  # the whole-index graph answers of the new generation, in the background

    # ---- opening and closing --------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        root: str | os.PathLike,
        host: PluginHost | None = None,
        *,
        db_path: Path | None = None,
        cache_dir: Path | None = None,
        load_symbols: bool = True,
        rebuild: bool = False,
        adopt_snapshot: bool = True,
    ) -> Workspace:
        """Open ``root``'s index. ``rebuild``: delete it first, keeping the memories agents wrote.
        ``adopt_snapshot``: with no index yet, start from the repository's shared snapshot
        (``.codecairn/index.db.zst``) when there is one. A project configuration that cannot be
        used raises ConfigError before anything is opened or changed."""
        real = validate_root(root)
        host = host or PluginHost()
        config = project_config.load(real)
        config.check_languages(host.languages)
        db = db_path or database_path(real, cache_dir)
        kept: list[tuple] = []
        if rebuild:
            kept = memory_table.salvage(db)
            for suffix in ("", "-wal", "-shm", ".sealed"):
                try:
                    Path(str(db) + suffix).unlink(missing_ok=True)
                except OSError as exc:
                    from codecairn.errors import StoreNotWritable

                    raise StoreNotWritable(f"cannot rebuild {db}: {exc.filename}: {exc.strerror}") from None
        imported = None
        if adopt_snapshot:
            try:
                imported = import_if_new(real, db, host)
            except StoreError as exc:
                print(f"codecairn: not using the snapshot: {exc}; indexing from scratch", file=sys.stderr)
        lease = Lease.acquire(db)
        try:
            store = await Store.open(db)
        except BaseException:
            lease.release()
            raise
        ws = cls(real, host, store, config=config)
        ws.lease = lease
        ws.imported = imported
        try:
            if kept:
                await memory_table.restore(store, kept)
                print(f"codecairn: kept {len(kept)} remembered locations across the rebuild", file=sys.stderr)
            await ws._load_files()
            if load_symbols:
                await ws.state.ensure_symbols(store)
        except BaseException:
            await store.close()
            lease.release()
            raise
        return ws

    @classmethod
    def unusable(cls, root: str | os.PathLike, failure: StoreError, host: PluginHost | None = None) -> Workspace:
        """A served root whose index cannot be used (damaged): every answer is ``failure``."""
        real = validate_root(root)
        return cls(real, host or PluginHost(), None, failure, project_config.load(real))

    async def _load_files(self) -> None:
        assert self._store is not None
        if self._store.read_only is None:
            stored_root = await self._store.get_meta("root")
            if stored_root is None:
                await self._store.set_meta({"root": str(self.root), "created_at": time.time()})
            await self._mark_used()
        await self.state.load_files(self._store)

    async def _mark_used(self) -> None:
        assert self._store is not None
        now = time.time()
        if not self._last_used_at:
            self._last_used_at = float(await self._store.get_meta("last_used_at", "0") or 0)
        if now - self._last_used_at >= LAST_USED_EVERY_SECONDS:
            await self._store.set_meta({"last_used_at": now})
            self._last_used_at = now

    async def close(self) -> None:
        self.indexer.close()
        await self.embeddings.close()
        await self.graph.close()  # its background work reads the store: stopped before the store closes
        if self._store is not None:
            if self.read_only is None and self.failure is None:
                try:
                    await self._mark_used()
                except Exception:  # a closed or broken store: last use stays at the open time
                    pass
            await self._store.close()
        if self.lease is not None:
            self.lease.release()

    @property
    def store(self) -> Store:
        """The root's index database (an unusable workspace has none: its failure is raised)."""
        if self._store is None:
            raise self._failure or StoreError("no index database")
        return self._store

    # ---- what cannot be done, and why ------------------------------------------------------------

    @property
    def failure(self) -> StoreError | None:
        """Why nothing can be answered from this root's index (it is damaged), or None."""
        if self._failure is not None:
            return self._failure
        return self._store.damage if self._store is not None else None

    @property
    def read_only(self) -> str | None:
        """Why this index cannot be written (it is answered from as it is), or None."""
        return self._store.read_only if self._store is not None else None

    def explain(self, exc: BaseException) -> StoreError:
        """What a failure met by anything working on this index means, as a StoreError whose
        message says the file, the cause and what to do (damage is remembered: see failure)."""
        if self._store is None:
            return self._failure or StoreError(str(exc))
        return self._store.explain(exc) or StoreError(str(exc))

    # ---- conveniences of the wiring -------------------------------------------------------------

    async def index_now(self, progress: Progress | None = None) -> IndexSummary:
        """Index the whole root (the indexer decides how)."""
        if self.failure is not None:
            raise self.failure
        return await self.indexer.run(progress)

    async def invalidate(self, paths: Iterable[str]) -> Dropped:
        """Drop the facts of named root-relative paths until they are indexed again."""
        if self.failure is not None:
            raise self.failure
        dropped, symbols = await self.indexer.invalidate(paths)
        return Dropped(files=len(dropped), symbols=symbols, generation=self.state.generation, paths=dropped)

    async def clear(self, *, include_memories: bool = False) -> Dropped:
        """Drop the whole index of the root; memories and the notes file only if asked."""
        if self.failure is not None:
            raise self.failure
        files, symbols = await self.indexer.clear()
        out = Dropped(files=files, symbols=symbols, generation=self.state.generation)
        if include_memories:
            out.memories, out.notes = await self.memory.forget_everything()
        return out

    async def refresh(self, paths: Iterable[str]) -> IndexSummary:
        """Re-index named root-relative paths now (an edit, the `index` tool's ``paths``)."""
        if self.failure is not None:
            raise self.failure
        return await self.indexer.refresh(paths)
