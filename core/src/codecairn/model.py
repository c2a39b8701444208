"""Plain data that flows from extractors to the store and back out to tools.

Everything here is a NamedTuple: cheap to build in a worker process, cheap to pickle back to the
parent (the parse pool sends hundreds of thousands of these per index), and immutable.
Lines are 1-based, columns 0-based (tree-sitter points plus one on the row).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

# Symbol kinds shared by all languages. A plugin may use others; these are the ones tools rank on.
TYPE_KINDS = frozenset(
    {"class", "interface", "enum", "record", "struct", "trait", "union", "type", "annotation", "protocol"}
)
CALLABLE_KINDS = frozenset({"function", "method", "constructor", "macro"})
CONTAINER_KINDS = TYPE_KINDS | {"module", "package", "namespace", "impl"}
DATA_KINDS = frozenset({"field", "property", "variable", "constant", "enum_member", "variant"})
# What a call can be written with: a callable, a type (a constructor), or a value holding a function
# (`const ajax = factory(...)`, `self.handler`, Rust's `Some(x)`)
CALLED_KINDS = CALLABLE_KINDS | TYPE_KINDS | DATA_KINDS
# Relationship kinds that give a type its supertypes (every other kind is a use: calls, references).
INHERITANCE_KINDS = ("extends", "implements")
# What a function returns, when its code says (Python: `-> Order`, every `return Order(...)`,
# `return first`): an edge from the function to the class whose instance it returns (receiver_type
# "()") or to the function or class it returns (""). Calls elsewhere follow it (`make().pay()`).
RETURNS = "returns"
# What a call passes a parameter of a function in another module (Python: `util.apply(callback)`):
# an edge from the calling code, target the callee as written ("util.apply"), receiver the value
# as written ("callback", "Order()" for an instance), receiver_type the parameter it binds: its
# position as written ("0") or "=" and its name for a keyword ("=f"). Resolved, its target is the
# function called and its resolution says what the value resolved to (PASSED + id, INSTANCE after
# it for an instance): an internal fact, never shown as a use.
PASSES = "passes"
PASSED = "#"
# A call through a parameter nothing in its own file binds: the receiver_type of the call edge,
# PARAMETER + the parameter's position as a call writes it ("" when keyword-only; a method's past
# `self`) + ":" + its name ("@0:callback" in `def apply(self, callback): callback()`); for a call
# of an attribute a def set from its parameter, + ":" + that def's qualified name
# ("@0:target:threading.Thread.__init__" on `self._target()`). The resolver follows what other
# modules' calls pass it (PASSES).
PARAMETER = "@"
# A call's receiver_type when the calling def binds the name called (or its receiver's first name)
# itself and its value was not followed (`for report in make(): report.render()` beside a module's
# `report`): the def's own name, so no namesake in scope answers it; the call stays unresolved.
OWN_NAME = "!"
# A call through a parameter that a few different values reach (PARAMETER), or through a name
# imported from several places, is an edge to each: the call's own edge to the first, and one row
# beside it for each other, with receiver_type ALSO + the
# id of the call's own edge (resolution FLOW). Those rows are written, and dropped, with the call's
# own resolution (Store.write_resolutions); never resolved on their own.
ALSO = "+"
# Resolved before every other kind: call resolution walks the supertypes, returns and passed values they give.
RESOLVED_FIRST = (*INHERITANCE_KINDS, RETURNS, PASSES)
INSTANCE = "()"  # a returns edge's receiver_type when the function returns an instance of its target

# How a relationship's target was found (stored on every resolved edge).
EXACT = "exact"  # same file / same enclosing scope / same package
IMPORT = "import"  # through an import binding
INHERITED = "inherited"  # found on a supertype of the receiver's class
NAME_ONLY = "name-only"  # the only symbol anywhere with that name: a guess, labelled as one
# Found through where the receiver's value comes from rather than its declared type: `self.m()` in
# a mixin that defines no m, where every subclass in the index reaches the same m.
FLOW = "flow"
# Supertypes written in code that add nothing a subclass calls on itself: a class extending only
# these is not "open" to members from outside the index (SymbolIndex.open_types).
HARMLESS_BASES = frozenset({"object"})
# A call that leaves the indexed code (a built-in, a module that is not indexed): no symbol to point
# at, so the edge keeps no target id and its resolution names where it goes ("external:os.getcwd").
EXTERNAL = "external"
_EXTERNAL_PREFIX = EXTERNAL + ":"


def external_resolution(dotted: str) -> str:
    """The stored resolution of a call to ``dotted`` outside the index."""
    return _EXTERNAL_PREFIX + dotted


def external_name(resolution: str | None) -> str | None:
    """The dotted name an external call goes to, or None when the edge is not external."""
    if resolution is not None and resolution.startswith(_EXTERNAL_PREFIX):
        return resolution[len(_EXTERNAL_PREFIX) :]
    return None


class Symbol(NamedTuple):
    kind: str
    name: str
    qualified_name: str
    start_line: int
    start_col: int
    end_line: int
    end_col: int
    signature: str = ""
    doc: str = ""  # first line (sentence) of the doc comment / docstring
    parent: int = -1  # index of the enclosing symbol in FileFacts.symbols, -1 = none
    modifiers: tuple[str, ...] = ()  # e.g. "async", "static", "abstract", "property", "public", "@decorator"


class Relation(NamedTuple):
    kind: str  # "extends" | "implements" | "calls" | "references" | "returns" (model.RETURNS)
    source: int  # index of the symbol it occurs in (FileFacts.symbols), -1 = file level
    target: str  # the target name exactly as written: "Base", "pkg.Base", "charge"
    line: int  # line of the call site / base clause
    receiver: str = ""  # for calls: the text before the name ("self", "order.items", "this", "super()")
    # A type the extractor could read off the syntax for the receiver: Go's method receiver
    # ("s" in func (s *Server)), a typed local ("Foo f = ..."), "x = Foo()". Empty when unknown.
    # Starting with FLOWED: what the extractor followed through assignments — for a call with a
    # receiver, the type the receiver holds; for a bare call, what the called name holds
    # ("~first" for `b = a = first; b()`, "~Order.pay" for `h = order.pay; h()`).
    receiver_type: str = ""


# Marks a receiver_type followed through value flow (Relation); edges found through it are FLOW.
FLOWED = "~"


class Import(NamedTuple):
    module: str  # as written: "os.path", "..pkg", "./util", "java.util", "crate::io"
    name: str = ""  # the imported member ("" = the module itself, "*" = wildcard)
    alias: str = ""  # the local name it is bound to ("" = none: side-effect / wildcard)
    line: int = 0
    kind: str = ""  # "" or a language's variant: "static", "type", "require", "dynamic", "side-effect"
    target: str = ""  # best-effort qualified name of what is bound, in the language's own qualified names


class Export(NamedTuple):
    name: str  # the exported name ("*" for export-all)
    line: int = 0
    kind: str = ""  # "" | "default" | "re-export" | "all" (from __all__) ...
    source: str = ""  # module re-exported from, when it is a re-export
    alias: str = ""  # the name it is exported as, when renamed


class FileFacts(NamedTuple):
    """What one extractor found in one parsed file. Indexes in Relation.source/Symbol.parent point
    into ``symbols``."""

    symbols: list[Symbol]
    relations: list[Relation]
    imports: list[Import]
    exports: list[Export]
    module: str = ""  # the file's own qualified prefix (Python "pkg.mod", Java "org.junit")
    partial: bool = False  # the tree had ERROR/MISSING nodes: facts outside them are still here
    extractor: str = ""  # which extractor produced this (a rich plugin's name or "tags")


# ---- the index as it is stored and queried --------------------------------------------------------


class IndexedSymbol(NamedTuple):
    """A symbol as the index holds it in memory: identity and place (details are in the store)."""

    id: int
    file_id: int
    parent_id: int | None
    kind: str
    name: str
    qualified_name: str
    start_line: int
    end_line: int


class StoredSymbol(NamedTuple):
    """A symbol row as the store holds it, details included (what exports and placing read)."""

    id: int
    file_id: int
    parent_id: int | None
    kind: str
    name: str
    qualified_name: str
    start_line: int
    end_line: int
    signature: str
    doc: str


@dataclass(slots=True)
class IndexedFile:
    """An indexed file as the index holds it in memory (``mtime_ns`` follows touches)."""

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


@dataclass(slots=True)
class FileInfo:
    """What the resolver needs of a file."""

    path: str
    language: str
    module: str


class Edge(NamedTuple):
    """A stored relationship: where it occurs, what it names, and what it resolved to."""

    id: int
    file_id: int
    kind: str
    source_id: int | None  # the symbol it occurs in; None at file level
    target: str  # as written
    receiver: str
    receiver_type: str
    line: int
    target_id: int | None  # None: unresolved
    resolution: str | None  # EXACT, IMPORT, INHERITED, NAME_ONLY, external_resolution(...), or None


class SymbolDetail(NamedTuple):
    """What the store keeps of a symbol beyond its identity and place."""

    signature: str
    doc: str
    modifiers: tuple[str, ...]
    start_col: int
    end_col: int


@dataclass
class IndexSummary:
    """What one index run did."""

    files: int = 0
    parsed: int = 0
    unchanged: int = 0
    deleted: int = 0
    failed: dict[str, str] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    resolved_edges: int = 0
    seconds: float = 0.0
    generation: int = 0
    cancelled: bool = False
    phases: dict[str, float] = field(default_factory=dict)  # seconds per phase: walk, parse, write, resolve
    # Directories that could not be read: their files keep their facts until they can be.
    unreadable: list[str] = field(default_factory=list)
    symbols: int | None = None  # symbols in the index after the run (None: not loaded, nothing changed)


class SymbolMatch(NamedTuple):
    """One symbol found by a search, and why: how it matched ("name", "semantic") and, for a
    semantic match, its cosine score."""

    symbol: IndexedSymbol
    matched: tuple[str, ...] = ()
    score: float | None = None


class SymbolMatches(NamedTuple):
    """A search's first matches in answer order, and how many there are in all (``total`` is a
    lower bound when ``total_is_lower_bound``: counting every match would cost more than the answer)."""

    matches: list[SymbolMatch]
    total: int
    total_is_lower_bound: bool = False
    embeddings_pending: int = 0  # symbols a semantic search could not consider yet
    embeddings_loading: bool = False  # stored vectors were still loading when it answered
    # Matches of a name search's tiers that were counted, not listed: {"prefix": 3, "substring": 19}.
    unlisted: dict[str, int] | None = None


@dataclass
class IndexStatus:
    """What is indexed, how well it resolved, and where it lives (the `stats` tool's facts)."""

    root: str
    files: int
    symbols: int
    languages: dict[str, int]
    generation: int
    database: str
    database_size_bytes: int
    overview: dict  # store/overview.py: edges by kind, call resolution, symbol kinds, most called...
    memories: int
    semantic: dict  # embedded, pending and the model, or why semantic search is unavailable
    last_indexed_at: float | None = None
    partial_files: list[str] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)
    plugin_failures: list[dict] = field(default_factory=list)
    read_only: str | None = None  # why the index cannot be written, when it cannot
    hits: int = 0  # calls of this session answered from the index
    misses: int = 0  # ...and those that were not (not found, not indexed)


