"""Anchors: how a remembered line range is tied to the code so it can be found again.

A range is anchored to the innermost symbol that contains it — by the symbol's qualified name and
a *structural* fingerprint (kind, name, signature, member names; never its source text) — plus
the range's offset from the symbol's first line. Separately, a hash of the remembered lines
(whitespace-trimmed) says whether the code itself is still there. Nothing here stores or returns
source text.

Everything in this module is pure: a ``FileView`` (one file's trimmed lines and its symbols) in,
a ``Placement`` (or None) out. ``memories.py`` does the I/O.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from codecairn.files.reading import source_lines
from codecairn.model import Anchor

# Anchoring to these would tie a memory to the whole file; they are located by content instead.
FILE_LEVEL_KINDS = frozenset({"module", "package", "namespace", "file"})
# A window found by content alone (its symbol gone) must be at least this distinctive, or a
# lone `return None` or `}` elsewhere would be taken for the remembered code.
MIN_DISTINCT_CHARS = 24


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def trimmed_lines(data: bytes) -> list[str]:
    """The file's lines with surrounding whitespace removed, so re-indenting is not a change."""
    return [line.strip() for line in source_lines(data)]  # numbered as the index numbers them


def lines_hash(lines: Sequence[str]) -> str:
    return _digest("\n".join(lines))


def line_hash(line: str) -> str:
    return _digest(line)


def fingerprint(kind: str, name: str, signature: str, member_names: Sequence[str]) -> str:
    """The shape of a symbol, not its text: survives edits inside bodies and moves, changes when
    the declaration or the set of members changes."""
    sig = " ".join(signature.split())
    return _digest("\x1f".join((kind, name, sig, *sorted(member_names))))


class SymbolView(NamedTuple):
    kind: str
    name: str
    qualified_name: str
    start_line: int
    end_line: int
    signature: str
    parent: int  # index into FileView.symbols, -1 = top level


@dataclass
class FileView:
    """One file as it is on disk now: trimmed lines, content hash and its symbols."""

    path: str
    hash: str
    lines: list[str]
    symbols: list[SymbolView]
    _members: dict[int, list[str]] | None = field(default=None, repr=False)

    def members(self, index: int) -> list[str]:
        if self._members is None:
            members: dict[int, list[str]] = {}
            for s in self.symbols:
                if s.parent >= 0:
                    members.setdefault(s.parent, []).append(s.name)
            self._members = members
        return self._members.get(index, [])

    def fingerprint(self, index: int) -> str:
        s = self.symbols[index]
        return fingerprint(s.kind, s.name, s.signature, self.members(index))

    def parent_name(self, index: int) -> str:
        p = self.symbols[index].parent
        if 0 <= p < len(self.symbols) and self.symbols[p].kind not in FILE_LEVEL_KINDS:
            return self.symbols[p].name
        return ""

    def innermost(self, start: int, end: int) -> int:
        """Index of the smallest non-file-level symbol containing start..end, or -1."""
        best, best_key = -1, None
        for i, s in enumerate(self.symbols):
            if s.kind in FILE_LEVEL_KINDS or not (s.start_line <= start and end <= s.end_line):
                continue
            key = (s.end_line - s.start_line, -self.depth(i))
            if best_key is None or key < best_key:
                best, best_key = i, key
        return best

    def depth(self, index: int) -> int:
        d, p = 0, self.symbols[index].parent
        while 0 <= p < len(self.symbols) and d < 64:
            d, p = d + 1, self.symbols[p].parent
        return d

    def window_hash(self, start: int, end: int) -> str | None:
        if start < 1 or end > len(self.lines) or end < start:
            return None
        return lines_hash(self.lines[start - 1 : end])

    def find_windows(self, first: str, full: str, count: int, lo: int, hi: int) -> list[int]:
        """Start lines of every ``count``-line window inside lo..hi whose content hashes match."""
        out = []
        lo, hi = max(lo, 1), min(hi, len(self.lines))
        for s in range(lo, hi - count + 2):
            if line_hash(self.lines[s - 1]) == first and lines_hash(self.lines[s - 1 : s - 1 + count]) == full:
                out.append(s)
        return out

    def distinct_chars(self, start: int, end: int) -> int:
        return sum(len(line) for line in self.lines[start - 1 : end])


class Placement(NamedTuple):
    """Where an anchor's code is in one file now."""

    start_line: int
    end_line: int
    symbol_index: int  # -1 = file level
    edited: bool  # the symbol is there but the remembered lines changed inside it


