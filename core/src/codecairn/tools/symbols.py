"""Tools about symbols: find them, describe one, read one's source."""

from __future__ import annotations

import re
from typing import Any

from codecairn.errors import NOT_FOUND, ToolError, quoted
from codecairn.hookspecs import READ_ONLY, Tool, ToolContext, hookimpl
from codecairn.model import CALLABLE_KINDS, INHERITANCE_KINDS, TYPE_KINDS, IndexedSymbol
from codecairn.tools import arguments as a
from codecairn.tools.shaping import LIST_LIMIT, bounded, brief, edge_target, short

_SELECT = {
    "name": a.name("Qualified name: pkg.mod.Class.method, Class.method or Class::method"),
    "path": a.path("Only the symbol in this file"),
    "line": {"type": "integer", "minimum": 1, "description": "Only the symbol at/around this line"},
}


_NAME_PARTS = re.compile(r"::|\.|#|/")
READ_MAX_LINES = 400
READ_MAX_BYTES = 64 * 1024


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
    )
    sigs = await ctx.signatures(m.symbol.id for m in found.matches)
    results = []
    for m in found.matches:
        entry = brief(ctx, m.symbol, sigs.get(m.symbol.id))
        if "query" in args:
            entry["matched"] = list(m.matched)
            if m.score is not None:
                entry["semantic_score"] = round(m.score, 3)
        results.append(entry)
    answer: dict[str, Any] = {"results": results, **bounded(found.total, limit)}
    if not answer["complete"]:
        answer["total_at_least" if found.total_is_lower_bound else "total"] = found.total
    if found.embeddings_pending:
        answer["embeddings_pending"] = found.embeddings_pending
    if found.embeddings_loading:
        answer["embeddings_loading"] = True
    return answer


