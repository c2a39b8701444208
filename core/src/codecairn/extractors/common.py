"""Small helpers every extractor needs: node text, signatures, doc lines, error detection."""

from __future__ import annotations

import re

_SPACES = re.compile(r"\s+")
_DOC_MARKERS = re.compile(r"^\s*(/\*\*+|/\*+|\*+/?|///?!?|//!|#+|--)\s?")
SIGNATURE_MAX = 240
# A comment that ends a line of a signature written over several (`(a, // the first` / `b)`,
# `def f(a,  # the first`): on one line it would swallow the rest. `#` only before a space: Rust's
# `#[cfg(...)]` is no comment.
_TRAILING_COMMENT = re.compile(r"(?:(?<=\s)|^)(?://|#(?=[ \t]))[^\n]*(?=\n)", re.M)


def text(source: bytes, node) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def signature(source: bytes, node, body=None, limit: int = SIGNATURE_MAX) -> str:
    """The declaration text up to its body, on one line: ``def f(a, b) -> int``."""
    end = body.start_byte if body is not None else node.end_byte
    raw = source[node.start_byte : end].decode("utf-8", "replace")
    sig = " ".join(uncommented(raw).split()).rstrip("{:").rstrip()  # split/join: faster than a regex, on the hot path
    return sig if len(sig) <= limit else sig[: limit - 1] + "…"


def uncommented(raw: str) -> str:
    """``raw`` without the comments that end its lines but the last (_TRAILING_COMMENT), for a
    declaration written over several lines and shown on one."""
    if "\n" in raw and ("//" in raw or "# " in raw):
        return _TRAILING_COMMENT.sub("", raw)
    return raw


def first_doc_line(comment: str) -> str:
    """First meaningful line of a doc comment or docstring, markers stripped.

    Handles ``/** ... */``, ``///``, ``//``, ``#`` and Python string quotes. Javadoc-style tags
    (``@param``) end the summary.
    """
    body = comment.strip()
    for quote in ('"""', "'''", '"', "'"):
        if (
            body.startswith(quote)
            or body[:2].lower() in ("r" + quote[0], "u" + quote[0])
            and body[1:].startswith(quote)
        ):
            body = body.lstrip("rRuUbB")
            body = body[len(quote) :]
            if body.endswith(quote):
                body = body[: -len(quote)]
            break
    for line in body.splitlines():
        line = _DOC_MARKERS.sub("", line).strip()
        if line.endswith("*/"):
            line = line[:-2].strip()
        if not line:
            continue
        if line.startswith("@"):
            return ""
        return line
    return ""


def first_sentence(line: str) -> str:
    """Javadoc convention: the summary is the first sentence."""
    m = re.search(r"\.(\s|$)", line)
    return line[: m.start() + 1] if m else line


def has_errors(tree) -> bool:
    return tree.root_node.has_error
