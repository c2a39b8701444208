"""Tools that compare: two directory trees (``compare_directories``: a manifest of what was added,
removed, modified, renamed; bounded unified diffs on request) and two symbols (``compare_symbols``:
a unified diff of their bodies and what changed in their metadata — ambiguity on either side is
reported, never guessed).
"""

from __future__ import annotations

import difflib
from typing import Any

from codecairn.errors import BAD_ARGUMENT, NOT_FOUND, ToolError, quoted
from codecairn.hookspecs import READ_ONLY, Tool, ToolContext, hookimpl
from codecairn.model import IndexedSymbol, Symbol
from codecairn.tools import answers as out
from codecairn.tools import arguments as a
from codecairn.tools.shaping import LIST_LIMIT, bounded, line_span, symbols_by_path, text_blocks, tidy
from codecairn.tools.symbols import no_symbol
from codecairn.tools.written_names import written_as

SYMBOL_BYTES = 256 * 1024  # of one symbol's source compared
DIFF_CHARS = 100_000


async def compare_directories(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    limit = args.get("limit", 200)
    result = await ctx.compare_directories(
        args["left"],
        args["right"],
        diffs=args.get("include_diff", False),
        limit=limit,
        diff_bytes=args.get("max_diff_bytes", 60_000),
    )
    answer: dict[str, Any] = {"left": result.left, "right": result.right}
    groups: dict[str, list[Any]] = {"modified": [], "renamed": [], "added": [], "removed": []}
    for c in result.changes:
        if c.change == "modified":
            item: dict[str, Any] = {
                "path": c.path,
                "left_size_bytes": c.left_size_bytes,
                "right_size_bytes": c.right_size_bytes,
            }
            if c.diff:
                item["diff"] = c.diff
            if c.diff_truncated:
                item["diff_truncated"] = True
            if c.diff_note:
                item["diff_note"] = c.diff_note
            groups["modified"].append(item)
        elif c.change == "renamed":
            groups["renamed"].append({"from": c.old_path, "to": c.path})
        else:
            groups[c.change].append(c.path)
    answer.update({k: v for k, v in groups.items() if v})
    answer["unchanged"] = result.unchanged
    answer["left_files"], answer["right_files"] = result.left_files, result.right_files
    if result.complete:
        answer["complete"] = True
    else:
        answer.update(complete=False, limit_reached=True, limit_reason=result.limit_reason or "limit")
    return answer


class _Side:
    """One side of a symbol comparison: a symbol, its place, its source lines."""

    def __init__(self, path: str, qualified_name: str, kind: str, start: int, end: int, signature: str = "") -> None:
        self.path = path
        self.qualified_name = qualified_name
        self.kind = kind
        self.start = start
        self.end = end
        self.signature = signature
        self.text = ""


async def _side(ctx: ToolContext, spec: dict[str, Any], label: str) -> _Side | dict[str, Any]:
    name, path, line = spec["name"], spec.get("path"), spec.get("line")
    if path is not None and not _indexed(ctx, path):
        # Not in the index (another root, a file it skips): parsed now.
        symbols = [s for s in await ctx.parse_symbols(path) if _names(s.qualified_name, s.name, name)]
        if line is not None:
            symbols = [s for s in symbols if s.start_line <= line <= s.end_line] or symbols
        if not symbols:
            raise ToolError(NOT_FOUND, f"{label}: no symbol named {quoted(name)} in {path}")
        if len(symbols) > 1:
            return {
                "ambiguous": True,
                "candidates": {path: [_parsed_entry(s) for s in symbols[:LIST_LIMIT]]},
                **bounded(len(symbols), LIST_LIMIT),
            }
        s: Symbol = symbols[0]
        return _Side(path, s.qualified_name, s.kind, s.start_line, s.end_line, s.signature)
    found = ctx.lookup(name, path, line) or await written_as(ctx, name, path, line)
    if not found:
        missing = await no_symbol(ctx, name, path, line)
        raise ToolError(NOT_FOUND, f"{label}: {missing.message}", **missing.details)
    if len(found) > 1:
        sigs = await ctx.signatures(f.id for f in found[:LIST_LIMIT])
        return {
            "ambiguous": True,
            "candidates": symbols_by_path(ctx, found[:LIST_LIMIT], sigs),
            **bounded(len(found), LIST_LIMIT),
        }
    sym: IndexedSymbol = found[0]
    detail = (await ctx.details([sym.id])).get(sym.id)
    return _Side(
        ctx.path_of(sym), sym.qualified_name, sym.kind, sym.start_line, sym.end_line, detail.signature if detail else ""
    )


def _indexed(ctx: ToolContext, path: str) -> bool:
    if path.startswith("/") and not path.startswith(str(ctx.root) + "/"):
        return False
    try:
        return ctx.file(ctx.resolve_path(path)) is not None
    except ToolError:
        return False


def _names(qualified: str, name: str, wanted: str) -> bool:
    wanted = wanted.replace("::", ".").replace("#", ".")
    qualified = qualified.replace("::", ".")
    return wanted in (qualified, name) or qualified.endswith("." + wanted)


def _parsed_entry(s: Symbol) -> dict[str, Any]:
    """A candidate parsed now (a file the index does not hold), shaped like an indexed one in a
    file's group: its qualified name (no module is known for the file), kind, lines, signature."""
    out: dict[str, Any] = {"name": s.qualified_name, "kind": s.kind, "lines": line_span(s.start_line, s.end_line)}
    words = s.signature.split()
    if words and not (len(words) <= 3 and words[-1] == s.name):  # more than `def name`
        out["signature"] = tidy(s.signature)
    return out


async def compare_symbols(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    sides = [await _side(ctx, args["left"], "left"), await _side(ctx, args["right"], "right")]
    if any(isinstance(s, dict) for s in sides):
        answer: dict[str, Any] = {"ambiguous": True}
        for label, s in zip(("left", "right"), sides):
            if isinstance(s, dict):
                answer[f"{label}_candidates"] = s["candidates"]
                if not s.get("complete", True):
                    answer[f"{label}_candidates_complete"] = False
        answer["hint"] = "pass path and/or line on the ambiguous side; nothing was compared"
        return answer
    left, right = sides[0], sides[1]
    assert isinstance(left, _Side) and isinstance(right, _Side)
    for side in (left, right):
        window = await ctx.read_text(side.path, start_line=side.start, end_line=side.end, max_bytes=SYMBOL_BYTES)
        if window.binary:
            raise ToolError(BAD_ARGUMENT, f"{side.path} is binary")
        side.text = window.text
    answer = {
        "left": {"qualified_name": left.qualified_name, "path": left.path, "lines": line_span(left.start, left.end)},
        "right": {
            "qualified_name": right.qualified_name,
            "path": right.path,
            "lines": line_span(right.start, right.end),
        },
        "same_content": left.text == right.text,
    }
    changed: dict[str, Any] = {}
    for field, a_value, b_value in (
        ("kind", left.kind, right.kind),
        ("signature", left.signature, right.signature),
        ("line_count", left.end - left.start + 1, right.end - right.start + 1),
        ("name", left.qualified_name.rsplit(".", 1)[-1], right.qualified_name.rsplit(".", 1)[-1]),
    ):
        if a_value != b_value:
            changed[field] = [a_value, b_value]
    if changed:
        answer["changed"] = changed
    if not answer["same_content"]:
        diff = "".join(
            difflib.unified_diff(
                left.text.splitlines(keepends=True),
                right.text.splitlines(keepends=True),
                f"{left.path}:{left.start}",
                f"{right.path}:{right.start}",
                n=2,
            )
        )
        if len(diff) > DIFF_CHARS:
            diff, answer["diff_truncated"] = diff[:DIFF_CHARS], True
        answer["unified_diff"] = diff
    return answer


# ---- answers' schemas ----------------------------------------------------------------------------

MODIFIED_FILE = {
    "type": "object",
    "properties": {
        "path": out.STRING,
        "left_size_bytes": out.COUNT,
        "right_size_bytes": out.COUNT,
        "diff": {"type": "string", "description": "unified diff (include_diff)"},
        "diff_truncated": out.TRUE,
        "diff_note": {
            "type": "string",
            "description": "why there is no diff (binary, too large), or what it cannot show (line endings, a BOM)",
        },
    },
    "required": ["path", "left_size_bytes", "right_size_bytes"],
    "additionalProperties": False,
}
COMPARE_DIRECTORIES_ANSWER = out.answer(
    {
        "left": out.STRING,
        "right": out.STRING,
        "modified": {"type": "array", "items": MODIFIED_FILE},
        "renamed": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"from": out.STRING, "to": out.STRING},
                "required": ["from", "to"],
                "additionalProperties": False,
            },
        },
        "added": out.STRINGS,
        "removed": out.STRINGS,
        "unchanged": out.COUNT,
        "left_files": out.COUNT,
        "right_files": out.COUNT,
        **out.CUT,
        "complete": {"type": "boolean"},
    },
    ("left", "right", "unchanged", "left_files", "right_files", "complete"),
    "a manifest: changed files by how they changed (an empty group is left out), the unchanged counted",
)
COMPARED_SIDE = {
    "type": "object",
    "properties": {"qualified_name": out.STRING, "path": out.STRING, "lines": out.LINES},
    "required": ["qualified_name", "path", "lines"],
    "additionalProperties": False,
}
PAIR = {"type": "array", "minItems": 2, "maxItems": 2, "description": "[left, right]"}
COMPARE_SYMBOLS_ANSWER = out.answer(
    {
        "left": COMPARED_SIDE,
        "right": COMPARED_SIDE,
        "same_content": {"type": "boolean"},
        "changed": {
            "type": "object",
            "properties": {
                "kind": {**PAIR, "items": out.STRING},
                "signature": {**PAIR, "items": out.STRING},
                "line_count": {**PAIR, "items": out.COUNT},
                "name": {**PAIR, "items": out.STRING},
            },
            "additionalProperties": False,
        },
        "unified_diff": out.STRING,
        "diff_truncated": out.TRUE,
        "ambiguous": out.TRUE,
        "left_candidates": out.SYMBOLS_BY_PATH,
        "left_candidates_complete": out.FALSE,
        "right_candidates": out.SYMBOLS_BY_PATH,
        "right_candidates_complete": out.FALSE,
        "hint": out.STRING,
    },
    description="the two symbols, what changed and a unified diff; or ambiguous: true with each ambiguous "
    "side's candidates grouped by file (nothing compared)",
)


