"""Symbols by name: exact > prefix > substring, or a glob pattern, filtered by kinds, a path prefix
and a language — from the in-memory index, never from SQL scans.

Ranks are looked up in order and only as far as the answer needs them: a rank after the first
``wanted`` results is only counted, and the names that merely contain the needle are not even
counted once the exact and prefix matches fill the answer (the total is then a lower bound).
Work that can take a second on a large index (a glob over every name, building the substring
index) runs in a thread, a slice at a time, so the event loop keeps answering and a cancelled call
stops working.
"""

from __future__ import annotations

import asyncio
import fnmatch
import heapq
import re
import threading
from collections.abc import Callable, Iterable
from typing import NamedTuple

from codecairn.errors import BAD_ARGUMENT, ToolError, quoted
from codecairn.index.state import IndexState
from codecairn.index.symbol_index import GLOB_SLICE_CHARS, GRAM, build_grams, glob_regex, glob_scan
from codecairn.model import CALLABLE_KINDS, CONTAINER_KINDS, DATA_KINDS, IndexedSymbol
from codecairn.query.lookup import kind_rank, name_parts

Keep = Callable[[IndexedSymbol], bool]
SHARED_KINDS = CALLABLE_KINDS | CONTAINER_KINDS | DATA_KINDS  # the model's kinds, in any language


class NameFound(NamedTuple):
    """A name search's listed symbols in answer order, how many it lists in all (a lower bound
    when ``at_least``), and how many more matched in tiers it only counts."""

    ranked: list[int]
    total: int
    at_least: bool
    unlisted: dict[str, int]


def symbol_filter(
    state: IndexState, kinds: Iterable[str] | None, prefix: str | None, language: str | None
) -> Keep | None:
    """A predicate for kinds, a root-relative path prefix ("" = everything) and a language; None
    when nothing filters."""
    wanted = set(kinds) if kinds else None
    if wanted is None and not prefix and not language:
        return None
    files = state.files_by_id
    under = prefix.rstrip("/") + "/" if prefix else ""

    def keep(sym: IndexedSymbol) -> bool:
        if wanted is not None and sym.kind not in wanted:
            return False
        if prefix or language:
            f = files.get(sym.file_id)
            if f is None:
                return False
            if prefix and not (f.path == prefix or f.path.startswith(under)):
                return False
            if language and f.language != language:
                return False
        return True

    return keep


def check_kinds(kinds: Iterable[str] | None, present: set[str]) -> None:
    """Refuse kinds no language has and the index holds none of (``Function``, ``nonsense``): a
    filter that can only ever answer nothing is a mistake to say, not an empty answer. (``present``
    is built from the whole index: ask only when kinds are given.)"""
    known = SHARED_KINDS | present
    unknown = sorted(k for k in kinds or () if k not in known)
    if unknown:
        raise ToolError(BAD_ARGUMENT, f"unknown kind {', '.join(map(quoted, unknown))}", kinds=sorted(known))


def qualified(name: str, keep: Keep | None) -> tuple[str, Keep | None]:
    """``Console.print`` (``rich.console.Console``, ``fmt::Display``): the name searched is the last
    part, and only symbols whose qualified name ends in the parts before it (any case) are kept,
    as get_symbol reads a suffix of a qualified name. A plain name comes back as it is."""
    parts = name_parts(name)
    if len(parts) < 2:
        return name, keep
    wanted = [p.lower() for p in parts[:-1]]
    before = -len(wanted) - 1

    def in_qualifier(sym: IndexedSymbol) -> bool:
        if keep is not None and not keep(sym):
            return False
        return [p.lower() for p in name_parts(sym.qualified_name)[before:-1]] == wanted

    return parts[-1], in_qualifier


