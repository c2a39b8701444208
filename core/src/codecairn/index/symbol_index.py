"""The in-memory symbol index: every symbol's identity and place, held as tuples.

Name search is answered from here, never from SQL ``LIKE`` scans: exact names from a dict,
prefixes by bisecting a sorted list, substrings of three letters or more through a trigram index,
shorter ones by one pass over that list, glob patterns by a regex over a newline-joined string
of the distinct lower-cased names, a slice at a time. The resolver uses the same maps.
"""

from __future__ import annotations

import bisect
import fnmatch
import re
import threading
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from itertools import accumulate, chain

from codecairn.index.name_order import NameOrder
from codecairn.index.passed import PassedValues
from codecairn.limits import GLOB_MAX_CHARS
from codecairn.model import IndexedSymbol

Ids = list[int] | tuple[int, ...]  # see SymbolIndex.by_name

GRAM = 3  # substring search goes through an index of this many letters
GRAM_SLACK = 100_000  # names listed again in the trigram index, beyond its size, before it is built anew
SEARCH_FOLLOW_LIMIT = 5000  # symbols added or removed at once: more, and name search is rebuilt
GLOB_SLICE_CHARS = 16 * 1024  # names matched between two looks at the stop flag (a few ms at worst)
GLOB_MAX_MATCHES = 50_000


