"""Tools about the index itself: build or refresh it (all of it, or named files), drop facts
(invalidate named files, clear everything), and say what is in it and what it saved."""

from __future__ import annotations

from typing import Any

from codecairn.errors import BAD_ARGUMENT, ToolError
from codecairn.hookspecs import READ_ONLY, Tool, ToolContext, ToolHints, hookimpl
from codecairn.model import CallTotals
from codecairn.tools import answers as out
from codecairn.tools import arguments as a

MAX_PATHS = 1000  # files named in one index / invalidate call
PATHS_SHOWN = 50  # dropped files listed in an answer

_PATHS = {"type": "array", "maxItems": MAX_PATHS, "items": a.path()}


async def index(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    paths = args.get("paths")
    if paths is not None and not paths:
        raise ToolError(BAD_ARGUMENT, "paths is empty: leave it out to refresh the whole root")
    s = await ctx.refresh(paths)
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


async def invalidate(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    given = [ctx.resolve_path(p) for p in args["paths"]]  # all confined before anything is dropped
    dropped = await ctx.invalidate(args["paths"])  # (confined again there: "." is the root, "" is not a path)
    answer: dict[str, Any] = {"invalidated": dropped.files, "symbols": dropped.symbols}
    if dropped.paths:
        answer["paths"] = dropped.paths[:PATHS_SHOWN]
        answer["complete"] = len(dropped.paths) <= PATHS_SHOWN
        if not answer["complete"]:
            answer.update(limit_reached=True, limit_reason="limit")
    unmatched = [p for p in given if not _covers(p, dropped.paths)]
    if unmatched:
        answer["not_indexed"] = unmatched[:PATHS_SHOWN]
    if dropped.files:
        answer["hint"] = (
            "their facts are gone until indexed again: index with these paths (or the watcher, on a change)"
        )
    return answer


def _covers(given: str, dropped: list[str]) -> bool:
    return given == "" or any(p == given or p.startswith(given + "/") for p in dropped)


async def clear(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    include_memories = bool(args.get("include_memories", False))
    dropped = await ctx.clear(include_memories=include_memories)
    answer: dict[str, Any] = {"cleared": True, "files": dropped.files, "symbols": dropped.symbols}
    if include_memories:
        answer["memories_forgotten"] = dropped.memories
        if dropped.notes:
            answer["notes_deleted"] = dropped.notes
    else:
        answer["memories_kept"] = (await ctx.status()).memories
    answer["hint"] = "the index is empty: run index to build it again"
    return answer


def _usage_figures(totals: CallTotals) -> dict[str, Any]:
    answered = totals.hits + totals.misses
    out: dict[str, Any] = {"hits": totals.hits, "misses": totals.misses}
    if totals.errors:
        out["errors"] = totals.errors
    if answered:
        out["hit_rate"] = round(totals.hits / answered, 3)
    out["tokens_saved"] = totals.tokens_saved
    out["tokens_used"] = totals.tokens_used
    return out


async def stats(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    usage = await ctx.usage()  # first: it waits for the records of the calls before this one
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
        "cache": {
            **_usage_figures(usage.session),
            "all_time": _usage_figures(usage.all_time) if usage.all_time is not None else "not counted in time",
            "tokenizer": usage.tokenizer,
        },
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
    if usage.log:
        answer["cache"]["metrics_log"] = usage.log
    if usage.dropped:
        answer["cache"]["metrics_dropped"] = usage.dropped
    if usage.database is not None:
        answer["cache"]["metrics_database"] = usage.database
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

INVALIDATE_ANSWER = out.open_answer(
    {"invalidated": out.COUNT, "symbols": out.COUNT, "paths": out.STRINGS, "not_indexed": out.STRINGS},
    ("invalidated",),
)
CLEAR_ANSWER = out.open_answer({"cleared": out.TRUE, "files": out.COUNT, "symbols": out.COUNT}, ("cleared",))

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
        "cache": {"type": "object", "properties": {"hits": out.COUNT, "misses": out.COUNT, "tokenizer": out.STRING}},
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
            "Index or refresh the served root (only changed files are re-parsed), or just the named "
            "paths now. Reports progress; returns counts and time.",
            {
                "type": "object",
                "properties": {"paths": {**_PATHS, "description": "refresh only these files or directories"}},
                "additionalProperties": False,
            },
            index,
            title="Refresh the index",
            hints=ToolHints(read_only=False),
            long_running=True,
            output_schema=INDEX_ANSWER,
        ),
        Tool(
            "invalidate",
            "Drop the named files' facts (a directory: every file under it) until they are indexed "
            "again (index with paths, or the watcher on a change).",
            {
                "type": "object",
                "properties": {"paths": {**_PATHS, "minItems": 1}},
                "required": ["paths"],
                "additionalProperties": False,
            },
            invalidate,
            title="Invalidate files",
            hints=ToolHints(read_only=False, destructive=True, idempotent=True),
            output_schema=INVALIDATE_ANSWER,
        ),
        Tool(
            "clear",
            "Drop the whole index of this root (index builds it again). Memories and notes are kept "
            "unless include_memories: true, which forgets them and deletes the notes file.",
            {
                "type": "object",
                "properties": {"include_memories": {"type": "boolean", "default": False}},
                "additionalProperties": False,
            },
            clear,
            title="Clear the index",
            hints=ToolHints(read_only=False, destructive=True, idempotent=True),
            output_schema=CLEAR_ANSWER,
        ),
        Tool(
            "stats",
            "What is indexed: files, symbols, edges by kind, unresolved calls, languages, "
            "index generation and time, database size; cache hits, misses and tokens saved "
            "(this session and all time).",
            {"type": "object", "properties": {}, "additionalProperties": False},
            stats,
            title="Index statistics",
            hints=READ_ONLY,
            output_schema=STATS_ANSWER,
        ),
    ]