# ---- metrics: what the calls cost and spared (codecairn.metrics) -----------------------------------


@dataclass
class CallTotals:
    """Tool calls by outcome (hit: answered from the index; miss: not found, not indexed or stale;
    error: neither), with the tokens their answers used and the file tokens they spared."""

    calls: int = 0
    hits: int = 0
    misses: int = 0
    errors: int = 0
    tokens_used: int = 0
    tokens_saved: int = 0


@dataclass
class Usage:
    """The metrics of this session and of all time (every record the workspace's log keeps, and
    the totals of those rotation deleted)."""

    session: CallTotals
    all_time: CallTotals | None  # None: the log could not be read in time
    tokenizer: str  # "cl100k_base", or "bytes/4" when tiktoken is missing
    log: str | None = None  # the metrics log file (None: metrics are off)
    dropped: int = 0  # records that could not be written (a full disk...)
    database: dict | None = None  # the PostgreSQL copy: state, backlog, last error (None: not configured)


# ---- the cache tools: what invalidate and clear dropped -----------------------------------------------


@dataclass
class Dropped:
    """What an ``invalidate`` or a ``clear`` took out of the index."""

    files: int = 0
    symbols: int = 0
    generation: int = 0
    paths: list[str] = field(default_factory=list)  # the files dropped (invalidate)
    memories: int = 0  # memories forgotten (clear with include_memories)
    notes: str | None = None  # the notes file deleted (clear with include_memories)


