"""Bounded reads of one file: a line range, the last N lines, or a byte window — never the whole
file in memory, and never more text than the window allows.

Every read reports the file's sha256 (for an edit's ``expected_hash``), computed in the same
streamed pass, in 1 MiB chunks. The text is decoded (UTF-8, UTF-16 with a BOM, else Latin-1, which
maps every byte), a BOM is stripped and CRLF / CR line endings are turned into LF — each said so
in the answer. Content with a NUL byte in its first 8 KiB (git's rule), or in the window itself,
is binary: never returned as text.

A file's digest and line count are remembered by its identity (device, inode, size, mtime and
ctime, ``os.stat``) so reading a 20 MB minified file window by window hashes it once; a file
modified less than a second before it was stat'ed is never remembered (its timestamps may not
have ticked yet: git's "racily clean" rule). Writes never use this memory (writing.py hashes
afresh right before replacing).

All functions here block: callers run them in a thread, with ``stop`` returning True once the
call was cancelled (checked between chunks).
"""

from __future__ import annotations

import codecs
import hashlib
import os
import re
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass

from codecairn.model import FileDigest, TextWindow
from codecairn.paths import open_confined

CHUNK = 1 << 20
BINARY_SNIFF = 8192
DEFAULT_WINDOW_BYTES = 64 * 1024
RACY_SECONDS = 1.0
_REMEMBERED = 512  # file digests kept

Stop = Callable[[], bool]

WIDE_ENCODINGS = frozenset({"utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"})
BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),  # before UTF-16 LE: its BOM starts with UTF-16 LE's
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


class Stopped(Exception):
    """The call that asked for this read was cancelled."""


@dataclass(frozen=True)
class Sniffed:
    encoding: str  # "utf-8", "utf-16-le", ..., or "latin-1" for bytes that are not UTF-8
    bom: bytes
    binary: bool


def sniff(head: bytes) -> Sniffed:
    """What the first bytes of a file say about all of it."""
    for bom, encoding in BOMS:
        if head.startswith(bom):
            return Sniffed(encoding, bom, False)
    sample = head[:BINARY_SNIFF]
    if b"\0" in sample:
        return Sniffed("", b"", True)
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)  # a cut character at the end is fine
    except UnicodeDecodeError:
        return Sniffed("latin-1", b"", False)
    return Sniffed("utf-8", b"", False)


