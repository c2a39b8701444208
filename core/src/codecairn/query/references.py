"""Where a name occurs as a token, and what kind of text each occurrence is in: code, a comment
or a string — read off the syntax tree, not guessed from the line (a ``#`` inside a string is not
a comment; a name inside a docstring is not a use).

A pure function of (source, tree): the caller reads and parses the file.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

CODE, COMMENT, STRING = "code", "comment", "string"


class Occurrence(NamedTuple):
    line: int  # 1-based
    column: int  # 0-based, in bytes
    category: str  # CODE | COMMENT | STRING


def word_pattern(name: str) -> re.Pattern[bytes]:
    """``name`` as a whole identifier (not part of a longer one), in bytes."""
    return re.compile(rb"(?<![\w$])" + re.escape(name.encode()) + rb"(?![\w$])")


def occurrences(source: bytes, tree: Any, pattern: re.Pattern[bytes], limit: int) -> list[Occurrence]:
    """The first ``limit`` whole-word matches of ``pattern`` in ``source``, classified by the
    innermost syntax node around each."""
    out: list[Occurrence] = []
    root = tree.root_node if tree is not None else None
    line_starts = None
    for m in pattern.finditer(source):
        if len(out) >= limit:
            break
        start = m.start()
        if line_starts is None:
            line_starts = [0] + [i + 1 for i, b in enumerate(source) if b == 10]
        line = _line_of(line_starts, start)
        category = _category(root.descendant_for_byte_range(start, m.end())) if root is not None else CODE
        out.append(Occurrence(line + 1, start - line_starts[line], category))
    return out


def _line_of(starts: list[int], offset: int) -> int:
    import bisect

    return bisect.bisect_right(starts, offset) - 1


def _category(node: Any) -> str:
    while node is not None:
        kind = node.type
        if "comment" in kind:
            return COMMENT
        if "string" in kind or kind in ("char_literal", "heredoc_body", "template_substitution_text"):
            # an interpolation inside a string (f"{name}", `${name}`) is code again
            return STRING
        if kind in ("interpolation", "template_substitution", "string_interpolation"):
            return CODE
        node = node.parent
    return CODE


def scan(
    files: list[tuple[str, str]],
    name: str,
    read,
    parser_for,
    limit: int,
    deadline: float,
    stop,
) -> tuple[list[tuple[str, Occurrence]], int, bool]:
    """Occurrences of ``name`` in ``files`` ((path, language), in the order to look), reading each
    with ``read(path) -> bytes`` and parsing only the files it occurs in (``parser_for(language)``
    -> a tree-sitter Parser or None). Stops at ``limit`` occurrences, at ``deadline``
    (time.perf_counter) or when ``stop`` (a threading.Event) is set. Runs in a worker thread.
    -> (occurrences, files scanned, cut: a limit or the time stopped it)."""
    import time

    pattern = word_pattern(name)
    needle = name.encode()
    out: list[tuple[str, Occurrence]] = []
    scanned = 0
    for path, language in files:
        if stop.is_set() or time.perf_counter() > deadline:
            return out, scanned, True
        try:
            source = read(path)
        except Exception:  # gone, unreadable, refused (a link out of the root): not a match
            scanned += 1
            continue
        scanned += 1
        if needle not in source:
            continue
        parser = parser_for(language)
        tree = parser.parse(source) if parser is not None else None
        found = occurrences(source, tree, pattern, limit - len(out) + 1)
        out.extend((path, o) for o in found)
        if len(out) > limit:
            return out[:limit], scanned, True
    return out, scanned, False
