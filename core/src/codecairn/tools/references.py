"""The ``find_references`` tool: every use of a symbol — the resolved edges that point at it, and
the places its name occurs as a token, each classified from the syntax tree as code, comment or
string — with its definition marked."""

from __future__ import annotations

from typing import Any

from codecairn.hookspecs import READ_ONLY, Tool, ToolContext, hookimpl
from codecairn.model import TYPE_KINDS, IndexedSymbol
from codecairn.tools import answers as out
from codecairn.tools import arguments as a
from codecairn.tools.symbols import edges_to_overloads, instantiations, one_symbol
from codecairn.tools.trace import label, place

DEFAULT_LIMIT, MAX_LIMIT = 100, 1000
SCAN_SECONDS = 4.0  # the token scan's share of a call: past it the answer says it is incomplete


async def find_references(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    limit = args.get("limit", DEFAULT_LIMIT)
    found = await one_symbol(ctx, args["name"], args.get("path"), args.get("line"))
    if isinstance(found, dict):
        return found
    sym = found
    home = ctx.path_of(sym)
    answer: dict[str, Any] = {
        "symbol": {"qualified_name": sym.qualified_name, "kind": sym.kind, "path": home, "line": sym.start_line},
        "definition": {"path": home, "line": sym.start_line},
    }
    edges, count = await edges_to_overloads(ctx, sym, (), limit + 1)
    if count:
        answer["overloads"] = count
    if sym.kind in TYPE_KINDS:  # `Order()`: an edge to the __init__ it runs, a use of the class
        edges = sorted([*edges, *await instantiations(ctx, sym)], key=lambda e: (e.file_id, e.line))
    resolved: list[dict[str, Any]] = []
    at: set[tuple[str, int]] = set()
    for e in edges[:limit]:
        where = place(ctx, e)
        at.add((where["path"], where["line"]))
        caller = ctx.symbol(e.source_id) if e.source_id is not None else None
        reference: dict[str, Any] = {**where, "kind": e.kind}
        reference.update({k: v for k, v in label(e).items() if k != "kind"})
        if caller is not None:
            reference["in"] = caller.qualified_name
        resolved.append(reference)
    answer["references"] = resolved
    answer["references_complete"] = len(edges) <= limit
    if args.get("tokens", True):
        scope = ctx.resolve_path(args["scope"]) if args.get("scope") else ""
        under = scope.rstrip("/") + "/" if scope else ""
        # Look first where the name is likely: its own file, the files that use it or name it.
        first = [home, *(p["path"] for p in resolved)]
        unresolved, _ = await ctx.unresolved_uses([sym.name], ("calls", "references"), 200)
        unresolved_at = set()
        for e in unresolved:
            f = ctx.file_by_id(e.file_id)
            if f is not None:
                first.append(f.path)
                unresolved_at.add((f.path, e.line))
        rest = sorted(f.path for f in ctx.files())
        order = [p for p in dict.fromkeys([*first, *rest]) if not scope or p == scope or p.startswith(under)]
        scan = await ctx.scan_tokens(sym.name, order, limit, SCAN_SECONDS)
        others = await _namesakes_at(ctx, sym, {o.path for o in scan.occurrences})
        tokens, counts = [], {"code": 0, "comment": 0, "string": 0}
        for o in scan.occurrences:
            counts[o.category] += 1
            entry: dict[str, Any] = {"path": o.path, "line": o.line, "column": o.column, "category": o.category}
            if o.path == home and o.line == sym.start_line:
                entry["definition"] = True
            elif (o.path, o.line) in at:
                entry["resolved"] = True  # a resolved reference is on this line (listed above)
            elif (o.path, o.line) in unresolved_at:
                entry["unresolved_use"] = True  # a call or use of this name that resolution left open
            elif (o.path, o.line) in others:
                entry["other_symbol"] = others[(o.path, o.line)]  # a namesake's definition or a use of it
            tokens.append(entry)
        answer["tokens"] = tokens
        answer["token_counts"] = counts
        answer["tokens_complete"] = scan.complete
        if not scan.complete:
            answer["files_scanned"] = f"{scan.files_scanned}/{scan.files_total}"
        answer["complete"] = scan.complete and answer["references_complete"]
    else:
        answer["complete"] = answer["references_complete"]
    if not answer["complete"]:
        answer.update(limit_reached=True, limit_reason="limit or scan time (narrow with scope)")
    return answer


async def _namesakes_at(ctx: ToolContext, sym: IndexedSymbol, paths: set[str]) -> dict[tuple[str, int], str]:
    """(path, line) -> the qualified name of another symbol of the same name defined there, or
    that a resolved use there reaches: tokens of the name that are someone else's (django's
    `defaultfilters.capfirst` and its callers read as uses of `text.capfirst`)."""
    out: dict[tuple[str, int], str] = {}
    for other in ctx.lookup(sym.name):
        if other.name == sym.name and other.qualified_name != sym.qualified_name:
            out[(ctx.path_of(other), other.start_line)] = other.qualified_name
    files = [f.id for p in paths if (f := ctx.file(p)) is not None]
    for e in await ctx.edges_in_files(files, ("calls", "references")):
        if e.target_id is None or e.target.rpartition(".")[2].rpartition("::")[2] != sym.name:
            continue
        target = ctx.symbol(e.target_id)
        if target is not None and target.qualified_name != sym.qualified_name and (f := ctx.file_by_id(e.file_id)):
            out.setdefault((f.path, e.line), target.qualified_name)
    return out


_PLACE = {"type": "object", "properties": {"path": out.STRING, "line": out.LINE},
          "required": ["path", "line"], "additionalProperties": False}  # fmt: skip
FIND_REFERENCES_ANSWER = out.answer(
    {
        "symbol": out.SYMBOL_AT,
        "definition": _PLACE,
        "overloads": {**out.COUNT, "description": "references are those of all this many overloads of the name"},
        "references": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"path": out.STRING, "line": out.INTEGER, **out.EDGE_LABEL, "in": out.STRING},
                "required": ["path", "line", "kind"],
                "additionalProperties": False,
            },
        },
        "references_complete": out.BOOLEAN,
        "tokens": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "path": out.STRING,
                    "line": out.LINE,
                    "column": out.COUNT,
                    "category": {"enum": ["code", "comment", "string"]},
                    "definition": out.TRUE,
                    "resolved": {**out.TRUE, "description": "a resolved reference is on this line"},
                    "unresolved_use": {**out.TRUE, "description": "a use of the name resolution left open"},
                    "other_symbol": {
                        **out.STRING,
                        "description": "another symbol of the name is defined or used here (its qualified name)",
                    },
                },
                "required": ["path", "line", "column", "category"],
                "additionalProperties": False,
            },
        },
        "token_counts": {
            "type": "object",
            "properties": {"code": out.COUNT, "comment": out.COUNT, "string": out.COUNT},
            "additionalProperties": False,
        },
        "tokens_complete": out.BOOLEAN,
        "files_scanned": {**out.STRING, "description": "'scanned/total' when the scan stopped early"},
        **out.AMBIGUOUS,
        **out.BOUNDED,
    },
    description="a symbol's references and token occurrences, or ambiguous: true with candidates",
)


@hookimpl
def codecairn_tools() -> list[Tool]:
    return [
        Tool(
            "find_references",
            "Every use of a symbol: resolved references from the graph (with resolution labels) plus the "
            "name's token occurrences classified from the syntax tree as code, comment or string; the "
            "definition marked. Narrow the token scan with scope (a path prefix).",
            {
                "type": "object",
                "properties": {
                    "name": a.name(),
                    "path": a.path("the file the symbol is in, when the name is ambiguous"),
                    "line": {"type": "integer", "minimum": 1},
                    "scope": a.path("scan only files under this path"),
                    "tokens": {"type": "boolean", "default": True, "description": "also scan for the name as a token"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT},
                },
                "required": ["name"],
                "additionalProperties": False,
            },
            find_references,
            title="Find references",
            hints=READ_ONLY,
            output_schema=FIND_REFERENCES_ANSWER,
        )
    ]
