"""Tools about files: a file's outline without reading it."""

from __future__ import annotations

from typing import Any

from codecairn.hookspecs import Tool, ToolContext, hookimpl
from codecairn.tools import arguments as a


async def file_outline(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return await ctx.workspace.answers.file_outline(
        args["path"],
        kinds=args.get("kinds"),
        start_line=args.get("start_line"),
        end_line=args.get("end_line"),
        limit=args.get("limit", 400),
    )


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
        ),
    ]
