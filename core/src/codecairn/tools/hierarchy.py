"""The ``type_hierarchy`` tool: a type's ancestors and descendants — extends, implements, Rust
trait impls, Go embedding, and Go interface satisfaction read off method sets — with the methods
its descendants override."""

from __future__ import annotations

from typing import Any

from codecairn.errors import BAD_ARGUMENT, ToolError
from codecairn.hookspecs import READ_ONLY, Tool, ToolContext, hookimpl
from codecairn.model import INHERITANCE_KINDS, TYPE_KINDS, TypeLink
from codecairn.tools import answers as out
from codecairn.tools import arguments as a
from codecairn.tools.method_shapes import signature_mismatches
from codecairn.tools.shaping import local_name
from codecairn.tools.symbols import edges_by_resolution, one_symbol

DEFAULT_DEPTH, MAX_DEPTH = 3, 10
DEFAULT_LIMIT, MAX_LIMIT = 100, 1000


async def _labels(ctx: ToolContext, links: list[TypeLink], upward: bool) -> dict[tuple[int, int], tuple[str, str]]:
    """(near, far) -> (edge kind, resolution) of the edges that state each link."""
    out: dict[tuple[int, int], tuple[str, str]] = {}
    for near in dict.fromkeys(link.near for link in links):
        if upward:
            for e in await ctx.edges_from(near, INHERITANCE_KINDS):
                if e.target_id is not None:
                    out.setdefault((near, e.target_id), (e.kind, e.resolution or ""))
        else:
            for e in await ctx.edges_to(near, INHERITANCE_KINDS):
                if e.source_id is not None:
                    out.setdefault((near, e.source_id), (e.kind, e.resolution or ""))
    return out