def source_lines(data: bytes) -> list[str]:
    """A file's lines as the index numbers them — tree-sitter's rows, which end at ``\n`` only: a
    form feed, U+2028 or U+0085 inside a line is part of it (``str.splitlines`` split there, and
    read_symbol showed other lines than the symbol's) — decoded as ``read`` shows them: the byte
    order mark left out, the file's encoding, ``\r\n`` as a line break."""
    s = sniff(data[:65536])
    encoding = s.encoding or "utf-8"
    text = data[len(s.bom) :].decode(encoding, "replace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


class _Endings:
    """Counts line endings across chunks (a CRLF split between two chunks is one ending)."""

    def __init__(self) -> None:
        self.crlf = self.cr = self.lf = 0
        self._pending_cr = False

    def feed(self, chunk: bytes) -> None:
        if not chunk:
            return
        if self._pending_cr:
            if chunk.startswith(b"\n"):
                self.crlf += 1
                chunk = chunk[1:]
            else:
                self.cr += 1
            self._pending_cr = False
        if chunk.endswith(b"\r"):
            self._pending_cr = True
            chunk = chunk[:-1]
        crlf = chunk.count(b"\r\n")
        self.crlf += crlf
        self.cr += chunk.count(b"\r") - crlf
        self.lf += chunk.count(b"\n") - crlf

    def close(self) -> None:
        if self._pending_cr:
            self.cr += 1
            self._pending_cr = False

    @property
    def breaks(self) -> int:
        return self.crlf + self.cr + self.lf

    @property
    def kind(self) -> str:
        kinds = [k for k, n in (("crlf", self.crlf), ("cr", self.cr), ("lf", self.lf)) if n]
        return "mixed" if len(kinds) > 1 else (kinds[0] if kinds else "lf")


_digests: OrderedDict[tuple, FileDigest] = OrderedDict()
# Line marks of remembered files: (line breaks before, a CR pending) at every CHUNK boundary, so the
# line number of a byte window is found by scanning at most one chunk, not the file up to it —
# reading a 20 MB minified file window after window stays linear.
Marks = list[tuple[int, bool]]
_marks: dict[tuple, Marks] = {}


def _identity(root: str, rel: str, st: os.stat_result) -> tuple | None:
    if time.time() - st.st_mtime < RACY_SECONDS:
        return None
    return (root, rel, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _remembered(key: tuple | None) -> FileDigest | None:
    if key is None:
        return None
    found = _digests.get(key)
    if found is not None:
        _digests.move_to_end(key)
    return found


def _remember(key: tuple | None, digest: FileDigest, marks: Marks | None = None) -> None:
    if key is None:
        return
    _digests[key] = digest
    if marks:
        _marks[key] = marks
    if len(_digests) > _REMEMBERED:
        old, _ = _digests.popitem(last=False)
        _marks.pop(old, None)


def _lines_in(size: int, data_ends_with_break: bool, breaks: int) -> int:
    return breaks + (1 if size and not data_ends_with_break else 0)


def digest_fd(fd: int, stop: Stop | None = None, encoding: str = "", marks: Marks | None = None) -> FileDigest:
    """sha256, size, line count and line endings of an open file, streamed from its start. For a
    wide encoding (UTF-16/32) the line breaks are counted in the decoded text. ``marks`` (not for
    wide encodings) receives the line count at every CHUNK boundary."""
    os.lseek(fd, 0, os.SEEK_SET)
    sha = hashlib.sha256()
    endings = _Endings()
    wide = codecs.getincrementaldecoder(encoding)("replace") if encoding in WIDE_ENCODINGS else None
    size, last = 0, b""
    while chunk := os.read(fd, CHUNK):
        if stop is not None and stop():
            raise Stopped
        if marks is not None and wide is None:
            marks.append((endings.breaks, endings._pending_cr))
        sha.update(chunk)
        size += len(chunk)
        if wide is not None:
            chunk = wide.decode(chunk).lstrip("\ufeff" if size == len(chunk) else "").encode()
            if not chunk:
                continue
        endings.feed(chunk)
        last = chunk[-1:]
    endings.close()
    return FileDigest(sha.hexdigest(), size, _lines_in(size, last in (b"\n", b"\r"), endings.breaks), endings.kind)


def digest(root: str, rel: str, stop: Stop | None = None, *, fresh: bool = False) -> FileDigest:
    """The digest of ``root/rel`` (opened confined). ``fresh``: never from memory."""
    fd = open_confined(root, rel)
    try:
        return _digest_of_open(fd, root, rel, stop, fresh)
    finally:
        os.close(fd)


def _digest_of_open(fd: int, root: str, rel: str, stop: Stop | None, fresh: bool = False) -> FileDigest:
    key = _identity(root, rel, os.fstat(fd))
    found = None if fresh else _remembered(key)
    if found is None:
        marks: Marks = []
        found = digest_fd(fd, stop, sniff(_head(fd)).encoding, marks)
        _remember(key, found, marks)
    return found


def _marks_of(fd: int, root: str, rel: str) -> Marks | None:
    key = _identity(root, rel, os.fstat(fd))
    return _marks.get(key) if key is not None else None


def _head(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    return os.read(fd, 65536)


def _window(shown: str, d: FileDigest, s: Sniffed) -> TextWindow:
    w = TextWindow(path=shown, text="", sha256=d.sha256, size_bytes=d.size, total_lines=d.lines)
    w.bom = bool(s.bom)
    w.line_endings = d.endings
    w.encoding = s.encoding
    return w


def _decode(data: bytes, encoding: str) -> str:
    text = data.decode(encoding, "replace")
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _whole_text(fd: int, s: Sniffed, limit: int) -> str | None:
    """Files in a wide encoding (UTF-16/32) are read whole, up to ``limit`` bytes: their line
    breaks are not single bytes. None when larger."""
    os.lseek(fd, 0, os.SEEK_SET)
    data = os.read(fd, limit + 1)
    if len(data) > limit:
        return None
    return _decode(data[len(s.bom) :], s.encoding)


WIDE_LIMIT = 16 << 20


def read_lines(
    root: str,
    rel: str,
    shown: str,
    start_line: int = 1,
    end_line: int | None = None,
    max_bytes: int = DEFAULT_WINDOW_BYTES,
    stop: Stop | None = None,
) -> TextWindow:
    """Lines ``start_line``..``end_line`` (1-based, inclusive; None = to the end), at most
    ``max_bytes`` of UTF-8 text. A first line longer than that comes cut, with
    ``line_truncated`` and the byte to continue from."""
    fd = open_confined(root, rel)
    try:
        s = sniff(_head(fd))
        d = _digest_of_open(fd, root, rel, stop)
        w = _window(shown, d, s)
        if s.binary:
            w.binary = True
            return w
        if s.encoding in WIDE_ENCODINGS:
            return _lines_of_text(w, _whole_text(fd, s, WIDE_LIMIT), start_line, end_line, max_bytes)
        return _as_it_ends(fd, _scan_lines(fd, w, s, start_line, end_line, max_bytes, stop))
    finally:
        os.close(fd)


def _as_it_ends(fd: int, w: TextWindow) -> TextWindow:
    """A window that ends the file shows its last line as the file has it: without a line break
    when it has none (``no_final_newline``) — an edit's ``old_text`` copied from it must be there."""
    if w.end_line is None or w.end_line != w.total_lines or not w.text.endswith("\n") or w.line_truncated:
        return w
    if w.size_bytes and os.pread(fd, 1, w.size_bytes - 1) not in (b"\n", b"\r"):
        w.text = w.text[:-1]
        w.no_final_newline = True
    return w


def _scan_lines(
    fd: int, w: TextWindow, s: Sniffed, first: int, last: int | None, max_bytes: int, stop: Stop | None
) -> TextWindow:
    offset = len(s.bom)  # the file offset of data[0]
    data = b""  # what was read and not consumed yet: the start of line `line_no` onwards
    line_no = 1
    last = w.total_lines if last is None else min(last, w.total_lines)
    out: list[str] = []
    used = 0
    eof = False
    while line_no <= last:
        if not eof:
            if stop is not None and stop():
                raise Stopped
            chunk = os.pread(fd, CHUNK, offset + len(data))
            eof = not chunk
            data += chunk
        # A CR at the end of what was read may be the first half of a CRLF: decided with the next read.
        usable = len(data) - 1 if not eof and data.endswith(b"\r") else len(data)
        if line_no < first:  # lines before the window: counted at C speed, never split
            breaks = _breaks(data, usable)
            if line_no + breaks < first:
                cut = max(data.rfind(b"\n", 0, usable), data.rfind(b"\r", 0, usable)) + 1
                line_no += breaks
                if cut == 0 and len(data) > CHUNK:  # one long line before the window: only its end matters
                    cut = usable
                offset += cut
                data = data[cut:]
                if eof:
                    break
                continue
        position = 0
        while line_no <= last:
            found = _next_break(data, position, eof)
            if found is None:
                # an unfinished line: read on, unless it is already too long for what is left of the window
                if line_no >= first and len(data) - position > max_bytes - used:
                    if not out:
                        return _cut_first_line(w, data[position:], offset + position, line_no, max_bytes, s.encoding)
                    w.truncated, w.next_start_line = True, line_no
                break
            end, after = found
            if line_no >= first:
                text = data[position:end].decode(s.encoding, "replace")
                if "\0" in text:
                    w.binary = True
                    return w
                cost = len(text.encode()) + 1
                if used + cost > max_bytes:
                    if not out:
                        return _cut_first_line(w, data[position:end], offset + position, line_no, max_bytes, s.encoding)
                    w.truncated, w.next_start_line = True, line_no
                    break
                out.append(text)
                used += cost
            line_no += 1
            position = after
        if w.truncated:
            break
        offset += position
        data = data[position:]
        if eof and not data:
            break
    w.text = "\n".join(out) + ("\n" if out else "")
    if out:
        w.start_line, w.end_line = first, first + len(out) - 1
    return w


def _breaks(data: bytes, end: int) -> int:
    """Line breaks in ``data[:end]``, a CRLF counting once."""
    crlf = data.count(b"\r\n", 0, end)
    return data.count(b"\n", 0, end) + data.count(b"\r", 0, end) - crlf


def _next_break(data: bytes, position: int, eof: bool) -> tuple[int, int] | None:
    """(end of the line's text, start of the next line); None when the line is not finished in
    ``data`` (at the end of the file, the last line ends with it)."""
    lf = data.find(b"\n", position)
    cr = data.find(b"\r", position, lf if lf >= 0 else len(data))
    if cr >= 0:
        if cr + 1 == len(data) and not eof:
            return None  # a CR at the end of what was read: its LF may come with the next read
        return (cr, cr + 2) if data[cr + 1 : cr + 2] == b"\n" else (cr, cr + 1)
    if lf >= 0:
        return lf, lf + 1
    if eof and position < len(data):
        return len(data), len(data)
    return None


def _cut_first_line(w: TextWindow, line: bytes, offset: int, line_no: int, max_bytes: int, encoding: str) -> TextWindow:
    piece = _decodable_prefix(line[:max_bytes], encoding)
    w.text = piece.decode(encoding, "replace")
    if "\0" in w.text:
        w.binary, w.text = True, ""
        return w
    w.start_line = w.end_line = line_no
    w.line_truncated = True
    w.start_byte = offset
    w.next_start_byte = offset + len(piece)
    return w


def _decodable_prefix(data: bytes, encoding: str) -> bytes:
    """``data`` without a UTF-8 character cut at its end."""
    if encoding != "utf-8":
        return data
    cut = len(data)
    for back in range(1, min(4, len(data)) + 1):
        byte = data[-back]
        if byte & 0xC0 != 0x80:  # a lead byte (or ASCII)
            need = 1 if byte < 0x80 else 2 if byte >> 5 == 0b110 else 3 if byte >> 4 == 0b1110 else 4
            if need > back:
                cut = len(data) - back
            break
    return data[:cut]


def _lines_of_text(w: TextWindow, text: str | None, first: int, last: int | None, max_bytes: int) -> TextWindow:
    if text is None:
        raise ValueError(f"a {w.encoding} file larger than {WIDE_LIMIT >> 20} MiB is not read by lines")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    last = min(last or len(lines), len(lines))
    out: list[str] = []
    used = 0
    for number in range(first, last + 1):
        line = lines[number - 1]
        cost = len(line.encode()) + 1
        if used + cost > max_bytes:
            if not out:
                w.text = line.encode()[:max_bytes].decode("utf-8", "ignore")
                w.line_truncated = True
                w.start_line = w.end_line = number
                return w
            w.truncated, w.next_start_line = True, number
            break
        out.append(line)
        used += cost
    w.text = "\n".join(out) + ("\n" if out else "")
    if out:
        w.start_line, w.end_line = first, first + len(out) - 1
    return w


def read_tail(
    root: str, rel: str, shown: str, count: int, max_bytes: int = DEFAULT_WINDOW_BYTES, stop: Stop | None = None
) -> TextWindow:
    """The last ``count`` lines (fewer when they do not fit ``max_bytes``: the window keeps the
    last ones and says where the first it dropped was)."""
    fd = open_confined(root, rel)
    try:
        s = sniff(_head(fd))
        d = _digest_of_open(fd, root, rel, stop)
        w = _window(shown, d, s)
        if s.binary:
            w.binary = True
            return w
        first = max(1, d.lines - count + 1)
        if s.encoding in WIDE_ENCODINGS:
            return _lines_of_text(w, _whole_text(fd, s, WIDE_LIMIT), first, None, max_bytes)
        return _as_it_ends(fd, _scan_tail(fd, w, s, first, max_bytes, stop))
    finally:
        os.close(fd)


_BREAK = re.compile(rb"\r\n|\r|\n")


def _scan_tail(fd: int, w: TextWindow, s: Sniffed, first: int, max_bytes: int, stop: Stop | None) -> TextWindow:
    """Read backwards from the end a chunk at a time, keeping lines ``first`` .. the last (the
    newest ones when they do not all fit ``max_bytes``)."""
    base = len(s.bom)
    end = w.size_bytes
    last_two = os.pread(fd, 2, max(base, end - 2))
    if last_two.endswith(b"\r\n") and end - base >= 2:
        end -= 2
    elif last_two[-1:] in (b"\n", b"\r") and end > base:
        end -= 1  # the file's final break ends its last line; it starts no new one
    kept: deque[bytes] = deque()
    used = 0
    line_no = w.total_lines  # the line that ends where `data` ends
    data, data_start = b"", end  # data = the file's bytes [data_start, end of line `line_no`)
    while line_no >= first:
        if stop is not None and stop():
            raise Stopped
        if data_start > base:
            start = max(base, data_start - CHUNK)
            if start > base and os.pread(fd, 2, start - 1) == b"\r\n":
                start -= 1  # never split a CRLF between two reads
            data = os.pread(fd, data_start - start, start) + data
            data_start = start
        at_file_start = data_start <= base
        high = len(data)
        pieces = [(m.end(), m.start()) for m in _BREAK.finditer(data)]
        if at_file_start:
            pieces.insert(0, (0, 0))  # the file's first line starts at its first byte
        for line_from, break_at in reversed(pieces):
            if line_no < first:
                break
            raw = data[line_from:high]
            if used + len(raw) + 1 > max_bytes:
                if kept:
                    w.truncated = True
                    line_no = 0
                    break
                start_offset = data_start + line_from
                return _cut_first_line(
                    w, os.pread(fd, max_bytes, start_offset), start_offset, line_no, max_bytes, s.encoding
                )
            kept.appendleft(raw)
            used += len(raw) + 1
            line_no -= 1
            high = break_at
        if at_file_start or line_no < first or w.truncated:
            break
        data = data[:high]  # the unfinished front line
        if len(data) > max_bytes - used:  # it cannot fit: no need to read the rest of it
            if kept:
                w.truncated = True
                break
            start_offset = _line_start_offset(fd, data_start, base)
            return _cut_first_line(
                w, os.pread(fd, max_bytes, start_offset), start_offset, line_no, max_bytes, s.encoding
            )
    texts = [raw.decode(s.encoding, "replace") for raw in kept]
    if any("\0" in t for t in texts):
        w.binary = True
        return w
    w.text = "\n".join(texts) + ("\n" if texts else "")
    if texts:
        w.start_line, w.end_line = w.total_lines - len(texts) + 1, w.total_lines
    return w


def _line_start_offset(fd: int, position: int, base: int) -> int:
    """Where the line holding the byte before ``position`` starts (searching backwards)."""
    while position > base:
        start = max(base, position - CHUNK)
        data = os.pread(fd, position - start, start)
        cut = max(data.rfind(b"\n"), data.rfind(b"\r"))
        if cut >= 0:
            return start + cut + 1
        position = start
    return base


def read_bytes(
    root: str,
    rel: str,
    shown: str,
    start_byte: int,
    max_bytes: int = DEFAULT_WINDOW_BYTES,
    stop: Stop | None = None,
) -> TextWindow:
    """The text of bytes ``start_byte`` .. ``start_byte + max_bytes`` (a character cut at either
    end is left out: ``end_byte`` / ``next_start_byte`` say where the window really ended)."""
    fd = open_confined(root, rel)
    try:
        s = sniff(_head(fd))
        d = _digest_of_open(fd, root, rel, stop)
        w = _window(shown, d, s)
        if s.binary:
            w.binary = True
            return w
        if start_byte >= d.size:  # past the end: nothing, as for a start_line past the end (size_bytes says why)
            w.text = ""
            return w
        start = max(start_byte, len(s.bom))
        if s.encoding == "utf-8":
            start = _character_start(fd, start, len(s.bom))
        elif s.encoding not in ("latin-1",):
            unit = 4 if "32" in s.encoding else 2
            start -= (start - len(s.bom)) % unit
        os.lseek(fd, start, os.SEEK_SET)
        data = os.read(fd, max_bytes) if start < d.size else b""
        piece = _decodable_prefix(data, s.encoding) if s.encoding == "utf-8" else data
        if s.encoding.startswith("utf-16") or s.encoding.startswith("utf-32"):
            unit = 4 if "32" in s.encoding else 2
            piece = piece[: len(piece) - len(piece) % unit]
        text = piece.decode(s.encoding, "replace")
        if "\0" in text:
            w.binary = True
            return w
        w.text = text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text
        w.start_byte, w.end_byte = start, start + len(piece)
        w.start_line = _line_at(fd, start, len(s.bom), stop, _marks_of(fd, root, rel))
        if w.end_byte < d.size:
            w.next_start_byte = w.end_byte
        return w
    finally:
        os.close(fd)


def _character_start(fd: int, position: int, base: int) -> int:
    """``position`` moved back to the start of the UTF-8 character it falls in."""
    if position <= base:
        return base
    back = min(3, position - base)
    os.lseek(fd, position - back, os.SEEK_SET)
    before = os.read(fd, back + 1)
    index = len(before) - 1 if len(before) > back else len(before)
    while index > 0 and index < len(before) and before[index] & 0xC0 == 0x80:
        index -= 1
    return position - back + index


def _line_at(fd: int, position: int, base: int, stop: Stop | None, marks: Marks | None = None) -> int:
    """The 1-based number of the line holding byte ``position``; from the nearest mark before it
    when the file's marks are known, else counted from ``base``."""
    endings = _Endings()
    start = base
    if marks:
        index = min(position // CHUNK, len(marks) - 1)
        if index * CHUNK > base:
            start = index * CHUNK
            endings.lf, endings._pending_cr = marks[index]  # the breaks before it, however they were
    os.lseek(fd, start, os.SEEK_SET)
    remaining = position - start
    while remaining > 0:
        chunk = os.read(fd, min(CHUNK, remaining))
        if not chunk:
            break
        if stop is not None and stop():
            raise Stopped
        endings.feed(chunk)
        remaining -= len(chunk)
    endings.close()  # a CR just before the window ended its line
    return endings.breaks + 1


def file_sha256(root: str, rel: str, stop: Stop | None = None) -> FileDigest:
    """The digest of a file, for ``file_hash`` (from memory when the file is known unchanged)."""
    return digest(root, rel, stop)
