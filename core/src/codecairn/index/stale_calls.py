"""Which calls a change makes stale beyond those of the files it touched: the edges an
incremental resolution (index/pipeline.py's resolve, index/narrow.py) reads again besides the
changed files' own, each selector for one kind of change — a subtype came or went, a supertype
outside the index changed, what a function is passed changed — and the rows written beside a call
through a parameter, replaced by that call's own edge."""

from __future__ import annotations

import re

from codecairn.hookspecs import Language
from codecairn.index.resolver import CLASSLIKE, Bindings
from codecairn.index.target import IndexTarget
from codecairn.model import ALSO, INHERITANCE_KINDS
from codecairn.store.store import Store

# More type names than this whose supertype outside the index changed: every call without a target
# is resolved again, not those a query naming each one finds.
MANY_TYPE_NAMES = 64
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


async def their_own_edges(store: Store, calls: list[tuple]) -> list[tuple]:
    """``calls`` with each row written beside a call through a parameter (model.ALSO) replaced by
    that call's own edge: resolved again, it writes them again (resolved alone, one would be lost)."""
    beside = {int(e[6][1:]) for e in calls if e[6][:1] == ALSO and e[6][1:].isdigit()}
    if not beside:
        return calls
    own = [e for e in calls if e[6][:1] != ALSO]
    missing = beside - {e[0] for e in own}
    return own + (await store.edges_by_id(missing) if missing else [])


async def calls_their_subtypes_decide(target: IndexTarget, changed: set[int], already: list[tuple]) -> list[tuple]:
    """The calls on self and super() in the methods of types whose subtypes changed (``changed``,
    after this run's extends edges, and every type above them) that those subtypes decide — a
    mixin's `self.helper()`, `super().__init__()` ending at object — but those in ``already``."""
    index = target.state.symbols
    types = {t for t in changed if t in index.rows}
    for t in list(types):
        types.update(index.ancestors(t))
    methods = [c for t in types for c in index.children.get(t, ())]
    receivers = {
        name
        for lang in target.languages.values()
        for name in (*lang.resolution.self_names, *lang.resolution.super_names)
    }
    if not methods or not receivers:
        return []
    seen = {e[0] for e in already}
    return [e for e in await target.store.calls_on_self(methods, receivers) if e[0] not in seen]


async def calls_external_bases_decide(
    target: IndexTarget,
    moved: dict[str, set[str]],
    first: list[tuple],
    bindings: dict[int, Bindings],
    already: list[tuple],
) -> list[tuple]:
    """After the supertype outside the index of the types named ``moved`` changed (`class
    Table(dict)` became `class Table(list)`, or a class gained or lost such a base): the calls that
    reach no symbol of the index — a member of such a base may answer them now, or no longer — on
    self in those types, in their subtypes and in the types whose extends edges were resolved again
    (``first``: a subtype of a class that went), or on a receiver typed by one of them (its name,
    or a name a file imports it as) — but those in ``already``. Not every call without a target
    (44,000 on CPython's Lib: two seconds for one new exception class)."""
    index = target.state.symbols
    types = {t for qualified_name in moved for t in index.by_qn.get(qualified_name, ()) if t in index.rows}
    # A subtype of a class that went (or came): its extends edge, resolved again, names the class.
    short = {qualified_name.rpartition(".")[2] for qualified_name in moved}
    types.update(
        e[3]
        for e in first
        if e[2] in INHERITANCE_KINDS and e[3] in index.rows and (e[4] or "").rpartition(".")[2] in short
    )
    below = list(types)
    while below:
        for sub in index.subtypes_of.get(below.pop(), ()):
            if sub not in types:
                types.add(sub)
                below.append(sub)
    names = {index.rows[t].name for t in types} | short
    names |= _imported_as(names, bindings)
    store, seen = target.store, {e[0] for e in already}
    if len(names) > MANY_TYPE_NAMES:  # a large change (a branch switched): read them all
        receivers = {name for lang in target.languages.values() for name in lang.resolution.self_names}
        return [e for e in await store.calls_without_target(receivers) if e[0] not in seen]
    functions, scopes = [], list(types)
    while scopes:  # their methods, and the functions nested in them (a closure's self is the method's)
        for child in index.children.get(scopes.pop(), ()):
            if index.rows[child].kind not in CLASSLIKE:
                functions.append(child)
                scopes.append(child)
    receivers = {name for lang in target.languages.values() for name in lang.resolution.self_names}
    found = await store.calls_on_self(functions, receivers) if functions else []
    # A built-in base's members are known: only calls of those names can reach it.
    called = _members_of({base for bases in moved.values() for base in bases}, target.languages)
    found += [
        e
        for e in await store.calls_without_target_naming(names, called)
        if not names.isdisjoint(_IDENTIFIER.findall(f"{e[5]} {e[6]}"))  # not a longer name holding one
    ]
    return [e for e in dict((e[0], e) for e in found).values() if e[0] not in seen]


def _members_of(bases: set[str], languages: dict[str, Language]) -> set[str] | None:
    """The member names of these supertypes outside the index when each is a built-in type whose
    members its language lists (ResolutionRules.builtin_members: `builtins.Exception` has args,
    with_traceback, ...); None when one is not."""
    members: set[str] = set()
    for base in bases - {""}:  # ("": a base the index cannot name answers nothing)
        for language in languages.values():
            rules = language.resolution
            module, _, name = base.partition(rules.separator)
            if rules.builtins_module and module == rules.builtins_module and rules.builtin_members:
                prefix = name + rules.separator  # (none: not a type, nothing is called on it)
                members.update(m[len(prefix) :] for m in rules.builtin_members if m.startswith(prefix))
                break
        else:
            return None
    return members


def _imported_as(names: set[str], bindings: dict[int, Bindings]) -> set[str]:
    """The local names files import any of ``names`` as (`from tables import Table as T`), through
    chains of such imports."""
    # Only a name imported under another name matters (`from a import T` adds nothing new).
    renamed = [
        (local, {t.rpartition(".")[2] for t in targets})
        for binding in bindings.values()
        for local, targets in binding.names.items()
        if len(targets) != 1 or targets[0].rpartition(".")[2] != local
    ]
    wanted, found = set(names), set[str]()
    while True:
        more = {local for local, lasts in renamed if local not in wanted and not lasts.isdisjoint(wanted)}
        if not more:
            return found
        found |= more
        wanted |= more


async def calls_through_rebound(target: IndexTarget, rebound: set[int], already: list[tuple]) -> list[tuple]:
    """The calls through parameters of these functions (what other modules pass them changed;
    model.PARAMETER), but those in ``already``."""
    rows = target.state.symbols.rows
    alive = [f for f in rebound if f in rows]
    if not alive:
        return []
    seen = {e[0] for e in already}
    names = [rows[f].qualified_name for f in alive]
    found = await target.store.calls_through_parameters(alive, names)
    return [e for e in dict((e[0], e) for e in found).values() if e[0] not in seen]
