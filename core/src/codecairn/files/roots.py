"""Declared roots: the directories file tools may touch, and where a given path lands in them.

The roots are those named on the command line (the first is the indexed one) and those the MCP
client declares (``roots/list``, asked again on ``notifications/roots/list_changed``). A path an
agent gives is relative to the indexed root, or absolute inside any declared root; it is resolved
(real path, symlinks followed) and must land inside one of them. Answers name a file by its
root-relative path when it is in the indexed root, by its absolute real path otherwise.

Whether the *given* path went through a symbolic link on its way (``Place.through_link``) is kept
too: reading through a link that stays inside the roots is fine, writing through one needs the
caller's acknowledgement (risk.py).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import unquote, urlparse

from codecairn.errors import BAD_ARGUMENT, OUTSIDE_WORKSPACE, ToolError, quoted
from codecairn.limits import MAX_PATH_CHARS
from codecairn.paths import inside


@dataclass(frozen=True)
class Place:
    """Where a path given by an agent lands."""

    root: str  # the real path of the declared root it is in
    rel: str  # root-relative, '/' separated ("" for the root itself)
    shown: str  # how answers name it: rel in the indexed root, the absolute real path elsewhere
    through_link: bool  # the given path passed through a symbolic link (a directory or the file itself)
    primary: bool  # in the indexed root

    @property
    def real(self) -> str:
        return os.path.join(self.root, self.rel) if self.rel else self.root


class DeclaredRoots:
    def __init__(self, primary: str | os.PathLike, extra: tuple[str | os.PathLike, ...] = ()) -> None:
        self.primary = os.path.realpath(primary)
        self._named = [self.primary, *(os.path.realpath(p) for p in extra)]
        self._client: list[str] = []

    @property
    def all(self) -> list[str]:
        """Every declared root's real path, the indexed one first, no duplicates."""
        seen: dict[str, None] = {}
        for root in (*self._named, *self._client):
            seen.setdefault(root, None)
        return list(seen)

    @property
    def client(self) -> list[str]:
        return list(self._client)

    def set_client_roots(self, uris: list[str]) -> list[str]:
        """Replace the client's roots (``file://`` URIs or paths) with these; returns what was kept
        (existing directories). Anything else is ignored, never a reason to widen access."""
        kept = []
        for uri in uris:
            path = _path_of(uri)
            if path and os.path.isdir(path):
                kept.append(os.path.realpath(path))
        self._client = kept
        return kept

    def place(self, given: str, *, allow_root: bool = True) -> Place:
        """Where ``given`` lands; ToolError when it lands outside every declared root."""
        if not isinstance(given, str):
            raise ToolError(BAD_ARGUMENT, "path must be a string")
        if "\0" in given:
            raise ToolError(BAD_ARGUMENT, "path contains a NUL byte")
        if not given.strip():
            raise ToolError(BAD_ARGUMENT, "path is empty: leave it out to mean the whole workspace")
        if len(given) > MAX_PATH_CHARS:
            raise ToolError(BAD_ARGUMENT, f"path is longer than {MAX_PATH_CHARS} characters")
        roots = self.all
        if os.path.isabs(given):
            start, parts = _lexical_start(given, roots)
            real = os.path.realpath(given)
        else:
            start, parts = self.primary, given.split("/")
            real = os.path.realpath(os.path.join(self.primary, given))
        # The innermost declared root holding the real path (roots may nest).
        holders = [r for r in roots if inside(r, real)]
        if not holders:
            raise ToolError(
                OUTSIDE_WORKSPACE,
                f"{quoted(given)} is outside the declared roots",
                roots=[self.show_root(r) for r in roots][:10],
            )
        root = self.primary if self.primary in holders else max(holders, key=len)
        rel = os.path.relpath(real, root).replace(os.sep, "/")
        rel = "" if rel == "." else rel
        if not rel and not allow_root:
            raise ToolError(BAD_ARGUMENT, f"{quoted(given)} is a root directory; give a file")
        primary = root == self.primary
        through_link = start is None or traverses_link(start, parts)
        return Place(root, rel, rel if primary else os.path.join(root, rel) if rel else root, through_link, primary)

    def show_root(self, root: str) -> str:
        return "." if root == self.primary else root

    def place_of_real(self, real: str) -> Place | None:
        """The place of a real path found by a listing or a search (no link checks: it is real)."""
        for root in self.all:
            if inside(root, real):
                rel = os.path.relpath(real, root).replace(os.sep, "/")
                rel = "" if rel == "." else rel
                primary = root == self.primary
                shown = rel if primary else (os.path.join(root, rel) if rel else root)
                return Place(root, rel, shown, False, primary)
        return None


def _path_of(uri: str) -> str | None:
    if not isinstance(uri, str) or "\0" in uri or len(uri) > MAX_PATH_CHARS:
        return None
    if uri.startswith("file:"):
        parsed = urlparse(uri)
        if parsed.netloc not in ("", "localhost"):
            return None
        return unquote(parsed.path) or None
    return uri if os.path.isabs(uri) else None


def _lexical_start(given: str, roots: list[str]) -> tuple[str | None, list[str]]:
    """An absolute path as a declared root and the parts below it, read without resolving links;
    (None, []) when no root is a lexical prefix (it can only be inside one through a link)."""
    norm = os.path.normpath(given)
    for root in sorted(roots, key=len, reverse=True):
        if norm == root or norm.startswith(root + os.sep):
            rest = given[len(root) :] if given.startswith(root) else norm[len(root) :]
            return root, [p for p in rest.split("/") if p]
    return None, []


def traverses_link(start: str, parts: list[str]) -> bool:
    """Does walking ``parts`` from ``start`` (a real directory) pass through a symbolic link?"""
    current = start
    for part in parts:
        if part in ("", "."):
            continue
        if part == "..":
            current = os.path.dirname(current)
            continue
        current = os.path.join(current, part)
        if os.path.islink(current):
            return True
    return False
