"""Tools that change files, safely: ``edit`` (one file), ``edit_symbol`` (a symbol's lines, by
name), ``edit_files`` (a batch, all or nothing), ``undo`` and ``history``.

Every write may carry ``expected_hash`` (the sha256 a read reported): a stale or malformed one is
refused before anything changes, and checked again right before the file is replaced. Writes keep
the file's encoding, BOM, line endings and permissions, go through a temporary file and an atomic
rename, are recorded in the history (undo), and the index follows them before the answer is sent.
Writes into .git, credential files or through a symlink are refused unless acknowledged.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from codecairn.errors import BAD_ARGUMENT, NOT_FOUND, ToolError
from codecairn.files.attached import decorated_start, leading_start, syntax_of
from codecairn.files.reading import source_lines
from codecairn.hookspecs import READ_ONLY, Tool, ToolContext, ToolHints, hookimpl
from codecairn.limits import MAX_BATCH_FILES
from codecairn.model import FileChange, IndexedSymbol, TextEdit, WriteReport
from codecairn.tools import answers as out
from codecairn.tools import arguments as a
from codecairn.tools.shaping import LIST_LIMIT, bounded, line_span, symbols_by_path
from codecairn.tools.shared_lines import ancestor_ids, sharing_lines
from codecairn.tools.symbols import no_symbol
from codecairn.tools.written_names import written_as

# An edit: exactly one of these ways, with new_text where it takes one.
MODES = ("old_text", "start_line", "insert_line", "create", "delete")

_EDIT_FIELDS: dict[str, Any] = {
    "path": a.path(),
    "old_text": a.text(a.MAX_EDIT_TEXT_CHARS, "replace this exact text (must occur expected_occurrences times)"),
    "new_text": a.text(a.MAX_EDIT_TEXT_CHARS, "the replacement / the lines to write / a new file's content"),
    "expected_occurrences": a.count(1, 10_000, "how many times old_text occurs; all are replaced (default 1)"),
    "start_line": a.count(1, 1 << 31, "replace lines start_line..end_line by new_text ('' deletes them)"),
    "end_line": a.count(1, 1 << 31),
    "insert_line": a.count(1, 1 << 31, "insert new_text before this line (line count + 1: at the end)"),
    "create": {"type": "boolean", "description": "a new file with new_text (refused if it exists)"},
    "delete": {"type": "boolean", "description": "delete the file"},
    "expected_hash": a.SHA256,
}


def change_of(spec: dict[str, Any]) -> FileChange:
    """One file's change from its arguments; exactly one way of editing must be given."""
    given = [m for m in MODES if spec.get(m) not in (None, False)]
    if len(given) != 1:
        raise ToolError(
            BAD_ARGUMENT,
            f"give exactly one of {', '.join(MODES)} ({'none' if not given else ' and '.join(given)} given)",
        )
    mode = given[0]
    new = spec.get("new_text")
    if mode != "delete" and new is None:
        raise ToolError(BAD_ARGUMENT, f"{mode} needs new_text")
    new = new or ""
    path, expected = spec["path"], spec.get("expected_hash")
    if mode == "delete":
        return FileChange(path, delete=True, expected_hash=expected)
    if mode == "create":
        return FileChange(path, create=new, expected_hash=expected)
    if mode == "old_text":
        edit = TextEdit("replace", new, spec["old_text"], spec.get("expected_occurrences", 1))
    elif mode == "start_line":
        edit = TextEdit("lines", new, start_line=spec["start_line"], end_line=spec.get("end_line", spec["start_line"]))
    else:
        edit = TextEdit("insert", new, start_line=spec["insert_line"])
    return FileChange(path, (edit,), expected_hash=expected)


def report_answer(report: WriteReport, single: bool) -> dict[str, Any]:
    """A write's answer: paths, hashes before and after, the history id, and only what is unusual."""
    files = []
    for f in report.files:
        entry = _history_file(f.path, f.sha256_before, f.sha256_after)
        if f.replacements > 1:
            entry["replacements"] = f.replacements
        files.append(entry)
    answer: dict[str, Any] = dict(files[0]) if single else {"files": files}
    if report.entry_id is not None:
        answer["history_id"] = report.entry_id
    if report.history_note:
        answer["history"] = report.history_note
    if not report.reindexed and report.reindex_note:
        answer["index"] = report.reindex_note
    if report.warnings:
        answer["acknowledged"] = report.warnings
    return answer


