"""Edits of a text file that keep what the file is: its encoding, its byte order mark and its line
endings — CRLF stays CRLF, and in a file with mixed endings every line the edit did not touch keeps
its own. Edits address the text as reads show it (LF line breaks, no BOM); new text is written with
the file's dominant line ending.

An edit that cannot apply exactly is refused with what was found instead: text that is not there,
or there a different number of times than expected (with the lines where it is), lines beyond the
end, characters the file's encoding cannot hold.
"""

from __future__ import annotations

import bisect
import itertools

from codecairn.errors import BAD_ARGUMENT, NOT_FOUND, ToolError, quoted
from codecairn.files.reading import BINARY_SNIFF, sniff
from codecairn.model import TextEdit

SHOWN_OCCURRENCES = 10


def _lf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


class Text:
    """A file's text: ``raw`` with its own line endings, and the LF view edits address."""

    def __init__(self, raw: str, encoding: str, bom: bytes, newline: str | None = None) -> None:
        self.raw = raw
        self.encoding = encoding
        self.bom = bom
        self.lf = _lf(raw)
        # LF offsets of line breaks that are CRLF in raw: raw offset = LF offset + those before it
        self._crlf: list[int] = []
        if "\r\n" in raw:
            shift = 0
            start = 0
            while (i := raw.find("\r\n", start)) >= 0:
                self._crlf.append(i - shift)
                shift += 1
                start = i + 2
        self.newline = newline or _dominant(raw)

    @classmethod
    def decode(cls, data: bytes, shown: str) -> Text:
        s = sniff(data[: max(BINARY_SNIFF, 65536)])
        if s.binary or (s.encoding in ("utf-8", "latin-1") and b"\0" in data):
            raise ToolError(BAD_ARGUMENT, f"{shown} is binary; it is not edited as text", path=shown)
        body = data[len(s.bom) :]
        encoding = s.encoding
        if encoding == "utf-8":
            try:
                raw = body.decode("utf-8")
            except UnicodeDecodeError:
                encoding, raw = "latin-1", body.decode("latin-1")  # every byte round-trips
        else:
            raw = body.decode(encoding)
        return cls(raw, encoding, s.bom)

    @classmethod
    def new(cls, text: str) -> Text:
        return cls("", "utf-8", b"", "\n").replaced(0, 0, text)

    def encode(self) -> bytes:
        try:
            return self.bom + self.raw.encode(self.encoding)
        except UnicodeEncodeError as exc:
            bad = self.raw[exc.start : exc.end]
            raise ToolError(
                BAD_ARGUMENT, f"the file is {self.encoding}, which cannot hold {quoted(bad)}; nothing was changed"
            ) from None

    def raw_offset(self, lf_offset: int) -> int:
        return lf_offset + bisect.bisect_left(self._crlf, lf_offset)

    def replaced(self, start: int, end: int, new: str) -> Text:
        """This text with LF offsets ``start``..``end`` replaced by ``new`` (written with the
        dominant line ending)."""
        written = _lf(new).replace("\n", self.newline) if self.newline != "\n" else _lf(new)
        raw = self.raw[: self.raw_offset(start)] + written + self.raw[self.raw_offset(end) :]
        return Text(raw, self.encoding, self.bom, self.newline)

    def line_starts(self) -> list[int]:
        # Lengths summed in C (split, accumulate): a Python loop per line costs ~10 ms on argparse.py.
        lines = self.lf.split("\n")
        return [0, *itertools.accumulate(len(line) + 1 for line in lines[:-1])]

    @property
    def line_count(self) -> int:
        lf = self.lf
        return lf.count("\n") + (1 if lf and not lf.endswith("\n") else 0)


def _dominant(raw: str) -> str:
    crlf = raw.count("\r\n")
    cr = raw.count("\r") - crlf
    lf = raw.count("\n") - crlf
    best = max((crlf, "\r\n"), (lf, "\n"), (cr, "\r"), key=lambda pair: pair[0])
    return best[1] if best[0] else "\n"


def apply(text: Text, edit: TextEdit, shown: str) -> tuple[Text, int]:
    """``edit`` applied to ``text``: the new text and how many spans were replaced."""
    if edit.kind == "replace":
        return _replace(text, edit, shown)
    if edit.kind == "lines":
        return _replace_lines(text, edit, shown), 1
    if edit.kind == "insert":
        return _insert(text, edit, shown), 1
    raise ToolError(BAD_ARGUMENT, f"unknown edit {quoted(edit.kind)}")


def _replace(text: Text, edit: TextEdit, shown: str) -> tuple[Text, int]:
    old = _lf(edit.old)
    if not old:
        raise ToolError(BAD_ARGUMENT, "old_text is empty: to insert, give insert_line")
    found: list[int] = []
    position = 0
    while (i := text.lf.find(old, position)) >= 0:
        found.append(i)
        position = i + len(old)  # occurrences do not overlap
    if not found:
        raise ToolError(
            NOT_FOUND, f"old_text {quoted(edit.old, 60)} is not in {shown}; nothing was changed", path=shown
        )
    if len(found) != edit.occurrences:
        starts = text.line_starts()
        lines = [bisect.bisect_right(starts, i) for i in found[:SHOWN_OCCURRENCES]]
        raise ToolError(
            BAD_ARGUMENT,
            f"old_text occurs {len(found)} times in {shown}, not {edit.occurrences}; nothing was changed "
            "(give more context to make it unique, or expected_occurrences to replace them all)",
            path=shown,
            occurrences=len(found),
            lines=lines,
        )
    new = _lf(edit.new)
    for i in reversed(found):  # from the end, so earlier offsets stay valid
        text = text.replaced(i, i + len(old), new)
    return text, len(found)


def _line_span(text: Text, start: int, end: int, shown: str) -> tuple[int, int]:
    count = text.line_count
    if start < 1 or end < start:
        raise ToolError(BAD_ARGUMENT, f"lines {start}-{end}: give 1 <= start_line <= end_line")
    if end > count:
        raise ToolError(BAD_ARGUMENT, f"{shown} has {count} lines; lines {start}-{end} are not all there", path=shown)
    starts = text.line_starts()
    first = starts[start - 1]
    after = starts[end] if end < len(starts) else len(text.lf)
    return first, after


def _as_lines(new: str, text: Text, at_end_without_break: bool) -> str:
    new = _lf(new)
    if new and not new.endswith("\n") and not at_end_without_break:
        new += "\n"
    return new


def _replace_lines(text: Text, edit: TextEdit, shown: str) -> Text:
    first, after = _line_span(text, edit.start_line, edit.end_line, shown)
    last_has_break = text.lf[after - 1 : after] == "\n" if after > first else False
    return text.replaced(first, after, _as_lines(edit.new, text, not last_has_break))


def _insert(text: Text, edit: TextEdit, shown: str) -> Text:
    count = text.line_count
    if edit.start_line < 1 or edit.start_line > count + 1:
        raise ToolError(
            BAD_ARGUMENT, f"{shown} has {count} lines: insert_line goes from 1 to {count + 1} (the end)", path=shown
        )
    new = _lf(edit.new)
    if edit.start_line == count + 1:
        position = len(text.lf)
        if text.lf and not text.lf.endswith("\n"):
            new = "\n" + new  # the last line gets its break; the inserted text follows it
        return text.replaced(position, position, new if new.endswith("\n") or not new else new + "\n")
    position = text.line_starts()[edit.start_line - 1]
    return text.replaced(position, position, _as_lines(new, text, False))
