"""Tools about symbols: find them, describe one, read one's source."""

from __future__ import annotations

from typing import Any

from codecairn.hookspecs import Tool, ToolContext, hookimpl
from codecairn.tools import arguments as a

_SELECT = {
    "name": a.name("Qualified name: pkg.mod.Class.method, Class.method or Class::method"),
    "path": a.path("Only the symbol in this file"),
    "line": {"type": "integer", "minimum": 1, "description": "Only the symbol at/around this line"},
}


async def find_symbols(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return await ctx.workspace.answers.find_symbols(
        name=args.get("name"),
        pattern=args.get("pattern"),
        kinds=args.get("kinds"),
        path=args.get("path"),
        language=args.get("language"),
        limit=args.get("limit", 20),
        query=args.get("query"),
    )


async def get_symbol(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return await ctx.workspace.answers.get_symbol(args["name"], args.get("path"), args.get("line"))


async def read_symbol(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return await ctx.workspace.answers.read_symbol(
        args["name"], args.get("path"), args.get("line"), args.get("max_lines", 400)
    )


@hookimpl
def codecairn_tools() -> list[Tool]:
    return [
        Tool(
            "find_symbols",
            "Find symbols by name (case-insensitive substring; exact > prefix > substring), glob "
            "pattern, or meaning (query: natural language; fused with name when both), filtered by "
            "kinds, path prefix, language. Call before reading files.",
            {
                "type": "object",
                "properties": {
                    "name": a.name(),
                    "query": a.text(a.QUERY_CHARS, "what the code does, e.g. 'retry with backoff'"),
                    "pattern": a.GLOB,
                    "kinds": a.words(),
                    "path": a.path("path prefix"),
                    "language": a.text(a.WORD_CHARS),
                    "limit": {"type": "integer", "minimum": 1, "maximum": 500, "default": 20},
                },
                "additionalProperties": False,
            },
            find_symbols,
        ),
        Tool(
            "get_symbol",
            "One symbol's structure without reading the file: location, signature, doc, parent, members, "
            "bases/subclasses, callers/callees with resolution labels. Ambiguous names return candidates.",
            {"type": "object", "properties": dict(_SELECT), "required": ["name"], "additionalProperties": False},
            get_symbol,
        ),
        Tool(
            "read_symbol",
            "The source of one symbol, read from disk now (bounded); says if the file changed since indexing.",
            {
                "type": "object",
                "properties": {**_SELECT, "max_lines": {"type": "integer", "minimum": 1, "maximum": 2000}},
                "required": ["name"],
                "additionalProperties": False,
            },
            read_symbol,
        ),
    ]
