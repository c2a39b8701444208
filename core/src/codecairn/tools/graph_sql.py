"""``graph_schema`` and ``query_graph``: what kinds of nodes and edges the graph holds, and an
agent's own read-only SQL over documented, stable views of it (files, symbols, edges, imports,
routes) — bounded in rows and in time (enforced inside SQLite), errors naming the bad column."""

from __future__ import annotations

from typing import Any

from codecairn.hookspecs import READ_ONLY, Tool, ToolContext, hookimpl
from codecairn.tools import answers as out
from codecairn.tools import arguments as a

DEFAULT_ROWS, MAX_ROWS = 100, 1000
DEFAULT_SECONDS, MAX_SECONDS = 3.0, 10.0
SQL_CHARS = 8000


async def graph_schema(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    counts = await ctx.graph_counts()
    return {
        "node_kinds": counts["symbol_kinds"],
        "edge_kinds": counts["edge_kinds"],
        "views": ctx.graph_views(),
        "examples": ctx.graph_query_examples(),
        "hint": "query_graph runs one read-only SELECT over these views",
    }


async def query_graph(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    limit = args.get("limit", DEFAULT_ROWS)
    found = await ctx.query_graph(args["sql"], limit, args.get("seconds", DEFAULT_SECONDS))
    answer: dict[str, Any] = {"columns": found.columns, "rows": found.rows, "row_count": len(found.rows)}
    answer["complete"] = not found.more
    if found.more:
        more = "raise limit" if limit < MAX_ROWS else "page with LIMIT/OFFSET"  # (at the most, raising is no way on)
        answer.update(limit_reached=True, limit_reason=f"limit (add a WHERE, or {more})")
    if found.cut_cells:
        answer["truncated_cells"] = found.cut_cells
    answer["seconds"] = round(found.seconds, 3)
    return answer


GRAPH_SCHEMA_ANSWER = out.answer(
    {
        "node_kinds": {**out.COUNTS, "description": "symbol kind -> count"},
        "edge_kinds": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {"edges": out.COUNT, "resolved": out.COUNT, "resolution": out.COUNTS},
                "required": ["edges", "resolved", "resolution"],
                "additionalProperties": False,
            },
        },
        "views": {
            "type": "object",
            "additionalProperties": {"type": "object", "additionalProperties": out.STRING},
            "description": "view -> column -> what it holds",
        },
        "examples": out.STRINGS,
        "hint": out.STRING,
    },
    ("node_kinds", "edge_kinds", "views", "examples"),
)
QUERY_GRAPH_ANSWER = out.answer(
    {
        "columns": out.STRINGS,
        "rows": {"type": "array", "items": {"type": "array"}},
        "row_count": out.COUNT,
        "truncated_cells": {**out.COUNT, "description": "text cells cut short"},
        "seconds": {"type": "number", "minimum": 0},
        **out.BOUNDED,
    },
    ("columns", "rows", "row_count", "complete"),
)


@hookimpl
def codecairn_tools() -> list[Tool]:
    return [
        Tool(
            "graph_schema",
            "The graph's node kinds and edge kinds with counts and resolution labels, and the columns of the "
            "views query_graph reads (files, symbols, edges, imports, routes), with example queries.",
            {"type": "object", "properties": {}, "additionalProperties": False},
            graph_schema,
            title="Graph schema",
            hints=READ_ONLY,
            output_schema=GRAPH_SCHEMA_ANSWER,
        ),
        Tool(
            "query_graph",
            "One read-only SQL SELECT over the graph views files, symbols, edges, imports, routes (see "
            "graph_schema); bounded rows and time. For questions the other tools do not ask.",
            {
                "type": "object",
                "properties": {
                    "sql": a.text(SQL_CHARS, "a single SELECT (WITH ... SELECT allowed)"),
                    "limit": {"type": "integer", "minimum": 1, "maximum": MAX_ROWS, "default": DEFAULT_ROWS},
                    "seconds": {"type": "number", "minimum": 0.1, "maximum": MAX_SECONDS, "default": DEFAULT_SECONDS},
                },
                "required": ["sql"],
                "additionalProperties": False,
            },
            query_graph,
            title="Query the graph (SQL)",
            hints=READ_ONLY,
            output_schema=QUERY_GRAPH_ANSWER,
        ),
    ]
