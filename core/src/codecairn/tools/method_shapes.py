"""Go's implicit interfaces, checked by signature: a type satisfies an interface when it has every
method the interface asks for *with the same parameter and result types* — names alone (what the
method sets of query/hierarchy.py compare) let `func (f *Function) Parent() *Function` satisfy
`Parent() string`. Types are compared as written, package qualifiers left out (`ast.Node` in one
package is `Node` in another), parameter names ignored, a one-letter type (a type parameter: `T`)
matching any type."""

from __future__ import annotations

import re

from codecairn.hookspecs import ToolContext
from codecairn.model import IndexedSymbol, TypeLink

_QUALIFIER = re.compile(r"\b[a-z_][A-Za-z0-9_]*\.(?=[A-Za-z_])")  # `token.` in `token.Pos`
_TYPE_PARAMETER = re.compile(r"[A-Z]")
Shape = tuple[tuple[str, ...], tuple[str, ...]]  # parameter types, result types


async def signature_mismatches(ctx: ToolContext, links: list[TypeLink], upward: bool) -> set[TypeLink]:
    """The method-set links (interface, type) whose type has a required method of another shape
    than the interface's; links whose signatures cannot be read are kept (names still agree)."""
    pairs = {link: (link.far, link.near) if upward else (link.near, link.far) for link in links if link.how}
    if not pairs:
        return set()
    wanted: dict[tuple[int, int], list[tuple[IndexedSymbol, IndexedSymbol]]] = {}
    ids: set[int] = set()
    for interface_id, type_id in set(pairs.values()):
        matched = []
        for asked in _asked(ctx, interface_id):
            given = _given(ctx, type_id, asked.name)
            if given is not None:
                matched.append((asked, given))
                ids.update((asked.id, given.id))
        wanted[(interface_id, type_id)] = matched
    signatures = await ctx.signatures(ids)
    wrong: set[tuple[int, int]] = set()
    for pair, matched in wanted.items():
        for asked, given in matched:
            a, g = shape(signatures.get(asked.id, ""), asked.name), shape(signatures.get(given.id, ""), given.name)
            if a is not None and g is not None and not _same(a, g):
                wrong.add(pair)
                break
    return {link for link, pair in pairs.items() if pair in wrong}


def _asked(ctx: ToolContext, interface_id: int) -> list[IndexedSymbol]:
    """The methods an interface declares, with those of the interfaces it embeds."""
    out: dict[str, IndexedSymbol] = {}
    for owner in [interface_id, *(a.id for a in ctx.ancestors(interface_id))]:
        for m in ctx.children(owner):
            if m.kind == "method":
                out.setdefault(m.name, m)
    return list(out.values())


def _given(ctx: ToolContext, type_id: int, name: str) -> IndexedSymbol | None:
    """The type's method ``name``: its own, or the nearest an embedded type promotes."""
    owner = ctx.symbol(type_id)
    for t in [owner, *ctx.ancestors(type_id)] if owner is not None else []:
        wanted = f"{t.qualified_name}.{name}"
        for s in ctx.lookup(wanted):
            if s.qualified_name == wanted and s.kind == "method":
                return s
    return None


def shape(signature: str, name: str) -> Shape | None:
    """``func (v *Function) Parent() *Function`` / ``Parent() string`` -> ((), ("*Function",)); None
    when the signature does not read as a method called ``name``."""
    at = signature.find(name + "(")
    if at < 0:
        return None
    params, end = _parenthesised(signature, at + len(name))
    if params is None:
        return None
    results = signature[end:].strip().rstrip("{").strip()
    if results.startswith("("):
        inner, _ = _parenthesised(results, 0)
        result_types = _types(inner or "")
    else:
        result_types = (_normal(results),) if results else ()
    return _types(params), result_types


def _parenthesised(text: str, at: int) -> tuple[str | None, int]:
    """The text inside the parentheses opening at ``at``, and where they close (+1)."""
    if at >= len(text) or text[at] != "(":
        return None, at
    depth = 0
    for i in range(at, len(text)):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return text[at + 1 : i], i + 1
    return None, at


def _split(text: str) -> list[str]:
    """Top-level comma-separated items."""
    items, depth, begin = [], 0, 0
    for i, c in enumerate(text):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            items.append(text[begin:i].strip())
            begin = i + 1
    if text[begin:].strip():
        items.append(text[begin:].strip())
    return items


def _types(params: str) -> tuple[str, ...]:
    """A parameter list's types, names left out: `(a, b int, c string)` and `(int, int, string)` alike."""
    items = _split(params)
    named = any(_name_and_type(item)[1] for item in items)
    if not named:
        return tuple(_normal(item) for item in items)
    out: list[str] = []
    waiting = 0  # names seen before their type (`a, b int`)
    for item in items:
        _, typ = _name_and_type(item)
        if typ:
            out.extend([_normal(typ)] * (waiting + 1))
            waiting = 0
        else:
            waiting += 1
    return tuple(out)


def _name_and_type(item: str) -> tuple[str, str]:
    """`rands []*Value` -> ("rands", "[]*Value"); `[]*Value` -> ("", "")."""
    head, _, rest = item.partition(" ")
    if rest and head.isidentifier() and head not in _TYPE_WORDS:
        return head, rest.strip()
    return "", ""


_TYPE_WORDS = frozenset({"chan", "func", "map", "struct", "interface"})  # `chan int` is a type, not a name


def _normal(typ: str) -> str:
    return _QUALIFIER.sub("", " ".join(typ.split()))


def _same(a: Shape, b: Shape) -> bool:
    return (
        len(a[0]) == len(b[0])
        and len(a[1]) == len(b[1])
        and all(
            x == y or _TYPE_PARAMETER.fullmatch(x) or _TYPE_PARAMETER.fullmatch(y)
            for x, y in zip(a[0] + a[1], b[0] + b[1], strict=True)
        )
    )
