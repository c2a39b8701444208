"""The public tool API (hookspecs.ToolContext), served from one workspace for one call.

The server makes one ``ServedContext`` per tool call: the workspace's parts for the answers, the
call's own progress reporting, and the session's metrics recorder (hits, misses, tokens) for
``status`` and ``usage``. Everything a tool
gets from here is a model type; nothing here shapes an answer (tools do).
"""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

import tree_sitter

from codecairn.errors import BAD_ARGUMENT, UNAVAILABLE, ToolError, quoted
from codecairn.files.access import FileAccess
from codecairn.files.roots import DeclaredRoots
from codecairn.freshness.git import GitUnavailable, diff, valid_revision
from codecairn.hookspecs import Language, MemoryBook
from codecairn.metrics.recorder import CallRecorder
from codecairn.metrics.tokens import TokenCounter
from codecairn.model import (
    TYPE_KINDS,
    CallTotals,
    Chains,
    DiffedFile,
    DirectoryComparison,
    Dropped,
    Edge,
    Export,
    FileChange,
    FileDigest,
    FileListing,
    Hierarchy,
    HistoryEntry,
    Import,
    IndexedFile,
    IndexedSymbol,
    IndexStatus,
    IndexSummary,
    JsonCheck,
    JsonSelection,
    PackageDependency,
    PackageInfo,
    QueryResult,
    RepoMap,
    Symbol,
    SymbolDetail,
    SymbolMatch,
    SymbolMatches,
    TextSearch,
    TextWindow,
    TokenOccurrence,
    TokenScan,
    Usage,
    Walk,
    WriteReport,
)
from codecairn.paths import confine, read_confined, read_for_answer
from codecairn.query import architecture
from codecairn.query import graph as call_graph
from codecairn.query.diff import onto, parse
from codecairn.query.graph_index import CALL_KINDS
from codecairn.query.hierarchy import hierarchy, overriding
from codecairn.query.lookup import as_declared, lookup
from codecairn.query.names import check_kinds, qualified, symbol_filter
from codecairn.query.references import scan
from codecairn.store import console
from codecairn.store import graph as graph_reads
from codecairn.store.overview import index_overview

if TYPE_CHECKING:
    from codecairn.workspace import Workspace

