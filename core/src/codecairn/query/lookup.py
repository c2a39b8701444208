"""Symbols by qualified name: ``pkg.mod.Class.method``, or any suffix of it (``Class.method``,
``Class::method``, ``method``), narrowed by file and line. Answered from the in-memory index."""

from __future__ import annotations

import re

from codecairn.errors import BAD_ARGUMENT, ToolError, quoted
from codecairn.index.state import IndexState
from codecairn.model import CALLABLE_KINDS, CONTAINER_KINDS, DECORATED_REACH, TYPE_KINDS, IndexedSymbol

NAME_PARTS = re.compile(r"::|\.|#|/|\\")  # how a written name splits into its parts, in any language (PHP: \)
# Names as other tools print them: Go's method expressions `(*Alloc).String` / `(Alloc).String`,
# and Java's binary names of nested classes `Outer$Inner` (from a stack trace or javap)
_GO_METHOD_EXPRESSION = re.compile(r"\(\*?([\w.]+)\)(?=[.])")
_JAVA_BINARY_NESTING = re.compile(r"(?<=[\w])\$(?=[A-Za-z_])")


def kind_rank(kind: str) -> int:
    """Types first, then callables, then modules and namespaces, then data."""
    if kind in TYPE_KINDS:
        return 0
    if kind in CALLABLE_KINDS:
        return 1
    if kind in CONTAINER_KINDS:
        return 2
    return 3


def name_parts(name: str) -> list[str]:
    return [p for p in NAME_PARTS.split(name.strip()) if p]


def as_declared(name: str) -> str:
    """A name as another tool prints it (``(*Alloc).String``, ``Outer$Inner``) as the index
    names it (``Alloc.String``, ``Outer.Inner``); any other name as it is. Asked only when the
    name as given finds nothing: ``$`` is part of a JavaScript name."""
    if "(" not in name and "$" not in name:
        return name
    return _JAVA_BINARY_NESTING.sub(".", _GO_METHOD_EXPRESSION.sub(r"\1", name))


def lookup(state: IndexState, name: str, path: str | None = None, line: int | None = None) -> list[IndexedSymbol]:
    """Every symbol ``name`` can mean, best first; ``path`` (root-relative, already confined) and
    ``line`` narrow them: to the symbols starting at that line, else the innermost spanning it."""
    if not isinstance(name, str) or not name.strip():
        raise ToolError(BAD_ARGUMENT, "name must be a non-empty string")
    index = state.symbols
    rows = index.rows
    ids = list(index.by_qn.get(name, ()))
    if ids and len(name_parts(name)) == 1 and not any(rows[i].kind in CONTAINER_KINDS for i in ids if i in rows):
        # A bare name that is some symbol's whole qualified name (a C function, `helper`) is no
        # better a match than `util.helper`: it does not hide the others
        ids = []
    if not ids:
        parts = name_parts(name)
        if not parts:
            raise ToolError(BAD_ARGUMENT, f"cannot read a symbol name from {quoted(name)}")
        for sid in index.by_name.get(parts[-1], ()):
            qparts = name_parts(rows[sid].qualified_name)
            if qparts[-len(parts) :] == parts:
                ids.append(sid)
    if not ids and (written := as_declared(name)) != name:
        return lookup(state, written, path, line)
    candidates = [rows[i] for i in ids if i in rows]
    if path is not None:
        candidates = [s for s in candidates if state.path_of(s) == path]
    if line is not None:
        spanning = [s for s in candidates if s.start_line <= line <= s.end_line]
        exact = [s for s in spanning if s.start_line == line]
        # A line just above a symbol is its decorators' (`@width.setter`): read_symbol's `lines`
        # start there, and an agent passes that line back
        below = [s for s in candidates if line < s.start_line <= line + DECORATED_REACH and _just_above(state, s, line)]
        candidates = (
            exact
            or sorted(spanning, key=lambda s: s.end_line - s.start_line)[:1]
            or sorted(below, key=lambda s: s.start_line)[:1]
        )
    return sorted(candidates, key=lambda s: (kind_rank(s.kind), state.path_of(s), s.start_line))


def _just_above(state: IndexState, sym: IndexedSymbol, line: int) -> bool:
    """Are lines ``line``..(sym's first - 1) part of no symbol but those around ``sym`` (its class,
    its module)? Then they may be its decorators; a line of another symbol above it is that one's."""
    rows = state.symbols.rows
    for other_id in state.symbols.by_file.get(sym.file_id, ()):
        other = rows.get(other_id)
        if other is None or other.id == sym.id:
            continue
        if other.start_line <= sym.start_line and other.end_line >= sym.end_line:
            continue  # around it
        if other.start_line < sym.start_line and other.end_line >= line:
            return False
    return True
