"""Names as the code that uses a symbol writes them, not as it is defined.

* Through imports: ``django.db.models.Model`` is defined as ``django.db.models.base.Model`` and
  bound in ``django/db/models/__init__.py`` by ``from .base import Model``;
  ``collections.abc.MutableMapping`` comes through ``from _collections_abc import *``. The imports
  of the module the name starts with are followed to the definition.
* Through bases: ``HttpResponse.set_cookie`` is defined in ``HttpResponseBase``; the class's
  ancestors are searched, nearest first, for the member.
"""

from __future__ import annotations

from codecairn.hookspecs import ToolContext
from codecairn.model import TYPE_KINDS, IndexedSymbol
from codecairn.query.lookup import NAME_PARTS


async def written_as(
    ctx: ToolContext, name: str, path: str | None = None, line: int | None = None, *, bases: bool = True
) -> list[IndexedSymbol]:
    """The symbols ``name`` means as code using them writes it (where ``path`` and ``line`` say,
    when given): through the imports of a module it starts with, then (with ``bases``) through the
    bases of a class it names. For a name the index does not hold as it is written."""
    found = ("." in name and await through_imports(ctx, name)) or (bases and await through_bases(ctx, name)) or []
    return [s for s in found if _in_place(ctx, s, path, line)]


def _in_place(ctx: ToolContext, symbol: IndexedSymbol, path: str | None, line: int | None) -> bool:
    if path is not None and (f := ctx.file_by_id(symbol.file_id)) is not None and f.path != ctx.resolve_path(path):
        return False
    return line is None or symbol.start_line <= line <= symbol.end_line


HOPS = 4  # re-exports of re-exports (a package's __init__ importing a subpackage's): rarely more than two
TRIED = 64  # names tried at most for one: asyncio's __init__ alone has twenty `import *` lines


async def through_imports(ctx: ToolContext, name: str) -> list[IndexedSymbol]:
    """The symbols ``name`` reaches through the imports of a module it starts with; [] when it names
    no such binding (or no module at all)."""
    seen = {name}
    wanted = [name]
    for _ in range(HOPS):
        following: list[str] = []
        for written in wanted:
            for target in await _bound_as(ctx, written):
                if found := _defined(ctx, target):
                    return found
                if target not in seen and len(seen) < TRIED:
                    seen.add(target)
                    following.append(target)
        if not following:
            return []
        wanted = following
    return []


def _defined(ctx: ToolContext, qualified_name: str) -> list[IndexedSymbol]:
    return [s for s in ctx.lookup(qualified_name) if s.qualified_name == qualified_name]


async def _bound_as(ctx: ToolContext, name: str) -> list[str]:
    """What ``name`` is another name for, by the imports of the longest module it starts with: the
    import binding its next part first, else each ``import *`` of that module."""
    at = len(name)
    while (at := name.rfind(".", 0, at)) > 0:
        module, rest = name[:at], name[at + 1 :]
        files = {s.file_id for s in _defined(ctx, module) if s.kind == "module"}
        if not files and "/" in module:  # a JavaScript module is its path, not a symbol (`src/a`)
            files = {f.id for f in ctx.files() if f.module == module}
        if not files:
            continue
        head, dot, tail = rest.partition(".")
        bound, everything = [], []
        for file_id in sorted(files):
            for imp in await ctx.imports_of(file_id):
                if not imp.target:
                    continue
                if imp.name == "*":
                    everything.append(f"{imp.target}.{rest}")
                elif (imp.alias or imp.name or imp.module) == head:
                    bound.append(imp.target + dot + tail)
        return bound or everything
    return []


async def through_bases(ctx: ToolContext, name: str) -> list[IndexedSymbol]:
    """``Class.member`` where the class inherits the member: the nearest ancestor's, for each class
    the owner's name can mean (a re-exported one too); [] when there is none."""
    split = [m for m in NAME_PARTS.finditer(name)]
    if not split:
        return []
    owner, member = name[: split[-1].start()], name[split[-1].end() :]
    if not owner or not member:
        return []
    types = [s for s in ctx.lookup(owner) if s.kind in TYPE_KINDS]
    if not types and "." in owner:
        types = [s for s in await through_imports(ctx, owner) if s.kind in TYPE_KINDS]
    found: dict[int, IndexedSymbol] = {}
    joins = dict.fromkeys((split[-1].group(), ".", "::"))  # as written, else a language's own (Rust's ::)
    for cls in types:
        for ancestor in ctx.ancestors(cls.id):
            inherited = [s for sep in joins for s in _defined(ctx, f"{ancestor.qualified_name}{sep}{member}")]
            if inherited:
                found.update((s.id, s) for s in inherited)
                break  # the nearest ancestor's hides those further up
    return list(found.values())