class NameSearch:
    """Name search over one IndexState (its SymbolIndex is replaced by a full re-load: always
    read it through the state)."""

    def __init__(self, state: IndexState) -> None:
        self.state = state
        self._grams_lock = asyncio.Lock()

    async def find(
        self, name: str | None, pattern: str | None, keep: Keep | None, wanted: int
    ) -> tuple[list[int], int, bool]:
        """The first ``wanted`` symbol ids in answer order, how many match in all, and whether that
        count is a lower bound. Neither name nor pattern: every symbol (``keep`` narrows)."""
        index = self.state.symbols
        rows = index.rows
        tiers: list[tuple[int, list[str] | None]]
        if pattern and pattern != pattern.lower():
            # Smart case, as ripgrep's: a pattern with capitals matches case-sensitively — `[A-Z]*Error`
            # asks for Go's exported names, `Test*` for its tests (hasError and testValue were listed)
            cased, inner = re.compile(fnmatch.translate(pattern)), keep
            keep = lambda s: cased.match(s.name) is not None and (inner is None or inner(s))  # noqa: E731
        if pattern:
            tiers = list(await self._glob(pattern))
        elif name:  # prefixes and substrings are looked up below, only as far as they matter
            tiers = [(0, index.exact_matches(name)), (1, None), (2, None)]
        else:
            tiers = [(0, None)]  # every symbol
        ranked: list[int] = []  # the first `wanted` + 1 symbol ids, in answer order
        total = 0
        at_least = False
        order = index.order_keys(kind_rank)
        for rank, lowers in sorted(tiers, key=lambda t: t[0]):
            room = wanted + 1 - len(ranked)
            if rank == 1 and lowers is None and name:
                if room <= 0 and keep is None:
                    total += index.prefix_count(name)
                    continue
                lowers = index.prefix_matches(name)
            if rank == 2 and lowers is None and name:
                if room <= 0:
                    # Matches enough already, and counting the names that merely contain the
                    # needle would cost more than the whole answer (for "tes", tens of
                    # thousands): say "at least".
                    at_least = True
                    continue
                if len(name) >= GRAM and not index.grams_ready():
                    await self._build_grams()
                lowers = index.substring_matches(name)
            if room <= 0 and keep is None and lowers is not None:
                total += index.count_of(lowers)
                continue
            ids = list(rows) if lowers is None else index.ids_of(lowers)
            if keep is not None:
                ids = [sid for sid in ids if keep(rows[sid])]
            total += len(ids)
            if room > 0:
                ranked.extend(
                    heapq.nsmallest(room, ids, key=order.__getitem__)
                    if len(ids) > 4 * room
                    else sorted(ids, key=order.__getitem__)[:room]
                )
        return ranked, total, at_least

    async def find_name(self, name: str, keep: Keep | None, wanted: int, match: str | None) -> NameFound:
        """Symbols called ``name``, in tiers: exact (same case; any case when none has the same),
        other case, prefix, substring. ``match`` says which tiers are listed; the others are only
        counted. None: the exact tier when it has any match, else every tier (as "substring")."""
        index = self.state.symbols
        rows = index.rows
        exact_any_case = index.ids_of(index.exact_matches(name))
        if keep is not None:
            exact_any_case = [sid for sid in exact_any_case if keep(rows[sid])]
        exact = [sid for sid in exact_any_case if rows[sid].name == name]
        other_case = [sid for sid in exact_any_case if rows[sid].name != name]
        if not exact:
            exact, other_case = other_case, []
        if match is None:
            match = "exact" if exact else "substring"
        if match == "exact":
            listed = [exact]
        elif match == "prefix":
            listed = [exact, other_case, self._prefix_ids(name, keep)]
        else:
            found, total, at_least = await self.find(name, None, keep, wanted)
            if exact and other_case:  # the same case first, then the others, as in the other modes
                same = set(exact)
                found = [sid for sid in found if sid in same] + [sid for sid in found if sid not in same]
            return NameFound(found, total, at_least, {})
        order = index.order_keys(kind_rank)
        ranked: list[int] = []
        for ids in listed:
            room = wanted + 1 - len(ranked)
            if room > 0:
                ranked.extend(heapq.nsmallest(room, ids, key=order.__getitem__))
        unlisted: dict[str, int] = {}
        if match == "exact":
            unlisted["other_case"] = len(other_case)
            unlisted["prefix"] = len(self._prefix_ids(name, keep)) if keep is not None else index.prefix_count(name)
        unlisted["substring"] = await self._substring_count(name, keep)
        return NameFound(ranked, sum(map(len, listed)), False, {k: n for k, n in unlisted.items() if n})

    def _prefix_ids(self, name: str, keep: Keep | None) -> list[int]:
        index = self.state.symbols
        ids = index.ids_of(index.prefix_matches(name))
        return ids if keep is None else [sid for sid in ids if keep(index.rows[sid])]

    async def _substring_count(self, name: str, keep: Keep | None) -> int:
        index = self.state.symbols
        if len(name) >= GRAM and not index.grams_ready():
            await self._build_grams()
        lowers = index.substring_matches(name)
        if keep is None:
            return index.count_of(lowers)
        rows = index.rows
        return sum(1 for sid in index.ids_of(lowers) if keep(rows[sid]))

    async def _glob(self, pattern: str) -> list[tuple[int, list[str]]]:
        """Glob matches as tiers; a large index is scanned in a thread, a slice at a time, so the
        event loop keeps answering and a timed-out call stops scanning (see glob_scan)."""
        index = self.state.symbols
        regex = glob_regex(pattern.lower())
        names = index.glob_snapshot()
        if len(names) <= GLOB_SLICE_CHARS:
            return index.glob_tiers(pattern, glob_scan(regex, names))
        stop = threading.Event()
        try:
            found = await asyncio.to_thread(glob_scan, regex, names, stop=stop)
        finally:
            stop.set()  # cancelled or timed out: the thread gives up at its next slice
        return index.glob_tiers(pattern, found)

    async def _build_grams(self) -> None:
        """The substring index is built on the first substring search; on a large index that is
        a second or more of work, done in a thread so that other calls are answered meanwhile."""
        async with self._grams_lock:
            index = self.state.symbols
            if index.grams_ready():
                return
            names = index.gram_names()
            stop = threading.Event()
            try:
                grams = await asyncio.to_thread(build_grams, names, stop)
            finally:
                stop.set()
            index.install_grams(grams, names)
