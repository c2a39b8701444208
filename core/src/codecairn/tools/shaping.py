"""How built-in tools shape what the tool API returns into answers an agent can afford: only
what answers the question, each fact once.

The conventions (docs/tools.md, "How answers are shaped"):

- a symbol's line range is ``lines``: ``"41-297"``, or ``"72"`` for one line;
- places are grouped by file: an object keyed by root-relative path, each path once;
- inside a file's group a symbol is named relative to the file's module (``Pdb.do_run`` under
  ``pdb.py`` is ``pdb.Pdb.do_run``); a name outside the module keeps its qualified name;
- a bounded list that was cut says ``complete: false``, ``limit_reached: true`` and
  ``limit_reason``; a complete one says nothing;
- what is usual is left out (an ``exact`` resolution, a parse without errors, an empty list).

(Not a plugin: the tool modules beside it are.)"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from codecairn.hookspecs import ToolContext
from codecairn.model import CALLABLE_KINDS, DATA_KINDS, Edge, IndexedFile, IndexedSymbol

LIST_LIMIT = 50  # entries of a nested list (members, callers...) before it is cut
_SPACES = re.compile(r"\s+")
_OPENING = re.compile(r"([(\[<]) ")
_CLOSING = re.compile(r",? ([)\]>])")


def bounded(count: int, limit: int, reason: str = "limit") -> dict[str, Any]:
    """What a list cut at ``limit`` says about itself; nothing when it was not cut."""
    if count > limit:
        return {"complete": False, "limit_reached": True, "limit_reason": reason}
    return {}


def line_span(start: int, end: int) -> str:
    return str(start) if end <= start else f"{start}-{end}"


def tidy(signature: str) -> str:
    """A signature on one line, without the layout of the source: ``def f( a, b, )`` is
    ``def f(a, b)``. The words are kept; only spaces (and a trailing comma) go."""
    one_line = _SPACES.sub(" ", signature).strip()
    return _CLOSING.sub(r"\1", _OPENING.sub(r"\1", one_line))


def says_more_than_its_name(signature: str, sym: IndexedSymbol) -> bool:
    """``class Console`` says nothing a kind and a name do not; ``class Live(JupyterMixin)`` does."""
    words = signature.split()
    return not (len(words) <= 3 and words[-1:] == [sym.name])


def separator(ctx: ToolContext, file: IndexedFile | None) -> str:
    if file is None:
        return "."
    language = ctx.languages.get(file.language)
    return language.resolution.separator if language is not None else "."


def local_name(ctx: ToolContext, sym: IndexedSymbol, file: IndexedFile | None = None) -> str:
    """``sym``'s name inside its file's group: its qualified name without the file's module."""
    file = file or ctx.file_by_id(sym.file_id)
    qualified = sym.qualified_name
    if file is None or not file.module:
        return qualified
    prefix = file.module + separator(ctx, file)
    return qualified[len(prefix) :] if qualified.startswith(prefix) and len(qualified) > len(prefix) else qualified


def symbol_entry(ctx: ToolContext, sym: IndexedSymbol, signature: str | None = None) -> dict[str, Any]:
    """A symbol in a file's group: its name there, kind, lines and, when it says something,
    its signature."""
    out: dict[str, Any] = {
        "name": local_name(ctx, sym),
        "kind": sym.kind,
        "lines": line_span(sym.start_line, sym.end_line),
    }
    if signature and sym.kind not in DATA_KINDS and says_more_than_its_name(signature, sym):
        out["signature"] = tidy(signature)
    return out


