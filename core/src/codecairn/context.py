"""The public tool API (hookspecs.ToolContext), served from one workspace for one call.

The server makes one ``ServedContext`` per tool call: the workspace's parts for the answers, the
call's own progress reporting, and the session's metrics recorder (hits, misses, tokens) for
``status`` and ``usage``. Everything a tool
gets from here is a model type; nothing here shapes an answer (tools do).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, cast

from codecairn.errors import BAD_ARGUMENT, ToolError, quoted
from codecairn.files.access import FileAccess
from codecairn.files.roots import DeclaredRoots
from codecairn.hookspecs import Language, MemoryBook
from codecairn.metrics.recorder import CallRecorder
from codecairn.model import (
    CallTotals,
    DirectoryComparison,
    Dropped,
    Edge,
    Export,
    FileChange,
    FileDigest,
    FileListing,
    HistoryEntry,
    Import,
    IndexedFile,
    IndexedSymbol,
    IndexStatus,
    IndexSummary,
    JsonCheck,
    JsonSelection,
    Symbol,
    SymbolDetail,
    SymbolMatch,
    SymbolMatches,
    TextSearch,
    TextWindow,
    Usage,
    WriteReport,
)
from codecairn.paths import confine, read_for_answer
from codecairn.query.lookup import lookup
from codecairn.query.names import symbol_filter
from codecairn.store.overview import index_overview

if TYPE_CHECKING:
    from codecairn.workspace import Workspace

Progress = Callable[[float, float | None, str | None], Awaitable[None]]
READ_MAX_FILE_BYTES = 64 * 1024 * 1024  # read_file's default ceiling
SEMANTIC_POOL = 200  # name matches fused with the semantic ranking
MATCH_TIERS = ("exact", "prefix", "substring")  # find_symbols' match: the name tiers listed


# Calls of one session by outcome, with their tokens (the recorder's ``session``).
SessionCounts = CallTotals


class ServedContext:
    def __init__(
        self,
        ws: Workspace,
        progress: Progress | None = None,
        metrics: CallRecorder | None = None,
        roots: DeclaredRoots | None = None,
    ) -> None:
        self._ws = ws
        self._state = ws.state
        self._progress = progress
        self._metrics = metrics or CallRecorder(ws.state.root_real, None)
        self._counts = self._metrics.session
        self.root = ws.root
        self.languages: Mapping[str, Language] = ws.host.languages
        self.memories: MemoryBook = ws.memory
        self._roots = roots or DeclaredRoots(ws.root)  # the session's (server.py), or the indexed root alone
        self._file_access: FileAccess | None = None

    @property
    def generation(self) -> int:
        return self._state.generation

    @property
    def indexing(self) -> bool:
        return self._ws.indexer.running

    # ---- paths and files ----------------------------------------------------------------------

    def resolve_path(self, given: str) -> str:
        return confine(self.root, given)

    def file(self, path: str) -> IndexedFile | None:
        return self._state.files_by_path.get(path)

    def file_by_id(self, file_id: int) -> IndexedFile | None:
        return self._state.files_by_id.get(file_id)

    def files(self) -> list[IndexedFile]:
        return list(self._state.files_by_id.values())

    async def read_file(self, path: str, max_bytes: int | None = READ_MAX_FILE_BYTES) -> bytes:
        return await asyncio.to_thread(read_for_answer, self._state.root_real, path, max_bytes)

    def changed_since_indexed(self, path: str) -> bool:
        return self._state.changed_since_indexed(path)

    # ---- symbols ------------------------------------------------------------------------------

    def symbol(self, symbol_id: int) -> IndexedSymbol | None:
        return self._state.symbols.rows.get(symbol_id)

    def path_of(self, symbol: IndexedSymbol) -> str:
        return self._state.path_of(symbol)

    def lookup(self, name: str, path: str | None = None, line: int | None = None) -> list[IndexedSymbol]:
        return lookup(self._state, name, self.resolve_path(path) if path is not None else None, line)

    async def find_symbols(
        self,
        *,
        name: str | None = None,
        pattern: str | None = None,
        query: str | None = None,
        kinds: list[str] | None = None,
        path: str | None = None,
        language: str | None = None,
        limit: int = 20,
        match: str | None = None,
    ) -> SymbolMatches:
        # Filters are checked first: a bad one is refused whatever else is given.
        prefix = self.resolve_path(path) if path is not None else None  # "" is refused; "." is the root
        if language and language not in self.languages:
            raise ToolError(BAD_ARGUMENT, f"unknown language {quoted(language)}", languages=sorted(self.languages))
        if not (name or pattern or kinds or path or language or query):
            raise ToolError(BAD_ARGUMENT, "give at least one of name, pattern, query, kinds, path, language")
        if query is not None and (not isinstance(query, str) or not query.strip()):
            raise ToolError(BAD_ARGUMENT, "query must be a non-empty string")
        keep = symbol_filter(self._state, kinds, prefix, language)
        if match is not None and match not in MATCH_TIERS:
            raise ToolError(BAD_ARGUMENT, f"match must be one of {', '.join(MATCH_TIERS)}, not {quoted(match)}")
        rows = self._state.symbols.rows
        unlisted: dict[str, int] = {}
        if name and not pattern and query is None:
            ranked, total, at_least, unlisted = await self._ws.names.find_name(name, keep, limit, match)
        elif query is None or name or pattern:
            ranked, total, at_least = await self._ws.names.find(name, pattern, keep, SEMANTIC_POOL if query else limit)
        else:
            ranked, total, at_least = [], 0, False
        if query is None:
            # (an index run may have removed some while this call waited)
            matches = [SymbolMatch(rows[sid], ("name",)) for sid in ranked[:limit] if sid in rows]
            return SymbolMatches(matches, total, at_least, unlisted=unlisted)
        return await self._hybrid(query, ranked, bool(name or pattern), keep, limit, prefix)

    async def _hybrid(
        self, query: str, lexical: list[int], by_name: bool, keep, limit: int, path: str | None
    ) -> SymbolMatches:
        """Natural-language search, fused (reciprocal rank) with the name ranking when both are asked."""
        from codecairn.semantic.fusion import reciprocal_rank_fusion

        rows = self._state.symbols.rows
        candidates = {s.id for s in rows.values() if keep(s)} if keep is not None else None
        answer = await self._ws.semantic.search(query, max(limit * 3, 30), candidates, path)
        fused = reciprocal_rank_fusion(
            lexical if by_name else [], [(h.symbol_id, h.cosine) for h in answer.hits if h.symbol_id in rows]
        )
        found = [f for f in fused if f.id in rows]
        matches = [SymbolMatch(rows[cast(int, f.id)], tuple(f.matched), f.semantic_score) for f in found[:limit]]
        pending = self._ws.embeddings.pending_count()
        return SymbolMatches(matches, len(found), False, pending or 0, answer.loading)

    def children(self, symbol_id: int) -> list[IndexedSymbol]:
        rows = self._state.symbols.rows
        return sorted((rows[c] for c in self._state.symbols.children.get(symbol_id, ()) if c in rows),
                      key=lambda s: (s.start_line, s.id))  # fmt: skip

    def symbols_in_file(self, file_id: int) -> list[IndexedSymbol]:
        rows = self._state.symbols.rows
        return sorted((rows[i] for i in self._state.symbols.by_file.get(file_id, ()) if i in rows),
                      key=lambda s: (s.start_line, s.id))  # fmt: skip

    def ancestors(self, type_id: int) -> list[IndexedSymbol]:
        rows = self._state.symbols.rows
        return [rows[t] for t in self._state.symbols.ancestors(type_id) if t in rows]

    def subtypes(self, type_id: int) -> list[IndexedSymbol]:
        rows = self._state.symbols.rows
        return [rows[t] for t in self._state.symbols.subtypes(type_id) if t in rows]

    async def details(self, symbol_ids: Iterable[int]) -> dict[int, SymbolDetail]:
        return await self._ws.store.symbol_details(list(symbol_ids))

    async def signatures(self, symbol_ids: Iterable[int]) -> dict[int, str]:
        return await self._ws.store.signatures(list(symbol_ids))

    # ---- the graph ----------------------------------------------------------------------------

    async def edges_from(self, symbol_id: int, kinds: Iterable[str] = ()) -> list[Edge]:
        return await self._ws.store.edges_from(symbol_id, kinds)

    async def edges_to(self, symbol_id: int, kinds: Iterable[str] = (), limit: int | None = None) -> list[Edge]:
        return await self._ws.store.edges_to(symbol_id, kinds, limit)

    async def unresolved_named(self, name: str, kind: str = "calls", limit: int | None = None) -> list[Edge]:
        return await self._ws.store.unresolved_named(name, kind, limit)

    async def count_unresolved_named(self, name: str, kind: str = "calls") -> int:
        return await self._ws.store.count_unresolved_named(name, kind)

    async def imports_of(self, file_id: int, first: int = 1, last: int = 1 << 31) -> list[Import]:
        return await self._ws.store.imports_of(file_id, first, last)

    async def exports_of(self, file_id: int, first: int = 1, last: int = 1 << 31) -> list[Export]:
        return await self._ws.store.exports_of(file_id, first, last)

    # ---- the index itself ---------------------------------------------------------------------

    async def refresh(self, paths: Iterable[str] | None = None) -> IndexSummary:
        if paths is None:

            async def progress(done: int, total: int, message: str) -> None:
                await self.report_progress(done, total or None, message)

            return await self._ws.index_now(progress)
        return await self._ws.refresh([self.resolve_path(p) for p in paths])

    async def status(self) -> IndexStatus:
        ws, state, store = self._ws, self._state, self._ws.store
        await state.ensure_symbols(store)
        last = await store.get_meta("last_indexed_at")
        summary = ws.indexer.last_summary
        return IndexStatus(
            root=str(ws.root),
            files=len(state.files_by_id),
            symbols=len(state.symbols),
            languages=state.language_counts(),
            generation=state.generation,
            database=str(store.path),
            database_size_bytes=await store.size_bytes(),
            overview=await index_overview(store, state.generation),
            memories=await ws.memory.count(),
            semantic=ws.embeddings.status(),
            last_indexed_at=float(last) if last else None,
            partial_files=sorted(f.path for f in state.files_by_id.values() if f.partial),
            skipped=dict(summary.skipped) if summary is not None else {},
            plugin_failures=[f.__dict__ for f in ws.host.failures],
            read_only=ws.read_only,
            hits=self._counts.hits,
            misses=self._counts.misses,
        )

    # ---- metrics and the cache tools (issue 19) --------------------------------------------------

    async def usage(self) -> Usage:
        return await self._metrics.usage()

    async def invalidate(self, paths: Iterable[str]) -> Dropped:
        return await self._ws.invalidate([self.resolve_path(p) for p in paths])

    async def clear(self, include_memories: bool = False) -> Dropped:
        return await self._ws.clear(include_memories=include_memories)

    # ---- this call ------------------------------------------------------------------------------

    async def report_progress(self, done: float, total: float | None = None, message: str | None = None) -> None:
        if self._progress is not None:
            await self._progress(done, total, message)

    # ---- files: declared roots, bounded reads, text search, comparison, edits (the file tools) ----

    @property
    def _files(self) -> FileAccess:
        if self._file_access is None:
            ws = self._ws
            self._file_access = FileAccess(
                self._roots,
                self._state,
                ws.store,
                ws.host.language_for,
                ws.refresh,
                lambda: ws.indexer.running,
                ws.indexer.target.pool,
            )
        return self._file_access

    @property
    def roots(self) -> list[str]:
        return self._roots.all

    async def read_text(
        self,
        path: str,
        *,
        start_line: int | None = None,
        end_line: int | None = None,
        tail: int | None = None,
        start_byte: int | None = None,
        max_bytes: int = 65536,
    ) -> TextWindow:
        return await self._files.read_text(
            path, start_line=start_line, end_line=end_line, tail=tail, start_byte=start_byte, max_bytes=max_bytes
        )

    async def read_json(self, path: str, pointer: str, max_bytes: int = 65536) -> JsonSelection:
        return await self._files.read_json(path, pointer, max_bytes)

    async def check_json(self, path: str | None = None, text: str | None = None) -> JsonCheck:
        return await self._files.check_json(path, text)

    async def file_digest(self, path: str) -> FileDigest:
        return await self._files.file_digest(path)

    async def search_text(
        self,
        pattern: str,
        *,
        literal: bool = False,
        case: str = "smart",
        word: bool = False,
        path: str | None = None,
        include: Iterable[str] = (),
        exclude: Iterable[str] = (),
        context: int = 0,
        max_matches: int = 100,
    ) -> TextSearch:
        return await self._files.search_text(
            pattern, literal=literal, case=case, word=word, path=path, include=include, exclude=exclude,
            context=context, max_matches=max_matches,
        )  # fmt: skip

    async def list_files(
        self,
        path: str | None = None,
        include: Iterable[str] = (),
        exclude: Iterable[str] = (),
        limit: int = 1000,
        sizes: bool = False,
    ) -> FileListing:
        return await self._files.list_files(path, include, exclude, limit, sizes)

    async def find_files(self, query: str, path: str | None = None, limit: int = 20) -> FileListing:
        return await self._files.find_files(query, path, limit)

    async def compare_directories(
        self, left: str, right: str, *, diffs: bool = False, limit: int = 200, diff_bytes: int = 60_000
    ) -> DirectoryComparison:
        return await self._files.compare_directories(left, right, diffs=diffs, limit=limit, diff_bytes=diff_bytes)

    def enclosing_symbol(self, path: str, line: int) -> IndexedSymbol | None:
        return self._files.enclosing_symbol(path, line)

    async def parse_symbols(self, path: str) -> list[Symbol]:
        return await self._files.parse_symbols(path)

    async def write_files(
        self, changes: Iterable[FileChange], *, tool: str, acknowledge_risk: bool = False
    ) -> WriteReport:
        return await self._files.write_files(changes, tool=tool, acknowledge_risk=acknowledge_risk)

    async def history(self, limit: int = 20, path: str | None = None) -> list[HistoryEntry]:
        return await self._files.history(limit, path)

    async def undo(self, entry_id: int, *, acknowledge_risk: bool = False) -> WriteReport:
        return await self._files.undo(entry_id, acknowledge_risk=acknowledge_risk)