def anchor_for(view: FileView, start: int, end: int) -> Anchor:
    i = view.innermost(start, end)
    first = line_hash(view.lines[start - 1])
    full = lines_hash(view.lines[start - 1 : end])
    if i < 0:
        return Anchor("", "", "", "", "", start - 1, end - 1, full, first, end - start + 1)
    s = view.symbols[i]
    return Anchor(
        s.qualified_name,
        s.kind,
        s.name,
        view.parent_name(i),
        view.fingerprint(i),
        start - s.start_line,
        end - s.start_line,
        full,
        first,
        end - start + 1,
    )


def rebased(anchor: Anchor, view: FileView, placement: Placement) -> Anchor:
    """The anchor re-tied to where the code was found (the remembered content hash is kept)."""
    i = placement.symbol_index
    if i < 0:
        return anchor._replace(
            symbol="",
            symbol_kind="",
            symbol_name="",
            parent_name="",
            fingerprint="",
            offset_start=placement.start_line - 1,
            offset_end=placement.end_line - 1,
        )
    s = view.symbols[i]
    offsets = (
        (placement.start_line - s.start_line, placement.end_line - s.start_line)
        if not placement.edited
        else (anchor.offset_start, anchor.offset_end)
    )
    return anchor._replace(
        symbol=s.qualified_name,
        symbol_kind=s.kind,
        symbol_name=s.name,
        parent_name=view.parent_name(i),
        fingerprint=view.fingerprint(i),
        offset_start=offsets[0],
        offset_end=offsets[1],
    )


# ---- finding an anchor again ---------------------------------------------------------------------


def place_in_symbol(anchor: Anchor, view: FileView, i: int) -> Placement:
    """The anchor's lines inside symbol ``i``: at the same offset if the content is there, else
    wherever inside the symbol the same content is (nearest the old offset), else the whole
    symbol, flagged ``edited`` — the code was changed, so no narrower range would be honest."""
    s = view.symbols[i]
    start = s.start_line + anchor.offset_start
    end = start + anchor.line_count - 1
    if end <= s.end_line and view.window_hash(start, end) == anchor.lines_hash:
        return Placement(start, end, i, False)
    found = view.find_windows(anchor.first_line_hash, anchor.lines_hash, anchor.line_count, s.start_line, s.end_line)
    if found:
        best = min(found, key=lambda x: abs(x - start))
        return Placement(best, best + anchor.line_count - 1, i, False)
    return Placement(s.start_line, s.end_line, i, True)


def place_by_content(anchor: Anchor, view: FileView, near: int) -> Placement | None:
    """The remembered lines found by their hash alone: only a unique, distinctive match counts."""
    found = view.find_windows(anchor.first_line_hash, anchor.lines_hash, anchor.line_count, 1, len(view.lines))
    if not found and not anchor.symbol:
        return _edited_file_level(anchor, view, near)
    if len(found) != 1:
        if len(found) > 1 and anchor.offset_start + 1 in found and not anchor.symbol:
            # A file-level memory whose lines are still exactly where they were: nothing moved.
            start = anchor.offset_start + 1
            return Placement(
                start, start + anchor.line_count - 1, view.innermost(start, start + anchor.line_count - 1), False
            )
        return None
    start = found[0]
    end = start + anchor.line_count - 1
    if view.distinct_chars(start, end) < MIN_DISTINCT_CHARS and start != near:
        return None
    return Placement(start, end, view.innermost(start, end), False)


def _edited_file_level(anchor: Anchor, view: FileView, near: int) -> Placement | None:
    """A file-level memory (no one symbol holds its lines: imports, a block of several
    functions) whose lines changed inside: no structure to follow, only its first line. Where
    that line still is — the one line like it in the file (a short one only near the old place),
    or the one at the old place — the range starts, as long as it was; flagged ``edited`` (one
    changed token no longer orphans fifteen remembered lines)."""
    heads = [n for n, line in enumerate(view.lines, 1) if line_hash(line) == anchor.first_line_hash]
    if len(heads) == 1 and (
        view.distinct_chars(heads[0], heads[0]) >= MIN_DISTINCT_CHARS or abs(heads[0] - near) <= anchor.line_count
    ):  # (a short line like `import os` only close by: lines added or removed around it)
        start = heads[0]
    elif near in heads:
        start = near
    else:
        return None
    end = min(start + anchor.line_count - 1, len(view.lines))
    return Placement(start, end, -1, True)  # still file level: its offsets are the file's