class SymbolIndex:
    def __init__(self) -> None:
        self.rows: dict[int, IndexedSymbol] = {}
        # name / qualified name -> symbol ids: a tuple of the one id most names have (48 bytes where
        # a list took 72, and 280,000 of them on CPython's Lib), a list when there are more.
        self.by_name: dict[str, Ids] = {}
        self.by_qn: dict[str, Ids] = {}
        self.children: dict[int, list[int]] = defaultdict(list)
        self.by_file: dict[int, list[int]] = defaultdict(list)
        self.bases: dict[int, list[int]] = defaultdict(list)  # type id -> supertypes (resolved)
        # ...and the other way, kept with it: an edit that removes a file's types finds the types
        # that named them without a scan of every type's bases (3 ms an edit on CPython's Lib), and
        # the resolver and the hierarchy walk down without building the map per question.
        self.subtypes_of: dict[int, list[int]] = {}
        # Types with a supertype the index does not hold (`class A(SomeLibraryBase)`): a member
        # they lack may come from there, so nothing is inferred about it (resolver: flow).
        self.open_types: set[int] = set()
        # ...and of those, what each unresolved supertype is: type id -> {extends edge id: the dotted
        # name outside the index it names (`builtins.dict`, `http.server.BaseHTTPRequestHandler`),
        # "" when not even that is known}. A member no type of the index has is the one base's there.
        self.external_bases: dict[int, dict[int, str]] = {}
        self._external_base_changes: Counter[tuple[str, str]] = Counter()  # (type's qn, base): net links
        # (supertype, subtype's qualified name) -> links added less links removed since
        # take_hierarchy_changes(): what a mixin's `self.m()` reaches, and whether `super().m()`
        # ends at object, depend on a type's subtypes. By name: an edit that re-creates a class
        # (a new id, the same bases) changes nothing.
        self._hierarchy_changes: Counter[tuple[int, str]] = Counter()
        self._openness_changes: Counter[str] = Counter()  # the same for a type's being open
        # What a function returns (model.RETURNS): function id -> (target id, an instance of it?).
        self.returns: dict[int, tuple[int, bool]] = {}
        # What other modules' calls pass a function's parameters (model.PASSES).
        self.passed = PassedValues()
        # Name search (see _ensure_search): built on the first search, then kept current by add()
        # and remove_files() for small changes (an edit), rebuilt after large ones (an index run).
        # lower-cased name -> symbol ids (by_name's own tuple where one name has that lower case;
        # the name itself as the key where it is lower-case already: most of Python's)
        self._ids_by_lower: dict[str, tuple[int, ...]] = {}
        self._sorted: list[str] | None = None  # sorted distinct lower names
        self._blob: str | None = None  # "\n".join(_sorted), for globs
        self._before: list[int] | None = None  # see prefix_count
        self._order: NameOrder | None = None  # see order_keys()
        self._grams: dict[str, list[str]] | None = None  # see _ensure_grams()
        self._gram_postings = 0  # names the trigram lists hold, a name added again counted again
        self._gram_limit = 0  # past this many, the index is dropped and built again (install_grams)
        self._ancestry: dict[int, list[int]] = {}  # type id -> ancestors(), until bases change
        # One object for each kind and line number the rows hold, and for each file id (see add()).
        self._shared: dict[int | str, int | str] = {}
        self._file_ids: dict[int, int] = {}

    def __len__(self) -> int:
        return len(self.rows)

    def kinds(self) -> set[str]:
        """Every kind of symbol added (the strings of the shared values: the rest are numbers)."""
        return {value for value in self._shared if value.__class__ is str}

    # ---- maintenance --------------------------------------------------------------------------

    def add(self, rows: Iterable[tuple]) -> None:
        # Attribute access and IndexedSymbol(*r) are Python-level calls; this loop runs once per symbol
        # when a server starts (hundreds of thousands on a JDK), so it works on plain indexes.
        rows = rows if isinstance(rows, list) else list(rows)  # read twice: here and by name search
        by_id, by_name, by_qn, by_file, children = self.rows, self.by_name, self.by_qn, self.by_file, self.children
        new = tuple.__new__
        grams = self._grams
        # Each row read from the store or a worker brings its own objects for its kind, file id, parent
        # id and line numbers (ints above 256 are not cached): the row keeps the one object already
        # held for that value instead, and its parent's own id. 17 MB less for CPython's Lib.
        share, file_id = self._shared.setdefault, self._file_ids.setdefault
        for r in rows:
            sid, fid, parent, kind, name, qualified_name, start, end = r
            fid = file_id(fid, fid)
            if parent is not None:
                above = by_id.get(parent)
                parent = above[0] if above is not None else parent
                if (siblings := children.get(parent)) is None:
                    children[parent] = [sid]
                else:
                    siblings.append(sid)
            by_id[sid] = new(
                IndexedSymbol,
                (sid, fid, parent, share(kind, kind), name, qualified_name, share(start, start), share(end, end)),
            )
            # One id: a tuple (most qualified names, and half the names, are held by one symbol).
            if (same_name := by_name.get(name)) is None:
                by_name[name] = (sid,)
                if grams is not None:
                    self._add_grams(name)
            elif type(same_name) is list:
                same_name.append(sid)
            else:
                by_name[name] = [*same_name, sid]
            if (same_qn := by_qn.get(qualified_name)) is None:
                by_qn[qualified_name] = (sid,)
            elif type(same_qn) is list:
                same_qn.append(sid)
            else:
                by_qn[qualified_name] = [*same_qn, sid]
            by_file[fid].append(sid)
        if self._order is not None:
            if len(rows) > SEARCH_FOLLOW_LIMIT:
                self._order = None  # numbered anew by the next search: one sort, not a bisection each
            else:
                self._order.add(r[0] for r in rows)
        self._search_follows(added=rows)

    def remove_files(self, file_ids: Iterable[int]) -> set[int]:
        removed: set[int] = set()
        for fid in file_ids:
            removed.update(self.by_file.pop(fid, ()))
            self._file_ids.pop(fid, None)
        order = self._order
        if order is not None:  # before the rows go: placing a symbol reads its neighbours'
            if len(removed) > SEARCH_FOLLOW_LIMIT:
                self._order = None
            else:
                order.remove(self.rows[sid] for sid in removed if sid in self.rows)
        removed_rows = []
        # By name, each list filtered once: a common name's list (CPython's __init__: thousands of
        # ids) is not scanned again for every symbol of the file that goes.
        gone_by_name: dict[str, set[int]] = defaultdict(set)
        gone_subtypes: dict[int, set[int]] = defaultdict(set)  # the same for each supertype's list
        for sid in removed:
            s = self.rows.pop(sid)
            removed_rows.append(s)
            gone_by_name[s.name].add(sid)
            _discard_all(self.by_qn, s.qualified_name, {sid})
            if s.parent_id is not None:
                _discard(self.children, s.parent_id, sid)
            self.children.pop(sid, None)
            for base in self.bases.pop(sid, ()):
                self._hierarchy_changes[(base, s.qualified_name)] -= 1
                gone_subtypes[base].add(sid)
            self.returns.pop(sid, None)
            if sid in self.open_types:
                self.open_types.discard(sid)
                self._openness_changes[s.qualified_name] -= 1
            self._note_external_bases(s.qualified_name, self.external_bases.pop(sid, {}), -1)
        for name, sids in gone_by_name.items():
            _discard_all(self.by_name, name, sids)
        if removed:
            self._ancestry = {}
            for base, sids in gone_subtypes.items():
                if base in removed:
                    continue  # its list goes whole, below
                if kept_subtypes := [t for t in self.subtypes_of.get(base, ()) if t not in sids]:
                    self.subtypes_of[base] = kept_subtypes
                else:
                    self.subtypes_of.pop(base, None)
            named = {t for sid in removed for t in self.subtypes_of.pop(sid, ())}
            for tid in named - removed:  # types elsewhere whose supertypes went
                kept = [b for b in self.bases.get(tid, ()) if b not in removed]
                if kept:
                    self.bases[tid] = kept
                else:
                    self.bases.pop(tid, None)
            self._search_follows(removed=removed_rows)
        return removed

    def set_bases(self, pairs: Iterable[tuple[int, int]]) -> None:
        for source, target in pairs:
            lst = self.bases[source]
            if target not in lst and target != source:
                lst.append(target)
                self.subtypes_of.setdefault(target, []).append(source)
                if (sub := self.rows.get(source)) is not None:
                    self._hierarchy_changes[(target, sub.qualified_name)] += 1
                if self._ancestry:
                    self._ancestry = {}

    def mark_open(self, type_ids: Iterable[int]) -> None:
        """These types have a supertype the index does not hold (open_types)."""
        for tid in type_ids:
            if tid not in self.open_types and (row := self.rows.get(tid)) is not None:
                self.open_types.add(tid)
                self._openness_changes[row.qualified_name] += 1

    def set_external_base(self, type_ids: Iterable[int], edge_id: int, base: str | None) -> None:
        """What the supertype of edge ``edge_id`` is outside the index (see external_bases); None:
        the edge names none (it resolved, or names a harmless base)."""
        for tid in type_ids:
            row = self.rows.get(tid)
            if row is None:
                continue
            known = self.external_bases.get(tid, {})
            if known.get(edge_id) == base:
                continue
            self._note_external_bases(row.qualified_name, known, -1)
            if base is None:
                known.pop(edge_id, None)
            else:
                known[edge_id] = base
            if known:
                self.external_bases[tid] = known
            else:
                self.external_bases.pop(tid, None)
            self._note_external_bases(row.qualified_name, known, +1)

    def _note_external_bases(self, qualified_name: str, bases: dict[int, str], sign: int) -> None:
        """Count a type's bases outside the index in or out of the changes — only a type with one
        the index can name (Python's): the others answer nothing either way, and a Java class
        leaving the index must not send every call without a target to be resolved again."""
        if any(bases.values()):
            for outside in bases.values():
                self._external_base_changes[(qualified_name, outside)] += sign

    def take_external_base_changes(self) -> dict[str, set[str]]:
        """The types whose supertype outside the index changed (came, went, or is another) since
        the last call (then forgotten): qualified name -> the dotted names of the bases outside
        that came or went. Calls on such types resolved to (or left short of) those bases' members
        are then stale."""
        changes, self._external_base_changes = self._external_base_changes, Counter()
        moved: dict[str, set[str]] = {}
        for (qualified_name, outside), count in changes.items():
            if count:
                moved.setdefault(qualified_name, set()).add(outside)
        return moved

    def take_hierarchy_changes(self) -> set[int]:
        """The supertypes that gained or lost a direct subtype, or whose subtype became open or
        closed, since the last call (then forgotten)."""
        changes, self._hierarchy_changes = self._hierarchy_changes, Counter()
        openness, self._openness_changes = self._openness_changes, Counter()
        changed = {base for (base, _), net in changes.items() if net}
        for qn in (qn for qn, net in openness.items() if net):
            for sid in self.by_qn.get(qn, ()):
                changed.update(self.bases.get(sid, ()))
        return changed

    def _search_follows(self, added: list[tuple] | None = None, removed: list[IndexedSymbol] | None = None) -> None:
        """Keep the name-search structures current: an edit changes a few dozen names, and
        rebuilding them costs ~0.15 s on CPython's Lib — the first find_symbols after every edit
        would pay it. Large changes drop them instead (rebuilt by the next search)."""
        self._blob = None
        self._before = None
        if self._sorted is None:
            return
        added, removed = added or [], removed or []
        if len(added) + len(removed) > SEARCH_FOLLOW_LIMIT:
            self._sorted = None
            return
        ids_by_lower, names = self._ids_by_lower, self._sorted
        gone: dict[str, set[int]] = defaultdict(set)  # each name's tuple made again once, not once a symbol
        for sym in removed:
            gone[sym[4].lower()].add(sym[0])
        for lower, sids in gone.items():
            ids = ids_by_lower.get(lower)
            if ids is None:
                continue
            kept = tuple(i for i in ids if i not in sids)
            if kept:
                ids_by_lower[lower] = kept
            else:
                del ids_by_lower[lower]
                at = bisect.bisect_left(names, lower)
                if at < len(names) and names[at] == lower:
                    del names[at]
        for row in added:
            lower = _lower(row[4])
            ids = ids_by_lower.get(lower)
            if ids is None:
                ids_by_lower[lower] = (row[0],)
                bisect.insort(names, lower)
            else:
                ids_by_lower[lower] = (*ids, row[0])

    def order_keys(self, kind_rank: Callable[[str], int]) -> array:
        """symbol id -> its rank in name search's order (index/name_order.py): sort a match with
        ``key=ranks.__getitem__``. Built on the first search, then kept current by add() and
        remove_files()."""
        if self._order is None or self._order.kind_rank is not kind_rank:
            self._order = NameOrder(self.rows, kind_rank)
        return self._order.ranks

    def _ensure_search(self) -> None:
        if self._sorted is not None:
            return
        ids_by_lower: dict[str, tuple[int, ...]] = {}
        for name, ids in self.by_name.items():
            lower = _lower(name)
            found = ids_by_lower.get(lower)
            if found is None:
                ids_by_lower[lower] = ids if type(ids) is tuple else tuple(ids)
            else:
                ids_by_lower[lower] = (*found, *ids)
        self._ids_by_lower = ids_by_lower
        self._sorted = sorted(ids_by_lower)
        self._blob = self._before = None

    def _ensure_blob(self) -> str:
        self._ensure_search()
        if self._blob is None:
            self._blob = "\n".join(self._sorted or ())
        return self._blob

    def ids_of(self, lowers: list[str]) -> list[int]:
        """The symbols whose lower-cased name is one of ``lowers`` (exact, prefix, substring or glob matches)."""
        return list(chain.from_iterable(map(self._ids_by_lower.__getitem__, lowers)))

    def count_of(self, lowers: list[str]) -> int:
        return sum(map(len, map(self._ids_by_lower.__getitem__, lowers)))

    # ---- queries --------------------------------------------------------------------------------

    def ancestors(self, type_id: int) -> list[int]:
        """Supertypes breadth-first, nearest first, each once. Remembered until bases change:
        resolving a Java call walks the enclosing class's ancestry for nearly every bare name."""
        found = self._ancestry.get(type_id)
        if found is None:
            found = self._ancestry[type_id] = self._walk_ancestors(type_id)
        return found

    def forget_ancestry(self) -> None:
        """Drop the ancestors() memo: it fills while a run resolves, among the resolver's own
        short-lived objects, and its few thousand lists then kept 14 MB of the heap that held those
        (CPython's Lib, cold). Queries rebuild what they walk, a type at a time."""
        self._ancestry = {}

    def _walk_ancestors(self, type_id: int) -> list[int]:
        """Supertypes in method resolution order: the C3 linearization of the bases as declared —
        Python's MRO (`class Widget(BaseWidget, Pack)`: BaseWidget's own bases before Pack), and for
        single inheritance with interfaces the superclass chain before the interfaces. Breadth-first
        where the bases admit no linearization (an inconsistent or cyclic hierarchy)."""
        linear = self._linearized(type_id, set())
        return linear[1:] if linear is not None else self._breadth_first(type_id)

    def _linearized(self, type_id: int, visiting: set[int]) -> list[int] | None:
        if type_id in visiting:
            return None  # a cycle
        known = self._ancestry.get(type_id)
        if known is not None:
            return [type_id, *known]
        bases = [b for b in dict.fromkeys(self.bases.get(type_id, ())) if b != type_id]
        if not bases:
            return [type_id]
        visiting.add(type_id)
        sequences = []
        for base in bases:
            linear = self._linearized(base, visiting)
            if linear is None:
                return None
            self._ancestry[base] = linear[1:]
            sequences.append(linear)
        visiting.discard(type_id)
        sequences.append(bases)
        out = [type_id]
        while sequences := [q for q in sequences if q]:
            for sequence in sequences:  # the first head that is in no other sequence's tail
                head = sequence[0]
                if not any(head in q[1:] for q in sequences):
                    break
            else:
                return None  # no consistent order (Python itself refuses such a class)
            out.append(head)
            sequences = [q[1:] if q[0] == head else q for q in sequences]
        return out

    def _breadth_first(self, type_id: int) -> list[int]:
        out, seen, queue = [], {type_id}, list(self.bases.get(type_id, ()))
        while queue:
            nxt: list[int] = []
            for b in queue:
                if b not in seen:
                    seen.add(b)
                    out.append(b)
                    nxt.extend(self.bases.get(b, ()))
            queue = nxt
        return out

    def subtypes(self, type_id: int) -> list[int]:
        return list(self.subtypes_of.get(type_id, ()))

    def exact_matches(self, text: str) -> list[str]:
        """``[name]``, lower-cased, if some symbol is called ``text`` in any case; else ``[]``.
        Exact, prefix_matches and substring_matches are the three ranks of name search;
        ids_of() turns any of them into symbols."""
        self._ensure_search()
        needle = text.lower()
        return [needle] if needle in self._ids_by_lower else []

    def glob_tiers(self, pattern: str, found: list[str]) -> list[tuple[int, list[str]]]:
        """What glob_scan() ``found`` for ``pattern``, as tiers ``(rank, lower-cased names)``:
        0 the pattern itself as a name, 2 every other match still in the index."""
        needle = pattern.lower()
        found = self.known(found)
        exact = [needle] if needle in found else []
        return [(0, exact), (2, [lower for lower in found if lower != needle] if exact else found)]

    def glob_snapshot(self) -> str:
        """What glob_scan() searches: every distinct lower-cased name, one a line. A string, so it
        can be searched off the event loop while the index changes."""
        return self._ensure_blob()

    def known(self, lowers: list[str]) -> list[str]:
        """The ``lowers`` that still name symbols (the index may have changed during a scan)."""
        current = self._ids_by_lower
        return [lower for lower in lowers if lower in current]

    def _prefix_range(self, needle: str) -> tuple[int, int]:
        """Where the names that start with ``needle`` (lower-cased) sit in the sorted names."""
        self._ensure_search()
        assert self._sorted is not None
        first = bisect.bisect_left(self._sorted, needle)
        return first, bisect.bisect_left(self._sorted, needle + "\U0010ffff", first)

    def prefix_matches(self, text: str, cap: int = 50000) -> list[str]:
        """Lower-cased names that start with ``text`` and are longer."""
        needle = text.lower()
        first, last = self._prefix_range(needle)
        assert self._sorted is not None
        return [lower for lower in self._sorted[first:last][:cap] if lower != needle]

    def prefix_count(self, text: str) -> int:
        """How many symbols prefix_matches(text) names, without listing them."""
        needle = text.lower()
        first, last = self._prefix_range(needle)
        exact = self._ids_by_lower.get(needle)
        if self._before is None:
            # symbols before each sorted name: a prefix's count is one subtraction, whatever its size
            self._before = [0, *accumulate(map(len, map(self._ids_by_lower.__getitem__, self._sorted or ())))]
        return self._before[last] - self._before[first] - (len(exact) if exact else 0)

    def substring_matches(self, text: str, cap: int = 50000) -> list[str]:
        """Lower-cased names with ``needle`` inside but not at the start. Three letters or more:
        through the trigram index, touching only names that share the needle's rarest trigram;
        shorter: one pass over the sorted names (such a needle matches a large part of them)."""
        self._ensure_search()
        needle = text.lower()
        current = self._ids_by_lower
        if len(needle) >= GRAM:
            grams = self._ensure_grams()
            postings = [grams.get(needle[i : i + GRAM]) for i in range(len(needle) - GRAM + 1)]
            found = [p for p in postings if p]
            if len(found) < len(postings):
                return []
            rarest: list[str] = min(found, key=len)
            # dict.fromkeys: a name added again since the index was built is in the list again
            return [
                lower
                for lower in dict.fromkeys(rarest)
                if needle in lower and not lower.startswith(needle) and lower in current
            ][:cap]
        assert self._sorted is not None
        return [lower for lower in self._sorted if needle in lower and not lower.startswith(needle)][:cap]

    def _ensure_grams(self) -> dict[str, list[str]]:
        """trigram -> the lower-cased names that contain it. Built on the first substring
        search (or beforehand, off the event loop: gram_names / install_grams), then kept up to
        date by add(); names that went away stay in it and are filtered out by
        substring_matches (they are rare, and rebuilding costs ~0.3 s on 100 k names)."""
        if self._grams is None:
            names = self.gram_names()
            self.install_grams(build_grams(names), names)
        assert self._grams is not None
        return self._grams

    def grams_ready(self) -> bool:
        return self._grams is not None

    def gram_names(self) -> list[str]:
        """The lower-cased names a trigram index is built from, as they are now (for build_grams
        in a thread): the very strings name search holds, so the index lists them, not copies."""
        self._ensure_search()
        return list(self._ids_by_lower)

    def install_grams(self, grams: dict[str, list[str]], built_from: list[str]) -> None:
        """Take a trigram index build_grams() made from ``built_from``, adding the names that
        came since (the index changes while a thread builds it). A name that leaves and comes
        back (an edited file's) is listed again: past twice its first size plus some, the index
        is dropped, and the next substring search builds it anew."""
        if self._grams is not None:
            return  # another call built one first
        self._grams = grams
        self._gram_postings = sum(map(len, grams.values()))
        self._gram_limit = 2 * self._gram_postings + GRAM_SLACK
        self._ensure_search()
        for lower in self._ids_by_lower.keys() - set(built_from):
            self._gram_postings += _list_grams(grams, lower)

    def _add_grams(self, name: str) -> None:
        grams = self._grams
        if grams is None:  # dropped by an earlier name of the same add(): built anew when next asked
            return
        self._gram_postings += _list_grams(grams, _lower(name))
        if self._gram_postings > self._gram_limit:
            self._grams = None


