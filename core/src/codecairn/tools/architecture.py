"""The ``architecture`` tool: one call that orients an agent in an unknown repository — languages
and sizes, packages and the dependencies between them, entry points, hotspots, cycles between
packages, and a repository map of the symbols the code relies on most (personalised PageRank,
seeded by the files or symbols the caller names), packed into the caller's token budget."""

from __future__ import annotations

from typing import Any

from codecairn.errors import BAD_ARGUMENT, ToolError, quoted
from codecairn.hookspecs import READ_ONLY, Tool, ToolContext, hookimpl
from codecairn.model import IndexedSymbol, PackageDependency
from codecairn.tools import answers as out
from codecairn.tools import arguments as a

DEFAULT_BUDGET, MAX_BUDGET = 1024, 16384  # tokens of the repository map
# The longest a call waits for the background preparation (after an index run) before it is
# told how far that is.
PREPARE_WAIT = 5.0
PACKAGES_SHOWN, DEPENDENCIES_SHOWN, ENTRY_POINTS_SHOWN, HOTSPOTS_SHOWN = 40, 60, 15, 8


def _short(ctx: ToolContext, s: IndexedSymbol) -> dict[str, Any]:
    return {"qualified_name": s.qualified_name, "path": ctx.path_of(s), "line": s.start_line}


def weight(dep: PackageDependency) -> int:
    return sum(dep.counts.values())


async def repository_map(
    ctx: ToolContext, budget: int, seed_files: list[str], seed_symbols: list[int]
) -> dict[str, Any]:
    found = await ctx.repository_map(seed_files, seed_symbols, budget)
    return {"map": found.text, "map_symbols": found.symbols, "map_tokens": found.tokens,
            "token_counter": found.counter}  # fmt: skip