# ---- location memory --------------------------------------------------------------------------------

CURRENT, MOVED, ORPHANED = "current", "moved", "orphaned"  # where a memory's code is now


DECORATED_REACH = 12  # lines a stack of decorators (annotations, attributes) may stand above a symbol


class Anchor(NamedTuple):
    """What a memory keeps to find its code again (the ``memories`` row's anchor columns)."""

    symbol: str  # qualified name of the innermost enclosing symbol, "" = file level
    symbol_kind: str
    symbol_name: str
    parent_name: str
    fingerprint: str
    offset_start: int  # from the symbol's first line (file level: from line 1, i.e. the line - 1)
    offset_end: int
    lines_hash: str
    first_line_hash: str
    line_count: int


@dataclass(slots=True)
class MemoryRow:
    id: int
    reason: str
    tags: str  # newline-separated, as given
    created_at: float
    path: str  # last known place
    start_line: int
    end_line: int
    state: str  # current | moved | orphaned
    origin_path: str  # where it was remembered
    origin_start: int
    origin_end: int
    symbol: str  # the anchor (see anchors.Anchor)
    symbol_kind: str
    symbol_name: str
    parent_name: str
    fingerprint: str
    offset_start: int
    offset_end: int
    lines_hash: str
    first_line_hash: str
    line_count: int
    file_hash: str  # the file's content hash when last placed ("" = file gone)
    generation: int  # index generation when last placed
    edited: int  # the remembered lines were changed inside a surviving symbol

    @property
    def anchor(self) -> Anchor:
        return Anchor(
            self.symbol,
            self.symbol_kind,
            self.symbol_name,
            self.parent_name,
            self.fingerprint,
            self.offset_start,
            self.offset_end,
            self.lines_hash,
            self.first_line_hash,
            self.line_count,
        )

    @property
    def tag_list(self) -> list[str]:
        return [t for t in self.tags.split("\n") if t]


