"""Typed errors. A tool raises ToolError; the server turns it into an MCP error result whose text
starts with the code, so an agent can tell "bad argument" from "not indexed yet".

A message that shows what it was given shows it through ``quoted()``: a short prefix and the
length, never the whole of it. An agent that sends five megabytes by mistake gets a
one-line error back, not its five megabytes echoed into its context.
"""

from __future__ import annotations

BAD_ARGUMENT = "bad_argument"
OUTSIDE_WORKSPACE = "outside_workspace"
NOT_FOUND = "not_found"
NOT_INDEXED = "not_indexed"
STALE = "stale_precondition"
UNAVAILABLE = "unavailable"
# A write that breaks a named safety rule (inside .git, a credential file, through a symlink): refused
# until the call repeats with acknowledge_risk: true.
RISK = "risk_confirmation_required"

QUOTE_CHARS = 80  # the most of a given value an error message repeats


def quoted(value: object, limit: int = QUOTE_CHARS) -> str:
    """``value`` as an error message shows it: ``repr`` of a string of at most ``limit``
    characters; a longer one is cut, and says how long it was."""
    if not isinstance(value, str):
        text = _short_repr(value, limit)
        return text if len(text) <= limit else f"{text[:limit]}…"
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit]!r}… ({len(value):,} characters)"


def clipped(message: str, limit: int = 4 * QUOTE_CHARS) -> str:
    """A message built elsewhere (a library's, an exception's) that may quote its input: cut."""
    return message if len(message) <= limit else f"{message[:limit]}… ({len(message):,} characters)"


def _short_repr(value: object, limit: int) -> str:
    """``repr`` of a non-string without building all of it (a list of a million tags)."""
    import reprlib

    shortener = reprlib.Repr()
    shortener.maxstring = shortener.maxother = limit
    shortener.maxlist = shortener.maxtuple = shortener.maxdict = shortener.maxset = 6
    return shortener.repr(value)


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
