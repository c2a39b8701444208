"""How a Markdown document divides into sections, as a CommonMark reader sees it.

The notes tool addresses sections by heading, so what is a heading is decided the way a reader of
the file decides it: by a CommonMark parser (markdown-it-py, with GitHub's tables), never by
patterns over lines. A ``#`` line inside a fenced code block, an HTML comment or an indented code
block is not a heading; ``Title`` underlined with ``===`` is one; a fence that is never closed runs
to the end of the document, and nothing after it is a heading.

Lines are what :meth:`str.splitlines` makes of the text: every Unicode line separator (``\\r``,
``\\n``, ``\\r\\n``, ``\\v``, ``\\f``, ``\\x1c``-``\\x1e``, ``\\x85``, ``\\u2028``, ``\\u2029``) ends a
line. The parser is given those lines joined by ``\\n``, so its line numbers and ours agree, and a
separator that some renderer ignores can never hide a heading from us.

Only the block structure is parsed (no inline rules): a heading's text is its source text.
Parsing is linear but not cheap (about 2.5 s per MB here), so the last few parses are kept, keyed by
a digest of the text, and outline/get/set on an unchanged file parse it once.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

LINE_SEPARATORS = "\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029"


@cache
def _parser() -> MarkdownIt:
    """Made on the first note read: a server whose project keeps no notes never imports markdown-it
    (62 modules, 1 MB). markdown-it stops parsing what is nested deeper than maxNesting (the default
    20 swallows a deep list); 100 stays well inside Python's recursion limit, also in a worker thread."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"maxNesting": 100}).enable("table").disable(["inline", "text_join"])


# Token types of top-level blocks, named for error messages.
_BLOCK_KINDS = {
    "fence": "code fence",
    "html_block": "HTML block",
    "code_block": "indented code block",
    "blockquote_open": "block quote",
    "bullet_list_open": "list",
    "ordered_list_open": "list",
    "paragraph_open": "paragraph",
    "heading_open": "heading",
    "table_open": "table",
    "hr": "thematic break",
}


class Heading(NamedTuple):
    level: int
    text: str  # source text, whitespace runs collapsed (a setext heading may span lines)
    line: int  # first line, 1-based
    end: int  # last line (a setext heading's underline), 1-based
    setext: bool


class Block(NamedTuple):
    kind: str  # "code fence", "paragraph", ... (_BLOCK_KINDS)
    line: int  # first line, 1-based
    end: int  # last line, 1-based


class Structure(NamedTuple):
    headings: tuple[Heading, ...]  # top-level headings only: the section boundaries
    blocks: tuple[Block, ...]  # every top-level block, in order


def without_eol(line: str) -> str:
    """``line`` (one element of ``splitlines(keepends=True)``) without its line separator."""
    if line.endswith("\r\n"):
        return line[:-2]
    if line and line[-1] in LINE_SEPARATORS:
        return line[:-1]
    return line


def is_blank(line: str) -> bool:
    """Blank as CommonMark means it: nothing but spaces and tabs (a no-break space is text)."""
    return not without_eol(line).strip(" \t")


def parse(lines: Sequence[str]) -> Structure:
    """The top-level structure of a document given as lines (with or without their separators)."""
    src = "\n".join(without_eol(line) for line in lines)
    if src.startswith("\ufeff"):  # a byte order mark is not text (GitHub drops it too)
        src = src[1:]
    key = hashlib.blake2b(src.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    with _cache_lock:
        cached = _cache.get(key)
        if cached is not None:
            _cache.move_to_end(key)
            return cached
    structure = _parse(src)
    with _cache_lock:
        _cache[key] = structure
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return structure


_CACHE_SIZE = 6
_cache: OrderedDict[bytes, Structure] = OrderedDict()
_cache_lock = threading.Lock()


def _parse(src: str) -> Structure:
    tokens = _parser().parse(src)
    headings: list[Heading] = []
    blocks: list[Block] = []
    for i, token in enumerate(tokens):
        if token.level != 0 or token.nesting < 0 or token.map is None:
            continue
        first, stop = token.map
        blocks.append(Block(_BLOCK_KINDS.get(token.type, token.type), first + 1, stop))
        if token.type == "heading_open":
            text = " ".join(tokens[i + 1].content.split())
            headings.append(Heading(int(token.tag[1:]), text, first + 1, stop, token.markup in ("=", "-")))
    return Structure(tuple(headings), tuple(blocks))


def block_covering(structure: Structure, line: int) -> Block | None:
    """The top-level block that line ``line`` (1-based) is part of, if any (blank lines and link
    reference definitions belong to none)."""
    for block in reversed(structure.blocks):
        if block.line <= line:
            return block if line <= block.end else None
    return None


def open_at_end(lines: Sequence[str], structure: Structure) -> Block | None:
    """The block that would swallow whatever is appended to the document (an unclosed fence or
    HTML block), or None. Asked of the parser itself: is a heading appended after a blank line
    still a heading? Only the last top-level block is re-parsed: a top-level block starts in a
    state the text before it cannot influence."""
    if not structure.blocks:
        return None
    last = structure.blocks[-1]
    if last.end < len(lines):
        return None
    probe = parse([*lines[last.line - 1 :], "", "#"])
    closed = probe.headings and probe.headings[-1].line == len(lines) - last.line + 3
    return None if closed else last
