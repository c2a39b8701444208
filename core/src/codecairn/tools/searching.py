"""Tools that find files and text: ``search_text`` (ripgrep, each match with the indexed symbol it
is in), ``find_files`` (quick-open), ``list_files`` (globs), ``project_map`` (a shallow tree with
counts, sizes and languages). All follow the index's walk rules: .gitignore, hidden files included,
generated and vendored directories left out unless named as the path.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from codecairn.hookspecs import READ_ONLY, Tool, ToolContext, hookimpl
from codecairn.model import TextSearch
from codecairn.tools import answers as out
from codecairn.tools import arguments as a
from codecairn.tools.shaping import bounded

LANGUAGES_SHOWN = 5


def _search_answer(ctx: ToolContext, found: TextSearch, max_matches: int) -> dict[str, Any]:
    files: list[dict[str, Any]] = []
    by_path: dict[str, dict[str, Any]] = {}
    for m in found.matches:
        group = by_path.get(m.path)
        if group is None:
            group = by_path[m.path] = {"path": m.path, "matches": []}
            files.append(group)
        entry: dict[str, Any] = {"line": m.line, "column": m.column, "text": m.text}
        if m.more_columns:  # the line matches more than once (an edit's expected_occurrences)
            entry["more_columns"] = list(m.more_columns)
        if m.line_truncated:
            entry["line_truncated"] = True
        if m.symbol is not None:
            entry["symbol"] = m.symbol.qualified_name
        if m.before:
            entry["before"] = list(m.before)
        if m.after:
            entry["after"] = list(m.after)
        group["matches"].append(entry)
    answer: dict[str, Any] = {"files": files, "matches": len(found.matches)}
    if found.limit_reached:
        answer.update(complete=False, limit_reached=True, limit_reason=found.limit_reason)
    elif found.timed_out:
        answer.update(complete=False, limit_reached=True, limit_reason="timeout", timed_out=True)
    else:
        answer["complete"] = True
    if found.errors:
        answer["errors"] = found.errors
    if not found.matches:
        answer["files_searched"] = found.files_searched
        answer["filters"] = found.filters
        answer["hint"] = _why_nothing(found)
    return answer


def _why_nothing(found: TextSearch) -> str:
    """What could explain a search that matched nothing, from the filters it ran with."""
    f = found.filters
    reasons = []
    if found.files_searched == 0:
        reasons.append("no file was searched: the path and include/exclude globs left none")
    else:
        size = f" ({found.bytes_searched:,} bytes)" if found.bytes_searched else ""
        reasons.append(f"{found.files_searched:,} files{size} searched, no match")
    if f.get("case") == "sensitive":
        reasons.append("case-sensitive: try case 'insensitive'")
    elif f.get("case") == "smart" and f.get("capitals"):
        reasons.append("smart case: a pattern with capitals matches case-sensitively")
    if f.get("regex_characters"):
        reasons.append("the pattern was read as a regular expression: literal: true searches for it as written")
    if f.get("word"):
        reasons.append("word: only whole words match")
    if f.get("include") or f.get("exclude"):
        reasons.append("include/exclude globs narrowed the files")
    reasons.append(
        ".gitignore'd files and generated/vendored directories (node_modules, build, dist, target, vendor, "
        "third_party...) are not searched unless named as path"
    )
    return "; ".join(reasons)


async def search_text(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    max_matches = args.get("max_matches", 100)
    found = await ctx.search_text(
        args["pattern"],
        literal=args.get("literal", False),
        case=args.get("case", "smart"),
        word=args.get("word", False),
        path=args.get("path"),
        include=args.get("include", ()),
        exclude=args.get("exclude", ()),
        context=args.get("context", 0),
        max_matches=max_matches,
    )
    return _search_answer(ctx, found, max_matches)


async def find_files(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    limit = args.get("limit", 20)
    found = await ctx.find_files(args["query"], args.get("path"), limit)
    answer: dict[str, Any] = {"files": [e.path for e in found.entries], **bounded(found.total, limit)}
    if not found.complete:
        answer["total"] = found.total
        if found.timed_out:
            answer.update(limit_reason="timeout", timed_out=True)
    return answer


async def list_files(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    limit = args.get("limit", 200)
    found = await ctx.list_files(args.get("path"), args.get("include", ()), args.get("exclude", ()), limit)
    answer: dict[str, Any] = {"files": [e.path for e in found.entries], "total": found.total}
    answer.update(bounded(found.total, limit))
    if found.timed_out:
        answer.update(complete=False, limit_reached=True, limit_reason="timeout", timed_out=True)
    return answer


async def project_map(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    depth = args.get("depth", 2)
    limit = args.get("limit", 100)
    scope = args.get("path")
    found = await ctx.list_files(scope, (), (), 1 << 30, sizes=True)
    prefix = found.base + "/" if found.base else ""
    tree = _Node("")
    for entry in found.entries:
        rel = entry.path.removeprefix(prefix)
        parts = rel.split("/")[:-1]
        node = tree
        node.add(entry.size_bytes, entry.language)
        for part in parts[:depth]:
            node = node.child(part)
            node.add(entry.size_bytes, entry.language)
    shown = [0]
    answer: dict[str, Any] = {"path": found.base or "."}
    answer.update(tree.shape(depth, limit, shown, top=True))
    answer.update(bounded(tree.dir_count(depth), limit))
    if found.timed_out:
        answer.update(complete=False, limit_reached=True, limit_reason="timeout", timed_out=True)
    return answer


class _Node:
    def __init__(self, name: str) -> None:
        self.name = name
        self.files = 0
        self.size = 0
        self.languages: Counter[str] = Counter()
        self.children: dict[str, _Node] = {}

    def add(self, size: int, language: str) -> None:
        self.files += 1
        self.size += size
        if language:
            self.languages[language] += 1

    def child(self, name: str) -> _Node:
        node = self.children.get(name)
        if node is None:
            node = self.children[name] = _Node(name)
        return node

    def dir_count(self, depth: int) -> int:
        if depth <= 0:
            return 0
        return sum(1 + c.dir_count(depth - 1) for c in self.children.values())

    def shape(self, depth: int, limit: int, shown: list[int], top: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {} if top else {"name": self.name}
        out["files"] = self.files
        out["size_bytes"] = self.size
        if self.languages:
            out["languages"] = dict(self.languages.most_common(LANGUAGES_SHOWN))
        if depth > 0 and self.children:
            children = sorted(self.children.values(), key=lambda c: (-c.files, c.name))
            dirs: list[dict[str, Any]] = []
            for child in children:
                if shown[0] >= limit:
                    out["more_dirs"] = len(children) - len(dirs)
                    break
                shown[0] += 1
                dirs.append(child.shape(depth - 1, limit, shown))
            out["dirs"] = dirs
        elif self.children:
            out["dirs_below"] = len(self.children)
        return out


# ---- answers' schemas ----------------------------------------------------------------------------

# Answers that always say whether they are complete (a search an agent may repeat wider).
SAID_COMPLETE: dict[str, Any] = {**out.CUT, "complete": {"type": "boolean"}, "timed_out": out.TRUE}

TEXT_MATCH = {
    "type": "object",
    "properties": {
        "line": out.LINE,
        "column": out.LINE,
        "text": {"type": "string", "description": "the matched line (cut around the match when long)"},
        "more_columns": {
            "type": "array",
            "items": out.LINE,
            "description": "where the line's other matches start (at most 20)",
        },
        "line_truncated": out.TRUE,
        "symbol": {"type": "string", "description": "the indexed symbol the line is in"},
        "before": out.STRINGS,
        "after": out.STRINGS,
    },
    "required": ["line", "column", "text"],
    "additionalProperties": False,
}
SEARCH_TEXT_ANSWER = out.answer(
    {
        "files": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"path": out.STRING, "matches": {"type": "array", "items": TEXT_MATCH}},
                "required": ["path", "matches"],
                "additionalProperties": False,
            },
        },
        "matches": {**out.COUNT, "description": "matched lines in all"},
        **SAID_COMPLETE,
        "errors": {**out.STRINGS, "description": "what ripgrep could not read (the first few)"},
        "files_searched": out.COUNT,
        "filters": {"type": "object", "description": "what narrowed a search that matched nothing"},
        "hint": out.STRING,
    },
    ("files", "matches", "complete"),
    "matches grouped by file; zero matches say which filters could explain it",
)
FILE_LIST_ANSWER = out.answer(
    {"files": out.STRINGS, "total": out.COUNT, **out.CUT, "timed_out": out.TRUE},
    ("files",),
)
MAP_NODE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": out.STRING,
        "files": out.COUNT,
        "size_bytes": out.COUNT,
        "languages": {**out.COUNTS, "description": "files by language, the most common first"},
        "dirs": {"type": "array", "items": {"$ref": "#/$defs/dir"}},
        "more_dirs": {**out.COUNT, "description": "subdirectories left out (the limit)"},
        "dirs_below": {**out.COUNT, "description": "subdirectories deeper than depth"},
    },
    "required": ["name", "files", "size_bytes"],
    "additionalProperties": False,
}
PROJECT_MAP_ANSWER = {
    **out.answer(
        {
            **{k: v for k, v in MAP_NODE["properties"].items() if k != "name"},
            "path": out.STRING,
            **out.CUT,
            "timed_out": out.TRUE,
        },
        ("path", "files", "size_bytes"),
    ),
    "$defs": {"dir": MAP_NODE},
}


_GLOBS = {"include": a.GLOBS, "exclude": a.GLOBS}


@hookimpl
def codecairn_tools() -> list[Tool]:
    return [
        Tool(
            "search_text",
            "Search file contents with ripgrep: regex (or literal), case sensitive/insensitive/smart, whole "
            "words, path scope, include/exclude globs, context lines. Matches grouped by file, each with the "
            "indexed symbol it is in. Stops at max_matches (default 100) or 15 s and says so; no match says "
            "which filters could explain it. .gitignore'd and generated/vendored dirs skipped unless named as path.",
            {
                "type": "object",
                "properties": {
                    "pattern": a.PATTERN,
                    "literal": {"type": "boolean", "description": "search the pattern as written, not as a regex"},
                    "case": {"enum": ["smart", "sensitive", "insensitive"], "default": "smart"},
                    "word": {"type": "boolean", "description": "whole words only"},
                    "path": a.path("a directory or file to search (default: every declared root)"),
                    **_GLOBS,
                    "context": a.count(0, 10, "lines before and after each match"),
                    "max_matches": a.count(1, 500, default=100),
                },
                "required": ["pattern"],
                "additionalProperties": False,
            },
            search_text,
            title="Search text",
            hints=READ_ONLY,
            output_schema=SEARCH_TEXT_ANSWER,
        ),
        Tool(
            "find_files",
            "Find files by a few letters of their name, ranked like an editor's quick-open "
            "('usrctl' finds UserController.java; words must all match; a word with '/' matches the path).",
            {
                "type": "object",
                "properties": {
                    "query": a.text(a.WORD_CHARS * 4),
                    "path": a.path("only under this directory"),
                    "limit": a.count(1, 200, default=20),
                },
                "required": ["query"],
                "additionalProperties": False,
            },
            find_files,
            title="Find files by name",
            hints=READ_ONLY,
            output_schema=FILE_LIST_ANSWER,
        ),
        Tool(
            "list_files",
            "List files (sorted) under a path, filtered by include/exclude globs.",
            {
                "type": "object",
                "properties": {"path": a.path(), **_GLOBS, "limit": a.count(1, 2000, default=200)},
                "additionalProperties": False,
            },
            list_files,
            title="List files",
            hints=READ_ONLY,
            output_schema=FILE_LIST_ANSWER,
        ),
        Tool(
            "project_map",
            "A shallow map of a directory: per subdirectory, files, size and languages, biggest first "
            "(depth default 2, at most `limit` directories).",
            {
                "type": "object",
                "properties": {
                    "path": a.path(),
                    "depth": a.count(1, 6, default=2),
                    "limit": a.count(1, 500, default=100),
                },
                "additionalProperties": False,
            },
            project_map,
            title="Map the project",
            hints=READ_ONLY,
            output_schema=PROJECT_MAP_ANSWER,
        ),
    ]