# ---- files: bounded reads, text search, edits and their history (the file tools) ----------------


@dataclass(slots=True)
class FileDigest:
    """A file's content in four numbers: its sha256 (an edit's precondition), size, line count and
    line endings ("lf", "crlf", "cr", "mixed")."""

    sha256: str
    size: int
    lines: int
    endings: str = "lf"
    path: str = ""  # as answers name it, when the digest was asked for by path


@dataclass(slots=True)
class TextWindow:
    """Part of a text file as read now: lines or bytes, decoded (BOM stripped, line endings made
    LF). ``path`` is as answers name it. Continuations: ``next_start_line`` when a range did not fit
    the window, ``next_start_byte`` when one line was longer than it (``line_truncated``) or a byte
    window ended before the file did."""

    path: str
    text: str
    sha256: str
    size_bytes: int
    total_lines: int = 0
    start_line: int | None = None
    end_line: int | None = None
    start_byte: int | None = None
    end_byte: int | None = None
    next_start_line: int | None = None
    next_start_byte: int | None = None
    line_truncated: bool = False
    truncated: bool = False
    binary: bool = False
    bom: bool = False
    line_endings: str = "lf"
    encoding: str = "utf-8"
    no_final_newline: bool = False  # the window ends the file, whose last line has no line break


@dataclass(slots=True)
class JsonSelection:
    """What an RFC 6901 pointer selects in a JSON file, read streamed: the value (parsed), or why
    there is none (``problem``: no such member, a syntax error, larger than allowed)."""

    path: str
    pointer: str
    sha256: str
    size_bytes: int
    found: bool = False
    value: object = None
    value_bytes: int = 0
    problem: str = ""
    line: int = 0  # where the problem is (a syntax error), 1-based
    column: int = 0


