"""JSON read as a stream: checked (``check``) or searched with an RFC 6901 pointer (``select``)
without ever holding the document — only the selected value, up to a byte budget.

A small scanner over 256 KiB chunks: strings, numbers and runs of whitespace are matched by
regular expressions (C speed); only the structure (``{ } [ ] , :``) is walked in Python, with an
explicit stack, so nesting depth costs memory, not recursion. UTF-8 is checked as the bytes go by.
The first error is reported with its byte offset, 1-based line and column (in characters).
"""

from __future__ import annotations

import codecs
import functools
import json
import os
import re
from collections.abc import Callable
from typing import NamedTuple

CHUNK = 256 * 1024
MAX_DEPTH = 10_000  # deeper than any real document; a stack of this many small ints is nothing

_WS = re.compile(rb"[ \t\n\r]*")
_STRING_RUN = re.compile(rb'[^"\\\x00-\x1f]*')
_ESCAPE = re.compile(rb'\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})')
_NUMBER = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_NUMBERISH = re.compile(rb"[-+0-9.eE]*")
_LITERALS = (b"true", b"false", b"null")


def _run_end(pattern: re.Pattern[bytes], buf: bytes | bytearray, pos: int) -> int:
    """Where a run of ``pattern`` starting at ``pos`` ends (its patterns match the empty string too)."""
    m = pattern.match(buf, pos)
    return pos if m is None else m.end()


class _Runs(NamedTuple):
    elements: re.Pattern[bytes]  # many array elements, each with its comma
    members: re.Pattern[bytes]  # many object members, each with its comma
    element: re.Pattern[bytes]  # one element and its comma
    member: re.Pattern[bytes]  # one member and its comma (key in group 1, value in group "value")


@functools.cache
def _runs() -> _Runs:
    """Regular expressions that consume many complete elements at once (C speed): values nested
    up to three levels deep, each followed by a comma — so every element they take is complete
    even where a chunk of the document ends. Anything else goes the slow way, one token at a time.
    Compiled on first use: they take the better part of a second, which a server start should not pay."""
    string = rb'"[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*"'
    scalar = rb"(?:" + string + rb"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null)"
    value = scalar
    for _ in range(3):
        array = rb"\[\s*(?:" + value + rb"(?:\s*,\s*" + value + rb")*)?\s*\]"
        member = string + rb"\s*:\s*" + value
        obj = rb"\{\s*(?:" + member + rb"(?:\s*,\s*" + member + rb")*)?\s*\}"
        value = rb"(?:" + scalar + rb"|" + array + rb"|" + obj + rb")"
    elements = re.compile(rb"(?:\s*" + value + rb"\s*,)*")
    members = re.compile(rb"(?:\s*" + string + rb"\s*:\s*" + value + rb"\s*,)*")
    element = re.compile(rb"\s*" + value + rb"\s*,")
    member_ = re.compile(rb"\s*(" + string + rb")\s*:\s*(?P<value>" + value + rb")\s*,")
    return _Runs(elements, members, element, member_)


class JsonError(Exception):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


class TooLarge(Exception):
    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size


class _Source:
    """Bytes of a file (or of a string), a chunk at a time. ``buf[pos:]`` is unread; ``base`` is
    the offset of ``buf[0]``. Consumed bytes are dropped unless a capture holds them."""

    def __init__(self, read: Callable[[int], bytes], stop: Callable[[], bool] | None = None) -> None:
        self._read = read
        self._stop = stop
        self.buf = b""
        self.pos = 0
        self.base = 0
        self.eof = False
        self.hold_from: int | None = None  # absolute offset a capture started at
        self._utf8 = codecs.getincrementaldecoder("utf-8")()
        self._checked = 0  # absolute offset up to which UTF-8 was checked

    def more(self) -> bool:
        """Read another chunk; False at the end."""
        if self.eof:
            return False
        if self._stop is not None and self._stop():
            from codecairn.files.reading import Stopped

            raise Stopped
        keep_from = self.pos if self.hold_from is None else min(self.pos, self.hold_from - self.base)
        if keep_from > 0:
            self.buf = self.buf[keep_from:]
            self.base += keep_from
            self.pos -= keep_from
        chunk = self._read(CHUNK)
        if not chunk:
            self.eof = True
            try:
                self._utf8.decode(b"", final=True)
            except UnicodeDecodeError:
                raise JsonError("the text is not valid UTF-8", self._checked) from None
            return False
        try:
            self._utf8.decode(chunk)
        except UnicodeDecodeError as exc:
            raise JsonError("the text is not valid UTF-8", self.base + len(self.buf) + exc.start) from None
        self.buf += chunk
        self._checked = self.base + len(self.buf)
        return True

    def at(self) -> int:
        return self.base + self.pos

    def peek(self) -> int:
        """The next byte after whitespace, or -1 at the end."""
        while True:
            self.pos = _run_end(_WS, self.buf, self.pos)
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self.more():
                return -1

    def need(self, count: int) -> bool:
        while len(self.buf) - self.pos < count:
            if not self.more():
                return False
        return True


