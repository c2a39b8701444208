"""Two directory trees compared: which files were added, removed, modified, or renamed (the same
content under another name, by sha256), and — when asked — bounded unified diffs of the modified
text files.

Listings come from ripgrep (the walk rules of every file tool); files of equal size are hashed,
streamed, to tell modified from unchanged; a removed file and an added one with the same hash
are a rename. Blocking: run in a thread, with ``stop`` checked between files.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from typing import NamedTuple

from codecairn.files.reading import Stopped, digest, sniff
from codecairn.model import DirectoryComparison, TreeChange
from codecairn.paths import open_confined

DIFF_FILE_BYTES = 1 << 20  # files larger than this get no diff (only their sizes)


def compare(
    left: tuple[str, str],
    right: tuple[str, str],
    left_files: list[str],
    right_files: list[str],
    limit: int,
    diffs: bool,
    diff_bytes: int,
    stop: Callable[[], bool] | None = None,
) -> DirectoryComparison:
    """``left``/``right`` are (root, directory relative to it); the file lists are relative to
    those directories."""
    left_set, right_set = set(left_files), set(right_files)
    changes: list[TreeChange] = []
    unchanged = 0
    added = sorted(right_set - left_set)
    removed = sorted(left_set - right_set)

    def where(side: tuple[str, str], rel: str) -> tuple[str, str]:
        return side[0], f"{side[1]}/{rel}" if side[1] else rel

    def size(side: tuple[str, str], rel: str) -> int:
        root, path = where(side, rel)
        try:
            return os.stat(os.path.join(root, path)).st_size
        except OSError:
            return -1

    def sha(side: tuple[str, str], rel: str) -> str:
        if stop is not None and stop():
            raise Stopped
        try:
            return digest(*where(side, rel), stop).sha256
        except OSError:
            return ""

    budget = [diff_bytes]
    for rel in sorted(left_set & right_set):
        a, b = size(left, rel), size(right, rel)
        if a == b and sha(left, rel) == sha(right, rel):
            unchanged += 1
            continue
        change = TreeChange("modified", rel, left_size_bytes=a, right_size_bytes=b)
        if diffs:
            change = _with_diff(change, where(left, rel), where(right, rel), budget)
        changes.append(change)
    # renames: a removed file whose content is now under an added name
    added_by_sha: dict[tuple[int, str], list[str]] = {}
    removed_sizes = {size(left, rel) for rel in removed}
    for rel in added:
        s = size(right, rel)
        if s in removed_sizes:
            added_by_sha.setdefault((s, sha(right, rel)), []).append(rel)
    renamed_to: set[str] = set()
    added_sizes = {key[0] for key in added_by_sha}
    for rel in removed:
        s = size(left, rel)
        candidates = added_by_sha.get((s, sha(left, rel))) if s in added_sizes else None  # hashed only if it may be
        target = next((c for c in candidates or () if c not in renamed_to), None)
        if target is not None:
            renamed_to.add(target)
            changes.append(TreeChange("renamed", target, rel, s, s))
        else:
            changes.append(TreeChange("removed", rel, left_size_bytes=s))
    for rel in added:
        if rel not in renamed_to:
            changes.append(TreeChange("added", rel, right_size_bytes=size(right, rel)))
    order = {"modified": 0, "renamed": 1, "added": 2, "removed": 3}
    changes.sort(key=lambda c: (order[c.change], c.path))
    complete = len(changes) <= limit
    return DirectoryComparison(
        left="",
        right="",
        changes=changes[:limit],
        unchanged=unchanged,
        left_files=len(left_files),
        right_files=len(right_files),
        complete=complete,
        limit_reason="" if complete else "limit",
    )


class _Side(NamedTuple):
    lines: list[str] | None  # the text's lines (LF), None when binary, too large or unreadable
    why: str = ""  # why there are no lines
    endings: str = ""  # "crlf", "cr" or "" (LF)
    bom: bool = False


def _text_of(root: str, rel: str) -> _Side:
    try:
        fd = open_confined(root, rel)
    except OSError:
        return _Side(None, "unreadable")
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(DIFF_FILE_BYTES + 1)
    if len(data) > DIFF_FILE_BYTES:
        return _Side(None, f"larger than {DIFF_FILE_BYTES} bytes: sizes only")
    s = sniff(data)
    if s.binary:
        return _Side(None, "binary: sizes only")
    text = data[len(s.bom) :].decode(s.encoding, "replace")
    endings = "crlf" if "\r\n" in text else "cr" if "\r" in text else ""
    return _Side(text.replace("\r\n", "\n").replace("\r", "\n").splitlines(keepends=True), "", endings, bool(s.bom))


def _with_diff(change: TreeChange, left: tuple[str, str], right: tuple[str, str], budget: list[int]) -> TreeChange:
    if budget[0] <= 0:
        return change._replace(diff_truncated=True)
    a, b = _text_of(*left), _text_of(*right)
    if a.lines is None or b.lines is None:
        return change._replace(diff_note=a.why or b.why)
    notes = []  # what a diff of the text cannot show
    if a.endings != b.endings:
        notes.append(f"line endings {a.endings or 'lf'} -> {b.endings or 'lf'}")
    if a.bom != b.bom:
        notes.append("a byte order mark " + ("removed" if a.bom else "added"))
    lines = difflib.unified_diff(a.lines, b.lines, f"a/{change.path}", f"b/{change.path}", n=2)
    out, used, cut = [], 0, False
    for line in lines:
        if used + len(line) > budget[0]:
            cut = True
            break
        if line.endswith("\n"):
            out.append(line)
        else:  # (as diff marks it: else "-x" and "+x" read the same)
            out.append(line + "\n\\ No newline at end of file\n")
        used += len(line)
    budget[0] -= used
    if not out and not notes:
        notes.append("the same text in another encoding")
    return change._replace(diff="".join(out), diff_truncated=cut, diff_note="; ".join(notes))