def symbols_by_path(
    ctx: ToolContext,
    symbols: Iterable[IndexedSymbol],
    signatures: dict[int, str] | None = None,
    fields: dict[int, dict[str, Any]] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """Symbols grouped by file, in the order given (a file's group where its first symbol is).
    ``fields`` maps a symbol id to more fields of its entry."""
    groups: dict[str, list[dict[str, Any]]] = {}
    sigs = signatures or {}
    more = fields or {}
    for sym in symbols:
        entry = symbol_entry(ctx, sym, sigs.get(sym.id))
        f = ctx.file_by_id(sym.file_id)
        if f is not None and f.extractor == "tags":
            entry["extractor"] = "tags"  # a grammar pack's facts: shallower resolution, say so
        entry.update(more.get(sym.id, {}))
        groups.setdefault(ctx.path_of(sym), []).append(entry)
    return groups


def header(ctx: ToolContext, sym: IndexedSymbol, signature: str | None = None) -> dict[str, Any]:
    """The symbol an answer is about: qualified name, kind, where."""
    out: dict[str, Any] = {
        "qualified_name": sym.qualified_name,
        "kind": sym.kind,
        "path": ctx.path_of(sym),
        "lines": line_span(sym.start_line, sym.end_line),
    }
    if signature and says_more_than_its_name(signature, sym):
        out["signature"] = tidy(signature)
    f = ctx.file_by_id(sym.file_id)
    if f is not None:
        if f.partial:
            out["partial"] = True
        if f.extractor and f.extractor != f.language:
            out["extractor"] = f.extractor
    return out


class Places:
    """Places grouped the way answers show them: ``{group: {path: {name: line or [lines]}}}``,
    a group being a resolution label or an edge kind. Built entry by entry, in order."""

    def __init__(self, ctx: ToolContext) -> None:
        self.ctx = ctx
        self.groups: dict[str, dict[str, dict[str, Any]]] = {}

    def add(self, group: str, path: str, name: str, line: int) -> None:
        names = self.groups.setdefault(group, {}).setdefault(path, {})
        lines = names.get(name)
        if lines is None:
            names[name] = line
        elif isinstance(lines, list):
            if line not in lines:
                lines.append(line)
        elif lines != line:
            names[name] = [lines, line]

    def add_symbol(self, group: str, sym: IndexedSymbol, line: int | None = None) -> None:
        f = self.ctx.file_by_id(sym.file_id)
        self.add(group, self.ctx.path_of(sym), local_name(self.ctx, sym, f), sym.start_line if line is None else line)

    def __bool__(self) -> bool:
        return bool(self.groups)


TOP_LEVEL = "(top level)"  # a call made outside any symbol: module-level code, a script


def resolution_of(edge: Edge) -> str:
    return edge.resolution or "exact"


def members_by_kind(members: Iterable[IndexedSymbol]) -> dict[str, dict[str, Any]]:
    """``{kind: {name: line or [lines]}}`` in line order: a class's methods, fields..."""
    out: dict[str, dict[str, Any]] = {}
    for m in members:
        names = out.setdefault(m.kind, {})
        seen = names.get(m.name)
        if seen is None:
            names[m.name] = m.start_line
        elif isinstance(seen, list):
            seen.append(m.start_line)
        else:
            names[m.name] = [seen, m.start_line]
    return out


def is_local(sym: IndexedSymbol, parent: IndexedSymbol | None) -> bool:
    """A variable of a function's body (a local), not a declaration of a module or a type."""
    return parent is not None and parent.kind in CALLABLE_KINDS and sym.kind in DATA_KINDS


def declared_in_a_body(sym: IndexedSymbol, siblings: list[IndexedSymbol]) -> bool:
    """A field whose line is inside a sibling method's body: an instance field a constructor
    sets (Python's ``self.x = ...``), not a declaration of the class."""
    if sym.kind not in DATA_KINDS:
        return False
    return any(
        s.kind in CALLABLE_KINDS and s.start_line < sym.start_line <= s.end_line for s in siblings if s is not sym
    )


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def text_block(answer: dict[str, Any], field: str) -> str:
    """One answer as a text block: its other fields as one JSON line (the header), then ``field``'s
    text verbatim — an agent pays for the code, not for quoting it in a JSON string."""
    if not isinstance(answer.get(field), str):
        return compact(answer)
    head = {k: v for k, v in answer.items() if k != field}
    return compact(head) + "\n" + answer[field]


def text_blocks(field: str, listed: str | None = None):
    """A Tool.render: the answer as ``text_block(answer, field)``; with ``listed``, the answer's
    other fields first, then one block per entry of its ``listed`` list."""

    def render(answer: dict[str, Any]) -> list[str]:
        if listed is None or not isinstance(answer.get(listed), list):
            return [text_block(answer, field)]
        head = {k: v for k, v in answer.items() if k != listed}
        return [compact(head), *(text_block(entry, field) for entry in answer[listed])]

    return render
