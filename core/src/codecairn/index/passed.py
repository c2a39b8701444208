"""What calls in other modules pass a function's parameters (model.PASSES), for the calls made
through those parameters (model.PARAMETER): ``util.apply(callback)`` in main.py binds
``apply``'s ``f``, so ``f()`` inside ``apply`` calls ``main.callback``.

Kept per passes edge, so an edit replaces exactly what its file's calls passed, and counted per
function and parameter, so a lookup is one dict access. A parameter a few callers pass different
functions is an edge to each (model.ALSO); one passed more than MAX_VALUES is left as it was. A
value the extractor could not name (a local, a lambda) is not counted: the edge to the one that is
known is still a call that happens, only maybe not the only one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Iterable

from codecairn.model import INSTANCE, PASSED

# The most values a parameter's calls are followed to. A function handed more different ones is a
# dispatcher (a test helper given every case, a registry's runner): an edge to each of dozens of
# callbacks is a list of candidates, not an answer to "what does this call run?", and it would
# write every call through the parameter that many times. Callbacks with a few implementations
# (a sync and an async one, a handler per format) stay within it.
MAX_VALUES = 4

# (file id of the call, function id, parameter key, value id, an instance of it?). A key is a
# position as a call writes it (past ``self``: the extractor counts a method's parameters so) or
# "=" and a name.
Entry = tuple[int, int, str, int, bool]


def encoded(value: int, instance: bool) -> str:
    """The value as a passes edge's resolution column holds it."""
    return f"{PASSED}{value}{INSTANCE if instance else ''}"


def decoded(resolution: str) -> tuple[int, bool] | None:
    if resolution[:1] != PASSED:
        return None
    instance = resolution.endswith(INSTANCE)
    digits = resolution[1 : -len(INSTANCE)] if instance else resolution[1:]
    return (int(digits), instance) if digits.isdigit() else None


class PassedValues:
    def __init__(self) -> None:
        self.by_edge: dict[int, Entry] = {}
        self._by_file: dict[int, set[int]] = {}
        # function id -> parameter key -> (value id, instance) -> how many calls pass it
        self._by_function: dict[int, dict[str, Counter[tuple[int, bool]]]] = {}

    def __len__(self) -> int:
        return len(self.by_edge)

    def clear(self) -> None:
        """Every passes edge is resolved again."""
        self.by_edge.clear()
        self._by_file.clear()
        self._by_function.clear()

    def put(self, eid: int, entry: Entry | None) -> set[int]:
        """Set (or, with None, drop) what one passes edge binds; the functions whose bindings changed."""
        changed = self._drop(eid)
        if entry is not None:
            file_id, function, key, value, instance = entry
            self.by_edge[eid] = entry
            self._by_file.setdefault(file_id, set()).add(eid)
            self._by_function.setdefault(function, {}).setdefault(key, Counter())[(value, instance)] += 1
            changed.add(function)
        return changed

    def _drop(self, eid: int) -> set[int]:
        old = self.by_edge.pop(eid, None)
        if old is None:
            return set()
        file_id, function, key, value, instance = old
        if (eids := self._by_file.get(file_id)) is not None:
            eids.discard(eid)
            if not eids:
                del self._by_file[file_id]
        keys = self._by_function[function]
        counts = keys[key]
        counts[(value, instance)] -= 1
        if counts[(value, instance)] <= 0:
            del counts[(value, instance)]
            if not counts:
                del keys[key]
                if not keys:
                    del self._by_function[function]
        return {function}

    def forget_files(self, file_ids: Iterable[int]) -> set[int]:
        """Drop what the calls in these files passed (their edges are written again, or gone)."""
        changed: set[int] = set()
        for fid in file_ids:
            for eid in list(self._by_file.get(fid, ())):
                changed |= self._drop(eid)
        return changed

    def settle(
        self, rewritten: Iterable[int], files: Container[int], symbols: Container[int]
    ) -> tuple[set[int], list[int]]:
        """After a write: drop what the calls of rewritten or deleted files passed (their edges are
        new, or gone), and find the passes edges whose function or value went away (they must be
        resolved again: the symbol may be there under a new id). (functions whose bindings
        changed, those edges' ids)."""
        rebound = self.forget_files(rewritten)
        rebound |= self.forget_files([fid for fid in self._by_file if fid not in files])
        stale = [eid for eid, e in self.by_edge.items() if e[1] not in symbols or e[3] not in symbols]
        return rebound, stale

    def bound(self, function: int, position: str, name: str) -> tuple[int, bool] | None:
        """The one value known to reach this parameter, or None (none, or several)."""
        values = self.values(function, position, name)
        return values[0] if len(values) == 1 else None

    def values(self, function: int, position: str, name: str) -> list[tuple[int, bool]]:
        """The values known to reach this parameter, by id; none when more than MAX_VALUES do."""
        keys = self._by_function.get(function)
        if keys is None:
            return []
        values: set[tuple[int, bool]] = set()
        for key in (position, "=" + name) if position else ("=" + name,):
            values.update(keys.get(key, ()))
        return sorted(values) if len(values) <= MAX_VALUES else []