async def one_symbol(ctx: ToolContext, name: str, path: str | None, line: int | None) -> IndexedSymbol | dict:
    """The symbol a name (narrowed by path and line) means; ambiguity is an answer (candidates),
    nothing is a not_found error that suggests near names."""
    candidates = ctx.lookup(name, path, line)
    if not candidates:
        last = [p for p in _NAME_PARTS.split(name) if p][-1:] or [name]
        near = await ctx.find_symbols(name=last[0], limit=5)
        raise ToolError(
            NOT_FOUND,
            f"no symbol named {quoted(name)}",
            **({"did_you_mean": [m.symbol.qualified_name for m in near.matches]} if near.matches else {}),
        )
    if len(candidates) > 1:
        shown = candidates[:LIST_LIMIT]
        sigs = await ctx.signatures(s.id for s in shown)
        return {
            "ambiguous": True,
            "candidates": [brief(ctx, s, sigs.get(s.id)) for s in shown],
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
    answer = brief(ctx, sym, detail.signature if detail else None)
    f = ctx.file_by_id(sym.file_id)
    if f is not None:
        answer["language"] = f.language
        if f.partial:
            answer["partial"] = True
        if f.extractor and f.extractor != f.language:
            answer["extractor"] = f.extractor
    if detail is not None and detail.doc:
        answer["doc"] = detail.doc
    if detail is not None and detail.modifiers:
        answer["modifiers"] = list(detail.modifiers)
    parent = ctx.symbol(sym.parent_id) if sym.parent_id is not None else None
    if parent is not None:
        answer["parent"] = parent.qualified_name
    members = ctx.children(sym.id)
    if members:
        answer["members"] = [{"name": m.name, "kind": m.kind, "line": m.start_line} for m in members[:limit]]
        if len(members) > limit:
            answer["members_complete"] = False
    edges = await ctx.edges_from(sym.id)
    bases = [edge_target(ctx, e) for e in edges if e.kind in INHERITANCE_KINDS]
    if bases:
        answer["bases"] = bases
    if sym.kind in TYPE_KINDS or sym.kind == "impl":
        subs = await ctx.edges_to(sym.id, INHERITANCE_KINDS, limit + 1)
        shown = [(ctx.symbol(e.source_id), e) for e in subs[:limit] if e.source_id is not None]
        if subs:
            answer["subclasses"] = [
                {**short(ctx, s), **({"kind": e.kind} if e.kind != "extends" else {})} for s, e in shown if s
            ]
            if len(subs) > limit:
                answer["subclasses_complete"] = False
    callees = [e for e in edges if e.kind == "calls"]
    if callees:
        resolved = [edge_target(ctx, e) for e in callees if e.target_id is not None]
        unresolved = [e for e in callees if e.target_id is None]
        answer["callees"] = resolved[:limit]
        if len(resolved) > limit:
            answer["callees_complete"] = False
        if unresolved:
            answer["unresolved_callees"] = len(unresolved)
            answer["unresolved_callee_names"] = sorted({e.target for e in unresolved})[:limit]
    callers = await ctx.edges_to(sym.id, ("calls",), limit + 1)
    if callers:
        out = []
        for e in callers[:limit]:
            entry: dict[str, Any] = {}
            caller = ctx.symbol(e.source_id) if e.source_id is not None else None
            if caller is not None:
                entry["caller"] = caller.qualified_name
            where = ctx.file_by_id(e.file_id)
            entry["path"] = where.path if where else ""
            entry["line"] = e.line
            if e.resolution != "exact":
                entry["resolution"] = e.resolution
            out.append(entry)
        answer["callers"] = out
        if len(callers) > limit:
            answer["callers_complete"] = False
    # Calls by this name that resolution could not pin down: possible callers, never hidden.
    if sym.kind in CALLABLE_KINDS or sym.kind in TYPE_KINDS:
        count = await ctx.count_unresolved_named(sym.name)
        if count:
            answer["unresolved_call_sites"] = count
    return answer


async def read_symbol(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    found = await one_symbol(ctx, args["name"], args.get("path"), args.get("line"))
    if isinstance(found, dict):
        return found
    sym, max_lines = found, args.get("max_lines", READ_MAX_LINES)
    rel = ctx.path_of(sym)
    answer = brief(ctx, sym)
    # Read confined: the name was indexed, but the file may have been swapped for a link out of
    # the root since; that is refused on the descriptor actually read.
    data = await ctx.read_file(rel)
    if ctx.changed_since_indexed(rel):
        answer["stale"] = True
        answer["hint"] = (
            "the file changed since it was indexed; lines may have moved (re-index or wait for the watcher)"
        )
    lines = data.decode("utf-8", "replace").splitlines()
    start = max(sym.start_line, 1)
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


@hookimpl
def codecairn_tools() -> list[Tool]:
    return [
        Tool(
            "find_symbols",
            "Find symbols by name (case-insensitive substring; exact > prefix > substring), glob "
            "pattern, or meaning (query: natural language; fused with name when both), filtered by "
            "kinds, path prefix, language. Call before reading files.",
            {
                "type": "object",
                "properties": {
                    "name": a.name(),
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
        ),
        Tool(
            "get_symbol",
            "One symbol's structure without reading the file: location, signature, doc, parent, members, "
            "bases/subclasses, callers/callees with resolution labels. Ambiguous names return candidates.",
            {"type": "object", "properties": dict(_SELECT), "required": ["name"], "additionalProperties": False},
            get_symbol,
            title="Describe a symbol",
            hints=READ_ONLY,
        ),
        Tool(
            "read_symbol",
            "The source of one symbol, read from disk now (bounded); says if the file changed since indexing.",
            {
                "type": "object",
                "properties": {**_SELECT, "max_lines": {"type": "integer", "minimum": 1, "maximum": 2000}},
                "required": ["name"],
                "additionalProperties": False,
            },
            read_symbol,
            title="Read a symbol's source",
            hints=READ_ONLY,
        ),
    ]
