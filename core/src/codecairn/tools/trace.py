"""The ``trace`` tool: who calls a symbol, transitively (or what it calls), and the shortest call
chains between two symbols — each hop with how it was resolved, cycles marked, every bound
counted, and the call sites resolution could not pin down listed, so "no callers" is never said
when resolution failed."""

from __future__ import annotations

from typing import Any

from codecairn.errors import BAD_ARGUMENT, ToolError
from codecairn.hookspecs import READ_ONLY, Tool, ToolContext, hookimpl
from codecairn.model import (
    CALLED_KINDS,
    EXTERNAL,
    Edge,
    Hop,
    IndexedSymbol,
    Walk,
    external_name,
)
from codecairn.tools import answers as out
from codecairn.tools import arguments as a
from codecairn.tools.shaping import TOP_LEVEL
from codecairn.tools.symbols import one_symbol, overloads

DEFAULT_DEPTH, MAX_DEPTH = 3, 8
DEFAULT_FAN_OUT, MAX_FAN_OUT = 20, 200
DEFAULT_LIMIT, MAX_LIMIT = 200, 2000  # hops in one answer
POSSIBLE_SHOWN = 20  # unresolved call sites listed (all are counted)


def place(ctx: ToolContext, edge: Edge) -> dict[str, Any]:
    f = ctx.file_by_id(edge.file_id)
    return {"path": f.path if f else "", "line": edge.line}


def label(edge: Edge) -> dict[str, Any]:
    """What a hop says beyond its ends: its kind unless a call, its resolution unless exact."""
    out: dict[str, Any] = {}
    if edge.kind != "calls":
        out["kind"] = edge.kind
    if edge.target_id is None:
        if external_name(edge.resolution) is not None:
            out["resolution"] = EXTERNAL  # leaves the index (the callee names where to)
        else:
            out["resolved"] = False
    elif edge.resolution != "exact":
        out["resolution"] = edge.resolution
    return out


def symbol_name(ctx: ToolContext, symbol_id: int | None, edge: Edge) -> str:
    sym = ctx.symbol(symbol_id) if symbol_id is not None else None
    if sym is not None:
        return sym.qualified_name
    f = ctx.file_by_id(edge.file_id)
    return f"{f.path if f else '?'} {TOP_LEVEL}"  # as get_symbol names a caller outside any symbol


def hop_entry(ctx: ToolContext, hop: Hop, direction: str, start: set[int]) -> dict[str, Any]:
    e = hop.edge
    entry: dict[str, Any] = {"depth": hop.depth}
    if direction == "in":
        entry["caller"] = symbol_name(ctx, e.source_id, e)
        if hop.near not in start:
            entry["calls"] = symbol_name(ctx, hop.near, e)
    else:
        if hop.near not in start:
            entry["caller"] = symbol_name(ctx, hop.near, e)
        if e.target_id is None:
            entry["callee"] = external_name(e.resolution) or (f"{e.receiver}.{e.target}" if e.receiver else e.target)
        else:
            entry["callee"] = symbol_name(ctx, e.target_id, e)
    entry.update(place(ctx, e))
    entry.update(label(e))
    if hop.cycle:
        entry["cycle"] = True
    elif hop.seen:
        entry["seen"] = True  # reached by another path: listed there, not followed again
    return entry


def cuts(walk: Walk) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if walk.cut_fan_out:
        out["fan_out"] = {str(d): n for d, n in sorted(walk.cut_fan_out.items())}
    if walk.cut_level:
        out["level"] = {str(d): n for d, n in sorted(walk.cut_level.items())}
    return out


