"""The ``impact`` tool: what a change can break. From a git diff (the work tree against HEAD, or
two revisions) or from symbols the caller names: the changed symbols, then every symbol that
reaches them — callers, users, subclasses — transitively, grouped by file and ranked by distance,
tests among them flagged, and the resolution of every link shown."""

from __future__ import annotations

from typing import Any

from codecairn.errors import BAD_ARGUMENT, ToolError, quoted
from codecairn.hookspecs import READ_ONLY, Tool, ToolContext, hookimpl
from codecairn.model import DiffedFile, IndexedSymbol
from codecairn.tools import answers as out
from codecairn.tools import arguments as a
from codecairn.tools.shaping import line_span
from codecairn.tools.symbols import one_symbol
from codecairn.tools.trace import label, place, possible_callers, symbol_name

# What makes a symbol depend on a changed one: it calls it, uses it, extends or implements it, or
# routes to it / calls its route over HTTP.
IMPACT_KINDS = ("calls", "references", "extends", "implements", "routes_to", "http_calls")
DEFAULT_DEPTH, MAX_DEPTH = 3, 8
DEFAULT_LIMIT, MAX_LIMIT = 200, 2000  # impacted symbols listed
CHANGED_LIMIT = 200  # changed symbols walked from
WALK_SLACK = 50  # hops the walk may take beyond `limit` (those not listed: cycles, repeats, the start)
WHOLE_FILE_KINDS = frozenset({"module", "package", "namespace"})


def changed_symbols(ctx: ToolContext, change: DiffedFile) -> list[IndexedSymbol]:
    """The innermost symbols whose lines a change touched (a new file: all of its top symbols)."""
    f = ctx.file(change.path)
    if f is None:
        return []
    symbols = [s for s in ctx.symbols_in_file(f.id) if s.kind not in WHOLE_FILE_KINDS]
    if change.status == "added":
        return [s for s in symbols if s.parent_id is None or (p := ctx.symbol(s.parent_id)) is None
                or p.kind in WHOLE_FILE_KINDS]  # fmt: skip
    spans = list(change.ranges) + [(line, line) for line in change.removed_at]
    hit: dict[int, IndexedSymbol] = {}
    for first, last in spans:
        around = [s for s in symbols if s.start_line <= last and s.end_line >= first]
        enclosing = {s.parent_id for s in around}
        for s in around:
            if s.id not in enclosing:  # innermost: no other touched symbol inside it
                hit[s.id] = s
    return sorted(hit.values(), key=lambda s: (s.start_line, s.id))


IMPORTERS_LISTED = 100


def _module_spellings(path: str) -> set[str]:
    """The names a file's module may go by in imports, from its path: `src/pkg/a.py` is `pkg.a`
    (or `src.pkg.a`), `src/a.ts` is `src/a`, `org/x/Foo.java` is `org.x.Foo` — its path's last
    parts at least two deep (a lone `a` would be any module's namesake)."""
    parts = path.rsplit(".", 1)[0].split("/")
    if len(parts) > 1 and parts[-1] in ("__init__", "index", "mod"):
        parts = parts[:-1]
    return {sep.join(parts[i:]) for i in range(len(parts) - 1) for sep in (".", "/")} | {".".join(parts)}


async def importers_left(ctx: ToolContext, deleted: list[str]) -> list[dict[str, Any]]:
    """Imports in the index that name a deleted file's module or something in it, by file."""
    spellings = sorted(set().union(*(_module_spellings(p) for p in deleted)))
    found = await ctx.imports_naming(spellings, limit=IMPORTERS_LISTED * 4)
    by_file: dict[str, dict[str, Any]] = {}
    for path, line, target in found:
        if path in deleted:
            continue
        entry = by_file.setdefault(path, {"path": path, "imports": []})
        entry["imports"].append({"line": line, "name": target})
    return list(by_file.values())


