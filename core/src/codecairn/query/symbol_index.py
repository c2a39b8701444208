"""The in-memory symbol index: every symbol's identity and place, held as tuples.

Name search is answered from here, never from SQL ``LIKE`` scans: exact names from a dict,
prefixes by bisecting a sorted list, substrings and glob patterns by one regex pass over a single
newline-joined string of distinct lower-cased names. The resolver uses the same maps.
"""

from __future__ import annotations

import bisect
import fnmatch
import re
from collections import defaultdict
from collections.abc import Iterable
from typing import NamedTuple


class Sym(NamedTuple):
    id: int
    file_id: int
    parent_id: int | None
    kind: str
    name: str
    qualified_name: str
    start_line: int
    end_line: int


class SymbolIndex:
    def __init__(self) -> None:
        self.rows: dict[int, Sym] = {}
        self.by_name: dict[str, list[int]] = defaultdict(list)
        self.by_qn: dict[str, list[int]] = defaultdict(list)
        self.children: dict[int, list[int]] = defaultdict(list)
        self.by_file: dict[int, list[int]] = defaultdict(list)
        self.bases: dict[int, list[int]] = defaultdict(list)       # type id -> supertypes (resolved)
        self._lower: dict[str, list[str]] = {}                     # lower name -> names
        self._sorted: list[str] | None = None                      # sorted distinct lower names
        self._blob: str | None = None                              # "\n".join(_sorted)
        self._offsets: list[int] | None = None
        self._ancestry: dict[int, list[int]] = {}                  # type id -> ancestors(), until bases change

    def __len__(self) -> int:
        return len(self.rows)

    # ---- maintenance --------------------------------------------------------------------------

    def add(self, rows: Iterable[tuple]) -> None:
        # Attribute access and Sym(*r) are Python-level calls; this loop runs once per symbol
        # when a server starts (hundreds of thousands on a JDK), so it works on plain indexes.
        by_id, by_name, by_qn, by_file, children = self.rows, self.by_name, self.by_qn, self.by_file, self.children
        new = tuple.__new__
        for r in rows:
            sid = r[0]
            by_id[sid] = new(Sym, r)
            by_name[r[4]].append(sid)
            by_qn[r[5]].append(sid)
            by_file[r[1]].append(sid)
            if r[2] is not None:
                children[r[2]].append(sid)
        self._invalidate_search()

    def remove_files(self, file_ids: Iterable[int]) -> set[int]:
        removed: set[int] = set()
        for fid in file_ids:
            removed.update(self.by_file.pop(fid, ()))
        for sid in removed:
            s = self.rows.pop(sid)
            _discard(self.by_name, s.name, sid)
            _discard(self.by_qn, s.qualified_name, sid)
            if s.parent_id is not None:
                _discard(self.children, s.parent_id, sid)
            self.children.pop(sid, None)
            self.bases.pop(sid, None)
        if removed:
            self._ancestry = {}
            for tid in list(self.bases):
                kept = [b for b in self.bases[tid] if b not in removed]
                if kept:
                    self.bases[tid] = kept
                else:
                    del self.bases[tid]
            self._invalidate_search()
        return removed

    def set_bases(self, pairs: Iterable[tuple[int, int]]) -> None:
        for source, target in pairs:
            lst = self.bases[source]
            if target not in lst and target != source:
                lst.append(target)
                if self._ancestry:
                    self._ancestry = {}

    def _invalidate_search(self) -> None:
        self._sorted = self._blob = self._offsets = None

    def _ensure_search(self) -> None:
        if self._sorted is not None:
            return
        lower: dict[str, list[str]] = {}
        for name in self.by_name:
            lower.setdefault(name.lower(), []).append(name)
        self._lower = lower
        self._sorted = sorted(lower)
        self._blob = "\n".join(self._sorted)
        offsets, pos = [], 0
        for name in self._sorted:
            offsets.append(pos)
            pos += len(name) + 1
        self._offsets = offsets

    # ---- queries --------------------------------------------------------------------------------

    def ancestors(self, type_id: int) -> list[int]:
        """Supertypes breadth-first, nearest first, each once. Remembered until bases change:
        resolving a Java call walks the enclosing class's ancestry for nearly every bare name."""
        found = self._ancestry.get(type_id)
        if found is None:
            found = self._ancestry[type_id] = self._walk_ancestors(type_id)
        return found

    def _walk_ancestors(self, type_id: int) -> list[int]:
        out, seen, queue = [], {type_id}, list(self.bases.get(type_id, ()))
        while queue:
            nxt = []
            for b in queue:
                if b not in seen:
                    seen.add(b)
                    out.append(b)
                    nxt.extend(self.bases.get(b, ()))
            queue = nxt
        return out

    def subtypes(self, type_id: int) -> list[int]:
        return [t for t, bases in self.bases.items() if type_id in bases]

    def match_names(self, text: str, *, pattern: bool = False, cap: int = 20000) -> list[tuple[int, str]]:
        """Names matching ``text`` as ``(rank, name)``: 0 exact, 1 prefix, 2 substring (or glob).
        Case-insensitive. At most ``cap`` distinct names."""
        self._ensure_search()
        assert self._sorted is not None and self._blob is not None and self._offsets is not None
        needle = text.lower()
        out: list[tuple[int, str]] = []
        if pattern:
            regex = re.compile("^" + fnmatch.translate(needle).removeprefix("(?s:").removesuffix(")\\Z") + "$", re.M)
            for m in regex.finditer(self._blob):
                lower = m.group(0)
                rank = 0 if lower == needle else 2
                out.extend((rank, n) for n in self._lower[lower])
                if len(out) >= cap:
                    break
            return out
        seen: set[str] = set()
        if needle in self._lower:
            out.extend((0, n) for n in self._lower[needle])
            seen.add(needle)
        i = bisect.bisect_left(self._sorted, needle)
        while i < len(self._sorted) and self._sorted[i].startswith(needle) and len(out) < cap:
            lower = self._sorted[i]
            if lower not in seen:
                seen.add(lower)
                out.extend((1, n) for n in self._lower[lower])
            i += 1
        if not needle:
            return out
        blob, offsets, start = self._blob, self._offsets, 0
        while len(out) < cap:
            pos = blob.find(needle, start)
            if pos < 0:
                break
            idx = bisect.bisect_right(offsets, pos) - 1
            lower = self._sorted[idx]
            if lower not in seen:
                seen.add(lower)
                out.extend((2, n) for n in self._lower[lower])
            start = offsets[idx] + len(lower) + 1   # next name
        return out


def _discard(mapping: dict, key, value) -> None:
    lst = mapping.get(key)
    if lst is not None:
        try:
            lst.remove(value)
        except ValueError:
            pass
        if not lst:
            del mapping[key]