async def architecture(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    budget = args.get("budget", DEFAULT_BUDGET)
    # The default answer may have been prepared (or saved) already; any other needs the facts too.
    custom = bool(args.get("files") or args.get("symbols")) or budget != DEFAULT_BUDGET or "depth" in args
    preparing = await ctx.graph_preparing(PREPARE_WAIT, facts=custom)
    if preparing is not None:  # never a long silent wait: how far it is, and when to ask again
        return {
            "preparing": True,
            "progress": preparing,
            "complete": False,
            "note": "the architecture of this index generation is being prepared in the background "
            f"({preparing['seconds']} s so far); ask again in a few seconds",
        }
    seed_files = [ctx.resolve_path(p) for p in args.get("files", [])]
    for p in seed_files:
        if ctx.file(p) is None and not any(f.path.startswith(p.rstrip("/") + "/") for f in ctx.files()):
            raise ToolError(BAD_ARGUMENT, f"{quoted(p)} is not an indexed file or directory")
    seed_files = [f.path for f in ctx.files() if any(f.path == p or f.path.startswith(p.rstrip("/") + "/")
                                                       for p in seed_files)]  # fmt: skip
    seed_symbols: list[int] = []
    for name in args.get("symbols", []):
        found = ctx.lookup(name)
        if not found:
            raise ToolError(BAD_ARGUMENT, f"no symbol named {quoted(name)}")
        seed_symbols.extend(s.id for s in found[:5])
    files = ctx.files()
    languages: dict[str, dict[str, int]] = {}
    for f in files:
        entry = languages.setdefault(f.language, {"files": 0, "lines": 0})
        entry["files"] += 1
        entry["lines"] += f.lines
    packages, depth = await ctx.packages(args.get("depth"))
    packages.sort(key=lambda p: (-p.lines, p.name))
    deps = await ctx.package_dependencies(depth)
    answer: dict[str, Any] = {
        "files": len(files),
        "lines": sum(f.lines for f in files),
        "languages": dict(sorted(languages.items(), key=lambda kv: -kv[1]["lines"])),
        "package_depth": depth if depth is not None else "directory",
        "packages": [
            {
                "name": p.name,
                "files": p.files,
                "lines": p.lines,
                "symbols": p.symbols,
                **({"tests": True} if p.tests else {}),
            }  # fmt: skip
            for p in packages[:PACKAGES_SHOWN]
        ],
    }
    if len(packages) > PACKAGES_SHOWN:
        answer["packages_total"] = len(packages)
    deps.sort(key=lambda d: (-weight(d), d.source, d.target))
    answer["dependencies"] = [{"from": d.source, "to": d.target, **d.counts} for d in deps[:DEPENDENCIES_SHOWN]]
    if len(deps) > DEPENDENCIES_SHOWN:
        answer["dependencies_total"] = len(deps)
    found_cycles = await ctx.package_cycles(depth)
    if found_cycles:
        answer["cycles"] = found_cycles
    entries = await ctx.entry_points()
    points: dict[str, Any] = {}
    for key in ("main", "cli"):
        if entries[key]:
            points[key] = [_short(ctx, s) for s in entries[key][:ENTRY_POINTS_SHOWN]]
    if entries["routes"]:
        points["routes"] = [{"route": s.name, "path": ctx.path_of(s), "line": s.start_line}
                            for s in entries["routes"][:ENTRY_POINTS_SHOWN]]  # fmt: skip
        points["routes_total"] = len(entries["routes"])
    answer["entry_points"] = points
    spots = await ctx.hotspots(HOTSPOTS_SHOWN)
    answer["hotspots"] = {
        key: [{**_short(ctx, s), key if key != "size" else "lines": n} for s, n in found]
        for key, found in spots.items()
        if found
    }
    answer.update(await repository_map(ctx, budget, seed_files, seed_symbols))
    answer["complete"] = len(packages) <= PACKAGES_SHOWN and len(deps) <= DEPENDENCIES_SHOWN
    if not answer["complete"]:
        answer.update(limit_reached=True, limit_reason="packages or dependencies shown (narrow with depth)")
    return answer


_AT: dict[str, Any] = {"type": "object", "properties": {"qualified_name": out.STRING, "path": out.STRING, "line": out.LINE},
                           "required": ["qualified_name", "path", "line"], "additionalProperties": False}  # fmt: skip


def _ranked(measure: str) -> dict[str, Any]:
    return {"type": "array", "items": {**_AT, "properties": {**_AT["properties"], measure: out.COUNT}}}


ARCHITECTURE_ANSWER = out.answer(
    {
        "preparing": {**out.TRUE, "description": "still being prepared: progress says how far; ask again"},
        "progress": {
            "type": "object",
            "properties": {"phase": out.STRING, "seconds": {"type": "number"}},
            "required": ["seconds"],
        },
        "note": out.STRING,
        "files": out.COUNT,
        "lines": out.COUNT,
        "languages": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {"files": out.COUNT, "lines": out.COUNT},
                "additionalProperties": False,
            },
        },
        "package_depth": {"anyOf": [out.LINE, {"const": "directory"}]},
        "packages": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "name": out.STRING,
                    "files": out.COUNT,
                    "lines": out.COUNT,
                    "symbols": out.COUNT,
                    "tests": out.TRUE,
                },  # fmt: skip
                "required": ["name", "files", "lines", "symbols"],
                "additionalProperties": False,
            },
        },
        "packages_total": out.COUNT,
        "dependencies": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"from": out.STRING, "to": out.STRING},
                "required": ["from", "to"],
                "additionalProperties": out.COUNT,
                "description": "from, to, and a count per kind of link (imports, calls...)",
            },
        },
        "dependencies_total": out.COUNT,
        "cycles": {"type": "array", "items": out.STRINGS},
        "entry_points": {
            "type": "object",
            "properties": {
                "main": {"type": "array", "items": _AT},
                "cli": {"type": "array", "items": _AT},
                "routes": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"route": out.STRING, "path": out.STRING, "line": out.LINE},
                        "required": ["route", "path", "line"],
                        "additionalProperties": False,
                    },
                },
                "routes_total": out.COUNT,
            },
            "additionalProperties": False,
        },
        "hotspots": {
            "type": "object",
            "properties": {"fan_in": _ranked("fan_in"), "fan_out": _ranked("fan_out"), "size": _ranked("lines")},
            "additionalProperties": False,
        },
        "map": {**out.STRING, "description": "the repository map, fitted to budget tokens"},
        "map_symbols": out.COUNT,
        "map_tokens": out.COUNT,
        "token_counter": out.STRING,
        **out.BOUNDED,
    },
    ("complete",),
    description="the repository's orientation, or preparing: true with progress while it is prepared",
)


@hookimpl
def codecairn_tools() -> list[Tool]:
    return [
        Tool(
            "architecture",
            "Orientation in one call: languages and sizes, packages and their dependencies (imports and calls), "
            "entry points (main, CLI commands, HTTP routes), hotspots (fan-in, fan-out, size), package cycles, "
            "and a repository map ranked by PageRank from the files/symbols you name, fitted to `budget` tokens.",
            {
                "type": "object",
                "properties": {
                    "files": a.words(50, a.NAME_CHARS, "seed the map with these files or directories"),
                    "symbols": a.words(50, a.NAME_CHARS, "seed the map with these symbols"),
                    "budget": {
                        "type": "integer",
                        "minimum": 64,
                        "maximum": MAX_BUDGET,
                        "default": DEFAULT_BUDGET,
                        "description": "tokens for the repository map",
                    },  # fmt: skip
                    "depth": {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": 12,
                        "description": "directory levels a package spans (default: chosen so they are few)",
                    },  # fmt: skip
                },
                "additionalProperties": False,
            },
            architecture,
            title="Repository architecture",
            hints=READ_ONLY,
            output_schema=ARCHITECTURE_ANSWER,
            warm=True,  # its default answer is prepared after every index run
        )
    ]