def _fail(src: _Source, message: str) -> JsonError:
    return JsonError(message, src.at())


def _string(src: _Source, keep: bool) -> str | None:
    """Consume a string (at its opening quote); its value when ``keep``."""
    src.pos += 1
    parts: list[bytes] = []
    while True:
        end = _run_end(_STRING_RUN, src.buf, src.pos)
        if keep:
            parts.append(src.buf[src.pos : end])
        src.pos = end
        if src.pos >= len(src.buf):
            if not src.more():
                raise _fail(src, "unterminated string")
            continue
        byte = src.buf[src.pos]
        if byte == 0x22:  # "
            src.pos += 1
            if not keep:
                return None
            return json.loads(b'"' + b"".join(parts) + b'"')
        if byte == 0x5C:  # \
            if not src.need(6) and not src.need(2):
                raise _fail(src, "unterminated string")
            e = _ESCAPE.match(src.buf, src.pos)
            if e is None:
                raise _fail(src, "invalid escape in a string")
            if keep:
                parts.append(src.buf[src.pos : e.end()])
            src.pos = e.end()
            continue
        raise _fail(src, "control character in a string (escape it)")


def _scalar(src: _Source, first: int) -> None:
    if first == -1:  # (before `in b"..."`, which takes no -1)
        raise _fail(src, "unexpected end of the document")
    if first == 0x22:
        _string(src, False)
        return
    if first in b"-0123456789":
        # The run of characters a number could hold must end inside what was read (or the
        # document must): "0." at the end of a chunk may be "0.5" once the next one comes.
        while _run_end(_NUMBERISH, src.buf, src.pos) == len(src.buf) and src.more():
            pass
        m = _NUMBER.match(src.buf, src.pos)
        if m is None:
            raise _fail(src, "invalid number")
        src.pos = m.end()
        return
    for literal in _LITERALS:
        if literal[0] == first:
            src.need(len(literal))
            if src.buf[src.pos : src.pos + len(literal)] != literal:
                raise _fail(src, f"invalid literal (expected {literal.decode()})")
            src.pos += len(literal)
            return
    raise _fail(src, "expected a value")


def _value(src: _Source) -> None:
    """Consume one value, however deep, with an explicit stack (``{`` or ``[`` per level)."""
    runs = _runs()
    stack: list[int] = []
    first = src.peek()
    while True:
        if first in (0x7B, 0x5B):  # { [
            if len(stack) >= MAX_DEPTH:
                raise _fail(src, f"nested deeper than {MAX_DEPTH} levels")
            stack.append(first)
            src.pos += 1
            opened_at = src.pos
            src.pos = _run_end(runs.members if first == 0x7B else runs.elements, src.buf, src.pos)
            ran = src.pos > opened_at  # elements were taken: a closing bracket now follows a comma
            first = src.peek()
            closing = 0x7D if stack[-1] == 0x7B else 0x5D
            if first == closing and not ran:
                src.pos += 1
                stack.pop()
            else:
                if stack[-1] == 0x7B:
                    _member_key(src, first)
                first = src.peek()
                continue
        else:
            _scalar(src, first)
        # after a value: close levels, or go on to the next member / element
        while stack:
            after = src.peek()
            closing = 0x7D if stack[-1] == 0x7B else 0x5D
            if after == 0x2C:  # ,
                src.pos += 1
                src.pos = _run_end(runs.members if stack[-1] == 0x7B else runs.elements, src.buf, src.pos)
                first = src.peek()
                if stack[-1] == 0x7B:
                    _member_key(src, first)
                    first = src.peek()
                break
            if after == closing:
                src.pos += 1
                stack.pop()
                continue
            raise _fail(src, "expected ',' or '}'" if closing == 0x7D else "expected ',' or ']'")
        if not stack:
            return


def _member_key(src: _Source, first: int, keep: bool = False) -> str | None:
    if first != 0x22:
        raise _fail(src, "expected a member name in double quotes")
    key = _string(src, keep)
    if src.peek() != 0x3A:  # :
        raise _fail(src, "expected ':' after a member name")
    src.pos += 1
    return key


