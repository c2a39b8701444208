"""JSON schemas of the built-in tools' answers (their MCP ``outputSchema``), built from the pieces
the answers share (see shaping.py for the conventions). An answer that passes its tool's schema is
what docs/tools.md describes; clients of protocol 2025-06-18 and later validate
``structuredContent`` against it, and the tests do the same for every answer they get.

Every answer may carry the server's stamps (``generation``, ``stale``, ``indexing``). (Not a
plugin: the tool modules beside it are.)"""

from __future__ import annotations

from typing import Any

INTEGER = {"type": "integer"}
COUNT = {"type": "integer", "minimum": 0}
LINE = {"type": "integer", "minimum": 1}
STRING = {"type": "string"}
STRINGS = {"type": "array", "items": STRING}
TRUE = {"const": True}
FALSE = {"const": False}
LINES = {"type": "string", "pattern": "^[0-9]+(-[0-9]+)?$", "description": "'start-end', or one line"}
LINE_OR_LINES = {"anyOf": [INTEGER, {"type": "array", "items": INTEGER}]}
COUNTS = {"type": "object", "additionalProperties": COUNT}

STAMPS: dict[str, Any] = {
    "generation": {"type": "integer", "description": "the index generation the answer came from"},
    "stale": {
        "anyOf": [{"type": "boolean"}, STRINGS],
        "description": "paths named here whose content changed since they were indexed",
    },
    "indexing": {"type": "boolean", "description": "an index run is in progress"},
    "first_index": {"type": "string", "description": "the root's first index is in progress: what it says"},
}

# A bounded list that was cut says so (a complete one says nothing).
CUT: dict[str, Any] = {"complete": FALSE, "limit_reached": TRUE, "limit_reason": STRING}

# Places by file: {path: {name: line or [lines]}}, names relative to the file's module.
NAMES_BY_PATH = {"type": "object", "additionalProperties": {"type": "object", "additionalProperties": LINE_OR_LINES}}

# Edges by how they resolved: {"exact"|"import"|...: places by file}, plus the dotted names of calls
# that leave the index and the names nothing matched.
EDGES = {
    "type": "object",
    "properties": {
        "external": {
            **STRINGS,
            "description": "dotted names called outside the index (built-ins, modules not indexed)",
        },
        "unresolved": STRINGS,
    },
    "additionalProperties": NAMES_BY_PATH,
}

SYMBOL_ENTRY = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "the qualified name without the file's module"},
        "kind": STRING,
        "lines": LINES,
        "signature": STRING,
        "extractor": STRING,
        "matched": STRINGS,
        "semantic_score": {"type": "number"},
    },
    "required": ["name", "kind", "lines"],
    "additionalProperties": False,
}
SYMBOLS_BY_PATH = {"type": "object", "additionalProperties": {"type": "array", "items": SYMBOL_ENTRY}}

SYMBOL_HEADER: dict[str, Any] = {
    "qualified_name": STRING,
    "kind": STRING,
    "path": STRING,
    "lines": LINES,
    "signature": STRING,
    "partial": TRUE,
    "extractor": STRING,
}

AMBIGUOUS: dict[str, Any] = {"ambiguous": TRUE, "candidates": SYMBOLS_BY_PATH, "hint": STRING, **CUT}

# The graph tools (issue 16): a bound that may or may not have cut, and the places they name.
BOOLEAN = {"type": "boolean"}
BOUNDED: dict[str, Any] = {**CUT, "complete": BOOLEAN}
SYMBOL_AT = {
    "type": "object",
    "properties": {"qualified_name": STRING, "kind": STRING, "path": STRING, "line": LINE},
    "required": ["qualified_name", "path", "line"],
    "additionalProperties": False,
}
# Call sites resolution left open that might call the symbol (counted in full, the first few listed).
POSSIBLE_CALLERS: dict[str, Any] = {
    "unresolved_call_sites": COUNT,
    "possible_callers": {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"name": STRING, "path": STRING, "line": INTEGER, "receiver": STRING, "in": STRING},
            "required": ["name", "path", "line"],
            "additionalProperties": False,
        },
    },
    "possible_callers_complete": FALSE,
}
# How one edge resolved, beyond a plain exact call: its kind, unresolved, or its resolution label.
EDGE_LABEL: dict[str, Any] = {"kind": STRING, "resolved": FALSE, "resolution": STRING}


def answer(properties: dict[str, Any], required: tuple[str, ...] = (), description: str = "") -> dict[str, Any]:
    """An answer's schema: these properties and the server's stamps, nothing else."""
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {**properties, **STAMPS},
        "additionalProperties": False,
    }
    if required:
        schema["required"] = list(required)
    if description:
        schema["description"] = description
    return schema


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def open_answer(properties: dict[str, Any], required: tuple[str, ...] = (), description: str = "") -> dict[str, Any]:
    """The schema of an answer whose properties are typed but not closed: the answers of parts
    that add fields as they grow (the index's status, memories)."""
    schema = answer(properties, required, description)
    schema["additionalProperties"] = True
    return schema