def glob_regex(pattern: str) -> re.Pattern[str]:
    """A glob (``*``, ``?``, ``[...]``) as a regex over one line of the names blob.

    fnmatch (Python >= 3.11) turns every star but the last into an atomic lazy group,
    ``(?>.*?segment)``: a segment once found is never tried again, so the engine never
    backtracks exponentially ("*a*a*a*...b" costs no more than its length allows); matching one
    name costs at most its length times the pattern's, and the pattern is at most
    GLOB_MAX_CHARS long."""
    if len(pattern) > GLOB_MAX_CHARS:
        from codecairn.errors import BAD_ARGUMENT, ToolError, quoted

        raise ToolError(BAD_ARGUMENT, f"pattern {quoted(pattern)} is longer than {GLOB_MAX_CHARS} characters")
    body = fnmatch.translate(pattern).removeprefix("(?s:").removesuffix(")\\Z")
    return re.compile(f"^{body}$", re.M)


def glob_scan(
    regex: re.Pattern[str], blob: str, cap: int = GLOB_MAX_MATCHES, stop: threading.Event | None = None
) -> list[str]:
    """The lines of ``blob`` that ``regex`` matches (at most ``cap``), a slice of
    GLOB_SLICE_CHARS at a time: between slices, a thread running this sees ``stop`` (the call
    was cancelled or timed out) and gives up, and the event loop gets the interpreter's lock."""
    found: list[str] = []
    start, size = 0, len(blob)
    while start < size and len(found) < cap:
        if stop is not None and stop.is_set():
            raise TimeoutError("the glob search was stopped")
        end = blob.find("\n", start + GLOB_SLICE_CHARS)
        end = size if end < 0 else end
        # start is a line's first character, so ^ holds there; a class like [!x] can match the
        # newline between two names: such a "match" is no name.
        found.extend(m for m in regex.findall(blob, start, end) if "\n" not in m)
        start = end + 1
    return found[:cap]


