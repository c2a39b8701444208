"""Tools about symbols: find them, describe one, read one's source."""

from __future__ import annotations

from typing import Any

from codecairn.errors import NOT_FOUND, ToolError, quoted
from codecairn.files.attached import decorated_start, syntax_of
from codecairn.files.reading import source_lines
from codecairn.hookspecs import READ_ONLY, Tool, ToolContext, hookimpl
from codecairn.model import (
    CALLABLE_KINDS,
    CALLED_KINDS,
    DATA_KINDS,
    INHERITANCE_KINDS,
    TYPE_KINDS,
    Edge,
    IndexedSymbol,
    external_name,
)
from codecairn.query.lookup import name_parts
from codecairn.tools import answers as out
from codecairn.tools import arguments as a
from codecairn.tools.shaping import (
    LIST_LIMIT,
    TOP_LEVEL,
    Places,
    bounded,
    header,
    line_span,
    local_name,
    members_by_kind,
    resolution_of,
    symbols_by_path,
    text_blocks,
)
from codecairn.tools.shared_lines import sharing_lines
from codecairn.tools.written_names import written_as

_SELECT = {
    "name": a.name("Qualified name: pkg.mod.Class.method, Class.method or Class::method"),
    "path": a.path("Only the symbol in this file"),
    "line": {"type": "integer", "minimum": 1, "description": "Only the symbol at/around this line"},
}


READ_MAX_LINES = 400
READ_MAX_BYTES = 64 * 1024
NEAR_NAMES = 5  # names a not_found answer suggests


