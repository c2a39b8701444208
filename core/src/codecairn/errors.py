"""Typed errors. A tool raises ToolError; the server turns it into an MCP error result whose text
starts with the code, so an agent can tell "bad argument" from "not indexed yet"."""

from __future__ import annotations

BAD_ARGUMENT = "bad_argument"
OUTSIDE_WORKSPACE = "outside_workspace"
NOT_FOUND = "not_found"
NOT_INDEXED = "not_indexed"
STALE = "stale_precondition"
UNAVAILABLE = "unavailable"


class ToolError(Exception):
    def __init__(self, code: str, message: str, **details: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def to_dict(self) -> dict[str, object]:
        return {"error": self.code, "message": self.message, **self.details}


class StoreError(Exception):
    """The index database cannot be used (unreadable, corrupt, from a newer codecairn)."""


class DamagedStore(StoreError):
    """The database file is damaged, or not a database: reported, and left exactly as it is."""


class StoreNotWritable(StoreError):
    """The database cannot be written (permissions, a read-only file system): served read-only."""


QUOTE_CHARS = 80


def quoted(value: object, limit: int = QUOTE_CHARS) -> str:
    """``value`` as an error message may quote it: its repr, cut to a short prefix. An error must
    never echo back a megabyte an agent (or an attacker) sent."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(value) if isinstance(value, (str, bytes, list, dict)) else len(text)} long)"
