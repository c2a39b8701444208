"""Tools that read files, bounded: a window of one file (``read``), several windows at once
(``read_snippets``), a file's sha256 (``file_hash``), whether a document is JSON (``validate_json``).

Text comes back as a text block — a one-line JSON header, then the text verbatim — while the
structured answer (structuredContent) carries every field, the text included.
"""

from __future__ import annotations

from typing import Any

from codecairn.errors import BAD_ARGUMENT, NOT_FOUND, ToolError
from codecairn.hookspecs import READ_ONLY, Tool, ToolContext, hookimpl
from codecairn.limits import MAX_JSON_TEXT_CHARS, MAX_SNIPPETS, MAX_WINDOW_BYTES
from codecairn.model import TextWindow
from codecairn.tools import answers as out
from codecairn.tools import arguments as a
from codecairn.tools.shaping import text_blocks

WINDOW_BYTES = 64 * 1024
SNIPPETS_BYTES = 150_000  # all snippets of one call together

_WINDOW = {
    "path": a.path(),
    "start_line": a.count(1, 1 << 31, "first line (1-based)"),
    "end_line": a.count(1, 1 << 31, "last line (inclusive)"),
    "tail": a.count(1, 1 << 31, "the last N lines"),
    "start_byte": a.count(0, 1 << 62, "a byte window from here (minified or huge lines)"),
    "max_bytes": a.count(1, MAX_WINDOW_BYTES, "text returned at most (default 65536)"),
    "json_pointer": a.text(4096, 'RFC 6901 pointer into a JSON file, e.g. "/dependencies/react"'),
}


def window_answer(w: TextWindow) -> dict[str, Any]:
    """A read as an answer: the usual fields always, the unusual ones only when they hold."""
    out: dict[str, Any] = {"path": w.path}
    if w.binary:
        out.update(binary=True, size_bytes=w.size_bytes, sha256=w.sha256)
        return out
    if w.start_line is not None:
        out["start_line"] = w.start_line
    if w.end_line is not None:
        out["end_line"] = w.end_line
    if w.start_byte is not None:
        out["start_byte"] = w.start_byte
        if w.end_byte is not None:
            out["end_byte"] = w.end_byte
    out["total_lines"] = w.total_lines
    out["size_bytes"] = w.size_bytes
    out["sha256"] = w.sha256
    if w.truncated:
        out["truncated"] = True
    if w.next_start_line is not None:
        out["next_start_line"] = w.next_start_line
    if w.line_truncated:
        out["line_truncated"] = True
    if w.next_start_byte is not None:
        out["next_start_byte"] = w.next_start_byte
    if w.bom:
        out["bom"] = True  # stripped
    if w.line_endings != "lf":
        out["line_endings"] = w.line_endings  # shown as LF
    if w.encoding not in ("utf-8", ""):
        out["encoding"] = w.encoding
    if w.no_final_newline:
        out["no_final_newline"] = True  # the text's last line is the file's, without a line break
    out["text"] = w.text
    return out


async def one_read(ctx: ToolContext, args: dict[str, Any], budget: int = WINDOW_BYTES) -> dict[str, Any]:
    path = args["path"]
    max_bytes = args.get("max_bytes", budget)
    pointer = args.get("json_pointer")
    if pointer is not None:
        others = [k for k in ("start_line", "end_line", "tail", "start_byte") if k in args]
        if others:
            raise ToolError(BAD_ARGUMENT, f"json_pointer selects on its own (not with {', '.join(others)})")
        found = await ctx.read_json(path, pointer, max_bytes)
        if not found.found:
            where = {"line": found.line, "column": found.column} if found.line else {}
            code = BAD_ARGUMENT if found.line or found.value_bytes else NOT_FOUND
            raise ToolError(code, found.problem, path=found.path, **where)
        return {
            "path": found.path,
            "json_pointer": pointer,
            "value": found.value,
            "value_bytes": found.value_bytes,
            "sha256": found.sha256,
        }
    window = await ctx.read_text(
        path,
        start_line=args.get("start_line"),
        end_line=args.get("end_line"),
        tail=args.get("tail"),
        start_byte=args.get("start_byte"),
        max_bytes=max_bytes,
    )
    return window_answer(window)


