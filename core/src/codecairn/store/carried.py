"""What a re-parsed file's new rows carry over from its old ones (a narrow re-index: one edit).

An edit rewrites every row of the file it touches, though most of what they say stays: a comment
line moves every line, and nothing else. Two things are carried over so that the write changes
only what the edit changed:

* a symbol still there (the same qualified name and kind, as many alike before it by line) keeps
  its id, so the edges elsewhere that point at it are left as they are — rewriting them, to NULL
  in the write and back in the resolution, was a fifth of an edit of argparse.py on CPython's Lib
  (556 edges);
* an edge the file still has (the same kind, enclosing symbol, name, receiver and flow marks, as
  many alike before it by line) keeps its row — its id and its resolution, its line updated —
  instead of being deleted and inserted again unresolved (≈ 660 rows of argparse.py, each in six
  indexes, then each updated once more with its resolution).

The resolution that follows decides every edge of the file again (index/reuse.py, the resolver) and
writes only what differs from what the write left (``written``). A process that dies between the
write and it leaves ``resolution_pending`` set, and the next run resolves everything, as before.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from codecairn.model import ALSO

# (qualified name, kind, how many alike come before it by start line): a symbol across a re-parse.
Identity = tuple[str, str, int]
# (kind, enclosing symbol's id or None, target, receiver, receiver type): an edge across a re-parse.
EdgeKey = tuple


@dataclass
class Carried:
    """Per path of a re-parsed file, its symbols' ids before, by identity (``ids``). Store.write_batch
    fills ``written``: the id of every edge of those files it wrote or kept -> the resolution the
    row has, (target id, resolution)."""

    ids: dict[str, dict[Identity, int]] = field(default_factory=dict)
    written: dict[int, tuple[int | None, str | None]] = field(default_factory=dict)

    def unwritten(self, rows: list[tuple]) -> list[tuple]:
        """``rows`` ((target id, resolution, edge id), as Store.write_resolutions takes them) but
        those that say what the row says already."""
        written = self.written
        if not written:
            return rows
        return [r for r in rows if written.get(r[2], _NOTHING) != (r[0], r[1])]


_NOTHING = (-1, "")


def matched(old_rows: list[tuple]) -> tuple[dict[EdgeKey, deque], list[tuple]]:
    """A file's old edge rows (id, kind, source id, target, receiver, receiver type, line, target
    id, resolution), in line order, by key, ready to be matched (popleft) in the new edges' order;
    and apart, the rows beside calls through a parameter (model.ALSO: the resolution writes them)."""
    by_key: dict[EdgeKey, deque] = {}
    beside = []
    for row in old_rows:
        if row[5][:1] == ALSO:
            beside.append(row)
            continue
        key = row[1:6]
        if (queue := by_key.get(key)) is None:
            by_key[key] = deque((row,))
        else:
            queue.append(row)
    return by_key, beside


def numbered(
    symbols: Sequence[tuple], wanted: Mapping[Identity, int], reusable: dict[int, int], file_id: int, next_id: int
) -> tuple[list[int], int]:
    """A re-parsed file's symbols' ids, and the next free id. A symbol gets the id it had
    (``wanted``, by identity) when the store still gives that id to this file (``reusable``: symbol
    id -> file id; each is given once), else a new one, in the symbols' order. ``symbols``: the
    extractor's tuples (kind, name, qualified name, start line, ...)."""
    order = sorted(range(len(symbols)), key=lambda i: (symbols[i][3], i))  # by start line
    seen: Counter[tuple[str, str]] = Counter()
    ids = [-1] * len(symbols)
    for i in order:
        kind, qualified_name = symbols[i][0], symbols[i][2]
        n = seen[qualified_name, kind]
        seen[qualified_name, kind] = n + 1
        old = wanted.get((qualified_name, kind, n))
        if old is not None and reusable.get(old) == file_id:
            del reusable[old]
            ids[i] = old
    for i, sid in enumerate(ids):
        if sid < 0:
            ids[i], next_id = next_id, next_id + 1
    return ids, next_id