def _end(src: _Source) -> None:
    if src.peek() != -1:
        raise _fail(src, "unexpected text after the document")


# ---- checking ------------------------------------------------------------------------------------


def check(read: Callable[[int], bytes], stop: Callable[[], bool] | None = None) -> None:
    """Raise JsonError at the first error of the document ``read`` yields."""
    src = _Source(read, stop)
    head = src.peek()
    if head == -1:
        raise JsonError("the document is empty", 0)
    if src.buf.startswith(b"\xef\xbb\xbf"):
        raise JsonError("a byte order mark is not allowed in JSON", 0)
    _value(src)
    _end(src)


# ---- selecting -----------------------------------------------------------------------------------


def pointer_tokens(pointer: str) -> list[str]:
    """RFC 6901: "" is the whole document; "/a/b~1c/0" -> ["a", "b/c", "0"]."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError('a JSON pointer is "" or starts with "/"')
    if re.search(r"~(?![01])", pointer):
        raise ValueError('in a JSON pointer "~" is written "~0" and "/" inside a name "~1" (RFC 6901)')
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


class NotThere(Exception):
    """The pointer names nothing in the document (the message says where it stopped)."""


def select(read: Callable[[int], bytes], pointer: str, max_bytes: int, stop: Callable[[], bool] | None = None):
    """The value ``pointer`` names, parsed; raises NotThere, TooLarge (its serialisation is larger
    than ``max_bytes``), JsonError (a syntax error anywhere in the document).

    The value is the one a parser of the whole document gives: the rest of the document is read
    (checked, not kept) after it, so a document broken further on is an error, not a value, and
    of a member given twice the last one counts (as JSON.parse and Python's json take it)."""
    tokens = pointer_tokens(pointer)
    src = _Source(read, stop)
    opened: list[int] = []  # the container entered for each token so far: { or [
    value = _descend(src, tokens, opened, max_bytes)
    while opened:  # the containers around the value, innermost first, read to their ends
        level = len(opened) - 1
        if opened[level] == 0x7B and _same_member_again(src, tokens[level]):
            del opened[level + 1 :]
            value = _descend(src, tokens, opened, max_bytes)  # the later member wins
            continue
        if opened[level] == 0x5B:
            _rest_of_array(src)
        opened.pop()
    _end(src)
    if isinstance(value, NotThere):
        raise value
    return value


def _descend(src: _Source, tokens: list[str], opened: list[int], max_bytes: int) -> object:
    """From a member value or element at depth ``len(opened)``, follow the rest of ``tokens`` and
    parse the value they name (``opened`` grows by the containers entered). What names nothing is
    returned as NotThere, read past: a later member of the same name may still have it."""
    walked = "".join("/" + t.replace("~", "~0").replace("/", "~1") for t in tokens[: len(opened)])
    for token in tokens[len(opened) :]:
        first = src.peek()
        try:
            if first == 0x7B:
                _enter_member(src, token, walked)
            elif first == 0x5B:
                _enter_element(src, token, walked)
            elif first == -1:
                raise JsonError("the document is empty", src.at())
            else:
                kind = "a string" if first == 0x22 else "a number" if first in b"-0123456789" else "a literal"
                _value(src)
                raise NotThere(f"{walked or '(the document)'} is {kind}, which has no member {token!r}")
        except NotThere as missing:
            return missing
        opened.append(first)
        walked += "/" + token.replace("~", "~0").replace("/", "~1")
    start = src.peek()
    if start == -1:
        raise JsonError("the document is empty", src.at())
    begin = src.at()
    src.hold_from = begin
    _value_bounded(src, begin, max_bytes)
    raw = src.buf[begin - src.base : src.pos]
    src.hold_from = None  # the rest of the document is read, not kept
    return json.loads(raw)


def _same_member_again(src: _Source, token: str) -> bool:
    """Read the rest of an object after a member's value: True, at the value, when a later member
    has the name ``token`` too; False past the closing brace."""
    wanted = json.dumps(token, ensure_ascii=False).encode()
    while True:
        after = src.peek()
        if after == 0x7D:
            src.pos += 1
            return False
        if after != 0x2C:
            raise _fail(src, "expected ',' or '}'")
        src.pos += 1
        first = src.peek()
        fast = _runs().member.match(src.buf, src.pos)
        if fast is not None:  # a whole member and its comma, in one match
            raw = fast.group(1)
            if raw == wanted or (len(raw) >= len(token) + 2 and json.loads(raw) == token):
                src.pos = fast.start("value")
                return True
            src.pos = fast.end() - 1  # at its comma
            continue
        if _member_key(src, first, keep=True) == token:
            return True
        _value(src)


def _rest_of_array(src: _Source) -> None:
    """Read the rest of an array after an element, past its closing bracket."""
    while True:
        after = src.peek()
        if after == 0x5D:
            src.pos += 1
            return
        if after != 0x2C:
            raise _fail(src, "expected ',' or ']'")
        src.pos += 1
        src.pos = _run_end(_runs().elements, src.buf, src.pos)
        _value(src)


def _value_bounded(src: _Source, begin: int, max_bytes: int) -> None:
    """Consume one value while keeping it, refusing once it is larger than ``max_bytes``."""
    original = src.more

    def bounded_more() -> bool:
        if src.base + len(src.buf) - begin > max_bytes:
            raise TooLarge(src.base + len(src.buf) - begin)
        return original()

    src.more = bounded_more  # type: ignore[method-assign]
    try:
        _value(src)
    finally:
        src.more = original  # type: ignore[method-assign]
    if src.at() - begin > max_bytes:
        raise TooLarge(src.at() - begin)


def _enter_member(src: _Source, token: str, walked: str) -> None:
    src.pos += 1
    first = src.peek()
    if first == 0x7D:
        src.pos += 1  # (read past: the caller goes on after the object)
        raise NotThere(f"{walked or '(the document)'} has no member {token!r}")
    wanted = json.dumps(token, ensure_ascii=False).encode()
    while True:
        fast = _runs().member.match(src.buf, src.pos)
        if fast is not None:  # a whole member and its comma, in one match
            raw = fast.group(1)
            if raw == wanted or (len(raw) >= len(token) + 2 and json.loads(raw) == token):
                src.pos = fast.start("value")
                return
            src.pos = fast.end()
            first = src.peek()
            continue
        key = _member_key(src, first, keep=True)
        if key == token:
            return
        _value(src)
        after = src.peek()
        if after == 0x2C:
            src.pos += 1
            first = src.peek()
            continue
        if after == 0x7D:
            src.pos += 1
            raise NotThere(f"{walked or '(the document)'} has no member {token!r}")
        raise _fail(src, "expected ',' or '}'")


def _enter_element(src: _Source, token: str, walked: str) -> None:
    if not re.fullmatch(r"0|[1-9][0-9]*", token):
        _value(src)  # (read past: the caller goes on after the array)
        raise NotThere(f"{walked or '(the document)'} is an array: {token!r} is not an index")
    wanted = int(token)
    src.pos += 1
    first = src.peek()
    if first == 0x5D:
        src.pos += 1
        raise NotThere(f"{walked or '(the document)'} is an empty array")
    index = 0
    while True:
        if index == wanted:
            return
        fast = _runs().element.match(src.buf, src.pos)
        if fast is not None:  # a whole element and its comma, in one match
            src.pos = fast.end()
            index += 1
            src.peek()
            continue
        _value(src)
        after = src.peek()
        if after == 0x2C:
            src.pos += 1
            index += 1
            src.peek()
            continue
        if after == 0x5D:
            src.pos += 1
            raise NotThere(f"{walked or '(the document)'} has {index + 1} elements; no index {wanted}")
        raise _fail(src, "expected ',' or ']'")


# ---- where an offset is ------------------------------------------------------------------------


def line_and_column(read_at: Callable[[int, int], bytes], offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of byte ``offset``, reading the bytes before it in
    chunks (``read_at(size, position)``)."""
    line, line_start, position = 1, 0, 0
    while position < offset:
        chunk = read_at(min(CHUNK, offset - position), position)
        if not chunk:
            break
        breaks = chunk.count(b"\n")
        if breaks:
            line += breaks
            line_start = position + chunk.rfind(b"\n") + 1
        position += len(chunk)
    prefix = read_at(offset - line_start, line_start) if offset - line_start <= CHUNK * 4 else b""
    column = len(prefix.decode("utf-8", "replace")) + 1 if prefix or offset == line_start else offset - line_start + 1
    return line, column


def file_reader(fd: int) -> Callable[[int], bytes]:
    def read(size: int) -> bytes:
        return os.read(fd, size)

    return read


def text_reader(data: bytes) -> Callable[[int], bytes]:
    position = 0

    def read(size: int) -> bytes:
        nonlocal position
        piece = data[position : position + size]
        position += len(piece)
        return piece

    return read