async def read(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return await one_read(ctx, args)


async def read_snippets(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    wanted = args["snippets"]
    share = max(1024, SNIPPETS_BYTES // max(1, len(wanted)))
    out = []
    for item in wanted:
        try:
            out.append(await one_read(ctx, item, min(share, WINDOW_BYTES)))
        except ToolError as exc:  # one bad snippet is its own answer, not the call's
            out.append({"path": item.get("path", ""), **exc.to_dict()})
    return {"snippets": out}


async def file_hash(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    d = await ctx.file_digest(args["path"])
    return {"path": d.path, "sha256": d.sha256, "size_bytes": d.size, "lines": d.lines}


async def validate_json(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    checked = await ctx.check_json(args.get("path"), args.get("text"))
    out: dict[str, Any] = {"valid": checked.valid}
    if checked.path:
        out["path"] = checked.path
    out["size_bytes"] = checked.size_bytes
    if not checked.valid:
        out.update(error=checked.error, line=checked.line, column=checked.column, offset=checked.offset)
    return out


# ---- answers' schemas ----------------------------------------------------------------------------

WINDOW_FIELDS: dict[str, Any] = {
    "path": out.STRING,
    "start_line": out.LINE,
    "end_line": out.COUNT,
    "start_byte": out.COUNT,
    "end_byte": out.COUNT,
    "total_lines": out.COUNT,
    "size_bytes": out.COUNT,
    "sha256": out.STRING,
    "truncated": {**out.TRUE, "description": "the range did not fit the window: next_start_line continues"},
    "next_start_line": out.LINE,
    "line_truncated": {**out.TRUE, "description": "one line longer than the window: next_start_byte continues"},
    "next_start_byte": out.COUNT,
    "bom": {**out.TRUE, "description": "the file starts with a byte order mark (stripped)"},
    "line_endings": {"enum": ["crlf", "cr", "mixed"], "description": "the file's (shown as LF)"},
    "encoding": out.STRING,
    "no_final_newline": {**out.TRUE, "description": "the file's last line (shown) has no line break"},
    "text": out.STRING,
    "binary": {**out.TRUE, "description": "binary content: never returned"},
    "json_pointer": out.STRING,
    "value": {"description": "the JSON value the pointer selects"},
    "value_bytes": out.COUNT,
}
WINDOW = {"type": "object", "properties": WINDOW_FIELDS, "required": ["path", "sha256"], "additionalProperties": False}
# A snippet that failed, in place: the error's code and message, and what it says about where.
SNIPPET_ERROR = {
    "type": "object",
    "properties": {"path": out.STRING, "error": out.STRING, "message": out.STRING},
    "required": ["error", "message"],
}

READ_ANSWER = out.answer(WINDOW_FIELDS, ("path", "sha256"), "a window of a file, a JSON value, or binary: true")
READ_SNIPPETS_ANSWER = out.answer(
    {"snippets": {"type": "array", "items": {"anyOf": [WINDOW, SNIPPET_ERROR]}}}, ("snippets",)
)
FILE_HASH_ANSWER = out.answer(
    {"path": out.STRING, "sha256": out.STRING, "size_bytes": out.COUNT, "lines": out.COUNT},
    ("path", "sha256", "size_bytes", "lines"),
)
VALIDATE_JSON_ANSWER = out.answer(
    {
        "valid": {"type": "boolean"},
        "path": out.STRING,
        "size_bytes": out.COUNT,
        "error": out.STRING,
        "line": out.LINE,
        "column": out.LINE,
        "offset": out.COUNT,
    },
    ("valid", "size_bytes"),
)


_READ_SCHEMA = {"type": "object", "properties": dict(_WINDOW), "required": ["path"], "additionalProperties": False}


@hookimpl
def codecairn_tools() -> list[Tool]:
    return [
        Tool(
            "read",
            "Read part of a file, bounded (default 64 KiB): lines start_line..end_line, the last `tail` lines, "
            "a byte window (start_byte, for minified or huge lines), or json_pointer inside a JSON file. "
            "BOM stripped, CRLF/CR shown as LF (said so); binary never returned. Reports sha256 (for edit's "
            "expected_hash) and where to continue. Any file in the declared roots.",
            _READ_SCHEMA,
            read,
            title="Read a file (bounded)",
            hints=READ_ONLY,
            render=text_blocks("text"),
            output_schema=READ_ANSWER,
        ),
        Tool(
            "read_snippets",
            "Several reads in one call (each like `read`: lines, tail, start_byte or json_pointer), each with "
            "its own continuation; a failing one is reported in place.",
            {
                "type": "object",
                "properties": {
                    "snippets": {
                        "type": "array",
                        "minItems": 1,
                        "maxItems": MAX_SNIPPETS,
                        "items": _READ_SCHEMA,
                    }
                },
                "required": ["snippets"],
                "additionalProperties": False,
            },
            read_snippets,
            title="Read several snippets",
            hints=READ_ONLY,
            render=text_blocks("text", listed="snippets"),
            output_schema=READ_SNIPPETS_ANSWER,
        ),
        Tool(
            "file_hash",
            "The sha256 of a file (streamed), its size and line count: the precondition an edit takes.",
            {"type": "object", "properties": {"path": a.path()}, "required": ["path"], "additionalProperties": False},
            file_hash,
            title="Hash a file",
            hints=READ_ONLY,
            output_schema=FILE_HASH_ANSWER,
        ),
        Tool(
            "validate_json",
            "Is a file (or a string) valid JSON? Streamed, any size; the first error's line and column.",
            {
                "type": "object",
                "properties": {"path": a.path(), "text": a.text(MAX_JSON_TEXT_CHARS)},
                "additionalProperties": False,
            },
            validate_json,
            title="Validate JSON",
            hints=READ_ONLY,
            output_schema=VALIDATE_JSON_ANSWER,
        ),
    ]
