"""Lines holding only an unexpanded macro, blanked before the tags query runs.

tree-sitter parses C and C++ before the preprocessor, so a line holding only a macro
(``FMT_BEGIN_NAMESPACE``, ``Q_OBJECT``, ``Py_BEGIN_ALLOW_THREADS``) can turn the rest of a header
into an error. When a file's tree has errors and such lines exist, they are replaced by spaces (every
byte offset stays) and the file is parsed again. The C and C++ packs pass :func:`blank_macro_lines`
to ``grammar_pack`` as their ``repair``.
"""

from __future__ import annotations

import re
from typing import Any

from tree_sitter import Parser

# A line holding only an upper-case name with an underscore.
MACRO_LINE = re.compile(rb"^[ \t]*[A-Z][A-Za-z0-9]*_[A-Z0-9_]*[ \t]*$", re.MULTILINE)
# A matching line right after one ending in one of these continues a list (the last enumerator, an
# argument) and is left alone.
_LIST_CONTINUATION = frozenset(b",(")

_PARSERS: dict[Any, Parser] = {}  # per process, per grammar


def blank_macro_lines(source: bytes, tree):
    """``tree`` again, parsed with its macro-only lines blanked, when it has errors and such lines."""
    if not tree.root_node.has_error:
        return tree
    blanked = bytearray(source)
    found = False
    for match in MACRO_LINE.finditer(source):
        before = source[max(0, match.start() - 512) : match.start()].rstrip()
        if before and before[-1] in _LIST_CONTINUATION:
            continue
        blanked[match.start() : match.end()] = b" " * (match.end() - match.start())
        found = True
    if not found:
        return tree
    parser = _PARSERS.get(tree.language)
    if parser is None:
        parser = _PARSERS[tree.language] = Parser(tree.language)
    return parser.parse(bytes(blanked))