@dataclass(slots=True)
class JsonCheck:
    """Is a document JSON? The first error's place when not (1-based line and column)."""

    valid: bool
    size_bytes: int
    error: str = ""
    line: int = 0
    column: int = 0
    offset: int = 0
    path: str = ""  # as answers name it ("" for a string)


class TextMatch(NamedTuple):
    """One line a text search matched: where, the line (cut around the match when long), context
    lines, and the indexed symbol it is in, when the file is indexed."""

    path: str
    line: int
    column: int  # 1-based, in characters, of the first match on the line
    text: str
    line_truncated: bool = False
    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    symbol: IndexedSymbol | None = None
    more_columns: tuple[int, ...] = ()  # where the line's other matches start (1-based, characters)


@dataclass
class TextSearch:
    """A text search's matches (in path, line order) and how it went."""

    matches: list[TextMatch]
    files_searched: int = 0
    files_matched: int = 0
    bytes_searched: int = 0
    limit_reached: bool = False
    limit_reason: str = ""  # "max_matches" | "max_bytes"
    timed_out: bool = False
    errors: list[str] = field(default_factory=list)  # what ripgrep could not read, first few
    filters: dict = field(default_factory=dict)  # what narrowed the search (for a zero-result answer)


class FileEntry(NamedTuple):
    path: str  # as answers name it
    size_bytes: int = 0
    language: str = ""  # the indexing language of its extension, "" when none


@dataclass
class FileListing:
    """Files found by a listing (in answer order) and how many there were in all."""

    entries: list[FileEntry]
    total: int
    complete: bool = True
    limit_reason: str = ""
    timed_out: bool = False
    base: str = ""  # the listed directory as answers name it ("" when it is the declared roots)


class TreeChange(NamedTuple):
    """One difference between two directory trees (paths relative to each tree)."""

    change: str  # "added" | "removed" | "modified" | "renamed"
    path: str  # right-hand path (left for "removed")
    old_path: str = ""  # for "renamed": where it was on the left
    left_size_bytes: int = 0
    right_size_bytes: int = 0
    diff: str = ""  # unified diff, when asked and text
    diff_truncated: bool = False
    diff_note: str = ""  # why there is no diff, or what the diff cannot show (line endings, a BOM)


@dataclass
class DirectoryComparison:
    left: str
    right: str
    changes: list[TreeChange]
    unchanged: int
    left_files: int
    right_files: int
    complete: bool = True
    limit_reason: str = ""


class WrittenFile(NamedTuple):
    """What one write did to one file."""

    path: str  # as answers name it
    sha256_before: str  # "" when the file did not exist
    sha256_after: str  # "" when it was deleted
    replacements: int = 0  # spans replaced (text edits)
    bytes_before: int = 0
    bytes_after: int = 0


@dataclass
class WriteReport:
    """A write as a whole: its history entry, the files, and whether the index follows it yet."""

    entry_id: int | None
    files: list[WrittenFile]
    reindexed: bool = False
    reindex_note: str = ""  # why not, when not (an index run in progress, a file outside the indexed root)
    history_note: str = ""  # why it is not in the history, when it is not (a read-only index)
    warnings: list[str] = field(default_factory=list)  # rules acknowledged


