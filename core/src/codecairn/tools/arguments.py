"""Schemas of the built-in tools' arguments, each with its limit: every string has a
``maxLength`` and every list a ``maxItems``. The server validates a call against them before
the tool runs, so no argument can make a call cost more than its limit allows, and a refusal
is one short line. (Not a plugin: the tool modules beside it are.)"""

from __future__ import annotations

from typing import Any

from codecairn.limits import (
    GLOB_MAX_CHARS,
    MAX_EDIT_TEXT_CHARS,
    MAX_GLOBS,
    MAX_HEADING_CHARS,
    MAX_PATH_CHARS,
    MAX_PATTERN_CHARS,
    MAX_REASON_CHARS,
    MAX_TAG_CHARS,
    MAX_TAGS,
    MAX_TEXT_BYTES,
)

NAME_CHARS = 1024  # a qualified name: Java's longest nested ones are a few hundred
QUERY_CHARS = MAX_REASON_CHARS  # natural-language questions; the embedder reads 256 tokens of them anyway
WORD_CHARS = 64  # a language or a kind
WORDS = 20  # kinds in one filter
IDS = 1000  # memory ids in one forget
NOTES_ADDRESS_CHARS = 3 * MAX_HEADING_CHARS + 6  # 'Parent > Child > Grandchild'


def text(max_chars: int, description: str | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string", "maxLength": max_chars}
    if description:
        schema["description"] = description
    return schema


def words(max_items: int = WORDS, max_chars: int = WORD_CHARS, description: str | None = None) -> dict[str, Any]:
    # maxItems before items: a list a million long is refused for its length before any item is read
    schema: dict[str, Any] = {"type": "array", "maxItems": max_items, "items": text(max_chars)}
    if description:
        schema["description"] = description
    return schema


def path(description: str | None = None) -> dict[str, Any]:
    return text(MAX_PATH_CHARS, description)


def name(description: str | None = None) -> dict[str, Any]:
    return text(NAME_CHARS, description)


TAGS = words(MAX_TAGS, MAX_TAG_CHARS)
REASON = text(MAX_REASON_CHARS)
QUERY = text(QUERY_CHARS)
GLOB = text(GLOB_MAX_CHARS, "glob, e.g. get*Config")
NOTES_TEXT = text(MAX_TEXT_BYTES)  # characters here; the notes file checks the bytes


# ---- the file tools ------------------------------------------------------------------------------
GLOBS = words(MAX_GLOBS, GLOB_MAX_CHARS, "glob patterns, e.g. *.py, src/**/test_*")
EDIT_TEXT = text(MAX_EDIT_TEXT_CHARS)
PATTERN = text(MAX_PATTERN_CHARS)
SHA256 = text(71, "sha256 of the file as last read (read, file_hash): the write is refused if it changed")
ACKNOWLEDGE = {"type": "boolean", "description": "write despite a named risk rule (.git, credentials, symlink)"}


def count(minimum: int, maximum: int, description: str | None = None, default: int | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "integer", "minimum": minimum, "maximum": maximum}
    if default is not None:
        schema["default"] = default
    if description:
        schema["description"] = description
    return schema