def symbol_candidates(anchor: Anchor, view: FileView) -> list[int]:
    """Symbols in this file that are the anchor's symbol: same qualified name and kind, else the
    same name, kind and structure (moved under another parent). Best first."""
    same_qn = [
        i for i, s in enumerate(view.symbols) if s.qualified_name == anchor.symbol and s.kind == anchor.symbol_kind
    ]
    if same_qn:
        return sorted(same_qn, key=lambda i: view.fingerprint(i) != anchor.fingerprint)
    return [
        i
        for i, s in enumerate(view.symbols)
        if s.name == anchor.symbol_name and s.kind == anchor.symbol_kind and view.fingerprint(i) == anchor.fingerprint
    ]


def place_in_file(anchor: Anchor, view: FileView, old_start: int) -> Placement | None:
    """Find the anchor in the file it was last seen in (possibly edited since)."""
    if anchor.symbol and anchor.symbol_kind not in FILE_LEVEL_KINDS:
        candidates = symbol_candidates(anchor, view)
        if candidates:
            # Same name twice (a redefinition, overloads): the one whose content is there, else
            # the one nearest the old place.
            placements = [place_in_symbol(anchor, view, i) for i in candidates]
            exact = [p for p in placements if not p.edited]
            pool = exact or placements
            return min(pool, key=lambda p: abs(p.start_line - old_start))
    found = place_by_content(anchor, view, old_start)
    if found is None and anchor.symbol and anchor.symbol_kind not in FILE_LEVEL_KINDS:
        # Before looking in other files (a copy of the file would match there): renamed where it is
        found = renamed_in_place(anchor, view, old_start - anchor.offset_start)
    return found


def renamed_in_place(anchor: Anchor, view: FileView, symbol_start: int) -> Placement | None:
    """The anchor's symbol renamed where it stands (`def get(` became `def fetch(`): the one
    symbol of the same kind under the same parent that starts where it started, and is the same
    code — its first line is the remembered one with the old name (a memory from the symbol's
    first line), or the remembered lines are inside it. The next function, moved up into the place
    of a deleted one, is neither. Inside it the lines are placed as ever (the whole symbol,
    ``edited``, when the first line was among them)."""
    same_place = [
        i
        for i, s in enumerate(view.symbols)
        if s.start_line == symbol_start
        and s.kind == anchor.symbol_kind
        and s.name != anchor.symbol_name
        and view.parent_name(i) == anchor.parent_name
    ]
    if len(same_place) != 1:
        # Lines added or removed above it too (`TIMEOUT = 3` above a renamed `def get(`): the one
        # such symbol whose first line is the remembered one with the old name
        same_place = [
            i
            for i, s in enumerate(view.symbols)
            if anchor.offset_start == 0
            and s.kind == anchor.symbol_kind
            and s.name != anchor.symbol_name
            and view.parent_name(i) == anchor.parent_name
            and 0 < s.start_line <= len(view.lines)
            and line_hash(view.lines[s.start_line - 1].replace(s.name, anchor.symbol_name, 1)) == anchor.first_line_hash
        ]
        if len(same_place) != 1:
            return None
    i = same_place[0]
    s = view.symbols[i]
    placement = place_in_symbol(anchor, view, i)
    header = view.lines[s.start_line - 1] if 0 < s.start_line <= len(view.lines) else ""
    was_header = anchor.offset_start == 0 and line_hash(header.replace(s.name, anchor.symbol_name, 1)) == (
        anchor.first_line_hash
    )
    return placement if was_header or not placement.edited else None


def matches_elsewhere(anchor: Anchor, view: FileView, i: int, origin_gone: bool) -> Placement | None:
    """Is symbol ``i`` of another file the anchor's symbol, moved there (a renamed or split file)?

    Qualified names change with the path in some languages (Python's module prefix), so the
    test is the symbol's name, kind, structure and parent's name. Unless the original file is
    gone, the remembered lines must be found inside it too — a same-shaped namesake is not proof.
    """
    s = view.symbols[i]
    if s.name != anchor.symbol_name or s.kind != anchor.symbol_kind:
        return None
    if view.parent_name(i) != anchor.parent_name:
        return None
    same_shape = view.fingerprint(i) == anchor.fingerprint or s.qualified_name == anchor.symbol
    if not same_shape:
        return None
    placement = place_in_symbol(anchor, view, i)
    if placement.edited and not origin_gone:
        return None
    return placement
