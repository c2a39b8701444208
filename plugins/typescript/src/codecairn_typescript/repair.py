r"""Same-length source repairs for TypeScript that tree-sitter-typescript 0.23 cannot parse.

The grammar on PyPI predates three things modern TypeScript libraries use heavily (a third of
the files in ``effect`` hit them, and error recovery then swallows whole declarations):

* variance annotations and ``const`` on type parameters: ``interface Queue<in out A, out E>``,
  ``<const K extends string>`` (TypeScript 4.7 and 5.0);
* call signatures separated by newlines where the next one starts with type parameters::

      export const map: {
        <A, B>(f: (a: A) => B): (self: Array<A>) => Array<B>
        <A, B>(self: Array<A>, f: (a: A) => B): Array<B>      <- no ";" before "<", parse error
      } = dual(2, ...)

* tagged templates with type arguments: sql<{ id: string }>`SELECT id FROM t`;
* escaped backticks inside template literal *types*: type T = `use \`Self\``.

Each repair overwrites bytes without changing the length (the keyword becomes spaces, one
indentation space becomes ``;``, type arguments become spaces, an escaped backtick two spaces),
so every offset, line and column of
the repaired tree still points at the same text in the original source, and names and
signatures are read from the original bytes. The extractor only tries repairs on a tree that
already has errors, and keeps the repaired parse only when it has fewer error bytes.
"""

from __future__ import annotations

import re

# "<in out K" / ", out A = unknown" / "<const K extends": the modifier(s) before a type parameter
# name. The lookahead requires what follows to look like a type parameter.
_VARIANCE = re.compile(
    # blanks and comments after "<" or ","; atomic, or "////" banners backtrack exponentially
    rb"(?<=[<,])((?>(?:\s|/\*(?:[^*]|\*(?!/))*+\*/|//[^\n]*+)*))"
    rb"((?:const|in|out)(?:\s+out)?)(?=\s+[A-Za-z_$][\w$]*\s*(?:[,>=]|extends\b))"
)

# A line that starts a generic call signature: "  <A, B>(", "  <A extends X = Y>(", "  <\n    A,".
_GENERIC_SIGNATURE_LINE = re.compile(
    rb"\n([ \t]+)<(?=\s*(?:(?:const|in|out)\s+)*[A-Za-z_$][\w$]*\s*(?:[,>=]|extends\b))"
)

# A backslash-escaped backtick (an odd number of backslashes before it).
_ESCAPED_BACKTICK = re.compile(rb"(?<!\\)((?:\\\\)*)\\`")

# Where a type can end: an identifier, a closing bracket or a string/template literal type.
_TYPE_END = frozenset(b")]}>\"'`_$" + bytes(range(48, 58)) + bytes(range(65, 91)) + bytes(range(97, 123)))

_TAGGED_TEMPLATE_ARGS_END = re.compile(rb">`")


def repair(source: bytes) -> bytes | None:
    """The repaired source, or None when nothing needed repairing."""
    buf = bytearray(source)
    changed = _blank_variance(buf, source)
    changed |= _separate_generic_signatures(buf, source)
    if b">`" in source:
        changed |= _blank_tagged_template_type_arguments(buf, source)
    if b"\\`" in source:
        changed |= _blank_escaped_backticks(buf, source)
    return bytes(buf) if changed else None


def _blank_escaped_backticks(buf: bytearray, source: bytes) -> bool:
    """Valid anywhere: in a string, regex or comment the two spaces only change unread text."""
    changed = False
    for m in _ESCAPED_BACKTICK.finditer(source):
        buf[m.end() - 2 : m.end()] = b"  "
        changed = True
    return changed


def _blank_variance(buf: bytearray, source: bytes) -> bool:
    changed = False
    for m in _VARIANCE.finditer(source):
        start, end = m.span(2)
        buf[start:end] = b" " * (end - start)
        changed = True
    return changed


def _previous_code_byte(source: bytes, pos: int) -> tuple[int, int]:
    """The last significant byte before ``pos`` (skipping blanks and comments) and its index."""
    while pos > 0:
        pos -= 1
        ch = source[pos]
        if ch in b" \t\r\n":
            continue
        if ch == ord("/") and pos > 0 and source[pos - 1] == ord("*"):  # end of a /* */ comment
            opening = source.rfind(b"/*", 0, pos - 1)
            if opening < 0:
                return ch, pos
            pos = opening
            continue
        line_start = source.rfind(b"\n", 0, pos) + 1
        comment = source.find(b"//", line_start, pos + 1)
        if comment >= 0 and (comment == line_start or source[comment - 1] in b" \t"):
            pos = comment  # the significant text is before a trailing // comment
            continue
        return ch, pos
    return 0, -1


def _separate_generic_signatures(buf: bytearray, source: bytes) -> bool:
    changed = False
    for m in _GENERIC_SIGNATURE_LINE.finditer(source):
        ch, pos = _previous_code_byte(source, m.start() + 1)
        if pos < 0 or ch not in _TYPE_END:
            continue
        if ch == ord(">") and pos > 0 and source[pos - 1] == ord("="):  # "=>": an arrow body follows
            continue
        indent_end = m.end(1)
        buf[indent_end - 1] = ord(";")  # the last indentation byte becomes the missing separator
        changed = True
    return changed


def _blank_tagged_template_type_arguments(buf: bytearray, source: bytes) -> bool:
    changed = False
    for m in _TAGGED_TEMPLATE_ARGS_END.finditer(source):
        close = m.start()
        depth, pos, limit = 0, close, max(0, close - 400)
        while pos > limit:
            ch = source[pos]
            if ch == ord(">") and source[pos - 1] != ord("="):
                depth += 1
            elif ch == ord("<"):
                depth -= 1
                if depth == 0:
                    break
            elif ch == ord("`"):  # the previous template: these were no type arguments
                pos = limit
                break
            pos -= 1
        if pos <= limit or depth != 0 or not (chr(source[pos - 1]).isalnum() or source[pos - 1] in b"_$"):
            continue
        for i in range(pos, close + 1):
            if buf[i] not in b"\r\n":
                buf[i] = ord(" ")
        changed = True
    return changed