async def edit(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    report = await ctx.write_files([change_of(args)], tool="edit", acknowledge_risk=args.get("acknowledge_risk", False))
    return report_answer(report, single=True)


async def edit_files(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    changes = [change_of(spec) for spec in args["files"]]
    report = await ctx.write_files(changes, tool="edit_files", acknowledge_risk=args.get("acknowledge_risk", False))
    return report_answer(report, single=False)


async def edit_symbol(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    name, path, line = args["name"], args.get("path"), args.get("line")
    position = args.get("position", "replace")
    # A name re-exported by a package is the same symbol; a member a class inherits is not edited
    # through the class (that would change every class inheriting it)
    found = ctx.lookup(name, path, line) or await written_as(ctx, name, path, line, bases=False)
    if found and ctx.changed_since_indexed(ctx.path_of(found[0])):
        # Its lines may have moved since it was indexed: index the file now and look again.
        await ctx.refresh([ctx.path_of(found[0])])
        found = ctx.lookup(name, path, line) or await written_as(ctx, name, path, line, bases=False)
    if not found:
        raise await no_symbol(ctx, name, path, line, "nothing was changed")
    if len(found) > 1:
        shown = found[:LIST_LIMIT]
        return {
            "ambiguous": True,
            "candidates": symbols_by_path(ctx, shown),
            **bounded(len(found), LIST_LIMIT),
            "hint": "nothing was changed: pass path and/or line (or a more qualified name) to choose one",
        }
    sym = found[0]
    target = ctx.path_of(sym)
    start = sym.start_line
    if position != "after":  # its decorators are its own (read_symbol shows them), and so are its comments
        start = await _attached_start(ctx, target, sym, position)
    f = ctx.file_by_id(sym.file_id)
    if f is not None and f.partial and f.extractor == "tags" and position != "before":
        # A grammar pack's tags in a file that did not parse cleanly: a definition's extent may stop
        # at its header (zlib's K&R `inflateEnd(strm) z_streamp strm;` ended there), and replacing
        # those lines left the old body behind — a broken file reported as a clean edit
        raise ToolError(
            BAD_ARGUMENT,
            f"{target} did not parse cleanly and {sym.qualified_name} comes from a grammar pack's tags: "
            f"where it ends is not known for sure (lines {line_span(sym.start_line, sym.end_line)} may stop "
            "inside it); nothing was changed: read around it, then edit the text itself (edit with old_text)",
            symbol=sym.qualified_name,
        )
    first, last = {"before": (start, start), "after": (sym.end_line, sym.end_line)}.get(position, (start, sym.end_line))
    if (other := sharing_lines(ctx, sym, first, last)) is not None:
        # Lines are what this tool edits: on a line shared with its class or a sibling, a replace
        # would take them too (`enum Color { RED; void m() {} }`), an insert would land outside
        if other.id in ancestor_ids(ctx, sym):
            where = f"starts on line {other.start_line}"
        else:
            on = max(first, other.start_line), min(last, other.end_line)
            where = f"is on line{'s' if on[0] != on[1] else ''} {line_span(*on)}"
        raise ToolError(
            BAD_ARGUMENT,
            f"{sym.qualified_name} shares its lines with {other.kind} {other.qualified_name} (which {where}); "
            "nothing was changed: edit the text itself (edit with old_text)",
            symbol=sym.qualified_name,
            shared_with=other.qualified_name,
        )
    if position == "replace":
        change = TextEdit("lines", args["new_text"], start_line=start, end_line=sym.end_line)
    elif position == "before":
        change = TextEdit("insert", args["new_text"], start_line=start)
    else:
        change = TextEdit("insert", args["new_text"], start_line=sym.end_line + 1)
    report = await ctx.write_files(
        [FileChange(target, (change,), expected_hash=args.get("expected_hash"))],
        tool="edit_symbol",
        acknowledge_risk=args.get("acknowledge_risk", False),
    )
    answer = report_answer(report, single=True)
    answer["symbol"] = sym.qualified_name
    # Where the symbol is now (the index was refreshed before the answer): a replace or an insert
    # above it moved its lines, and `lines` everywhere else means "where it is"
    added = args["new_text"].count("\n") + (0 if args["new_text"].endswith("\n") or not args["new_text"] else 1)
    expected = {"replace": start, "before": sym.start_line + added}.get(position, sym.start_line)
    now = [s for s in ctx.lookup(sym.qualified_name, target) if s.qualified_name == sym.qualified_name]
    if report.reindexed and now:
        here = min(now, key=lambda s: abs(s.start_line - expected))
        answer["lines"] = line_span(here.start_line, here.end_line)
    elif position == "replace":
        answer["lines"] = line_span(start, start + max(added, 1) - 1)  # the new text's lines
        if report.reindexed:
            answer["symbol_now"] = "not found under this name: the new text renamed it or no longer declares it"
    else:
        answer["lines"] = line_span(expected, expected + sym.end_line - sym.start_line)
    return answer


async def _attached_start(ctx: ToolContext, path: str, sym: IndexedSymbol, position: str) -> int:
    """Where a replace of the symbol starts (its decorators: the lines read_symbol shows), or where
    code inserted before it goes (above its decorators and the comments directly above them)."""
    f = ctx.file_by_id(sym.file_id)
    if f is None:
        return sym.start_line
    lines = source_lines(await ctx.read_file(path))
    find = decorated_start if position == "replace" else leading_start
    return find(lines, sym.start_line, syntax_of(ctx.languages.get(f.language)))


async def undo(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    entry_id = args.get("id")
    if entry_id is None:
        recent = [e for e in await ctx.history(50) if e.undone_by is None and e.tool != "undo"]
        if not recent:
            raise ToolError(NOT_FOUND, "there is nothing to undo (see history)")
        entry_id = recent[0].id
    report = await ctx.undo(entry_id, acknowledge_risk=args.get("acknowledge_risk", False))
    answer = report_answer(report, single=False)  # one shape whatever the entry held, as history lists it
    answer["undone"] = entry_id
    return answer


async def history(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    limit = args.get("limit", 20)
    entries = await ctx.history(limit + 1, args.get("path"))
    out = []
    for e in entries[:limit]:
        item: dict[str, Any] = {
            "id": e.id,
            "at": dt.datetime.fromtimestamp(e.created_at, dt.UTC).isoformat(timespec="seconds"),
            "tool": e.tool,
            "files": [_history_file(f.path, f.sha256_before, f.sha256_after) for f in e.files],
        }
        if e.undoes is not None:
            item["undoes"] = e.undoes
        if e.undone_by is not None:
            item["undone_by"] = e.undone_by
        out.append(item)
    return {"entries": out, **bounded(len(entries), limit)}


def _history_file(path: str, before: str, after: str) -> dict[str, Any]:
    out: dict[str, Any] = {"path": path}
    if before:
        out["sha256_before"] = before
    else:
        out["created"] = True
    if after:
        out["sha256_after"] = after
    else:
        out["deleted"] = True
    return out


# ---- answers' schemas ----------------------------------------------------------------------------

WRITTEN_FIELDS: dict[str, Any] = {
    "path": out.STRING,
    "sha256_before": out.STRING,
    "sha256_after": out.STRING,
    "created": {**out.TRUE, "description": "the file did not exist before (no sha256_before)"},
    "deleted": {**out.TRUE, "description": "the file was deleted (no sha256_after)"},
    "replacements": {**out.COUNT, "description": "spans replaced, when more than one"},
}
WRITTEN_FILE = {"type": "object", "properties": WRITTEN_FIELDS, "required": ["path"], "additionalProperties": False}
# What is unusual about a write, said only when it holds.
WRITE_NOTES: dict[str, Any] = {
    "history_id": {**out.INTEGER, "description": "the history entry (undo takes it)"},
    "history": {"type": "string", "description": "why the write is not in the history"},
    "index": {"type": "string", "description": "why the index does not follow the write yet"},
    "acknowledged": {**out.STRINGS, "description": "the risk rules acknowledge_risk let through"},
}
EDIT_ANSWER = out.answer({**WRITTEN_FIELDS, **WRITE_NOTES}, ("path",))
EDIT_SYMBOL_ANSWER = out.answer(
    {
        **WRITTEN_FIELDS,
        **WRITE_NOTES,
        "symbol": out.STRING,
        "lines": {**out.LINES, "description": "where the symbol is after the write"},
        "symbol_now": {**out.STRING, "description": "the replaced symbol is no longer found by its name"},
        **out.AMBIGUOUS,
    },
    description="the write, with the symbol edited and its lines now; or ambiguous: true with candidates "
    "(nothing changed)",
)
EDIT_FILES_ANSWER = out.answer({"files": {"type": "array", "items": WRITTEN_FILE}, **WRITE_NOTES}, ("files",))
UNDO_ANSWER = out.answer(
    {
        **WRITTEN_FIELDS,
        "files": {"type": "array", "items": WRITTEN_FILE},
        **WRITE_NOTES,
        "undone": {**out.INTEGER, "description": "the history entry reverted"},
    },
    ("undone",),
    "one file's write (path...) or several (files), and the entry undone",
)
HISTORY_ANSWER = out.answer(
    {
        "entries": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "id": out.INTEGER,
                    "at": {"type": "string", "description": "UTC, ISO 8601"},
                    "tool": out.STRING,
                    "files": {"type": "array", "items": WRITTEN_FILE},
                    "undoes": out.INTEGER,
                    "undone_by": out.INTEGER,
                },
                "required": ["id", "at", "tool", "files"],
                "additionalProperties": False,
            },
        },
        **out.CUT,
    },
    ("entries",),
    "newest first",
)


_WRITES = ToolHints(read_only=False, destructive=True, idempotent=False)


@hookimpl
def codecairn_tools() -> list[Tool]:
    return [
        Tool(
            "edit",
            "Change one file: replace old_text (unique, or expected_occurrences), replace lines "
            "start_line..end_line, insert before insert_line, create, or delete. expected_hash (from read) "
            "refuses a stale write. Keeps encoding, line endings, mode; atomic; recorded for undo; the index "
            "follows before the answer. Writes into .git, credential files or through a symlink need "
            "acknowledge_risk.",
            {
                "type": "object",
                "properties": {**_EDIT_FIELDS, "acknowledge_risk": a.ACKNOWLEDGE},
                "required": ["path"],
                "additionalProperties": False,
            },
            edit,
            title="Edit a file",
            hints=_WRITES,
            output_schema=EDIT_ANSWER,
        ),
        Tool(
            "edit_symbol",
            "Replace a symbol's lines (its decorators included, as read_symbol shows them) with new_text, or insert "
            "new_text before it (above its decorators and comments) or after it, by qualified name "
            "(path/line narrow an ambiguous one; ambiguity changes nothing and lists candidates).",
            {
                "type": "object",
                "properties": {
                    "name": a.name(),
                    "path": a.path(),
                    "line": a.count(1, 1 << 31),
                    "new_text": _EDIT_FIELDS["new_text"],
                    "position": {"enum": ["replace", "before", "after"], "default": "replace"},
                    "expected_hash": a.SHA256,
                    "acknowledge_risk": a.ACKNOWLEDGE,
                },
                "required": ["name", "new_text"],
                "additionalProperties": False,
            },
            edit_symbol,
            title="Edit a symbol",
            hints=_WRITES,
            output_schema=EDIT_SYMBOL_ANSWER,
        ),
        Tool(
            "edit_files",
            "Several edits (each like `edit`) across files, all or nothing: any failure or stale "
            "expected_hash changes no file. One history entry.",
            {
                "type": "object",
                "properties": {
                    "files": {
                        "type": "array",
                        "minItems": 1,
                        "maxItems": MAX_BATCH_FILES,
                        "items": {
                            "type": "object",
                            "properties": _EDIT_FIELDS,
                            "required": ["path"],
                            "additionalProperties": False,
                        },
                    },
                    "acknowledge_risk": a.ACKNOWLEDGE,
                },
                "required": ["files"],
                "additionalProperties": False,
            },
            edit_files,
            title="Edit several files atomically",
            hints=_WRITES,
            output_schema=EDIT_FILES_ANSWER,
        ),
        Tool(
            "undo",
            "Revert a history entry (default: the latest not yet undone), only if its files are still as "
            "it left them. Itself recorded.",
            {
                "type": "object",
                "properties": {"id": a.count(1, 1 << 62), "acknowledge_risk": a.ACKNOWLEDGE},
                "additionalProperties": False,
            },
            undo,
            title="Undo an edit",
            hints=_WRITES,
            output_schema=UNDO_ANSWER,
        ),
        Tool(
            "history",
            "Recent edits made through codecairn (newest first): id, time, tool, files with sha256 before/after, "
            "undo links. Kept across restarts, bounded.",
            {
                "type": "object",
                "properties": {"limit": a.count(1, 200, default=20), "path": a.path("only edits of this file")},
                "additionalProperties": False,
            },
            history,
            title="Edit history",
            hints=READ_ONLY,
            output_schema=HISTORY_ANSWER,
        ),
    ]
