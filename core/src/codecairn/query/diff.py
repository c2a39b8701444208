"""What a unified diff (``git diff --unified=0``) changed: per file, its status and the line
ranges of the new side (for removed lines: the line they were removed before). A pure parser."""

from __future__ import annotations

import re

from codecairn.model import DiffedFile

_GIT_HEADER = re.compile(rb"^diff --git a/(.*) b/(.*)$")
_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def _path(raw: bytes) -> str:
    text = raw.decode("utf-8", "surrogateescape").rstrip("\n")
    if text.startswith('"') and text.endswith('"'):  # git quotes unusual names C-style
        text = (
            text[1:-1]
            .encode("latin-1", "backslashreplace")
            .decode("unicode_escape")
            .encode("latin-1")
            .decode("utf-8", "replace")
        )
    return text


def parse(diff: bytes) -> list[DiffedFile]:
    changes: list[DiffedFile] = []
    current: DiffedFile | None = None
    for line in diff.split(b"\n"):
        if line.startswith(b"diff --git "):
            header = _GIT_HEADER.match(line)
            current = DiffedFile(_path(header.group(2)) if header else "")
            changes.append(current)
            continue
        if current is None:
            continue
        if line.startswith(b"new file mode"):
            current.status = "added"
        elif line.startswith(b"deleted file mode"):
            current.status = "deleted"
        elif line.startswith(b"--- "):
            old = line[4:]
            if old != b"/dev/null":
                current.old_path = _path(old)[2:] if _path(old).startswith("a/") else _path(old)
        elif line.startswith(b"+++ "):
            new = line[4:]
            if new == b"/dev/null":
                current.status = "deleted"
                current.path = current.old_path
            else:
                p = _path(new)
                current.path = p[2:] if p.startswith("b/") else p
                if not current.old_path:
                    current.status = "added"
                elif current.old_path != current.path:
                    current.status = "renamed"
        elif line.startswith(b"rename from "):
            current.old_path = _path(line[len(b"rename from ") :])
            current.status = "renamed"
        elif line.startswith(b"rename to "):
            current.path = _path(line[len(b"rename to ") :])
        elif line.startswith(b"Binary files "):
            current.binary = True
        else:
            m = _HUNK.match(line)
            if m:
                new_start, new_count = int(m.group(3)), int(m.group(4) if m.group(4) is not None else 1)
                old_start, old_count = int(m.group(1)), int(m.group(2) if m.group(2) is not None else 1)
                current.hunks.append((old_start, old_count, new_start, new_count))
                if new_count:
                    current.ranges.append((new_start, new_start + new_count - 1))
                else:
                    current.removed_at.append(max(new_start, 1))
    return [c for c in changes if c.path]


def onto(line: int, hunks: list[tuple[int, int, int, int]]) -> int:
    """Where the old side's ``line`` is on the new side of a diff with these hunks (in order): shifted
    by what was inserted and removed above it; a line the diff replaced is at the start of what
    replaced it (the replacing line at the same distance, when there is one)."""
    shift = 0
    for old_start, old_count, new_start, new_count in hunks:
        if old_count == 0:  # inserted after old_start
            if line > old_start:
                shift += new_count
                continue
            break
        if line < old_start:
            break
        if line < old_start + old_count:
            return max(new_start + min(line - old_start, max(new_count - 1, 0)), 1)
        shift += new_count - old_count
    return line + shift