async def possible_callers(ctx: ToolContext, levels: list[list[IndexedSymbol]]) -> dict[str, Any]:
    """Call sites written with the name of one of the symbols that resolution left unresolved: each
    might be a call of it. Counted in full; the first few listed with their receiver text, those
    naming the traced symbol first, then those naming its callers, level by level (the nearest
    are the likeliest to matter)."""
    seen: set[str] = set()
    shown: list[Edge] = []
    total = 0
    for level in levels:
        names = {s.name for s in level if s.kind in CALLED_KINDS} - seen
        if not names:
            continue
        seen |= names
        found, counts = await ctx.unresolved_uses(names, ("calls",), max(POSSIBLE_SHOWN - len(shown), 1))
        shown.extend(found[: POSSIBLE_SHOWN - len(shown)])
        total += sum(counts.values())
    if not total:
        return {}
    sites = []
    for e in shown:
        site: dict[str, Any] = {"name": e.target, **place(ctx, e)}
        if e.receiver:
            site["receiver"] = e.receiver
        caller = ctx.symbol(e.source_id) if e.source_id is not None else None
        if caller is not None:
            site["in"] = caller.qualified_name
        sites.append(site)
    return {"unresolved_call_sites": total, "possible_callers": sites, **({"possible_callers_complete": False}
            if total > len(sites) else {})}  # fmt: skip


async def walk_answer(
    ctx: ToolContext, sym: IndexedSymbol, direction: str, depth: int, fan_out: int, limit: int
) -> dict[str, Any]:
    # Callers of an overload are those of the name: a call reaches one overload whatever its arguments
    siblings = overloads(ctx, sym) if direction == "in" else []
    start = {s.id for s in siblings} or {sym.id}
    walk = await ctx.walk(start, direction, depth=depth, fan_out=fan_out, level_limit=limit)
    hops = walk.hops[:limit]
    key = "callers" if direction == "in" else "callees"
    out: dict[str, Any] = {key: [hop_entry(ctx, h, direction, start) for h in hops]}
    if siblings:
        out["overloads"] = len(siblings)
    cut = cuts(walk)
    if len(walk.hops) > limit:
        cut["limit"] = len(walk.hops) - limit
    out[f"{key}_complete"] = not cut
    if cut:
        out[f"{key}_cut"] = cut
    if direction == "in":
        levels: list[list[IndexedSymbol]] = [[sym]] + [[] for _ in range(depth)]
        for sid, level in walk.depth_of.items():
            if sid not in start and (s := ctx.symbol(sid)) is not None:
                levels[min(level, depth)].append(s)
        possible = await possible_callers(ctx, levels)
        out.update(possible)
        if not hops:
            if possible:
                out["note"] = (
                    f"no resolved callers, but {possible['unresolved_call_sites']} call site(s) with this name "
                    "could not be resolved and might call it (possible_callers)"
                )
            else:
                out["note"] = "no callers: no resolved call and no unresolved call site with this name"
    return out


async def trace(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    depth = args.get("depth", DEFAULT_DEPTH)
    fan_out = args.get("fan_out", DEFAULT_FAN_OUT)
    limit = args.get("limit", DEFAULT_LIMIT)
    direction = args.get("direction", "callers")
    found = await one_symbol(ctx, args["name"], args.get("path"), args.get("line"))
    if isinstance(found, dict):
        return found
    sym = found
    answer: dict[str, Any] = {"symbol": {"qualified_name": sym.qualified_name, "kind": sym.kind,
                                         "path": ctx.path_of(sym), "line": sym.start_line}}  # fmt: skip
    if "to" in args:
        target = await one_symbol(ctx, args["to"], args.get("to_path"), args.get("to_line"))
        if isinstance(target, dict):
            return {"to": target}
        answer["to"] = {"qualified_name": target.qualified_name, "kind": target.kind,
                        "path": ctx.path_of(target), "line": target.start_line}  # fmt: skip
        found_chains = await ctx.call_chains(sym.id, target.id, max_depth=depth if "depth" in args else MAX_DEPTH)
        chains = [
            [
                {
                    "caller": symbol_name(ctx, e.source_id, e),
                    "callee": symbol_name(ctx, e.target_id, e),
                    **place(ctx, e),
                    **label(e),
                }
                for e in chain
            ]  # fmt: skip
            for chain in found_chains.chains
        ]
        answer["chains"] = chains
        answer["complete"] = found_chains.complete
        if chains:
            answer["length"] = len(chains[0])
        else:
            answer["note"] = (
                "no call chain through resolved edges"
                + ("" if found_chains.complete else " within the bounds (a frontier was cut)")
                + "; unresolved call sites are not followed: see trace of the target for possible callers"
            )
        return answer
    if direction not in ("callers", "callees", "both"):
        raise ToolError(BAD_ARGUMENT, "direction must be callers, callees or both")
    if direction in ("callers", "both"):
        answer.update(await walk_answer(ctx, sym, "in", depth, fan_out, limit))
    if direction in ("callees", "both"):
        answer.update(await walk_answer(ctx, sym, "out", depth, fan_out, limit))
    if all(answer.get(k, True) for k in ("callers_complete", "callees_complete")):
        answer["complete"] = True
    else:
        answer.update(complete=False, limit_reached=True, limit_reason="fan_out, limit or depth bounds (see *_cut)")
    return answer


_SCHEMA = {
    "type": "object",
    "properties": {
        "name": a.name("the symbol: pkg.mod.Class.method, Class.method or method"),
        "path": a.path("the file it is in, when the name is ambiguous"),
        "line": {"type": "integer", "minimum": 1},
        "direction": {"type": "string", "enum": ["callers", "callees", "both"], "default": "callers"},
        "depth": {"type": "integer", "minimum": 1, "maximum": MAX_DEPTH, "default": DEFAULT_DEPTH},
        "fan_out": {
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_FAN_OUT,
            "default": DEFAULT_FAN_OUT,
            "description": "edges shown per symbol",
        },  # fmt: skip
        "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_LIMIT,
            "default": DEFAULT_LIMIT,
            "description": "hops in the answer",
        },  # fmt: skip
        "to": a.name("another symbol: answer the shortest call chains from name to it instead"),
        "to_path": a.path(),
        "to_line": {"type": "integer", "minimum": 1},
    },
    "required": ["name"],
    "additionalProperties": False,
}