def build_grams(lowers: list[str], stop: threading.Event | None = None) -> dict[str, list[str]]:
    """A trigram index of ``lowers``, lower-cased names (see SymbolIndex._ensure_grams): trigram ->
    the names that hold it. Lists, not sets: 8 MB on CPython's Lib where sets took 50 (a session's
    first find_symbols paid them). It reads nothing but its arguments, so a thread can build it:
    on JDK's 120 k names it takes over a second."""
    grams: dict[str, list[str]] = {}
    for n, lower in enumerate(lowers):
        if stop is not None and n % 10_000 == 0 and stop.is_set():
            raise TimeoutError("building the substring index was stopped")
        _list_grams(grams, lower)
    return grams


def _lower(name: str) -> str:
    """``name`` lower-cased: the name itself when it is lower-case already (str.lower() makes a
    new string every time; 37 k of CPython's 51 k distinct names are lower-case)."""
    lower = name.lower()
    return name if lower == name else lower


def _list_grams(grams: dict[str, list[str]], lower: str) -> int:
    """List ``lower`` under each trigram it holds (once each); how many that was."""
    held = {lower[i : i + GRAM] for i in range(len(lower) - GRAM + 1)}
    for gram in held:
        if (names := grams.get(gram)) is None:
            grams[gram] = [lower]
        else:
            names.append(lower)
    return len(held)


def _discard_all(mapping: dict[str, Ids], key: str, values: set[int]) -> None:
    """Take ``values`` out of ``key``'s ids in by_name or by_qn (a tuple of one, or a list)."""
    ids = mapping.get(key)
    if ids is not None and not values.isdisjoint(ids):
        kept = [v for v in ids if v not in values]
        if not kept:
            del mapping[key]
        else:
            mapping[key] = kept if len(kept) > 1 else (kept[0],)


def _discard(mapping: dict, key, value) -> None:
    lst = mapping.get(key)
    if lst is not None:
        try:
            lst.remove(value)
        except ValueError:
            pass
        if not lst:
            del mapping[key]