async def impact(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    depth, limit = args.get("depth", DEFAULT_DEPTH), args.get("limit", DEFAULT_LIMIT)
    answer: dict[str, Any] = {}
    start: list[IndexedSymbol] = []
    if args.get("symbols"):
        if "base" in args or "head" in args:
            raise ToolError(BAD_ARGUMENT, "give symbols, or base/head for a diff, not both")
        for name in args["symbols"]:
            found = await one_symbol(ctx, name, None, None)
            if isinstance(found, dict):
                candidates = ctx.lookup(name)
                names = {s.qualified_name for s in candidates}
                if len(names) == 1:  # overloads of one method: a change to all of them
                    start.extend(candidates)
                    continue
                raise ToolError(BAD_ARGUMENT, f"{quoted(name)} is ambiguous: give a more qualified name",
                                candidates=sorted(names)[:10])  # fmt: skip
            start.append(found)
        answer["source"] = "symbols"
    else:
        base, head = args.get("base"), args.get("head")
        if head is not None and base is None:
            raise ToolError(BAD_ARGUMENT, "head needs a base: the diff is base..head")
        changes = await ctx.changes(base, head)
        answer["source"] = f"git diff {base or 'HEAD'}{'..' + head if head else ' (work tree)'}"
        files = []
        for change in changes:
            changed_file: dict[str, Any] = {"path": change.path, "status": change.status}
            if change.old_path and change.old_path != change.path:
                changed_file["old_path"] = change.old_path
            symbols = changed_symbols(ctx, change)
            if ctx.file(change.path) is None:
                changed_file["indexed"] = False  # deleted, binary, or a language codecairn does not read
            else:
                changed_file["symbols"] = len(symbols)
            files.append(changed_file)
            start.extend(symbols)
        answer["changed_files"] = files
        gone = [f["path"] for f in files if f["status"] == "deleted"]
        if gone:
            # A deleted file's symbols left the index with it, and the links to them: what still
            # imports its module is what the deletion breaks
            left = await importers_left(ctx, gone)
            if left:
                answer["still_importing"] = left[:IMPORTERS_LISTED]
                if len(left) > IMPORTERS_LISTED:
                    answer["still_importing_total"] = len(left)
        if head is not None:
            # The index holds the work tree: the commit's lines are mapped onto it (ctx.changes)
            answer["lines_from"] = f"{head}'s lines, mapped onto the work tree (the index) by git diff {head}"
    if not start:
        answer.update(changed=[], impacted=[], complete=True)
        answer["note"] = "nothing indexed was changed" if "changed_files" in answer else "no symbols"
        if "still_importing" in answer:
            answer["note"] = "deleted files took their symbols out of the index: see still_importing"
        return answer
    cut_changed = max(0, len(start) - CHANGED_LIMIT)
    start = list({s.id: s for s in start}.values())[:CHANGED_LIMIT]
    answer["changed"] = [
        {
            "qualified_name": s.qualified_name,
            "kind": s.kind,
            "path": ctx.path_of(s),
            "lines": line_span(s.start_line, s.end_line),
        }
        for s in start
    ]
    ids = {s.id for s in start}
    # The walk goes a little wider than the list: hops it takes that are not listed (the changed
    # symbols themselves, cycles, symbols reached twice) must not use up `limit`
    wider = limit + WALK_SLACK
    walk = await ctx.walk(ids, "in", IMPACT_KINDS, depth=depth, fan_out=wider, level_limit=wider)
    by_file: dict[str, dict[str, Any]] = {}
    listed = 0
    for hop in walk.hops:
        if hop.far is None or hop.seen or hop.cycle or hop.far in ids:
            continue
        sym = ctx.symbol(hop.far)
        if sym is None:
            continue
        listed += 1
        if listed > limit:
            continue
        path = ctx.path_of(sym)
        group = by_file.setdefault(path, {"path": path, "distance": hop.depth, "symbols": []})
        group["distance"] = min(group["distance"], hop.depth)
        entry: dict[str, Any] = {"qualified_name": sym.qualified_name, "line": sym.start_line, "distance": hop.depth,
                                 "uses": symbol_name(ctx, hop.near, hop.edge), "at": place(ctx, hop.edge)["line"]}  # fmt: skip
        entry.update(label(hop.edge))
        group["symbols"].append(entry)
    groups = sorted(by_file.values(), key=lambda g: (g["distance"], g["path"]))
    tests = []
    for g in groups:
        if ctx.is_test_file(g["path"]):
            g["test"] = True
            tests.append(g["path"])
    answer["impacted"] = groups
    answer["impacted_symbols"] = min(listed, limit)
    answer["tests"] = tests
    possible = await possible_callers(ctx, [start])
    answer.update(possible)
    cut = {}
    if walk.cut_fan_out:
        cut["fan_out"] = sum(walk.cut_fan_out.values())
    if walk.cut_level:
        cut["level"] = sum(walk.cut_level.values())
    if listed > limit:
        cut["limit"] = listed - limit
    if cut_changed:
        cut["changed"] = cut_changed
    answer["complete"] = not cut
    if cut:
        answer.update(limit_reached=True, limit_reason="limit", cut=cut)
    return answer


_IMPACTED = {
    "type": "object",
    "properties": {
        "qualified_name": out.STRING,
        "line": out.LINE,
        "distance": out.LINE,
        "uses": {**out.STRING, "description": "the symbol it reaches the change through"},
        "at": out.INTEGER,
        **out.EDGE_LABEL,
    },
    "required": ["qualified_name", "line", "distance", "uses", "at"],
    "additionalProperties": False,
}
IMPACT_ANSWER = out.answer(
    {
        "source": {**out.STRING, "description": "symbols, or the git diff the change came from"},
        "changed_files": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "path": out.STRING,
                    "status": out.STRING,
                    "old_path": out.STRING,
                    "indexed": out.FALSE,
                    "symbols": out.COUNT,
                },  # fmt: skip
                "required": ["path", "status"],
                "additionalProperties": False,
            },
        },
        "lines_from": out.STRING,
        "changed": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "qualified_name": out.STRING,
                    "kind": out.STRING,
                    "path": out.STRING,
                    "lines": out.LINES,
                },  # fmt: skip
                "required": ["qualified_name", "kind", "path", "lines"],
                "additionalProperties": False,
            },
        },
        "impacted": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "path": out.STRING,
                    "distance": out.LINE,
                    "test": out.TRUE,
                    "symbols": {"type": "array", "items": _IMPACTED},
                },  # fmt: skip
                "required": ["path", "distance", "symbols"],
                "additionalProperties": False,
            },
        },
        "impacted_symbols": out.COUNT,
        "tests": {**out.STRINGS, "description": "the impacted files that are tests"},
        "still_importing": {
            "type": "array",
            "description": "files whose imports name a deleted file's module or its names",
            "items": {
                "type": "object",
                "properties": {
                    "path": out.STRING,
                    "imports": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {"line": out.LINE, "name": out.STRING},
                            "required": ["line", "name"],
                            "additionalProperties": False,
                        },
                    },
                },
                "required": ["path", "imports"],
                "additionalProperties": False,
            },
        },
        "still_importing_total": out.COUNT,
        **out.POSSIBLE_CALLERS,
        "note": out.STRING,
        "cut": {**out.COUNTS, "description": "what the bounds left out: fan_out, level, limit, changed"},
        **out.BOUNDED,
    },
    ("source", "changed", "impacted", "complete"),
)


@hookimpl
def codecairn_tools() -> list[Tool]:
    return [
        Tool(
            "impact",
            "What a change can break: from a git diff (work tree vs HEAD, or base..head) or named symbols, "
            "the changed symbols and their transitive callers, users and subclasses, grouped by file and "
            "ranked by distance, tests flagged, each link's resolution shown.",
            {
                "type": "object",
                "properties": {
                    "base": a.text(200, "revision to diff against (default HEAD)"),
                    "head": a.text(200, "second revision: the diff base..head (default: the work tree)"),
                    "symbols": a.words(100, a.NAME_CHARS, "instead of a diff: these symbols changed"),
                    "depth": {"type": "integer", "minimum": 1, "maximum": MAX_DEPTH, "default": DEFAULT_DEPTH},
                    "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT},
                },
                "additionalProperties": False,
            },
            impact,
            title="Change impact",
            hints=READ_ONLY,
            output_schema=IMPACT_ANSWER,
        )
    ]
