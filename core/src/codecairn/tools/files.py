"""Tools about files: a file's outline without reading it."""

from __future__ import annotations

import bisect
import re
from typing import Any

from codecairn.errors import BAD_ARGUMENT, NOT_FOUND, ToolError, quoted
from codecairn.hookspecs import READ_ONLY, Tool, ToolContext, hookimpl
from codecairn.model import CALLABLE_KINDS, DATA_KINDS, TYPE_KINDS, IndexedSymbol
from codecairn.query.names import check_kinds
from codecairn.tools import answers as out
from codecairn.tools import arguments as a
from codecairn.tools.shaping import line_span, says_more_than_its_name, tidy

OUTLINE_LIMIT = 400  # entries (symbols, imports, exports) in one outline page


DETAILS = ("names", "signatures", "full")


async def file_outline(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return await outline(
        ctx,
        args["path"],
        kinds=args.get("kinds"),
        start_line=args.get("start_line"),
        end_line=args.get("end_line"),
        limit=args.get("limit", OUTLINE_LIMIT),
        detail=args.get("detail", "signatures"),
    )


async def outline(
    ctx: ToolContext,
    path: str,
    kinds: list[str] | None = None,
    start_line: int | None = None,
    end_line: int | None = None,
    limit: int = OUTLINE_LIMIT,
    detail: str = "signatures",
) -> dict[str, Any]:
    """A file's symbol tree with its imports and exports, narrowed by kinds and a line range,
    one page of at most ``limit`` entries at a time (``next_start_line`` continues).

    ``detail``: ``names`` (kinds, names, line ranges), ``signatures`` (and callables'
    signatures; no locals, no fields a method body sets, no node for the file's own module: they
    are counted in ``hidden``), ``full`` (every symbol, every signature)."""
    if detail not in DETAILS:
        raise ToolError(BAD_ARGUMENT, f"detail must be one of {', '.join(DETAILS)}, not {quoted(detail)}")
    if kinds:
        check_kinds(kinds, ctx.symbol_kinds())
    rel = ctx.resolve_path(path)
    if start_line is not None and end_line is not None and end_line < start_line:
        raise ToolError(BAD_ARGUMENT, f"end_line {end_line} is before start_line {start_line}")
    state = ctx.file(rel)
    if state is None:
        full = ctx.root / rel
        if not full.exists():
            raise ToolError(NOT_FOUND, f"{rel} does not exist", path=rel)
        if full.is_dir():
            raise ToolError(BAD_ARGUMENT, f"{rel} is a directory; give a file", path=rel)
        raise ToolError(NOT_FOUND, _why_not_indexed(ctx, rel), path=rel)
    first, last = start_line or 1, end_line or max(state.lines, 1)
    wanted = set(kinds) if kinds else None
    in_file = ctx.symbols_in_file(state.id)
    by_id = {s.id: s for s in in_file}
    hidden: dict[str, int] = {}
    if detail != "full":
        in_file, hidden = _without_details(in_file, wanted)
    symbols = [s for s in in_file if first <= s.start_line <= last and (wanted is None or s.kind in wanted)]
    imports = exports = []
    if wanted is None:  # a kinds filter asks for symbols only
        # (an import of no module is the file's own name made available under another — JavaScript's
        # `export { _instanceof as instanceof }`, which the exports show)
        imports = [i for i in await ctx.imports_of(state.id, first, last) if i.module]
        exports = await ctx.exports_of(state.id, first, last)
    # One page: the first `limit` symbols by line, with the imports and exports among them (at most
    # IMPORTS_PER_SYMBOL times as many: a file of imports alone is paged too), ending between two
    # lines so that the next page starts at a line. A single line with more entries than a page
    # (minified code) is cut at the limit and said so (`cut_line`): narrow it with kinds.
    entries: list[tuple[int, int, int, Any]] = sorted(
        [(s.start_line, 0, n, s) for n, s in enumerate(symbols)]
        + [(r.line, 1, n, r) for n, r in enumerate(imports)]
        + [(r.line, 2, n, r) for n, r in enumerate(exports)],
        key=lambda e: e[:3],
    )
    next_line = cut_line = None
    cut, counted = len(entries), 0
    for n, entry in enumerate(entries):
        if (entry[1] == 0 and counted == limit) or n == limit * IMPORTS_PER_SYMBOL:
            cut = n
            break
        counted += entry[1] == 0
    if cut < len(entries):
        full_page = cut
        while cut > 0 and entries[cut][0] == entries[cut - 1][0]:
            cut -= 1
        if cut == 0:
            cut, cut_line = full_page, entries[0][0]
        next_line = entries[cut][0] + (1 if cut_line else 0)
        page = entries[:cut]
        symbols = [e[3] for e in page if e[1] == 0]
        imports = [e[3] for e in page if e[1] == 1]
        exports = [e[3] for e in page if e[1] == 2]
    wanted_sigs = [] if detail == "names" else [s.id for s in symbols if detail == "full" or s.kind in SIGNED_KINDS]
    sigs = await ctx.signatures(wanted_sigs)
    # The tree, each level grouped by kind: {"class": [{"name", "lines", "signature", "members": {...}}]}.
    # Below "full" a node's name is left out when its signature shows it.
    nodes: dict[int, dict[str, Any]] = {}
    roots: dict[str, list[dict[str, Any]]] = {}
    for s in symbols:
        node: dict[str, Any] = {"name": s.name, "lines": line_span(s.start_line, s.end_line)}
        signature = sigs.get(s.id)
        if signature and detail == "full":
            node["signature"] = signature
        elif signature and says_more_than_its_name(signature, s):
            node["signature"] = tidy(signature)
            if s.name in node["signature"]:
                del node["name"]
        nodes[s.id] = node
        parent = nodes.get(s.parent_id) if s.parent_id is not None else None
        if parent is None and wanted is not None and (around := _enclosing(by_id, s)):
            node["in"] = around  # `kinds: ["method"]`: whose method, the class itself not being listed
        level = parent.setdefault("members", {}) if parent is not None else roots
        level.setdefault(s.kind, []).append(node)
    answer: dict[str, Any] = {"path": rel, "language": state.language, "lines": state.lines, "symbols": roots}
    if next_line is not None:
        answer.update(complete=False, limit_reached=True, limit_reason="limit", next_start_line=next_line)
        if cut_line is not None:
            answer["cut_line"] = cut_line
    if hidden:
        answer["hidden"] = hidden
    if state.partial:
        answer["partial"] = True
    if state.extractor and state.extractor != state.language:
        answer["extractor"] = state.extractor
    if imports:
        answer["imports"] = _import_statements(imports) if detail == "full" else _imported_names(imports)
    if exports:
        answer["exports"] = _exports(exports)
    if ctx.changed_since_indexed(rel):
        answer["stale"] = True
    return answer


def _why_not_indexed(ctx: ToolContext, rel: str) -> str:
    """What a file that exists but is not in the index may be: one no language plugin reads, or
    one the index has not (yet) taken — new, invalidated, ignored, too large."""
    name = rel.rpartition("/")[2]
    dot = name.rfind(".")
    suffix = name[dot:].lower() if dot > 0 else None
    if not any(suffix in lang.extensions or name in lang.filenames for lang in ctx.languages.values()):
        return f"{rel} is not indexed: no installed language plugin reads it"
    return (
        f"{rel} is not indexed: new or invalidated since the last index run (index it: paths [{quoted(rel)}]), "
        "or ignored (.gitignore, configuration), binary or too large"
    )


def _enclosing(by_id: dict[int, IndexedSymbol], symbol: IndexedSymbol) -> str:
    """The names of the symbols around ``symbol`` in its file, outermost first (``Outer.Inner``);
    the file's own module is the file itself, not named."""
    names: list[str] = []
    around = by_id.get(symbol.parent_id) if symbol.parent_id is not None else None
    while around is not None and around.kind != "module":
        names.append(around.name)
        around = by_id.get(around.parent_id) if around.parent_id is not None else None
    return ".".join(reversed(names))


# A page's imports and exports ride along with its symbols, up to this many entries per symbol
# the page may list (`limit` counts symbols: the imports at the top of a file used to fill a page).
IMPORTS_PER_SYMBOL = 4

# Kinds whose signature an outline shows at "signatures": callables, and types (their bases).
SIGNED_KINDS = CALLABLE_KINDS | TYPE_KINDS


def _without_details(
    symbols: list[IndexedSymbol], wanted: set[str] | None
) -> tuple[list[IndexedSymbol], dict[str, int]]:
    """The symbols an outline below ``full`` shows, and how many of each hidden sort it leaves out:
    ``module`` (the file's own module: the file itself), ``locals`` (a function body's
    variables), ``fields set in methods`` (Python's ``self.x = ...``). A kinds filter that asks
    for a hidden kind gets it."""
    by_id = {s.id: s for s in symbols}
    callables: dict[int | None, list[IndexedSymbol]] = {}
    for s in symbols:
        if s.kind in CALLABLE_KINDS:
            callables.setdefault(s.parent_id, []).append(s)
    starts = {parent: [c.start_line for c in cs] for parent, cs in callables.items()}
    kept: list[IndexedSymbol] = []
    hidden: dict[str, int] = {}
    gone: set[int] = set()
    for s in symbols:
        why = None
        if s.parent_id in gone:
            why = "locals"  # inside a hidden symbol
        elif s.kind == "module" and s.parent_id is None:
            why = "module"
        elif s.kind in DATA_KINDS:
            parent = by_id.get(s.parent_id) if s.parent_id is not None else None
            if parent is not None and parent.kind in CALLABLE_KINDS:
                why = "locals"
            else:
                siblings = callables.get(s.parent_id, [])
                at = bisect.bisect_left(starts.get(s.parent_id, []), s.start_line) - 1
                if at >= 0 and siblings[at].start_line < s.start_line <= siblings[at].end_line:
                    why = "fields set in methods"
        if why is not None and not (wanted and s.kind in wanted):
            hidden[why] = hidden.get(why, 0) + 1
            if why != "module":  # a module's members stand at the top of the outline instead
                gone.add(s.id)
        else:
            kept.append(s)
    hidden.pop("module", None)  # the file is the module: nothing an agent misses
    return kept, hidden


_MAJOR_VERSION = re.compile(r"v[0-9]+")
_IDENTIFIER_HEAD = re.compile(r"[A-Za-z_][0-9A-Za-z_]*")


def binds_by_default(module: str, alias: str) -> bool:
    """Is ``alias`` the name importing ``module`` binds anyway, so that showing it says nothing?
    Python's ``os.path`` binds ``path`` (as ``from os import path``); Go's ``encoding/json``
    binds ``json``, ``gopkg.in/yaml.v3`` ``yaml`` and ``github.com/mattn/go-sqlite3`` ``sqlite3``
    (goimports' guess: the last element but a ``/vN``, no ``go-`` prefix, up to a non-identifier)."""
    if module.startswith("."):  # `import * as iso from "./iso.js"`: a name chosen, not implied
        return False
    if alias == module.rsplit(".", 1)[-1]:
        return True
    parts = module.rstrip("/").split("/")
    if len(parts) > 1 and _MAJOR_VERSION.fullmatch(parts[-1]):
        parts.pop()
    head = _IDENTIFIER_HEAD.match(parts[-1].removeprefix("go-"))
    return head is not None and alias == head.group()


def _imported_names(imports: list) -> dict[str, list[str]]:
    """What a file imports, by module: ``{"typing": ["Any", "IO"], "os": []}``, each name once
    (``name as alias`` when renamed, ``as alias`` for a module bound under another name)."""
    out: dict[str, list[str]] = {}
    for r in imports:
        module, name, alias = r[:3]
        names = out.setdefault(module, [])
        if name:
            shown = name if alias in ("", name) else f"{name} as {alias}"
        elif alias and not binds_by_default(module, alias):
            shown = f"as {alias}"
        else:
            continue
        if shown not in names:
            names.append(shown)
    return out


def _import_statements(imports: list) -> list[dict[str, Any]]:
    """Imports by statement: the module, the line and the names taken from it (``name as
    alias`` when renamed); what an import binds under its own name is not repeated."""
    out: list[dict[str, Any]] = []
    by_statement: dict[tuple, dict[str, Any]] = {}
    for r in imports:
        module, name, alias, line, kind = r[:5]
        key = (module, line, kind)
        entry = by_statement.get(key)
        if entry is None:
            entry = by_statement[key] = {"module": module, "line": line}
            if kind:
                entry["kind"] = kind
            out.append(entry)
        if name:
            entry.setdefault("names", []).append(name if alias in ("", name) else f"{name} as {alias}")
        elif alias and not binds_by_default(module, alias):
            entry["as"] = alias
    return out


def _exports(exports: list) -> list[dict[str, Any]]:
    """Exports by statement: the names of one line, kind and source together."""
    out: list[dict[str, Any]] = []
    by_statement: dict[tuple, dict[str, Any]] = {}
    for name, line, kind, source, alias in exports:
        key = (line, kind, source)
        entry = by_statement.get(key)
        if entry is None:
            entry = by_statement[key] = {"line": line} if line else {}
            if kind:
                entry["kind"] = kind
            if source:
                entry["source"] = source
            out.append(entry)
        entry.setdefault("names", []).append(name if alias in ("", name) else f"{name} as {alias}")
    return out


BY_KIND = {"type": "object", "additionalProperties": {"type": "array", "items": {"$ref": "#/$defs/node"}}}
OUTLINE_NODE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "left out below detail=full when the signature shows it"},
        "lines": out.LINES,
        "signature": out.STRING,
        "members": BY_KIND,
        "in": {
            "type": "string",
            "description": "with kinds: the symbols it is inside, not listed themselves (Outer.Inner)",
        },
    },
    "required": ["lines"],
    "additionalProperties": False,
}
IMPORT_STATEMENT = {
    "type": "object",
    "properties": {
        "module": out.STRING,
        "line": out.INTEGER,
        "kind": out.STRING,
        "names": out.STRINGS,
        "as": out.STRING,
    },
    "required": ["module"],
    "additionalProperties": False,
}