T = TypeVar("T")
Progress = Callable[[float, float | None, str | None], Awaitable[None]]
READ_MAX_FILE_BYTES = 64 * 1024 * 1024  # read_file's default ceiling
SEMANTIC_POOL = 200  # name matches fused with the semantic ranking
MATCH_TIERS = ("exact", "prefix", "substring")  # find_symbols' match: the name tiers listed
# Decorators that make a function a command-line entry point, in a file that imports a library
# that has them (rich's `@group()` makes a renderable, not a command).
CLI_DECORATORS = (".command", "@command", ".group", "@group")
CLI_LIBRARIES = ("click", "asyncclick", "rich_click", "cloup", "typer", "cyclopts")
MAP_CANDIDATES = 2000  # ranked symbols a repository map is packed from
# Token budgets are counted as the metrics count (one cl100k encoding in the process); without the
# tokenizer, over-estimated (3 bytes a token), so that a map said to fit its budget does fit it.
BUDGET_TOKENS = TokenCounter(bytes_per_token=3, cache_entries=0)


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
        self.reports_progress = False  # has the tool reported progress of its own?
        self._beaten = 0.0  # the last heartbeat's value (each must be larger)

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
        if kinds:
            check_kinds(kinds, self._state.symbols.kinds())
        keep = symbol_filter(self._state, kinds, prefix, language)
        if match is not None and match not in MATCH_TIERS:
            raise ToolError(BAD_ARGUMENT, f"match must be one of {', '.join(MATCH_TIERS)}, not {quoted(match)}")
        rows = self._state.symbols.rows
        unlisted: dict[str, int] = {}
        if name and not pattern and query is None:
            ranked, total, at_least, unlisted = await self._find_name(name, keep, limit, match)
            if not ranked and (declared := as_declared(name)) != name:  # Outer$Inner, (*T).M
                ranked, total, at_least, unlisted = await self._find_name(declared, keep, limit, match)
        elif query is None or name or pattern:
            ranked, total, at_least = await self._ws.names.find(name, pattern, keep, SEMANTIC_POOL if query else limit)
        else:
            ranked, total, at_least = [], 0, False
        if query is None:
            # (an index run may have removed some while this call waited)
            matches = [SymbolMatch(rows[sid], ("name",)) for sid in ranked[:limit] if sid in rows]
            return SymbolMatches(matches, total, at_least, unlisted=unlisted)
        return await self._hybrid(query, ranked, bool(name or pattern), keep, limit, prefix)

    async def _find_name(self, name: str, keep, limit: int, match: str | None):
        if not self._state.symbols.exact_matches(name):  # (a TypeScript module is named `src/a/b`)
            name, keep = qualified(name, keep)  # `Console.print`: print, in Console
        return await self._ws.names.find_name(name, keep, limit, match)

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

    def symbol_kinds(self) -> set[str]:
        return self._state.symbols.kinds()

    def children(self, symbol_id: int) -> list[IndexedSymbol]:
        rows = self._state.symbols.rows
        return sorted((rows[c] for c in self._state.symbols.children.get(symbol_id, ()) if c in rows),
                      key=lambda s: (s.start_line, s.id))  # fmt: skip

    def members(self, symbol_id: int) -> list[IndexedSymbol]:
        rows = self._state.symbols.rows
        own = self.children(symbol_id)
        sym = rows.get(symbol_id)
        if sym is None or sym.kind not in TYPE_KINDS:
            return own
        home = self._state.files_by_id.get(sym.file_id)
        language = self.languages.get(home.language) if home is not None else None
        if language is None or not language.resolution.members_apart:
            return own  # (the look-up sorts every qualified name once per index generation: only where needed)
        seen = {s.id for s in own}
        away = [rows[i] for i in self._ws.graph.members().of(self._state, symbol_id) if i not in seen and i in rows]
        return own + sorted(away, key=lambda s: (self._state.path_of(s), s.start_line, s.id))

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

    async def imports_naming(self, modules: list[str], limit: int = 1000) -> list[tuple[str, int, str]]:
        found = await self._ws.store.imports_naming(modules, limit)
        return [(f.path, line, target) for file_id, line, target in found if (f := self.file_by_id(file_id))]

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

    # ---- graph intelligence (issue 16) ----------------------------------------------------------

    async def walk(
        self,
        start: Iterable[int],
        direction: str,
        kinds: Iterable[str] = CALL_KINDS,
        depth: int = 3,
        fan_out: int = 20,
        level_limit: int = 400,
    ) -> Walk:
        return await call_graph.walk(
            list(start), direction, self._ws.graph.around(list(kinds)), depth, fan_out, level_limit
        )

    async def call_chains(
        self, source_id: int, target_id: int, kinds: Iterable[str] = CALL_KINDS, max_depth: int = 8, limit: int = 5
    ) -> Chains:
        return await call_graph.shortest_chains(
            source_id, target_id, self._ws.graph.fetcher(list(kinds)), max_depth, limit
        )

    async def unresolved_uses(
        self, names: Iterable[str], kinds: Iterable[str] = ("calls",), limit: int = 20
    ) -> tuple[list[Edge], dict[str, int]]:
        return await graph_reads.unresolved_named(self._ws.store, list(names), list(kinds), limit)

    async def edges_in_files(self, file_ids: Iterable[int], kinds: Iterable[str] = ()) -> list[Edge]:
        return await graph_reads.edges_in_files(self._ws.store, list(file_ids), list(kinds))

    async def scan_tokens(self, name: str, paths: Iterable[str], limit: int = 200, seconds: float = 5.0) -> TokenScan:
        files = [(p, f.language) for p in paths if (f := self._state.files_by_path.get(p)) is not None]
        parsers: dict[str, object] = {}
        languages = self.languages

        def parser_for(language: str):
            if language not in parsers:
                lang = languages.get(language)
                grammar = lang.grammar() if lang is not None else None
                if grammar is not None and not isinstance(grammar, tree_sitter.Language):
                    grammar = tree_sitter.Language(grammar)
                parsers[language] = tree_sitter.Parser(grammar) if grammar is not None else None
            return parsers[language]

        root_real, stop = self._state.root_real, threading.Event()
        deadline = time.perf_counter() + seconds
        work = asyncio.ensure_future(asyncio.to_thread(
            scan, files, name, lambda p: read_confined(root_real, p), parser_for, limit, deadline, stop
        ))  # fmt: skip
        try:
            found, scanned, cut = await asyncio.shield(work)
        except asyncio.CancelledError:
            stop.set()
            raise
        occurrences = [TokenOccurrence(p, o.line, o.column, o.category) for p, o in found]
        return TokenScan(occurrences, scanned, len(files), not cut and scanned == len(files))

    def type_hierarchy(self, type_id: int, depth: int = 3, limit: int = 100) -> Hierarchy:
        graph = self._ws.graph
        found = hierarchy(self._state, type_id, depth, limit, graph.method_sets())
        found.overrides = overriding(self._state, type_id, [link.far for link in found.descendants], graph.members())
        return found

    async def changes(self, base: str | None = None, head: str | None = None) -> list[DiffedFile]:
        for name, rev in (("base", base), ("head", head)):
            if rev is not None and not valid_revision(rev):
                raise ToolError(BAD_ARGUMENT, f"{name} {quoted(rev)} is not a revision (a ref, a hash, HEAD~2...)")
        try:
            out, untracked = await diff(self.root, base, head)
        except GitUnavailable as exc:
            said = str(exc)
            if "Could not access '" in said or "bad revision '" in said:
                # (git's own words name a revision that is not there: no repository, no commit yet,
                # or no such revision)
                what = "its repository has no commit yet" if base is None else f"it has no revision {quoted(base)}"
                raise ToolError(
                    UNAVAILABLE,
                    f"{self.root} is not in a git repository, or {what}: there is no diff to start from; "
                    "pass symbols (the names that changed) instead",
                ) from None
            raise ToolError(UNAVAILABLE, f"git could not say what changed: {exc}") from None
        found = parse(out)
        known = {c.path for c in found}
        found.extend(DiffedFile(p, "added") for p in untracked if p not in known)
        if head is not None and found:
            # The index holds the work tree: head's lines are where the work tree has them now
            try:
                since, _ = await diff(self.root, head, None, untracked=False)  # (lines of tracked files only)
            except GitUnavailable as exc:
                raise ToolError(UNAVAILABLE, f"git could not say what changed since {head}: {exc}") from None
            moved = {c.path: c.hunks for c in parse(since) if c.hunks}
            for change in found:
                if hunks := moved.get(change.path):
                    change.ranges = [(onto(a, hunks), onto(b, hunks)) for a, b in change.ranges]
                    change.removed_at = [onto(line, hunks) for line in change.removed_at]
        return found

    def is_test_file(self, path: str) -> bool:
        return architecture.is_test_path(path)

    async def _per_generation(
        self,
        key: tuple,
        compute: Callable[[], Awaitable[T]],
        encode: Callable[[T], Any] | None = None,
        decode: Callable[[Any], T] | None = None,
    ) -> T:
        """An answer derived from the whole index, computed once per index generation (dropped when
        the index changes). With ``encode``/``decode`` (JSON-able, symbols as ids), it is also saved
        in the store, and a restarted server reads it back instead of computing it again."""
        graph, generation = self._ws.graph, self._state.generation
        known, value = graph.derived(key)
        if known:
            return value
        if decode is not None:
            raw = await graph.saved(key)
            if raw is not None:
                value = decode(raw)
                graph.keep(key, generation, value)
                return value
        graph.step(key[0])
        value = await compute()
        graph.keep(key, generation, value, encode(value) if encode is not None else None)
        return value

    def _symbols(self, ids: Iterable[int]) -> list[IndexedSymbol]:
        rows = self._state.symbols.rows
        return [rows[i] for i in ids if i in rows]

    async def graph_preparing(self, wait: float, facts: bool = False) -> dict[str, Any] | None:
        return await self._ws.graph.ready(wait, facts)

    async def packages(self, depth: int | None = None) -> tuple[list[PackageInfo], int | None]:
        async def compute() -> tuple[list[PackageInfo], int | None]:
            chosen = depth
            if chosen is None:
                chosen = await asyncio.to_thread(architecture.choose_depth, list(self._state.files_by_path))
            found = await asyncio.to_thread(architecture.packages, self._state, chosen)
            return [PackageInfo(p.name, p.files, p.lines, p.symbols, dict(p.languages), p.tests)
                    for p in found.values()], chosen  # fmt: skip

        found, chosen = await self._per_generation(
            ("packages", depth),
            compute,
            lambda v: [[dataclasses.astuple(p) for p in v[0]], v[1]],
            lambda raw: ([PackageInfo(*p) for p in raw[0]], raw[1]),
        )
        return list(found), chosen

    async def _package_dependencies(self, depth: int | None) -> dict[tuple[str, str], Counter]:
        async def compute() -> dict[tuple[str, str], Counter]:
            facts = await self._ws.graph.facts()
            return await asyncio.to_thread(architecture.package_dependencies, facts, self._state, depth)

        return await self._per_generation(
            ("package_dependencies", depth),
            compute,
            lambda v: [[a, b, dict(c)] for (a, b), c in v.items()],
            lambda raw: {(a, b): Counter(c) for a, b, c in raw},
        )

    async def package_dependencies(self, depth: int | None) -> list[PackageDependency]:
        deps = await self._package_dependencies(depth)
        return [PackageDependency(a, b, dict(c)) for (a, b), c in deps.items()]

    async def hotspots(self, limit: int = 10) -> dict[str, list[tuple[IndexedSymbol, int]]]:
        async def compute() -> dict[str, list[tuple[IndexedSymbol, int]]]:
            facts = await self._ws.graph.facts()
            return await asyncio.to_thread(architecture.hotspots, facts, self._state, limit)

        rows = self._state.symbols.rows
        found = await self._per_generation(
            ("hotspots", limit),
            compute,
            lambda v: {key: [[s.id, n] for s, n in items] for key, items in v.items()},
            lambda raw: {key: [(rows[i], n) for i, n in items if i in rows] for key, items in raw.items()},
        )
        return {key: list(items) for key, items in found.items()}

    async def ranked_symbols(
        self, seed_files: Iterable[str] = (), seed_symbols: Iterable[int] = (), limit: int = 500
    ) -> list[tuple[IndexedSymbol, float]]:
        files = frozenset(f.id for p in seed_files if (f := self._state.files_by_path.get(p)) is not None)
        symbols = frozenset(seed_symbols)

        async def compute() -> list[tuple[int, float]]:
            facts = await self._ws.graph.facts()
            return await asyncio.to_thread(architecture.rank_symbols, facts, self._state, set(files), set(symbols))

        if files or symbols:
            ranked = await compute()  # a seeded ranking is the caller's own: not kept
        else:
            ranked = await self._per_generation(("ranked",), compute)
        rows = self._state.symbols.rows
        return [(rows[sid], score) for sid, score in ranked[:limit] if sid in rows]

    async def package_cycles(self, depth: int | None, limit: int = 10) -> list[list[str]]:
        async def compute() -> list[list[str]]:
            return architecture.cycles(await self._package_dependencies(depth), limit)

        def as_lists(cycles: list[list[str]]) -> list[list[str]]:
            return [list(c) for c in cycles]

        found = await self._per_generation(("cycles", depth, limit), compute, as_lists, as_lists)
        return [list(c) for c in found]

    async def repository_map(
        self, seed_files: Iterable[str] = (), seed_symbols: Iterable[int] = (), budget: int = 1024
    ) -> RepoMap:
        seed_files, seed_symbols = list(seed_files), list(seed_symbols)

        async def compute() -> RepoMap:
            ranked = await self.ranked_symbols(seed_files, seed_symbols, MAP_CANDIDATES)
            chosen = [s.id for s, _ in ranked]
            signatures = await self.signatures(chosen)

            def pack() -> tuple[str, int]:
                # The map of the first n ranked symbols grows with n: the largest n whose text fits.
                lo, hi = 0, len(chosen)
                while lo < hi:
                    mid = (lo + hi + 1) // 2
                    lines = architecture.map_lines(self._state, chosen[:mid], signatures)
                    if BUDGET_TOKENS.count("\n".join(lines)) <= budget:
                        lo = mid
                    else:
                        hi = mid - 1
                return "\n".join(architecture.map_lines(self._state, chosen[:lo], signatures)), lo

            text, shown = await asyncio.to_thread(pack)
            return RepoMap(text, shown, BUDGET_TOKENS.count(text), BUDGET_TOKENS.name)

        if seed_files or seed_symbols:
            return await compute()
        return await self._per_generation(("map", budget), compute, dataclasses.astuple, lambda raw: RepoMap(*raw))

    async def entry_points(self) -> dict[str, list[IndexedSymbol]]:
        async def compute() -> dict[str, list[IndexedSymbol]]:
            rows = self._state.symbols.rows
            cli = await graph_reads.symbols_with_modifier(self._ws.store, CLI_DECORATORS, 200, CLI_LIBRARIES)
            routes = [s for s in rows.values() if s.kind == "route"]
            return {
                "main": architecture.main_functions(self._state),
                "cli": [rows[i] for i in cli if i in rows],
                "routes": sorted(routes, key=lambda s: (self._state.path_of(s), s.start_line)),
            }

        found = await self._per_generation(
            ("entry_points",),
            compute,
            lambda v: {key: [s.id for s in items] for key, items in v.items()},
            lambda raw: {key: self._symbols(ids) for key, ids in raw.items()},
        )
        return {key: list(items) for key, items in found.items()}

    async def query_graph(self, sql: str, limit: int = 200, seconds: float = 5.0) -> QueryResult:
        try:
            return await console.query(self._ws.store.path, sql, limit, seconds)
        except console.QueryRefused as exc:
            raise ToolError(BAD_ARGUMENT, str(exc)) from None

    def graph_views(self) -> dict[str, dict[str, str]]:
        return console.VIEWS

    def graph_query_examples(self) -> list[str]:
        return list(console.EXAMPLES)

    async def graph_counts(self) -> dict[str, dict]:
        kinds: dict[str, dict] = {}
        for kind, how, n in await graph_reads.resolution_counts(self._ws.store):
            entry = kinds.setdefault(kind, {"edges": 0, "resolved": 0, "resolution": {}})
            entry["edges"] += n
            if how is not None:
                entry["resolved"] += n
                # `external:os.getcwd` is the label `external` with its target: one label, counted
                # (one key per distinct target made the schema tens of kB on a Python or Go repo)
                label = how.partition(":")[0]
                entry["resolution"][label] = entry["resolution"].get(label, 0) + n
        symbols = Counter(s.kind for s in self._state.symbols.rows.values())
        return {"symbol_kinds": dict(symbols.most_common()), "edge_kinds": kinds}

    # ---- metrics and the cache tools (issue 19) --------------------------------------------------

    async def usage(self) -> Usage:
        return await self._metrics.usage()

    async def invalidate(self, paths: Iterable[str]) -> Dropped:
        return await self._ws.invalidate([self.resolve_path(p) for p in paths])

    async def clear(self, include_memories: bool = False) -> Dropped:
        return await self._ws.clear(include_memories=include_memories)

    # ---- this call ------------------------------------------------------------------------------

    async def report_progress(self, done: float, total: float | None = None, message: str | None = None) -> None:
        self.reports_progress = True  # the tool counts on its own: the server's heartbeat stops
        if self._progress is not None:
            await self._progress(done, total, message)

    async def heartbeat(self, seconds: float, message: str) -> None:
        """The server's progress for a call that takes a while and says nothing itself: the time
        it has run, which grows with each notification as the protocol wants."""
        seconds = round(seconds, 3)
        if self._progress is not None and not self.reports_progress and seconds > self._beaten:
            self._beaten = seconds
            await self._progress(seconds, None, message)

    # ---- files: declared roots, bounded reads, text search, comparison, edits (the file tools) ----

    @property
    def _files(self) -> FileAccess:
        if self._file_access is None:
            ws = self._ws
            self._file_access = FileAccess(
                self._roots,
                self._state,
                ws.store,
                ws.host.language_for,  # any file's language, indexed or not
                ws.refresh,
                lambda: ws.indexer.running,
                ws.indexer.target.pool,
                ws.config.search_timeout_seconds,
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
