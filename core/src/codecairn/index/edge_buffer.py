"""A first index's edges, held in memory until every symbol is known, then resolved and inserted once.

Held column-wise, with the repeated strings (call targets, receivers, kinds) interned: as one tuple
per edge, CPython's Lib (336k edges) took ≈ 110 MB of the main process — each tuple, its ints and
its own copy of every unpickled string; as columns, ≈ 25 MB.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator
from itertools import repeat
from operator import itemgetter

from codecairn.model import RESOLVED_FIRST, Relation

NO_SOURCE = -1  # a file-level edge: source_id NULL
_KIND, _SOURCE, _TARGET, _LINE, _RECEIVER, _RECEIVER_TYPE = map(itemgetter, range(6))  # Relation's fields


class EdgeBuffer:
    def __init__(self) -> None:
        self.ids = array("q")
        self.file_ids = array("q")
        self.sources = array("q")
        self.lines = array("q")
        self.kinds: list[str] = []
        self.targets: list[str] = []
        self.receivers: list[str] = []
        self.receiver_types: list[str] = []
        self.written = 0  # edges [0, written) are in the store already

    def add_file(self, first_id: int, file_id: int, first_symbol: int, relations: list[Relation]) -> None:
        """One file's relations, as numbered by Store.write_batch: edge ids from ``first_id``,
        symbol indexes offset by ``first_symbol``. Column by column, in C loops where it can."""
        n = len(relations)
        if not n:
            return
        intern = sys.intern
        self.ids.extend(range(first_id, first_id + n))
        self.file_ids.extend(repeat(file_id, n))
        self.sources.extend([first_symbol + s if s >= 0 else NO_SOURCE for s in map(_SOURCE, relations)])
        self.lines.extend(map(_LINE, relations))
        self.kinds.extend(map(intern, map(_KIND, relations)))
        self.targets.extend(map(intern, map(_TARGET, relations)))
        self.receivers.extend(map(intern, map(_RECEIVER, relations)))
        self.receiver_types.extend(map(intern, map(_RECEIVER_TYPE, relations)))

    def resolved_first(self) -> list[tuple]:
        """The extends/implements and returns edges as the resolver takes them:
        (id, file_id, kind, source_id, target, receiver, receiver_type)."""
        return [self._resolver_row(i) for i, kind in enumerate(self.kinds) if kind in RESOLVED_FIRST]

    def _resolver_row(self, i: int) -> tuple:
        source = self.sources[i]
        return (
            self.ids[i],
            self.file_ids[i],
            self.kinds[i],
            None if source == NO_SOURCE else source,
            self.targets[i],
            self.receivers[i],
            self.receiver_types[i],
        )

    def chunks(self, size: int) -> Iterator[tuple[int, list[tuple], array]]:
        """The edges not written yet, in order, ``size`` at a time: (position, edges as the
        resolver takes them, their call-site lines)."""
        for start in range(self.written, len(self.ids), size):
            end = start + size
            sources = [None if s == NO_SOURCE else s for s in self.sources[start:end]]
            yield (
                start,
                list(
                    zip(
                        self.ids[start:end],
                        self.file_ids[start:end],
                        self.kinds[start:end],
                        sources,
                        self.targets[start:end],
                        self.receivers[start:end],
                        self.receiver_types[start:end],
                    )
                ),
                self.lines[start:end],
            )