class HistoryFile(NamedTuple):
    path: str  # as answers name it (root-relative in the indexed root, absolute elsewhere)
    sha256_before: str  # "" when the file did not exist before
    sha256_after: str  # "" when the write deleted it
    root: str = ""  # the real path of the root it is in


@dataclass
class HistoryEntry:
    id: int
    created_at: float
    tool: str
    files: list[HistoryFile]
    size_bytes: int = 0  # what keeping its before-states costs (compressed)
    undoes: int | None = None
    undone_by: int | None = None


class TextEdit(NamedTuple):
    """One change to a text file, addressed as reads show it (LF line breaks, no BOM):

    * ``replace``: ``old`` by ``new``, where ``old`` must occur exactly ``occurrences`` times (all replaced);
    * ``lines``: lines ``start_line``..``end_line`` by ``new`` ("" deletes them);
    * ``insert``: ``new`` as whole lines before ``start_line`` (the line count + 1: at the end)."""

    kind: str  # "replace" | "lines" | "insert"
    new: str = ""
    old: str = ""
    occurrences: int = 1
    start_line: int = 0
    end_line: int = 0


class FileChange(NamedTuple):
    """What a write does to one file: edits in order, a new file's whole text, or deletion.
    ``expected_hash``: the sha256 the file must have now (a read's), or the write is refused."""

    path: str
    edits: tuple[TextEdit, ...] = ()
    create: str | None = None
    delete: bool = False
    expected_hash: str | None = None
    # The file's whole new bytes, written as they are (the notes tool's rewrite of its document):
    # replaces the file, or creates it.
    content: bytes | None = None


# ---- graph answers (trace, references, hierarchy, impact, architecture, query_graph) ------------------

# How an http_calls edge found its route: by method and path pattern (routes are matched, not named).
ROUTE = "route"
HTTP_CALLS = "http_calls"  # a client call with a literal or constant URL -> the route it reaches
ROUTES_TO = "routes_to"  # a route -> its handler
HTTP_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "ANY")


class Route(NamedTuple):
    """An HTTP route a framework declares (a route detector's fact): it becomes a ``route`` symbol
    named ``"METHOD /path"`` and a ``routes_to`` relation to its handler."""

    method: str  # one of HTTP_METHODS ("ANY": the framework accepts every method there)
    path: str  # the pattern as the framework writes it, with any prefix the file declares: /users/<int:id>
    handler: str  # the handler as written (``user_detail``, ``views.user_detail``); "" when inline
    line: int
    end_line: int = 0  # 0: the route is one line
    framework: str = ""  # flask, fastapi, django, express, spring, jax-rs, net/http, gin, chi, axum...


class HttpCall(NamedTuple):
    """A client's HTTP request with a literal or constant URL (a route detector's fact): it
    becomes an ``http_calls`` relation from the enclosing symbol, matched to a route by method and
    path pattern when indexing resolves."""

    method: str  # GET, POST... (ANY when the call does not say)
    url: str  # as far as it is known: "http://api/users/{}" ("{}" stands for a value not known)
    line: int
    client: str = ""  # requests, httpx, fetch, axios, net/http...


def route_name(method: str, path: str) -> str:
    return f"{method} {path}"


def client_url(text: str | None) -> str | None:
    """``text`` when it can be a client call's URL to match against routes: absolute
    (``http://``, ``https://``), a path (``/users``), or an unknown base then a path (``{}/users``);
    None otherwise. Route detectors share it so that every language matches calls alike."""
    if text is None:
        return None
    if text.startswith(("http://", "https://", "/")) or (text.startswith("{}") and text[2:].startswith("/")):
        return text
    return None


def is_route_name(name: str) -> bool:
    method, _, path = name.partition(" ")
    return method in HTTP_METHODS and path.startswith("/")


