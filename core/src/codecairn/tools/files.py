"""Tools about files: a file's outline without reading it."""

from __future__ import annotations

from typing import Any

from codecairn.hookspecs import Tool, ToolContext, hookimpl
from codecairn.tools import arguments as a


async def file_outline(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return await ctx.workspace.answers.file_outline(args["path"])


@hookimpl
def codecairn_tools() -> list[Tool]:
    return [
        Tool(
            "file_outline",
            "A file's symbols as a tree (kind, name, line range, signatures of callables) with its "
            "imports and exports, without reading the file.",
            {
                "type": "object",
                "properties": {"path": a.path()},
                "required": ["path"],
                "additionalProperties": False,
            },
            file_outline,
        ),
    ]