async def type_hierarchy(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    depth, limit = args.get("depth", DEFAULT_DEPTH), args.get("limit", DEFAULT_LIMIT)
    found = await one_symbol(ctx, args["name"], args.get("path"), args.get("line"))
    if isinstance(found, dict):
        return found
    sym = found
    if sym.kind not in TYPE_KINDS and sym.kind != "impl":
        raise ToolError(BAD_ARGUMENT, f"{sym.qualified_name} is a {sym.kind}, not a type", kinds=sorted(TYPE_KINDS))
    h = ctx.type_hierarchy(sym.id, depth, limit)
    # Go's method sets match by names: a type whose method of a name has another signature
    # (`Parent() *Function` for `Parent() string`) does not satisfy the interface
    dropped: set[int] = set()
    for key, upward in (("ancestors", True), ("descendants", False)):
        links = getattr(h, key)
        wrong = await signature_mismatches(ctx, links, upward)
        kept = []
        for link in links:  # (nearest first: a link reached through a dropped one goes too)
            if link in wrong or (link.depth > 1 and link.near in dropped):
                dropped.add(link.far)
                continue
            kept.append(link)
        setattr(h, key, kept)
    if dropped and h.overrides:
        gone = tuple(f"{t.qualified_name}." for i in dropped if (t := ctx.symbol(i)) is not None)
        h.overrides = {
            name: kept_ids
            for name, ids in h.overrides.items()
            if (kept_ids := [i for i in ids if not ((m := ctx.symbol(i)) and m.qualified_name.startswith(gone))])
        }
    answer: dict[str, Any] = {
        "type": {
            "qualified_name": sym.qualified_name,
            "kind": sym.kind,
            "path": ctx.path_of(sym),
            "line": sym.start_line,
        },  # fmt: skip
    }
    for key, links, upward in (("ancestors", h.ancestors, True), ("descendants", h.descendants, False)):
        labels = await _labels(ctx, links, upward)
        entries = []
        for link in links:
            far = ctx.symbol(link.far)
            if far is None:
                continue
            entry: dict[str, Any] = {"qualified_name": far.qualified_name, "kind": far.kind,
                                     "path": ctx.path_of(far), "line": far.start_line}  # fmt: skip
            if link.depth > 1:
                near = ctx.symbol(link.near)
                entry["depth"] = link.depth
                entry["via"] = near.qualified_name if near else ""
            if link.how:
                entry["relation"] = link.how  # method-set: Go's implicit satisfaction, by method names
            else:
                kind, how = labels.get((link.near, link.far), ("", ""))
                if kind and kind != "extends":
                    entry["relation"] = kind
                if how and how != "exact":
                    entry["resolution"] = how
            entries.append(entry)
        answer[key] = entries
    # Bases the index holds no symbol for: a library's (`Exception`, `fmt::Display`), or unresolved
    outside = [e for e in await ctx.edges_from(sym.id) if e.kind in INHERITANCE_KINDS and e.target_id is None]
    for group, names in edges_by_resolution(ctx, outside).items():
        if group in ("external", "unresolved"):
            answer.setdefault("bases_outside", {})[group] = names
    if h.overrides:
        # By method, then file, each override by its name there: {"next": {"vec/into_iter.rs":
        # {"IntoIter::next": 123}}}. Bounded by `limit` too — a trait with a hundred implementors of
        # twenty methods listed each one with its path and qualified name (Iterator: 44 kB of 63)
        overrides: dict[str, dict[str, dict[str, int]]] = {}
        shown = unlisted = 0
        for name, ids in sorted(h.overrides.items()):
            for i in ids:
                m = ctx.symbol(i)
                if m is None:
                    continue
                if shown >= limit:
                    unlisted += 1
                    continue
                shown += 1
                overrides.setdefault(name, {}).setdefault(ctx.path_of(m), {})[local_name(ctx, m)] = m.start_line
        answer["overrides"] = overrides
        if unlisted:
            answer["overrides_not_listed"] = unlisted
    answer["complete"] = not h.cut
    if h.cut:
        answer.update(limit_reached=True, limit_reason="limit", not_listed=h.cut)
    return answer


_RELATIVE = {
    "type": "object",
    "properties": {
        "qualified_name": out.STRING,
        "kind": out.STRING,
        "path": out.STRING,
        "line": out.LINE,
        "depth": out.LINE,
        "via": out.STRING,
        "relation": {**out.STRING, "description": "implements, method-set... (extends says nothing)"},
        "resolution": out.STRING,
    },
    "required": ["qualified_name", "kind", "path", "line"],
    "additionalProperties": False,
}
TYPE_HIERARCHY_ANSWER = out.answer(
    {
        "type": out.SYMBOL_AT,
        "ancestors": {"type": "array", "items": _RELATIVE},
        "descendants": {"type": "array", "items": _RELATIVE},
        "overrides": {
            "type": "object",
            "description": "method name -> {path -> {the override's name in its file: line}}",
            "additionalProperties": {
                "type": "object",
                "additionalProperties": {"type": "object", "additionalProperties": out.LINE},
            },
        },
        "overrides_not_listed": {**out.COUNT, "description": "overrides beyond the limit"},
        "bases_outside": {
            "type": "object",
            "properties": {"external": out.STRINGS, "unresolved": out.STRINGS},
            "additionalProperties": False,
            "description": "the type's own bases with no symbol in the index: external (named where they are) "
            "or unresolved (as written)",
        },
        "not_listed": {**out.COUNT, "description": "types reached beyond the limit"},
        **out.AMBIGUOUS,
        **out.BOUNDED,
    },
    description="a type's ancestors and descendants, or ambiguous: true with candidates",
)


@hookimpl
def codecairn_tools() -> list[Tool]:
    return [
        Tool(
            "type_hierarchy",
            "A type's ancestors and descendants (extends, implements, trait impls, Go embedding, Go interface "
            "satisfaction by method sets), transitively to a depth, with the methods descendants override.",
            {
                "type": "object",
                "properties": {
                    "name": a.name(),
                    "path": a.path("the file the type is in, when the name is ambiguous"),
                    "line": {"type": "integer", "minimum": 1},
                    "depth": {"type": "integer", "minimum": 1, "maximum": MAX_DEPTH, "default": DEFAULT_DEPTH},
                    "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT},
                },
                "required": ["name"],
                "additionalProperties": False,
            },
            type_hierarchy,
            title="Type hierarchy",
            hints=READ_ONLY,
            output_schema=TYPE_HIERARCHY_ANSWER,
        )
    ]
