"""What a re-parsed file keeps of its calls' resolutions (index/narrow.py).

Most edits leave what a file tells the resolver as it was: a comment, a docstring, a condition or
a literal changed, a call added to a body. A call's resolution depends on the call as written (its
kind, enclosing symbol, name, receiver and the flow marks on it) and on the index around it; what
the file adds to that index is its symbols, its imports and exports, and the edges resolved first
(supertypes, returns, values passed). When all of those are as they were, each call the file still
makes stands where a call of an unchanged file stands: its resolution holds unless something it
depends on elsewhere changed — and the narrow re-index already finds those (names that came or
went, returns and passed values that changed, subtypes) for every file and resolves them again.
So only the calls that are new, or that such a change reaches, are resolved. An edit of argparse.py
on CPython's Lib resolved all of its ~600 calls again (15–25 ms); a comment now resolves none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from codecairn.index.resolver import Bindings
from codecairn.index.symbol_index import SymbolIndex
from codecairn.model import ALSO, RESOLVED_FIRST

# http_calls follow routes anywhere in the index (they are all resolved again when one changes).
KEPT_KINDS = frozenset(("calls", "references"))

# (file id, qualified name, kind, how many alike come before it): a symbol across the re-parse.
Identity = tuple
# A target as it was: its id, and its identity when it was a symbol of a re-parsed file (a new id now).
Target = tuple[int | None, Identity | None]


@dataclass
class FileBefore:
    """A re-parsed file as the resolver saw it before the re-parse."""

    symbols: Counter  # (kind, qualified name) of each symbol
    bindings: Bindings | None
    module: str
    first: Counter = field(default_factory=Counter)  # keys of its edges resolved first
    # key -> (target, resolution, the targets of the rows beside it)
    calls: dict[tuple, tuple[Target, str | None, tuple[Target, ...]]] = field(default_factory=dict)


def _shape(symbols: SymbolIndex, file_id: int) -> Counter:
    rows = symbols.rows
    return Counter((rows[s].kind, rows[s].qualified_name) for s in symbols.by_file.get(file_id, ()))


def before(
    rows: Iterable[tuple],
    identity: dict[int, Identity],
    symbols: SymbolIndex,
    bindings: dict[int, Bindings],
    modules: dict[int, str],
    file_ids: Iterable[int],
) -> dict[int, FileBefore]:
    """The files as they are now, before their re-parse is written: ``rows`` are their edges
    (Store.resolved_edges_of), ``identity`` their symbols' identities."""
    files = {fid: FileBefore(_shape(symbols, fid), bindings.get(fid), modules.get(fid, "")) for fid in file_ids}
    rows = list(rows)
    beside: dict[int, list[Target]] = {}
    for eid, _, _, _, _, _, receiver_type, target_id, _ in rows:
        if receiver_type[:1] == ALSO and receiver_type[1:].isdigit():
            beside.setdefault(int(receiver_type[1:]), []).append((target_id, identity.get(target_id)))
    for eid, fid, kind, source, target, receiver, receiver_type, target_id, how in rows:
        file = files.get(fid)
        if file is None or receiver_type[:1] == ALSO:
            continue
        if source is not None and source not in identity:
            file.first[("unknown source",)] += 1  # cannot be matched: nothing of the file is kept
            continue
        key = (kind, identity.get(source), target, receiver, receiver_type)
        if kind in RESOLVED_FIRST:
            file.first[key] += 1
        elif kind in KEPT_KINDS:
            file.calls.setdefault(key, ((target_id, identity.get(target_id)), how, tuple(beside.get(eid, ()))))
    return files


def unchanged(file: FileBefore, symbols: SymbolIndex, file_id: int, bindings: Bindings | None, module: str) -> bool:
    """Does the re-parsed file tell the resolver what it told before (its first edges apart)?"""
    return file.module == module and file.bindings == bindings and file.symbols == _shape(symbols, file_id)


def kept(
    edges: list[tuple],
    files: dict[int, FileBefore],
    identity: dict[int, Identity],
    new_id: dict[Identity, int],
    names: set[str],
) -> tuple[list[tuple], list[tuple], list[tuple]]:
    """Split the edges to resolve (TO_RESOLVE rows): -> (those still to resolve, (target id,
    resolution, edge id) of those whose resolution stands, (edge id, file id, targets) of the rows
    beside those). ``files``: the unchanged re-parsed files; ``identity`` and ``new_id``: their
    symbols' identities now, both ways; ``names``: names whose symbols changed (their calls are
    resolved again, as an unchanged file's would be)."""
    if not files:
        return edges, [], []
    first_now: dict[int, Counter] = {fid: Counter() for fid in files}
    for e in edges:
        if e[1] in files and e[2] in RESOLVED_FIRST:
            first_now[e[1]][(e[2], identity.get(e[3]), e[4], e[5], e[6])] += 1
    same = {fid for fid, file in files.items() if first_now[fid] == file.first}

    def now(target: Target) -> tuple[bool, int | None]:
        old_id, was = target
        if was is None:
            return True, old_id
        found = new_id.get(was)
        return found is not None, found

    rest: list[tuple] = []
    resolutions: list[tuple] = []
    beside: list[tuple] = []
    for e in edges:
        eid, fid, kind, source, target = e[:5]
        if fid in same and kind in KEPT_KINDS and target not in names:
            got = files[fid].calls.get((kind, identity.get(source), target, e[5], e[6]))
            if got is not None:
                ok, target_id = now(got[0])
                others = [now(t) for t in got[2]]
                if ok and all(o for o, _ in others):
                    if target_id is not None or got[1] is not None:
                        resolutions.append((target_id, got[1], eid))
                    if others:
                        beside.append((eid, fid, tuple(t for _, t in others)))
                    continue
        rest.append(e)
    return rest, resolutions, beside
