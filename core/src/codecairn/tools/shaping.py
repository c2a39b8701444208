"""How built-in tools shape what the tool API returns into answers: compact, root-relative,
bounded, honest. Every bounded list says ``complete``; when cut, ``limit_reached`` and
``limit_reason`` too. (Not a plugin: the tool modules beside it are.)"""

from __future__ import annotations

import json
from typing import Any

from codecairn.hookspecs import ToolContext
from codecairn.model import Edge, IndexedSymbol

LIST_LIMIT = 50  # entries of a nested list (members, callers...) before it is cut


def bounded(count: int, limit: int, reason: str = "limit") -> dict[str, Any]:
    if count > limit:
        return {"complete": False, "limit_reached": True, "limit_reason": reason}
    return {"complete": True}


def brief(ctx: ToolContext, sym: IndexedSymbol, signature: str | None = None) -> dict[str, Any]:
    """A symbol in a list: what it is and where."""
    out: dict[str, Any] = {
        "name": sym.name,
        "kind": sym.kind,
        "qualified_name": sym.qualified_name,
        "path": ctx.path_of(sym),
        "start_line": sym.start_line,
        "end_line": sym.end_line,
    }
    if signature:
        out["signature"] = signature
    f = ctx.file_by_id(sym.file_id)
    if f is not None and f.extractor == "tags":
        out["extractor"] = "tags"  # a grammar pack's facts: shallower resolution, say so
    return out


def short(ctx: ToolContext, sym: IndexedSymbol) -> dict[str, Any]:
    """A symbol named in another's answer (a base, a callee): its name and place."""
    return {"qualified_name": sym.qualified_name, "path": ctx.path_of(sym), "line": sym.start_line}


def edge_target(ctx: ToolContext, edge: Edge) -> dict[str, Any]:
    """Where an edge leads: the resolved symbol (with how it was resolved, unless exact), or the
    name as written and ``resolved: false``."""
    out: dict[str, Any] = {}
    if edge.kind not in ("calls", "extends"):
        out["kind"] = edge.kind
    target = ctx.symbol(edge.target_id) if edge.target_id is not None else None
    if target is not None:
        out.update(short(ctx, target))
        if edge.resolution != "exact":
            out["resolution"] = edge.resolution
    else:
        out["name"] = edge.target
        out["resolved"] = False
    if edge.kind == "calls":
        out["call_line"] = edge.line
        out.pop("line", None)
    return out


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def text_block(answer: dict[str, Any], field: str) -> str:
    """One answer as a text block: its other fields as one JSON line (the header), then ``field``'s
    text verbatim — an agent pays for the code, not for quoting it in a JSON string."""
    if not isinstance(answer.get(field), str):
        return compact(answer)
    head = {k: v for k, v in answer.items() if k != field}
    return compact(head) + "\n" + answer[field]


def text_blocks(field: str, listed: str | None = None):
    """A Tool.render: the answer as ``text_block(answer, field)``; with ``listed``, the answer's
    other fields first, then one block per entry of its ``listed`` list."""

    def render(answer: dict[str, Any]) -> list[str]:
        if listed is None or not isinstance(answer.get(listed), list):
            return [text_block(answer, field)]
        head = {k: v for k, v in answer.items() if k != listed}
        return [compact(head), *(text_block(entry, field) for entry in answer[listed])]

    return render