@dataclass(frozen=True)
class Hop:
    """One edge followed by a walk: from a symbol already reached (``near``) to the one it leads to
    (``far``: the caller when walking to callers, the callee when walking to callees; None for an
    edge at file level or an unresolved callee, which the walk cannot go on from)."""

    edge: Edge
    near: int
    far: int | None
    depth: int
    cycle: bool = False  # ``far`` is one of the symbols this hop's path came through
    seen: bool = False  # ``far`` was reached before by another path: listed, not followed again


@dataclass
class Walk:
    """Callers ("in") or callees ("out") of symbols, level by level (query/graph.py)."""

    direction: str
    start: list[int]
    hops: list[Hop] = field(default_factory=list)  # in walking order (level by level)
    depth_of: dict[int, int] = field(default_factory=dict)  # symbol id -> depth reached at
    cut_fan_out: dict[int, int] = field(default_factory=dict)  # depth -> edges not shown (per-symbol bound)
    cut_level: dict[int, int] = field(default_factory=dict)  # depth -> symbols reached but not followed
    parent: dict[int, int] = field(default_factory=dict)  # symbol -> the symbol it was reached from

    @property
    def complete(self) -> bool:
        return not self.cut_fan_out and not self.cut_level

    def path_to(self, symbol_id: int) -> list[int]:
        """The symbols from a start to ``symbol_id`` along the walk, start first."""
        out = [symbol_id]
        while out[-1] in self.parent:
            out.append(self.parent[out[-1]])
        return out[::-1]


@dataclass
class Chains:
    """The shortest call chains between two symbols, each a list of edges in call order."""

    chains: list[list[Edge]]
    complete: bool  # False: a frontier was cut or the depth ran out; a chain may exist beyond
    explored: int  # symbols looked at


class TypeLink(NamedTuple):
    near: int  # the type already reached
    far: int  # its supertype (ancestors) or subtype (descendants)
    depth: int
    how: str = ""  # "" when the code states it (extends / implements), else "method-set"


@dataclass
class Hierarchy:
    type_id: int
    ancestors: list[TypeLink] = field(default_factory=list)
    descendants: list[TypeLink] = field(default_factory=list)
    cut: int = 0  # types reached beyond the limit, not listed
    overrides: dict[str, list[int]] = field(default_factory=dict)  # method name -> overriding methods


@dataclass
class DiffedFile:
    """What a diff changed in one file (query/diff.py)."""

    path: str  # new path (old path when deleted), root-relative
    status: str = "modified"  # modified | added | deleted | renamed
    old_path: str = ""
    ranges: list[tuple[int, int]] = field(default_factory=list)  # new-side (first, last) lines
    removed_at: list[int] = field(default_factory=list)  # new-side lines before which lines went
    binary: bool = False
    # Each hunk as (old start, old count, new start, new count): how the old side's lines moved
    hunks: list[tuple[int, int, int, int]] = field(default_factory=list)


class TokenOccurrence(NamedTuple):
    path: str
    line: int
    column: int  # 0-based, in bytes
    category: str  # code | comment | string


@dataclass
class TokenScan:
    occurrences: list[TokenOccurrence]
    files_scanned: int
    files_total: int  # files that would be scanned without limits
    complete: bool  # every file was scanned and no limit cut the list


@dataclass
class PackageInfo:
    name: str  # directory, root-relative ("." for the root)
    files: int
    lines: int
    symbols: int
    languages: dict[str, int]
    tests: bool  # every file of it is a test


class PackageDependency(NamedTuple):
    source: str  # package
    target: str
    counts: dict[str, int]  # "imports" and edge kinds (calls, references, extends...)


@dataclass
class QueryResult:
    columns: list[str]
    rows: list[list]
    more: bool  # rows beyond the limit exist
    seconds: float
    cut_cells: int = 0  # text cells cut short


@dataclass
class RepoMap:
    """The repository map: ranked symbols as text, fitted to a token budget."""

    text: str
    symbols: int  # symbols shown
    tokens: int  # the text's size, counted by ``counter``
    counter: str  # how tokens were counted (cl100k, or a conservative estimate)