FILE_OUTLINE_ANSWER = {
    **out.answer(
        {
            "path": out.STRING,
            "language": out.STRING,
            "lines": out.COUNT,
            "symbols": {**BY_KIND, "description": "{kind: [node]}; a node's members likewise"},
            "hidden": {**out.COUNTS, "description": "symbols left out below detail=full, by why"},
            "next_start_line": out.LINE,
            "cut_line": out.LINE,
            "partial": out.TRUE,
            "extractor": out.STRING,
            "imports": {
                "anyOf": [
                    {"type": "object", "additionalProperties": out.STRINGS},
                    {"type": "array", "items": IMPORT_STATEMENT},
                ],
                "description": "{module: [names]}; at detail=full, statements with their lines",
            },
            "exports": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"line": out.INTEGER, "kind": out.STRING, "source": out.STRING, "names": out.STRINGS},
                    "required": ["names"],
                    "additionalProperties": False,
                },
            },
            **out.CUT,
        },
        ("path", "symbols"),
    ),
    "$defs": {"node": OUTLINE_NODE},
}


@hookimpl
def codecairn_tools() -> list[Tool]:
    return [
        Tool(
            "file_outline",
            "A file's symbols as a tree (kind, name, line range; signatures of callables and types) with "
            "its imports and exports, without reading the file. detail: names | signatures (default: no "
            "locals or fields set in methods) | full. Large files come in pages: narrow by kinds or "
            "start_line/end_line; next_start_line continues.",
            {
                "type": "object",
                "properties": {
                    "path": a.path(),
                    "kinds": a.words(description="only these kinds"),
                    "start_line": {"type": "integer", "minimum": 1, "description": "symbols starting here or later"},
                    "end_line": {"type": "integer", "minimum": 1, "description": "...and up to here"},
                    "limit": {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": 2000,
                        "default": 400,
                        "description": "symbols per page (the imports and exports among them come along)",
                    },
                    "detail": {"enum": list(DETAILS), "default": "signatures"},
                },
                "required": ["path"],
                "additionalProperties": False,
            },
            file_outline,
            title="Outline a file",
            hints=READ_ONLY,
            output_schema=FILE_OUTLINE_ANSWER,
        ),
    ]