_HOP = {
    "type": "object",
    "properties": {
        "depth": out.LINE,
        "caller": out.STRING,
        "calls": {**out.STRING, "description": "the symbol of the level below it calls (when not the traced one)"},
        "callee": out.STRING,
        "path": out.STRING,
        "line": out.INTEGER,
        **out.EDGE_LABEL,
        "cycle": out.TRUE,
        "seen": {**out.TRUE, "description": "reached by another path: listed there, not followed again"},
    },
    "required": ["depth", "path", "line"],
    "additionalProperties": False,
}
_LINK = {
    "type": "object",
    "properties": {
        "caller": out.STRING,
        "callee": out.STRING,
        "path": out.STRING,
        "line": out.INTEGER,
        **out.EDGE_LABEL,
    },  # fmt: skip
    "required": ["caller", "callee", "path", "line"],
    "additionalProperties": False,
}
_CUT = {
    "type": "object",
    "properties": {"fan_out": out.COUNTS, "level": out.COUNTS, "limit": out.COUNT},
    "additionalProperties": False,
    "description": "edges not followed: by depth (fan_out, level) and past the hop limit",
}
TRACE_ANSWER = out.answer(
    {
        "symbol": out.SYMBOL_AT,
        "to": {"anyOf": [out.SYMBOL_AT, out.answer(out.AMBIGUOUS, ("ambiguous", "candidates"))]},
        "callers": {"type": "array", "items": _HOP},
        "callers_complete": out.BOOLEAN,
        "callers_cut": _CUT,
        "callees": {"type": "array", "items": _HOP},
        "callees_complete": out.BOOLEAN,
        "callees_cut": _CUT,
        **out.POSSIBLE_CALLERS,
        "chains": {"type": "array", "items": {"type": "array", "items": _LINK}},
        "length": out.COUNT,
        "note": out.STRING,
        "overloads": {**out.COUNT, "description": "callers are those of all this many overloads of the name"},
        **out.AMBIGUOUS,
        **out.BOUNDED,
    },
    description="the call graph around a symbol (or the chains between two); ambiguous: true with candidates; "
    "an ambiguous `to` as to: {ambiguous, candidates}",
)


@hookimpl
def codecairn_tools() -> list[Tool]:
    return [
        Tool(
            "trace",
            "Callers (or callees, or both) of a symbol, transitively to a depth: each hop with its call site "
            "and resolution label, cycles marked, cut fan-out counted, and unresolved call sites that might "
            "call it (never a false 'no callers'). With `to`: the shortest call chains between two symbols.",
            _SCHEMA,
            trace,
            title="Trace calls",
            hints=READ_ONLY,
            output_schema=TRACE_ANSWER,
        )
    ]
