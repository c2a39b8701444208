"""Tools about the index itself: build/refresh it, and say what is in it."""

from __future__ import annotations

from typing import Any

from codecairn.hookspecs import Tool, ToolContext, hookimpl


async def index(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    async def progress(done: int, total: int, message: str) -> None:
        await ctx.report_progress(done, total or None, message)

    s = await ctx.workspace.index_now(progress)
    out: dict[str, Any] = {
        "files": s.files,
        "parsed": s.parsed,
        "unchanged": s.unchanged,
        "symbols": len(ctx.workspace.index),
        "resolved_edges": s.resolved_edges,
        "seconds": round(s.seconds, 3),
    }
    if s.deleted:
        out["deleted"] = s.deleted
    if s.skipped:
        out["skipped"] = s.skipped
    if s.unreadable:  # directories that could not be read: what was indexed there is kept
        out["unreadable"] = s.unreadable
    if s.failed:
        out["failed"] = dict(list(s.failed.items())[:20])
    return out


async def stats(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return await ctx.workspace.answers.stats()


@hookimpl
def codecairn_tools() -> list[Tool]:
    return [
        Tool(
            "index",
            "Index or refresh the served root (only changed files are re-parsed). "
            "Reports progress; returns counts and time.",
            {"type": "object", "properties": {}, "additionalProperties": False},
            index,
        ),
        Tool(
            "stats",
            "What is indexed: files, symbols, edges by kind, unresolved calls, languages, "
            "index generation and time, database size, cache hits/misses.",
            {"type": "object", "properties": {}, "additionalProperties": False},
            stats,
        ),
    ]
