"""Tools about the index itself: build/refresh it, and say what is in it."""

from __future__ import annotations

from typing import Any

from codecairn.hookspecs import READ_ONLY, Tool, ToolContext, ToolHints, hookimpl
from codecairn.tools import answers as out


async def index(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    s = await ctx.refresh()
    out: dict[str, Any] = {
        "files": s.files,
        "parsed": s.parsed,
        "unchanged": s.unchanged,
        "symbols": s.symbols if s.symbols is not None else (await ctx.status()).symbols,
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
    st = await ctx.status()
    overview = st.overview
    answer: dict[str, Any] = {
        "root": st.root,
        "files": st.files,
        "symbols": st.symbols,
        "edges": overview["edges"],
        "unresolved_calls": overview["unresolved_calls"],
        "call_resolution": overview["call_resolution"],
        "languages": st.languages,
        "generation": st.generation,
        "database": st.database,
        "database_size_bytes": st.database_size_bytes,
        "cache": {"hits": st.hits, "misses": st.misses},
        **st.semantic,
        "memories": st.memories,
    }
    if st.last_indexed_at:
        answer["last_indexed_at"] = _iso(st.last_indexed_at)
    if st.partial_files:
        answer["partial_files"] = len(st.partial_files)
        answer["partial_examples"] = st.partial_files[:10]
    if st.skipped:
        answer["skipped"] = st.skipped
    if st.plugin_failures:
        answer["plugin_failures"] = st.plugin_failures
    if st.read_only:
        answer["read_only"] = st.read_only
    return answer


def _iso(ts: float) -> str:
    import datetime as dt

    return dt.datetime.fromtimestamp(ts, dt.UTC).isoformat(timespec="seconds")


INDEX_ANSWER = out.answer(
    {
        "files": out.COUNT,
        "parsed": out.COUNT,
        "unchanged": out.COUNT,
        "symbols": out.COUNT,
        "resolved_edges": out.COUNT,
        "seconds": {"type": "number", "minimum": 0},
        "deleted": out.COUNT,
        "skipped": out.COUNTS,
        "unreadable": {"anyOf": [out.COUNT, out.STRINGS, out.COUNTS]},
        "failed": {"type": "object", "additionalProperties": out.STRING},
    },
    ("files", "parsed", "seconds"),
)

STATS_ANSWER = out.open_answer(
    {
        "root": out.STRING,
        "files": out.COUNT,
        "symbols": out.COUNT,
        "edges": out.COUNTS,
        "unresolved_calls": out.COUNT,
        "languages": out.COUNTS,
        "database": out.STRING,
        "database_size_bytes": out.COUNT,
        "cache": {"type": "object", "properties": {"hits": out.COUNT, "misses": out.COUNT}},
        "last_indexed_at": out.STRING,
        "partial_files": out.COUNT,
        "partial_examples": out.STRINGS,
    },
    ("root", "files", "symbols"),
    "what is indexed; the semantic index and memories add their own fields",
)


@hookimpl
def codecairn_tools() -> list[Tool]:
    return [
        Tool(
            "index",
            "Index or refresh the served root (only changed files are re-parsed). "
            "Reports progress; returns counts and time.",
            {"type": "object", "properties": {}, "additionalProperties": False},
            index,
            title="Refresh the index",
            hints=ToolHints(read_only=False),
            long_running=True,
            output_schema=INDEX_ANSWER,
        ),
        Tool(
            "stats",
            "What is indexed: files, symbols, edges by kind, unresolved calls, languages, "
            "index generation and time, database size, cache hits/misses.",
            {"type": "object", "properties": {}, "additionalProperties": False},
            stats,
            title="Index statistics",
            hints=READ_ONLY,
            output_schema=STATS_ANSWER,
        ),
    ]