_SYMBOL_SIDE = {
    "type": "object",
    "properties": {"name": a.name(), "path": a.path("its file (any declared root)"), "line": a.count(1, 1 << 31)},
    "required": ["name"],
    "additionalProperties": False,
}


@hookimpl
def codecairn_tools() -> list[Tool]:
    return [
        Tool(
            "compare_directories",
            "Compare two directory trees in the declared roots: added, removed, modified, renamed (same content "
            "elsewhere) files and an unchanged count; unified diffs of modified text files with include_diff.",
            {
                "type": "object",
                "properties": {
                    "left": a.path(),
                    "right": a.path(),
                    "include_diff": {"type": "boolean"},
                    "max_diff_bytes": a.count(1000, 150_000, default=60_000),
                    "limit": a.count(1, 2000, default=200),
                },
                "required": ["left", "right"],
                "additionalProperties": False,
            },
            compare_directories,
            title="Compare directories",
            hints=READ_ONLY,
            output_schema=COMPARE_DIRECTORIES_ANSWER,
        ),
        Tool(
            "compare_symbols",
            "Compare two symbols (same or different files or roots): a unified diff of their bodies and what "
            "changed in kind, signature, size. Ambiguity on either side returns candidates, no diff.",
            {
                "type": "object",
                "properties": {"left": _SYMBOL_SIDE, "right": _SYMBOL_SIDE},
                "required": ["left", "right"],
                "additionalProperties": False,
            },
            compare_symbols,
            title="Compare symbols",
            hints=READ_ONLY,
            render=text_blocks("unified_diff"),
            output_schema=COMPARE_SYMBOLS_ANSWER,
        ),
    ]
