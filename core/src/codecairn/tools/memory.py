"""Tools for what agents learn: places worth remembering (they follow the code as it moves) and
architecture decisions kept as a Markdown file in the repository."""

from __future__ import annotations

from typing import Any

from codecairn.hookspecs import READ_ONLY, Tool, ToolContext, ToolHints, hookimpl
from codecairn.model import FileChange
from codecairn.tools import answers as out
from codecairn.tools import arguments as a

_TAGS = a.TAGS


async def remember(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return await ctx.memories.remember(
        reason=args["reason"],
        path=args.get("path"),
        start_line=args.get("start_line"),
        end_line=args.get("end_line"),
        symbol=args.get("symbol"),
        tags=args.get("tags"),
        line=args.get("line"),
    )


async def recall(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return await ctx.memories.recall(
        path=args.get("path"),
        symbol=args.get("symbol"),
        query=args.get("query"),
        tags=args.get("tags"),
        limit=args.get("limit", 20),
    )


async def forget(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return await ctx.memories.forget(
        ids=args.get("ids"), path=args.get("path"), symbol=args.get("symbol"), tags=args.get("tags")
    )


async def notes(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    async def write(path: str, read_sha: str, data: bytes) -> dict[str, Any]:
        # Through the file tools, like any edit: a history entry an agent can undo, the file's
        # hash checked against what the notes were read from. The notes file already refuses
        # .git and credential files and stays in the root; a link inside the root is allowed.
        change = FileChange(path, content=data, expected_hash=read_sha or None)
        report = await ctx.write_files([change], tool="notes", acknowledge_risk=True)
        said: dict[str, Any] = {}
        if report.entry_id is not None:
            said["history_id"] = report.entry_id
        if report.history_note:
            said["history"] = report.history_note
        return said

    return await ctx.memories.notes(
        args.get("action", "outline"),
        heading=args.get("heading"),
        text=args.get("text"),
        mode=args.get("mode", "replace"),
        level=args.get("level"),
        line=args.get("line"),
        file=args.get("file"),
        write=write,
    )


MEMORY = {"type": "object", "properties": {"id": out.INTEGER, "path": out.STRING}}
REMEMBER_ANSWER = out.open_answer({"id": out.INTEGER, "path": out.STRING}, description="the memory recorded")
# Memories say complete: true when nothing was cut (the older convention, kept by the memory part).
RECALL_ANSWER = out.open_answer(
    {"memories": {"type": "array", "items": MEMORY}, **out.CUT, "complete": {"type": "boolean"}}, ("memories",)
)
FORGET_ANSWER = out.open_answer(
    {"forgotten": out.COUNT, "ids": {"type": "array", "items": out.INTEGER}}, ("forgotten",)
)
NOTES_ANSWER = out.open_answer(
    {"path": out.STRING, "headings": {"type": "array"}, "heading": out.STRING, "text": out.STRING},
    ("path",),
    "outline: headings; get: a section's text; set and delete: what changed",
)


@hookimpl
def codecairn_tools() -> list[Tool]:
    return [
        Tool(
            "remember",
            "Record a place worth coming back to, with why: path + start_line/end_line, or symbol "
            "(qualified name). It follows the code through edits, moves and renames.",
            {
                "type": "object",
                "properties": {
                    "reason": a.REASON,
                    "path": a.path(),
                    "start_line": {"type": "integer", "minimum": 1},
                    "end_line": {"type": "integer", "minimum": 1},
                    "symbol": a.name(),
                    "line": {
                        "type": "integer",
                        "minimum": 1,
                        "description": "with symbol: the one at/around this line (an overload)",
                    },
                    "tags": _TAGS,
                },
                "required": ["reason"],
                "additionalProperties": False,
            },
            remember,
            title="Remember a place",
            hints=ToolHints(read_only=False),
            output_schema=REMEMBER_ANSWER,
        ),
        Tool(
            "recall",
            "Remembered places (newest first, or filtered): where the code is now, the reason, and state "
            "current | moved | orphaned (code gone: last known place).",
            {
                "type": "object",
                "properties": {
                    "path": a.path("file or directory"),
                    "symbol": a.name("qualified name; includes its members"),
                    "query": a.text(a.QUERY_CHARS, "words matched against reasons and tags"),
                    "tags": _TAGS,
                    "limit": {"type": "integer", "minimum": 1, "maximum": 200, "default": 20},
                },
                "additionalProperties": False,
            },
            recall,
            title="Recall remembered places",
            hints=READ_ONLY,
            output_schema=RECALL_ANSWER,
        ),
        Tool(
            "forget",
            "Delete memories by ids, or all matching path/symbol/tags. Returns how many.",
            {
                "type": "object",
                "properties": {
                    "ids": {"type": "array", "maxItems": a.IDS, "items": {"type": "integer"}, "minItems": 1},
                    "path": a.path(),
                    "symbol": a.name(),
                    "tags": _TAGS,
                },
                "additionalProperties": False,
            },
            forget,
            title="Forget remembered places",
            hints=ToolHints(read_only=False, destructive=True),
            output_schema=FORGET_ANSWER,
        ),
        Tool(
            "notes",
            "Architecture decisions in a Markdown file in the repo (.codecairn/adr.md). outline: headings; "
            "get: a section (or all); set: replace/append a section's text, creating it; delete: a section. "
            "Sections are what a CommonMark reader sees; an edit that would change other sections is refused.",
            {
                "type": "object",
                "properties": {
                    "action": {"enum": ["outline", "get", "set", "delete"], "default": "outline"},
                    "heading": a.text(a.NOTES_ADDRESS_CHARS, "section heading text; 'Parent > Child' if repeated"),
                    "text": a.NOTES_TEXT,
                    "mode": {"enum": ["replace", "append"], "default": "replace"},
                    "level": {"type": "integer", "minimum": 1, "maximum": 6, "description": "for a new section"},
                    "line": {
                        "type": "integer",
                        "minimum": 1,
                        "description": "get: continue from this line; with a heading sections share: the one "
                        "holding this line",
                    },
                    "file": a.path("another Markdown file in the repo"),
                },
                "additionalProperties": False,
            },
            notes,
            title="Architecture notes",
            hints=ToolHints(read_only=False, destructive=True, idempotent=False),
            output_schema=NOTES_ANSWER,
        ),
    ]
