"""Symbols that share a line with another: `enum Color { RED, GREEN; void m() {} }`, `int a; int b;`,
`constructor(private _value: T) {`. Tools that work on whole lines (edit_symbol) must refuse them,
and tools that show whole lines (read_symbol) say that the lines hold more than the symbol."""

from __future__ import annotations

from codecairn.hookspecs import ToolContext
from codecairn.model import CALLABLE_KINDS, DATA_KINDS, IndexedSymbol


def ancestor_ids(ctx: ToolContext, sym: IndexedSymbol) -> list[int]:
    """The symbols around ``sym``, innermost first."""
    out, parent = [], sym.parent_id
    while parent is not None and (p := ctx.symbol(parent)) is not None:
        out.append(p.id)
        parent = p.parent_id
    return out


def set_in_body(method: IndexedSymbol, other: IndexedSymbol) -> bool:
    """Is ``other`` a field ``method`` sets in its body (Python's ``self.x = x`` in ``__init__``,
    a constructor's ``this.x = …``)? A member of the class on the method's lines, below its first:
    replacing the method replaces the assignment with it, nothing of the field's elsewhere."""
    return (
        method.kind in CALLABLE_KINDS
        and other.kind in DATA_KINDS
        and other.parent_id == method.parent_id
        and method.start_line < other.start_line <= method.end_line
    )


def sharing_lines(ctx: ToolContext, sym: IndexedSymbol, start: int, last: int | None = None) -> IndexedSymbol | None:
    """A symbol of the file, not inside ``sym``, with part of it on lines ``start``..``last``
    (default: where ``sym`` ends) of ``sym``: an enclosing one that starts there, or another beside
    it on one of those lines. The file's own module (the whole file) does not count. An insert
    asks about the one line it goes next to (before: the first; after: the last)."""
    last = sym.end_line if last is None else last
    ancestors = set(ancestor_ids(ctx, sym))
    in_file = ctx.symbols_in_file(sym.file_id)
    parent_of = {s.id: s.parent_id for s in in_file}

    def within(symbol_id: int | None) -> bool:  # sym itself or one of its descendants
        while symbol_id is not None:
            if symbol_id == sym.id:
                return True
            symbol_id = parent_of.get(symbol_id)
        return False

    for other in in_file:
        if within(other.id):
            continue
        if other.kind == "module" and other.parent_id is None:
            continue
        if other.start_line > last or other.end_line < start:
            continue
        if set_in_body(sym, other):
            continue
        if other.id in ancestors and other.start_line < start:
            # around it, its header on lines of its own (where it ends says nothing: a Python class
            # ends with its last method, and a closing brace after a body on its line is rare)
            continue
        return other
    return None
