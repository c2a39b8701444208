"""The whole plugin contract of codecairn, readable on its own.

A plugin is any module (or object) with functions named ``codecairn_*`` marked ``@hookimpl``,
registered through the entry-point group ``codecairn``::

    [project.entry-points.codecairn]
    mylang = "codecairn_mylang.plugin"

codecairn's own features — the built-in tools, the default embedder — are plugins registered
through these same hooks, before entry points are loaded.

What plugins hand back is plain data, defined here too:

* ``Language``  — a tree-sitter grammar plus a pure extractor ``(source, tree, path) -> FileFacts``
  (see ``codecairn.model``). Extractors run in worker processes, so everything in a Language must
  pickle: module-level functions, or instances of module-level classes. ``ImportedOnCall``
  names an extractor by import path, so the module is imported only where files are parsed.
* ``Tool``      — an MCP tool: name, description, JSON schema, and an async handler
  ``handler(ctx: ToolContext, arguments: dict) -> dict`` returning a JSON-able answer or raising
  ``codecairn.errors.ToolError``. ``ToolContext`` is the public API a tool is written against.
* ``Embedder``  — turns texts into L2-normalised vectors.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

import pluggy

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from pathlib import Path

    import numpy as np

    from codecairn.model import (
        Chains,
        DiffedFile,
        DirectoryComparison,
        Dropped,
        Edge,
        Export,
        FileChange,
        FileDigest,
        FileFacts,
        FileListing,
        Hierarchy,
        HistoryEntry,
        HttpCall,
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
        Route,
        Symbol,
        SymbolDetail,
        SymbolMatches,
        TextSearch,
        TextWindow,
        TokenScan,
        Usage,
        Walk,
        WriteReport,
    )

PROJECT = "codecairn"
ENTRY_POINT_GROUP = "codecairn"
# The version of this contract. It changes when a hook, a dataclass field a plugin fills in, or a
# ToolContext method changes incompatibly; plugins depend on core with an upper bound
# (``codecairn>=0.2,<0.3``) and may check it.
API_VERSION = 2

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# ---- what plugins return ------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportedOnCall:
    """An extractor named by its import path, ``"package.module:function"``, imported on first call.

    Extractor modules compile their queries when imported; naming the function instead of
    importing it keeps that work in the parse workers, out of every `codecairn` start-up (an
    unchanged re-index parses nothing and never needs it)."""

    target: str

    def __call__(self, *args: Any) -> Any:
        function = _imported.get(self.target)
        if function is None:
            import importlib

            module, _, name = self.target.partition(":")
            function = _imported[self.target] = getattr(importlib.import_module(module), name)
        return function(*args)


_imported: dict[str, Callable[..., Any]] = {}


@dataclass(frozen=True)
class ResolutionRules:
    """How a language's names reach their symbols: what the resolver needs to know of it.
    Everything here must pickle (it travels to parse workers with its Language)."""

    # How qualified names are joined ("." for Java/Python/TS/Go, "::" for Rust).
    separator: str = "."
    # Are members of the enclosing type callable without a receiver (Java/TS: yes)?
    implicit_members: bool = False
    # Receivers that mean "the current object" and "its supertype".
    self_names: tuple[str, ...] = ("self", "this")
    super_names: tuple[str, ...] = ("super", "super()")
    # Are symbols of other files in the same directory visible without import (Java, Go)?
    directory_scope: bool = False
    # The language's built-ins: names a bare call or base reaches without import when nothing in
    # scope defines them (Python's `str`, JavaScript's `parseInt`). They are never resolved by
    # guessing another file's symbol of that name.
    builtins: frozenset[str] = frozenset()
    # Where calls that leave the indexed code go, when the language can name it: the module of
    # its built-ins (Python's ``builtins``). Set, a call to a built-in, to a built-in type's
    # member (``str.join``) or into an imported module that is not indexed (``sys.exit``) becomes
    # an edge labelled external to that dotted name (model.EXTERNAL) instead of an unresolved one.
    # Empty: such calls stay unresolved.
    builtins_module: str = ""
    # The built-in type every class ends at (Python's ``object``) and the members it has
    # (``dir(object)``). Set, with builtins_module, a ``super().m()`` that no supertype in the index
    # defines is an external edge to ``<builtins_module>.<root_type>.m`` when m is one of them and
    # every supertype of the class is in the index (none written that it does not hold: then that
    # one may define m). Empty: such calls stay unresolved.
    root_type: str = ""
    root_members: frozenset[str] = frozenset()
    # The built-in types' members, ``<type><separator><member>`` for each member each type has
    # (Python: ``dir()`` of each class in ``builtins``). Set, a call of a member on a
    # built-in type (``x = []; x.append()``), or on a class whose one supertype outside the index
    # is one (``self.items()`` in ``class Table(dict)``), is an external edge only when the type
    # has that member; a name it lacks (``self.items()`` in ``class Table(list)``), or a member of
    # a built-in that is no type (``None.method()``), stays unresolved. Empty: no member is checked.
    builtin_members: frozenset[str] = frozenset()
    # Is `self` in a class whatever subclass mixes it in (Python, duck-typed)? Then a `self.m()`
    # the class and its supertypes lack is the one `m` all its subclasses in the index reach
    # (labelled flow). Statically typed languages declare every member up the chain: False.
    mixins: bool = False
    # Does a wildcard import (`from m import *`) take only m's public names: those its export list
    # names (Python's ``__all__``, exports of kind "all"), else those without a leading underscore?
    # False: every name of the module (JavaScript's `export * from`).
    wildcard_public_only: bool = False
    # The method a call of a class runs (Python's ``__init__``), found through the supertypes: a
    # call of a class that has one in the index is an edge to it. Empty: to the class itself.
    constructor: str = ""
    # Are a type's methods declared apart from it (Go's `func (t *T) m()` in any file of the
    # package, Rust's `impl T` blocks)? Then they are found by qualified name as its members
    # (get_symbol); else a type's members are its children, and nothing more is looked up.
    members_apart: bool = False
    # Heads of a path that name a module relative to the current one (Rust's `crate`, `self`,
    # `super`): ``path_root(head, current_module) -> module``, or None when ``head`` is no such
    # word. A module-level function (it must pickle).
    path_root: Callable[[str, str], str | None] | None = None


@dataclass(frozen=True)
class AttachedLines:
    """How the lines above a definition that belong to it start: its decorators, annotations or
    attributes (``@``, ``#[``, C++'s ``template``) and the comments that document it (``//``,
    ``/*``, ``#``). Reading a symbol takes its decorators with it; code inserted before it goes
    above both (files/attached.py). A line of either kind, at the definition's indentation,
    directly above it (a blank line ends them)."""

    decorators: tuple[str, ...] = ()
    comments: tuple[str, ...] = ()


C_COMMENTS = ("//", "/*")


@dataclass(frozen=True)
class Language:
    """A language codecairn can index: who it is and how to parse it, then how its names resolve.

    ``grammar`` returns a tree-sitter language (the PyCapsule from a grammar package's
    ``language()`` function, or a ``tree_sitter.Language``). ``extractor`` turns one parsed file
    into facts and must be a pure function: no I/O, no globals it writes to.
    """

    name: str
    extensions: tuple[str, ...]
    grammar: Callable[[], Any]
    extractor: Callable[[bytes, Any, str], FileFacts]
    resolution: ResolutionRules = ResolutionRules()
    # Extra file names (no extension) this language claims, e.g. ("BUILD",). Rarely needed.
    filenames: tuple[str, ...] = ()
    # Shown in answers so an agent knows how deep the facts are: a rich plugin's, or a grammar
    # pack's tag queries.
    depth: Literal["rich", "tags"] = "rich"
    # Languages of one family import each other's modules (TypeScript, TSX and JavaScript share
    # module names); empty = the language is its own family.
    family: str = ""
    # Bump it when the extractor finds something else in the same code: the next index extracts
    # every file of this language again, though its text did not change (index/extractor_versions.py).
    version: str = "1"
    # The decorators and comments above a definition that go with it (read_symbol, edit_symbol).
    attached: AttachedLines = AttachedLines()


@dataclass(frozen=True)
class RouteDetector:
    """Finds HTTP routes and client calls in one parsed file of ``languages``: ``detect(source, tree,
    path, facts) -> (routes, calls)`` (lists of model.Route and model.HttpCall), run in the parse
    workers right after the language's extractor, with its facts. Pure and picklable like an
    extractor (a module-level function, or an ImportedOnCall). Precision first: a route or call
    only where the framework's own API says so, never a guess from any string that looks like a path."""

    name: str  # "flask", "express"...
    languages: tuple[str, ...]
    detect: Callable[[bytes, Any, str, FileFacts], tuple[list[Route], list[HttpCall]]]
    # Bump it when the detector finds something else in the same code: the next index extracts
    # routes again from the files it may concern (and so when a detector comes or goes), not
    # from every file (index/route_detectors.py).
    version: str = "1"
    # Text every file it finds something in contains (an import its framework needs): only those
    # files, and those with routes or HTTP calls found before, are read again when detectors
    # change. Empty: every file of its languages.
    markers: tuple[bytes, ...] = ()


class MemoryBook(Protocol):
    """Location memory and architecture notes (codecairn.memory), as tools reach them. Answers are
    JSON-able dicts shaped by the memory feature itself; errors are ToolErrors."""

    async def remember(self, *, reason: Any, path: str | None = None, start_line: int | None = None,
                       end_line: int | None = None, symbol: str | None = None,
                       tags: list[str] | None = None, line: int | None = None) -> dict[str, Any]: ...  # fmt: skip

    async def recall(self, *, path: str | None = None, symbol: str | None = None, query: str | None = None,
                     tags: list[str] | None = None, limit: int = 20) -> dict[str, Any]: ...  # fmt: skip

    async def forget(self, *, ids: list[int] | None = None, path: str | None = None,
                     symbol: str | None = None, tags: list[str] | None = None) -> dict[str, Any]: ...  # fmt: skip

    # write(path, sha256 read, new bytes) -> what to add to the answer: how set and delete write the
    # notes file (the tool passes the file tools' write, for history and undo)
    async def notes(self, action: str = "outline", *, heading: str | None = None, text: str | None = None,
                    mode: str = "replace", level: int | None = None, line: int | None = None,
                    file: str | None = None,
                    write: Callable[[str, str, bytes], Awaitable[dict[str, Any]]] | None = None,
                    ) -> dict[str, Any]: ...  # fmt: skip

    async def count(self) -> int: ...


class ToolContext(Protocol):
    """What a tool handler gets: the served root's index through methods that return model types
    (codecairn.model), the server's features, and the call's own progress reporting. codecairn's
    own tools use nothing else — a third party's tool can do all they do.

    Paths in and out are root-relative ('/' separated). A path an agent gives goes through
    ``resolve_path`` (confined to the root; ToolError otherwise); files are read through
    ``read_file`` (confined again on the descriptor it opens). Lookups of symbols and files are
    in memory and cheap; the ``async`` methods read the store.
    """

    root: Path  # the served root, resolved
    languages: Mapping[str, Language]
    memories: MemoryBook

    @property
    def generation(self) -> int: ...  # the index generation answers come from

    @property
    def indexing(self) -> bool: ...  # an index run is in progress (answers come from what is stored)

    # ---- paths and files ----------------------------------------------------------------------
    def resolve_path(self, given: str) -> str: ...  # root-relative; "" for the root itself
    def file(self, path: str) -> IndexedFile | None: ...  # an indexed file by root-relative path
    def file_by_id(self, file_id: int) -> IndexedFile | None: ...
    def files(self) -> list[IndexedFile]: ...
    async def read_file(self, path: str, max_bytes: int | None = None) -> bytes: ...
    def changed_since_indexed(self, path: str) -> bool: ...

    # ---- symbols ------------------------------------------------------------------------------
    def symbol(self, symbol_id: int) -> IndexedSymbol | None: ...
    def path_of(self, symbol: IndexedSymbol) -> str: ...
    def lookup(self, name: str, path: str | None = None, line: int | None = None) -> list[IndexedSymbol]: ...
    # A name is matched in tiers: exact (same case, else any case), then prefix, then substring.
    # ``match`` picks the tiers listed ("exact", "prefix": exact and prefix, "substring": all); the
    # others are counted in ``SymbolMatches.unlisted``. None: "exact" when it has matches, else all.
    async def find_symbols(self, *, name: str | None = None, pattern: str | None = None, query: str | None = None,
                           kinds: list[str] | None = None, path: str | None = None, language: str | None = None,
                           limit: int = 20, match: str | None = None) -> SymbolMatches: ...  # fmt: skip
    def symbol_kinds(self) -> set[str]: ...  # every kind of symbol the index holds ("class", "route"...)
    def children(self, symbol_id: int) -> list[IndexedSymbol]: ...  # in line order
    # children, and a type's methods declared away from it (Go methods in another file, Rust impl blocks)
    def members(self, symbol_id: int) -> list[IndexedSymbol]: ...
    def symbols_in_file(self, file_id: int) -> list[IndexedSymbol]: ...  # in line order
    def ancestors(self, type_id: int) -> list[IndexedSymbol]: ...  # supertypes, nearest first
    def subtypes(self, type_id: int) -> list[IndexedSymbol]: ...  # direct subtypes
    async def details(self, symbol_ids: Iterable[int]) -> dict[int, SymbolDetail]: ...
    async def signatures(self, symbol_ids: Iterable[int]) -> dict[int, str]: ...

    # ---- the graph ----------------------------------------------------------------------------
    async def edges_from(self, symbol_id: int, kinds: Iterable[str] = ()) -> list[Edge]: ...
    async def edges_to(self, symbol_id: int, kinds: Iterable[str] = (), limit: int | None = None) -> list[Edge]: ...
    async def unresolved_named(self, name: str, kind: str = "calls", limit: int | None = None) -> list[Edge]: ...
    async def count_unresolved_named(self, name: str, kind: str = "calls") -> int: ...
    async def imports_of(self, file_id: int, first: int = 1, last: int = 1 << 31) -> list[Import]: ...
    # (path, line, target) of imports whose target is one of these modules or a name in one
    async def imports_naming(self, modules: list[str], limit: int = 1000) -> list[tuple[str, int, str]]: ...
    async def exports_of(self, file_id: int, first: int = 1, last: int = 1 << 31) -> list[Export]: ...

    # ---- the index itself ---------------------------------------------------------------------
    async def refresh(self, paths: Iterable[str] | None = None) -> IndexSummary: ...  # None: everything
    async def status(self) -> IndexStatus: ...

    # ---- graph intelligence (issue 16): walks, chains, references, hierarchy, changes, architecture, SQL
    # Edge kinds a call walk follows by default: calls, and the HTTP hops (http_calls: a client's
    # call -> the route it reaches; routes_to: a route -> its handler).
    async def walk(self, start: Iterable[int], direction: str, kinds: Iterable[str] = ("calls", "routes_to", "http_calls"),
                   depth: int = 3, fan_out: int = 20, level_limit: int = 400) -> Walk: ...  # fmt: skip
    # ^ callers ("in") or callees ("out") of ``start``, breadth-first, bounded per symbol and level
    async def call_chains(self, source_id: int, target_id: int, kinds: Iterable[str] = ("calls", "routes_to", "http_calls"),
                          max_depth: int = 8, limit: int = 5) -> Chains: ...  # fmt: skip
    async def unresolved_uses(self, names: Iterable[str], kinds: Iterable[str] = ("calls",),
                              limit: int = 20) -> tuple[list[Edge], dict[str, int]]: ...  # fmt: skip
    # ^ unresolved edges whose written target is one of ``names``: the first ``limit``, and counts by name
    async def edges_in_files(self, file_ids: Iterable[int], kinds: Iterable[str] = ()) -> list[Edge]: ...
    async def scan_tokens(self, name: str, paths: Iterable[str], limit: int = 200,
                          seconds: float = 5.0) -> TokenScan: ...  # fmt: skip
    # ^ whole-word occurrences of ``name`` in these root-relative files (in this order), each classified
    #   code / comment / string from the file's syntax tree; stops at ``limit`` or after ``seconds``
    def type_hierarchy(self, type_id: int, depth: int = 3, limit: int = 100) -> Hierarchy: ...
    async def changes(self, base: str | None = None, head: str | None = None) -> list[DiffedFile]: ...
    # ^ what git says changed: the work tree (with untracked files) against ``base`` (HEAD), or base..head
    def is_test_file(self, path: str) -> bool: ...
    async def packages(self, depth: int | None = None) -> tuple[list[PackageInfo], int | None]: ...
    # ^ directories as packages, cut to ``depth`` components (None: chosen so that they are few); and the depth
    async def package_dependencies(self, depth: int | None) -> list[PackageDependency]: ...
    async def hotspots(self, limit: int = 10) -> dict[str, list[tuple[IndexedSymbol, int]]]: ...
    # ^ "fan_in" (resolved calls into), "fan_out" (calls made), "size" (lines)
    async def ranked_symbols(self, seed_files: Iterable[str] = (), seed_symbols: Iterable[int] = (),
                             limit: int = 500) -> list[tuple[IndexedSymbol, float]]: ...  # fmt: skip
    # ^ personalised PageRank over the definition/reference graph, seeded by these files and symbols
    async def package_cycles(self, depth: int | None, limit: int = 10) -> list[list[str]]: ...
    # ^ packages that depend on each other in a circle, each as one cycle through them
    async def repository_map(self, seed_files: Iterable[str] = (), seed_symbols: Iterable[int] = (),
                             budget: int = 1024) -> RepoMap: ...  # fmt: skip
    # ^ ranked_symbols as text (files, then their symbols' signatures in context) fitted to ``budget`` tokens
    async def entry_points(self) -> dict[str, list[IndexedSymbol]]: ...
    # ^ "main" functions, "cli" commands (click/typer/... decorators), "routes" (route symbols)
    async def graph_preparing(self, wait: float, facts: bool = False) -> dict[str, Any] | None: ...
    # ^ None when the whole-index answers above (packages... entry_points) for the default arguments can
    # be had now (with ``facts``: for any arguments); else, after waiting at most ``wait`` seconds for
    # their background preparation, how far it is ("phase", "seconds")
    async def query_graph(self, sql: str, limit: int = 200, seconds: float = 5.0) -> QueryResult: ...
    def graph_views(self) -> dict[str, dict[str, str]]: ...  # view -> column -> what it holds
    def graph_query_examples(self) -> list[str]: ...  # example SELECTs over the views
    async def graph_counts(self) -> dict[str, dict]: ...

    # ^ "symbol_kinds": kind -> count, "edge_kinds": kind -> {"edges", "resolved", "resolution": {label: n}}

    # ---- metrics and the cache tools (issue 19) --------------------------------------------------
    # What this session's and all earlier calls cost and spared (hits, misses, tokens: docs/metrics.md).
    async def usage(self) -> Usage: ...
    # Drop the named files' facts (directories: every file under them) until they are indexed
    # again; paths outside the root are refused before anything changes.
    async def invalidate(self, paths: Iterable[str]) -> Dropped: ...
    # Drop the whole index of the root; memories and the notes file too only if include_memories.
    async def clear(self, include_memories: bool = False) -> Dropped: ...

    # ---- this call ------------------------------------------------------------------------------
    # Progress of this call, sent when the client asked for it (a progressToken), each ``done``
    # larger than the last. A tool that never reports gets the server's heartbeat instead (the
    # seconds it has run, each second past the first); one that reports replaces the heartbeat.
    async def report_progress(self, done: float, total: float | None = None, message: str | None = None) -> None: ...

    # ---- files: declared roots, bounded reads, text search, comparison, edits (the file tools) ----
    # Paths here may be in any declared root: relative to the indexed root, or absolute inside another
    # (answers name them the same way: root-relative in the indexed root, absolute elsewhere). Each is
    # confined when named and again on the descriptor opened; work runs in threads or in ripgrep and
    # stops when the call is cancelled. Errors are ToolErrors (outside_workspace, not_found, ...).
    @property
    def roots(self) -> list[str]: ...  # the declared roots' real paths, the indexed one first
    async def read_text(self, path: str, *, start_line: int | None = None, end_line: int | None = None,
                        tail: int | None = None, start_byte: int | None = None,
                        max_bytes: int = 65536) -> TextWindow: ...  # fmt: skip
    async def read_json(self, path: str, pointer: str, max_bytes: int = 65536) -> JsonSelection: ...
    async def check_json(self, path: str | None = None, text: str | None = None) -> JsonCheck: ...
    async def file_digest(self, path: str) -> FileDigest: ...  # streamed sha256, size, lines
    async def search_text(self, pattern: str, *, literal: bool = False, case: str = "smart", word: bool = False,
                          path: str | None = None, include: Iterable[str] = (), exclude: Iterable[str] = (),
                          context: int = 0, max_matches: int = 100) -> TextSearch: ...  # fmt: skip
    async def list_files(self, path: str | None = None, include: Iterable[str] = (), exclude: Iterable[str] = (),
                         limit: int = 1000, sizes: bool = False) -> FileListing: ...  # fmt: skip
    async def find_files(self, query: str, path: str | None = None, limit: int = 20) -> FileListing: ...
    async def compare_directories(self, left: str, right: str, *, diffs: bool = False, limit: int = 200,
                                  diff_bytes: int = 60_000) -> DirectoryComparison: ...  # fmt: skip
    def enclosing_symbol(self, path: str, line: int) -> IndexedSymbol | None: ...  # innermost indexed symbol
    async def parse_symbols(self, path: str) -> list[Symbol]: ...  # a file's symbols parsed now (any root)
    async def write_files(self, changes: Iterable[FileChange], *, tool: str,
                          acknowledge_risk: bool = False) -> WriteReport: ...  # fmt: skip  # all or nothing
    async def history(self, limit: int = 20, path: str | None = None) -> list[HistoryEntry]: ...  # newest first
    async def undo(self, entry_id: int, *, acknowledge_risk: bool = False) -> WriteReport: ...


@dataclass(frozen=True)
class ToolHints:
    """MCP's tool annotations, which must be true: a client may skip confirmation for a read-only
    tool, or warn before a destructive one."""

    read_only: bool = True  # changes nothing (readOnlyHint)
    destructive: bool = False  # may delete or overwrite what was there (destructiveHint)
    idempotent: bool = True  # calling it again with the same arguments changes nothing more
    open_world: bool = False  # reaches beyond the served roots (the network, other programs' state)


READ_ONLY = ToolHints()


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    input_schema: dict[str, Any]
    handler: Callable[[ToolContext, dict[str, Any]], Awaitable[dict[str, Any]]]
    # A long-running tool (an index run) is bounded by cancellation, not by the per-call time limit,
    # and does not wait for pending re-indexing before it starts.
    long_running: bool = False
    # A warm tool's default answer (the call with no arguments) is prepared in the background after
    # every index run, so an agent never waits for it (the architecture map: seconds on a large repo).
    warm: bool = False
    title: str = ""  # a human-readable name ("Find symbols")
    hints: ToolHints = READ_ONLY
    # The JSON schema of a successful answer: advertised as outputSchema, and the answer is sent as
    # structuredContent beside its text (clients of protocol 2025-06-18 and later read it).
    output_schema: dict[str, Any] | None = None
    # How a successful answer reads as text content when JSON would quote source code: a function of
    # the answer returning text blocks (tools/shaping.py's ``text_blocks``: a one-line JSON header, then
    # the text verbatim). The whole answer then also goes out as structuredContent. None: compact JSON.
    render: Callable[[dict[str, Any]], list[str]] | None = None
    plugin: str = field(default="", compare=False)  # filled in by the host: who contributed it


class Embedder(Protocol):
    """Turns texts into vectors. Called from a worker thread, in batches."""

    model_id: str  # changes when the vectors would change: a new model means re-embedding
    dimensions: int

    def embed(self, texts: list[str]) -> np.ndarray: ...  # float32 (len(texts), dimensions), L2-normalised


# ---- the hooks ----------------------------------------------------------------------------------


class CodecairnSpecs:
    @hookspec
    def codecairn_languages(self) -> list[Language]:
        """Called once when the host starts; return the languages this plugin adds."""
        return []

    @hookspec
    def codecairn_tools(self) -> list[Tool]:
        """Called once when the host starts; return the MCP tools this plugin contributes."""
        return []

    @hookspec
    def codecairn_route_detectors(self) -> list[RouteDetector]:
        """Called once when the host starts; return detectors of HTTP routes and client calls (HTTP
        frameworks): their routes become ``route`` symbols, their calls ``http_calls`` edges."""
        return []

    @hookspec(firstresult=True)
    def codecairn_embedder(self) -> Embedder | None:
        """Called when semantic search is first needed; the first non-None embedder wins."""
