"""Tools about files: a file's outline without reading it."""

from __future__ import annotations

from typing import Any

from codecairn.errors import BAD_ARGUMENT, NOT_FOUND, ToolError
from codecairn.hookspecs import READ_ONLY, Tool, ToolContext, hookimpl
from codecairn.model import CALLABLE_KINDS
from codecairn.tools import arguments as a

OUTLINE_LIMIT = 400  # entries (symbols, imports, exports) in one outline page


async def file_outline(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return await outline(
        ctx,
        args["path"],
        kinds=args.get("kinds"),
        start_line=args.get("start_line"),
        end_line=args.get("end_line"),
        limit=args.get("limit", OUTLINE_LIMIT),
    )


async def outline(
    ctx: ToolContext,
    path: str,
    kinds: list[str] | None = None,
    start_line: int | None = None,
    end_line: int | None = None,
    limit: int = OUTLINE_LIMIT,
) -> dict[str, Any]:
    """A file's symbol tree with its imports and exports, narrowed by kinds and a line range,
    one page of at most ``limit`` entries at a time (``next_start_line`` continues)."""
    rel = ctx.resolve_path(path)
    if start_line is not None and end_line is not None and end_line < start_line:
        raise ToolError(BAD_ARGUMENT, f"end_line {end_line} is before start_line {start_line}")
    state = ctx.file(rel)
    if state is None:
        full = ctx.root / rel
        if not full.exists():
            raise ToolError(NOT_FOUND, f"{rel} does not exist", path=rel)
        if full.is_dir():
            raise ToolError(BAD_ARGUMENT, f"{rel} is a directory; give a file", path=rel)
        raise ToolError(NOT_FOUND, f"{rel} is not indexed (unknown language, ignored, binary or too large)", path=rel)
    first, last = start_line or 1, end_line or max(state.lines, 1)
    wanted = set(kinds) if kinds else None
    symbols = [
        s
        for s in ctx.symbols_in_file(state.id)
        if first <= s.start_line <= last and (wanted is None or s.kind in wanted)
    ]
    imports = exports = []
    if wanted is None:  # a kinds filter asks for symbols only
        imports = await ctx.imports_of(state.id, first, last)
        exports = await ctx.exports_of(state.id, first, last)
    # One page: the first `limit` entries by line, ending between two lines so that the next
    # page starts at a line. A single line with more entries than a page (minified code) is
    # cut at the limit and said so (`cut_line`): narrow it with kinds.
    entries: list[tuple[int, int, int, Any]] = sorted(
        [(s.start_line, 0, n, s) for n, s in enumerate(symbols)]
        + [(r.line, 1, n, r) for n, r in enumerate(imports)]
        + [(r.line, 2, n, r) for n, r in enumerate(exports)],
        key=lambda e: e[:3],
    )
    next_line = cut_line = None
    if len(entries) > limit:
        cut = limit
        while cut > 0 and entries[cut][0] == entries[cut - 1][0]:
            cut -= 1
        if cut == 0:
            cut, cut_line = limit, entries[0][0]
        next_line = entries[cut][0] + (1 if cut_line else 0)
        page = entries[:cut]
        symbols = [e[3] for e in page if e[1] == 0]
        imports = [e[3] for e in page if e[1] == 1]
        exports = [e[3] for e in page if e[1] == 2]
    sigs = await ctx.signatures(s.id for s in symbols if s.kind in CALLABLE_KINDS)
    nodes: dict[int, dict[str, Any]] = {}
    roots: list[dict[str, Any]] = []
    for s in symbols:
        sid = s.id
        node: dict[str, Any] = {"name": s.name, "kind": s.kind, "lines": f"{s.start_line}-{s.end_line}"}
        if sid in sigs and sigs[sid]:
            node["signature"] = sigs[sid]
        nodes[sid] = node
        parent = nodes.get(s.parent_id) if s.parent_id is not None else None
        if parent is not None:
            parent.setdefault("children", []).append(node)
        else:
            roots.append(node)
    answer: dict[str, Any] = {"path": rel, "language": state.language, "lines": state.lines, "symbols": roots}
    if next_line is None:
        answer["complete"] = True
    else:
        answer.update(complete=False, limit_reached=True, limit_reason="limit", next_start_line=next_line)
        if cut_line is not None:
            answer["cut_line"] = cut_line
    if state.partial:
        answer["partial"] = True
    if state.extractor and state.extractor != state.language:
        answer["extractor"] = state.extractor
    if imports:
        answer["imports"] = [
            {k: v for k, v in zip(("module", "name", "alias", "line", "kind"), r[:5]) if v not in ("", None)}
            for r in imports
        ]
    if exports:
        answer["exports"] = [
            {k: v for k, v in zip(("name", "line", "kind", "source", "alias"), r) if v not in ("", None, 0)}
            for r in exports
        ]
    if ctx.changed_since_indexed(rel):
        answer["stale"] = True
    return answer


@hookimpl
def codecairn_tools() -> list[Tool]:
    return [
        Tool(
            "file_outline",
            "A file's symbols as a tree (kind, name, line range, signatures of callables) with its "
            "imports and exports, without reading the file. Large files come in pages: narrow by kinds "
            "or start_line/end_line; next_start_line continues.",
            {
                "type": "object",
                "properties": {
                    "path": a.path(),
                    "kinds": a.words(description="only these kinds"),
                    "start_line": {"type": "integer", "minimum": 1, "description": "symbols starting here or later"},
                    "end_line": {"type": "integer", "minimum": 1, "description": "...and up to here"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 2000, "default": 400},
                },
                "required": ["path"],
                "additionalProperties": False,
            },
            file_outline,
            title="Outline a file",
            hints=READ_ONLY,
        ),
    ]