async def find_symbols(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    limit = args.get("limit", 20)
    found = await ctx.find_symbols(
        name=args.get("name"),
        pattern=args.get("pattern"),
        query=args.get("query"),
        kinds=args.get("kinds"),
        path=args.get("path"),
        language=args.get("language"),
        limit=limit,
        match=args.get("match"),
    )
    sigs = await ctx.signatures(m.symbol.id for m in found.matches if m.symbol.kind not in DATA_KINDS)
    why: dict[int, dict[str, Any]] = {}
    if "query" in args:
        for m in found.matches:
            why[m.symbol.id] = {"matched": list(m.matched)}
            if m.score is not None:
                why[m.symbol.id]["semantic_score"] = round(m.score, 3)
    answer: dict[str, Any] = {
        "results": symbols_by_path(ctx, (m.symbol for m in found.matches), sigs, why),
        **bounded(found.total, limit),
    }
    if "complete" in answer:
        answer["total_at_least" if found.total_is_lower_bound else "total"] = found.total
    if found.unlisted:
        answer["not_listed"] = found.unlisted
    if found.embeddings_pending:
        answer["embeddings_pending"] = found.embeddings_pending
    if found.embeddings_loading:
        answer["embeddings_loading"] = True
    if not found.matches and (path := args.get("path")) is not None and not _indexes_under(ctx, path):
        # An empty answer would read as "no such symbol there": say that the filter itself holds nothing
        where = "does not exist" if not (ctx.root / ctx.resolve_path(path)).exists() else "holds no indexed file"
        answer["note"] = f"path {quoted(path)} {where}: nothing could match"
    return answer


def _indexes_under(ctx: ToolContext, path: str) -> bool:
    """Whether ``path`` (a file or a directory) holds any indexed file."""
    rel = ctx.resolve_path(path)
    if rel == "" or ctx.file(rel) is not None:
        return True
    inside = rel + "/"
    return any(f.path.startswith(inside) for f in ctx.files())


async def no_symbol(
    ctx: ToolContext, name: str, path: str | None, line: int | None, consequence: str = ""
) -> ToolError:
    """The not_found error for a name that finds nothing where ``path`` and ``line`` say: a known
    name says where it is instead (``elsewhere``), an unknown one suggests near names.
    ``consequence``: what the caller did not do (``"nothing was changed"``)."""
    then = f"; {consequence}" if consequence else ""
    if (path is not None or line is not None) and (elsewhere := ctx.lookup(name)):
        # The name is known: it is the path or the line that finds nothing (an edit moved it), so say that
        where = []
        if path is not None:
            indexed = ctx.file(ctx.resolve_path(path)) is not None
            where.append(f"in {quoted(path)}" + ("" if indexed else " (not an indexed file)"))
        if line is not None:
            where.append(f"at line {line}")
        return ToolError(
            NOT_FOUND,
            f"no symbol named {quoted(name)} {' '.join(where)}; {len(elsewhere)} elsewhere (elsewhere lists them)"
            + then,
            elsewhere=symbols_by_path(ctx, elsewhere[:LIST_LIMIT]),
        )
    last = name_parts(name)[-1:] or [name]
    near = await ctx.find_symbols(name=last[0], limit=NEAR_NAMES * 4, match="substring")
    # Each name once: overloads (Java, TypeScript) share one, and five of them said nothing more
    suggested = list(dict.fromkeys(m.symbol.qualified_name for m in near.matches))[:NEAR_NAMES]
    return ToolError(
        NOT_FOUND, f"no symbol named {quoted(name)}{then}", **({"did_you_mean": suggested} if suggested else {})
    )


async def one_symbol(ctx: ToolContext, name: str, path: str | None, line: int | None) -> IndexedSymbol | dict:
    """The symbol a name (narrowed by path and line) means; ambiguity is an answer (candidates),
    nothing is a not_found error that suggests near names."""
    candidates = ctx.lookup(name, path, line)
    if not candidates:  # `django.db.models.Model`, `HttpResponse.set_cookie`: as code using them writes them
        candidates = await written_as(ctx, name, path, line)
    if not candidates:
        raise await no_symbol(ctx, name, path, line)
    if len(candidates) > 1:
        shown = candidates[:LIST_LIMIT]
        sigs = await ctx.signatures(s.id for s in shown)
        return {
            "ambiguous": True,
            "candidates": symbols_by_path(ctx, shown, sigs),
            **bounded(len(candidates), LIST_LIMIT),
            "hint": "pass path and/or line (or a more qualified name) to choose one",
        }
    return candidates[0]


async def get_symbol(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    found = await one_symbol(ctx, args["name"], args.get("path"), args.get("line"))
    if isinstance(found, dict):
        return found
    sym, limit = found, LIST_LIMIT
    detail = (await ctx.details([sym.id])).get(sym.id)
    answer = header(ctx, sym, detail.signature if detail else None)
    if detail is not None and detail.doc:
        answer["doc"] = detail.doc
    if detail is not None and detail.modifiers:
        answer["modifiers"] = list(detail.modifiers)
    parent = ctx.symbol(sym.parent_id) if sym.parent_id is not None else None
    if parent is not None and not sym.qualified_name.startswith(parent.qualified_name):
        answer["parent"] = parent.qualified_name  # only when its name does not already say it
    members = ctx.members(sym.id)  # a Go type's methods in other files and Rust impl blocks too
    if members:
        shown = members[:limit]
        here = [m for m in shown if m.file_id == sym.file_id]
        if here:
            answer["members"] = members_by_kind(here)
        away: dict[str, list[IndexedSymbol]] = {}
        for m in shown:
            if m.file_id != sym.file_id:
                away.setdefault(ctx.path_of(m), []).append(m)
        if away:  # `func (q Square) Perimeter()` in another file of the package: its line is that file's
            answer["members_in_other_files"] = {path: members_by_kind(ms) for path, ms in away.items()}
        if len(members) > limit:
            answer["members_complete"] = False
    edges = await ctx.edges_from(sym.id)
    bases = [e for e in edges if e.kind in INHERITANCE_KINDS]
    if bases:  # by kind (extends, implements...), as subclasses are; how each resolved, unless exact
        answer["bases"] = edges_by_resolution(ctx, bases, by_kind=True)
    if sym.kind in TYPE_KINDS or sym.kind == "impl":
        subs = await ctx.edges_to(sym.id, INHERITANCE_KINDS, limit + 1)
        places = Places(ctx)
        for e in subs[:limit]:
            sub = ctx.symbol(e.source_id) if e.source_id is not None else None
            if sub is not None:
                places.add_symbol(e.kind, sub)
        if places:
            answer["subclasses"] = places.groups
        if len(subs) > limit:
            answer["subclasses_complete"] = False
    callees = [e for e in edges if e.kind == "calls"]
    if callees:
        answer["callees"] = edges_by_resolution(ctx, callees, limit)
        if sum(1 for e in callees if e.target_id is not None) > limit:
            answer["callees_complete"] = False
    callers, count = await edges_to_overloads(ctx, sym, ("calls",), limit + 1)
    if count:
        answer["overloads"] = count
    if sym.kind in TYPE_KINDS:
        callers += await instantiations(ctx, sym)
    if callers:
        places = Places(ctx)
        for e in callers[:limit]:
            caller = ctx.symbol(e.source_id) if e.source_id is not None else None
            where = ctx.file_by_id(e.file_id)
            name = local_name(ctx, caller, where) if caller is not None else TOP_LEVEL
            places.add(resolution_of(e), where.path if where else "", name, e.line)
        answer["callers"] = places.groups
        if len(callers) > limit:
            answer["callers_complete"] = False
    # Calls by this name that resolution could not pin down: possible callers, never hidden (a
    # constant or a field may hold a function: `const ajax = factory(...)`, `self.handler`)
    if sym.kind in CALLED_KINDS:
        count = await ctx.count_unresolved_named(sym.name)
        if count:
            answer["unresolved_call_sites"] = count
    return answer


def overloads(ctx: ToolContext, sym: IndexedSymbol) -> list[IndexedSymbol]:
    """The overloads of a callable (itself among them) when it has any, else []: methods of one
    class and name (Java's `assertEquals(Object, Object)`, `assertEquals(String, double, double,
    double)`). Resolution does not count a call's arguments, so every call of the name reaches one
    of them: callers are told for all of them together."""
    if sym.kind not in CALLABLE_KINDS:
        return []
    same = [
        s
        for s in ctx.lookup(sym.qualified_name)
        if s.qualified_name == sym.qualified_name and s.kind == sym.kind and s.parent_id == sym.parent_id
    ]
    return same if len(same) > 1 else []


async def edges_to_overloads(
    ctx: ToolContext, sym: IndexedSymbol, kinds: tuple[str, ...], limit: int
) -> tuple[list[Edge], int]:
    """The edges to ``sym`` — to each of its overloads when it has any (a call reaches one overload
    whatever its arguments: its uses are the name's), by file and line — and how many overloads."""
    siblings = overloads(ctx, sym)
    if not siblings:
        return await ctx.edges_to(sym.id, kinds, limit), 0
    edges = [e for s in siblings for e in await ctx.edges_to(s.id, kinds, limit)]
    return sorted(edges, key=lambda e: (e.file_id, e.line)), len(siblings)


async def instantiations(ctx: ToolContext, sym: IndexedSymbol) -> list[Edge]:
    """The calls of a class (`Order()`) where its language resolves them to the constructor they
    run (Python's ``__init__``, its own or a supertype's): edges to that method written with the
    class's name, so a subclass's ``super().__init__()`` or another class's instantiation is not one."""
    home = ctx.file_by_id(sym.file_id)
    language = ctx.languages.get(home.language) if home is not None else None
    constructor = language.resolution.constructor if language is not None else ""
    if not constructor:
        return []
    found: list[Edge] = []
    for owner in (sym, *ctx.ancestors(sym.id)):
        for init in ctx.children(owner.id):
            if init.name == constructor:
                found += [e for e in await ctx.edges_to(init.id, ("calls",)) if e.target.rpartition(".")[2] == sym.name]
    return found


def edges_by_resolution(
    ctx: ToolContext, edges: list[Edge], limit: int = LIST_LIMIT, by_kind: bool = False
) -> dict[str, Any]:
    """Edges out of a symbol by how they resolved (``by_kind``: by the edge's kind), each target
    at its file; the names nothing matched under ``unresolved``. Calls carry the call's line,
    bases the base's own line."""
    places = Places(ctx)
    unresolved: set[str] = set()
    external: set[str] = set()
    shown = 0
    for e in edges:
        target = ctx.symbol(e.target_id) if e.target_id is not None else None
        outside = external_name(e.resolution) if target is None else None
        if outside is not None:
            external.add(outside)
        elif target is None:
            unresolved.add(e.target)
        elif shown < limit:
            group = resolution_of(e)
            if by_kind:  # "extends"; "implements (import)": the kind, and how it resolved unless exact
                group = e.kind if group == "exact" else f"{e.kind} ({group})"
            places.add_symbol(group, target, e.line if e.kind == "calls" else None)
            shown += 1
    out: dict[str, Any] = dict(places.groups)
    if external:  # calls that leave the index: built-ins, modules that are not indexed
        out["external"] = sorted(external)[:limit]
    if unresolved:
        out["unresolved"] = sorted(unresolved)[:limit]
    return out


async def read_symbol(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    found = await one_symbol(ctx, args["name"], args.get("path"), args.get("line"))
    if isinstance(found, dict):
        return found
    sym, max_lines = found, args.get("max_lines", READ_MAX_LINES)
    rel = ctx.path_of(sym)
    if ctx.changed_since_indexed(rel) and not ctx.indexing:
        # Its lines may have moved since it was indexed (an edit a moment ago, the watcher not there
        # yet): index that one file now and look again — a few ms, and the source shown is the symbol's
        await ctx.refresh([rel])
        again = await one_symbol(ctx, args["name"], args.get("path"), args.get("line"))
        if isinstance(again, dict):
            return again
        sym = again
        rel = ctx.path_of(sym)
    answer = header(ctx, sym)
    # Read confined: the name was indexed, but the file may have been swapped for a link out of
    # the root since; that is refused on the descriptor actually read.
    data = await ctx.read_file(rel)
    if ctx.changed_since_indexed(rel):
        answer["stale"] = True
        answer["hint"] = (
            "the file changed since it was indexed; lines may have moved (re-index or wait for the watcher)"
        )
    lines = source_lines(data)
    f = ctx.file_by_id(sym.file_id)
    # From its decorators on (`@property`, `#[derive(...)]`): what edit_symbol replaces
    syntax = syntax_of(ctx.languages.get(f.language) if f is not None else None)
    start = max(decorated_start(lines, sym.start_line, syntax), 1)
    if start != sym.start_line:
        answer["lines"] = line_span(start, sym.end_line)
    if (other := sharing_lines(ctx, sym, start)) is not None:
        answer["shares_lines_with"] = other.qualified_name  # the source shown holds part of it too
    if f is not None and f.partial and f.extractor == "tags":
        # A grammar pack's extent in a file that did not parse cleanly may stop short (zlib's K&R
        # `inflateEnd(strm) z_streamp strm;` ended at its header): say so, and where to read on
        answer["extent_uncertain"] = True
        answer.setdefault(
            "hint", f"{rel} did not parse cleanly: this symbol may go on past line {sym.end_line}; read on from there"
        )
    end = min(sym.end_line, len(lines), start + max(1, max_lines) - 1)
    out, size = [], 0
    for i in range(start - 1, end):
        size += len(lines[i]) + 1
        if size > READ_MAX_BYTES:
            end = i
            break
        out.append(lines[i])
    answer["source"] = "\n".join(out)
    if end < min(sym.end_line, len(lines)):
        answer["truncated"] = True
        answer["next_line"] = end + 1
    return answer


FIND_SYMBOLS_ANSWER = out.answer(
    {
        "results": out.SYMBOLS_BY_PATH,
        "not_listed": {**out.COUNTS, "description": "matches of the tiers not listed: other_case, prefix, substring"},
        "total": out.COUNT,
        "total_at_least": out.COUNT,
        "embeddings_pending": out.COUNT,
        "embeddings_loading": out.TRUE,
        "note": {**out.STRING, "description": "why nothing could match (a path filter with no indexed file)"},
        **out.CUT,
    },
    ("results",),
)

_MEMBERS = {"type": "object", "additionalProperties": {"type": "object", "additionalProperties": out.LINE_OR_LINES}}
GET_SYMBOL_ANSWER = out.answer(
    {
        **out.SYMBOL_HEADER,
        "doc": out.STRING,
        "modifiers": out.STRINGS,
        "parent": out.STRING,
        "members": _MEMBERS,
        "members_in_other_files": {
            "type": "object",
            "additionalProperties": _MEMBERS,
            "description": "path -> members declared there (Go methods in another file of the package)",
        },
        "members_complete": out.FALSE,
        "overloads": {
            **out.COUNT,
            "description": "the name has this many overloads: callers are those of all of them (arguments are not counted)",
        },
        "bases": out.EDGES,
        "subclasses": {"type": "object", "additionalProperties": out.NAMES_BY_PATH},
        "subclasses_complete": out.FALSE,
        "callees": out.EDGES,
        "callees_complete": out.FALSE,
        "callers": {"type": "object", "additionalProperties": out.NAMES_BY_PATH},
        "callers_complete": out.FALSE,
        "unresolved_call_sites": out.COUNT,
        **out.AMBIGUOUS,
    },
    description="one symbol, or ambiguous: true with candidates",
)

READ_SYMBOL_ANSWER = out.answer(
    {
        **out.SYMBOL_HEADER,
        "source": out.STRING,
        "truncated": out.TRUE,
        "next_line": out.LINE,
        "hint": out.STRING,
        "shares_lines_with": {
            **out.STRING,
            "description": "another symbol on these lines (`enum C { A; void m() {} }`): the source holds part of it",
        },
        "extent_uncertain": {
            **out.TRUE,
            "description": "a grammar pack's symbol in a file that did not parse cleanly: it may end later",
        },
        **out.AMBIGUOUS,
    },
    description="one symbol's source, or ambiguous: true with candidates",
)


@hookimpl
def codecairn_tools() -> list[Tool]:
    return [
        Tool(
            "find_symbols",
            "Find symbols by name, glob pattern, or meaning (query: natural language; fused with name "
            "when both), filtered by kinds, path prefix, language. A name lists its exact matches when "
            "there are any and counts the rest (not_listed); match: prefix or substring lists those too. "
            "Results are grouped by file. Call before reading files.",
            {
                "type": "object",
                "properties": {
                    "name": a.name(),
                    "match": {
                        "enum": ["exact", "prefix", "substring"],
                        "description": "name tiers to list (default: exact when any, else all)",
                    },
                    "query": a.text(a.QUERY_CHARS, "what the code does, e.g. 'retry with backoff'"),
                    "pattern": a.GLOB,
                    "kinds": a.words(),
                    "path": a.path("path prefix"),
                    "language": a.text(a.WORD_CHARS),
                    "limit": {"type": "integer", "minimum": 1, "maximum": 500, "default": 20},
                },
                "additionalProperties": False,
            },
            find_symbols,
            title="Find symbols",
            hints=READ_ONLY,
            output_schema=FIND_SYMBOLS_ANSWER,
        ),
        Tool(
            "get_symbol",
            "One symbol's structure without reading the file: location, signature, doc, members, bases, "
            "subclasses (by kind, then file), callees and callers (by resolution, then file). Ambiguous names return candidates.",
            {"type": "object", "properties": dict(_SELECT), "required": ["name"], "additionalProperties": False},
            get_symbol,
            title="Describe a symbol",
            hints=READ_ONLY,
            output_schema=GET_SYMBOL_ANSWER,
        ),
        Tool(
            "read_symbol",
            "The source of one symbol, its decorators included, read from disk now (bounded); says if the file "
            "changed since indexing.",
            {
                "type": "object",
                "properties": {**_SELECT, "max_lines": {"type": "integer", "minimum": 1, "maximum": 2000}},
                "required": ["name"],
                "additionalProperties": False,
            },
            read_symbol,
            title="Read a symbol's source",
            hints=READ_ONLY,
            output_schema=READ_SYMBOL_ANSWER,
            render=text_blocks("source"),  # the code as text after a one-line header, not a JSON string
        ),
    ]
