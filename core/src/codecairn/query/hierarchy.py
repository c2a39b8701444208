"""A type's place among types: its ancestors and descendants through the resolved supertypes
(extends, implements, Rust trait impls, Go embedding), Go's implicit interface satisfaction read
off method sets, and the methods a descendant overrides.

Go types never say which interfaces they implement: a type satisfies an interface when its method
set has every method the interface (with what it embeds) declares. That is decided here by method
*names* over the indexed code, and such links are labelled ``method-set``, apart from the ones the
code states; the type_hierarchy tool then compares the methods' signatures (tools/method_shapes.py),
which live in the store, not in memory.
"""

from __future__ import annotations

from collections import defaultdict

from codecairn.index.state import IndexState
from codecairn.model import TYPE_KINDS, Hierarchy, TypeLink

METHOD_SET = "method-set"  # how a Go interface satisfaction was found
_MEMBER_KINDS = frozenset({"method", "function", "constructor"})


class MethodSets:
    """Go methods by the qualified name of their receiver type, and interfaces' declared methods;
    built once per index generation (the caller keeps it)."""

    def __init__(self, state: IndexState) -> None:
        self.generation = state.generation
        rows = state.symbols.rows
        go_files = {f.id for f in state.files_by_id.values() if f.language == "go"}
        self.methods: dict[str, set[str]] = defaultdict(set)  # receiver type qn -> method names
        self.interfaces: list[int] = []
        self.types: list[int] = []  # the other Go types: what may satisfy an interface
        self._sets: dict[int, set[str]] = {}
        for s in rows.values():
            if s.file_id not in go_files:
                continue
            if s.kind == "method" and "." in s.qualified_name:
                parent = rows.get(s.parent_id) if s.parent_id is not None else None
                if parent is None or parent.kind != "interface":
                    self.methods[s.qualified_name.rsplit(".", 1)[0]].add(s.name)
            elif s.kind == "interface":
                self.interfaces.append(s.id)
            elif s.kind in TYPE_KINDS:
                self.types.append(s.id)

    def method_set(self, state: IndexState, type_id: int) -> set[str]:
        """A type's methods with those its embedded types promote (`type Alloc struct { register }`
        has register's, and what register embeds in turn; an embedded interface gives its own)."""
        known = self._sets.get(type_id)
        if known is not None:
            return known
        rows = state.symbols.rows
        out: set[str] = set()
        for tid in [type_id, *state.symbols.ancestors(type_id)]:
            t = rows.get(tid)
            if t is None:
                continue
            out |= self.required(state, tid) if t.kind == "interface" else self.methods.get(t.qualified_name, set())
        self._sets[type_id] = out
        return out

    def required(self, state: IndexState, interface_id: int) -> set[str]:
        """The methods an interface asks for: its own and those of the interfaces it embeds."""
        rows = state.symbols.rows
        out: set[str] = set()
        for tid in [interface_id, *state.symbols.ancestors(interface_id)]:
            out.update(
                rows[c].name for c in state.symbols.children.get(tid, ()) if c in rows and rows[c].kind == "method"
            )
        return out

    def satisfied_by(self, state: IndexState, interface_id: int) -> list[int]:
        """Go types (not interfaces) whose method set covers the interface's methods."""
        need = self.required(state, interface_id)
        if not need:
            return []  # `interface{}` / `any`: everything satisfies it, which says nothing
        rows = state.symbols.rows
        return sorted(t for t in self.types if t in rows and need <= self.method_set(state, t))

    def satisfies(self, state: IndexState, type_id: int) -> list[int]:
        rows = state.symbols.rows
        sym = rows.get(type_id)
        if sym is None:
            return []
        if sym.kind == "interface":
            return []  # what an interface embeds is its base already
        have = self.method_set(state, type_id)
        return [i for i in self.interfaces if i != type_id and (need := self.required(state, i)) and need <= have]


def hierarchy(state: IndexState, type_id: int, depth: int, limit: int, method_sets: MethodSets | None) -> Hierarchy:
    """Ancestors and descendants of ``type_id``, breadth-first to ``depth``, at most ``limit`` of each."""
    index = state.symbols
    result = Hierarchy(type_id)
    subtypes = index.subtypes_of

    def up(tid: int) -> list[tuple[int, str]]:
        found = [(b, "") for b in index.bases.get(tid, ())]
        if method_sets is not None:
            found += [(i, METHOD_SET) for i in method_sets.satisfies(state, tid) if i not in index.bases.get(tid, ())]
        return found

    def down(tid: int) -> list[tuple[int, str]]:
        found = [(s, "") for s in sorted(subtypes.get(tid, ()))]
        if method_sets is not None and state.symbols.rows.get(tid) and state.symbols.rows[tid].kind == "interface":
            stated = set(subtypes.get(tid, ()))
            found += [(s, METHOD_SET) for s in method_sets.satisfied_by(state, tid) if s not in stated]
        return found

    for links, step in ((result.ancestors, up), (result.descendants, down)):
        seen = {type_id}
        frontier = [type_id]
        for level in range(1, depth + 1):
            nxt = []
            for near in frontier:
                for far, how in step(near):
                    if far in seen or far not in index.rows:
                        continue
                    seen.add(far)
                    if len(links) >= limit:
                        result.cut += 1
                        continue
                    links.append(TypeLink(near, far, level, how))
                    nxt.append(far)
            frontier = nxt
    return result


def overriding(
    state: IndexState, type_id: int, descendants: list[int], members: MembersByOwner
) -> dict[str, list[int]]:
    """Method name of ``type_id`` -> the descendants' methods of that name (the overrides), for
    every method of the type some descendant declares again."""
    rows = state.symbols.rows
    sym = rows.get(type_id)
    if sym is None:
        return {}
    own = {rows[m].name for m in members.of(state, type_id)}
    out: dict[str, list[int]] = defaultdict(list)
    for d in descendants:
        for m in members.of(state, d):
            if rows[m].name in own:
                out[rows[m].name].append(m)
    return dict(out)


class MembersByOwner:
    """A type's methods: its children, and the methods declared away from it that its qualified
    name prefixes (Go methods in another file, Rust impl blocks). Qualified names are kept sorted
    once per index generation, so the second kind is a bisection, not a scan."""

    def __init__(self, state: IndexState) -> None:
        self.generation = state.generation
        self._keys = sorted(state.symbols.by_qn)

    def of(self, state: IndexState, type_id: int) -> list[int]:
        import bisect

        index = state.symbols
        rows = index.rows
        sym = rows.get(type_id)
        if sym is None:
            return []
        found = [c for c in index.children.get(type_id, ()) if c in rows and rows[c].kind in _MEMBER_KINDS]
        for sep in (".", "::"):
            prefix = sym.qualified_name + sep
            lo = bisect.bisect_left(self._keys, prefix)
            hi = bisect.bisect_left(self._keys, prefix + "\U0010ffff", lo)
            for key in self._keys[lo:hi]:
                rest = key[len(prefix) :]
                if "." in rest or "::" in rest:
                    continue
                found.extend(i for i in index.by_qn.get(key, ()) if i in rows and rows[i].kind in _MEMBER_KINDS)
        return list(dict.fromkeys(found))
