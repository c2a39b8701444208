"""The walker's rules (default excluded directories, the project's configured excludes, nested
.gitignore files, known languages, size limit), asked about one path at a time — a watcher hears about single paths and must not walk
the tree to decide whether one matters.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import pathspec

from codecairn.hookspecs import Language
from codecairn.index.walker import DEFAULT_EXCLUDED_DIRS, _ignore_spec, _ignored


class WalkRules:
    def __init__(
        self,
        root: str | os.PathLike,
        language_for: Callable[[str], Language | None],
        *,
        exclude: pathspec.PathSpec | None = None,
        max_file_bytes: int | None = None,
    ) -> None:
        self.root = os.path.realpath(root)
        self.language_for = language_for
        self.exclude = exclude  # the project's configured excludes, matched from the root
        self.max_file_bytes = max_file_bytes  # None: the walker's default
        self._specs: dict[str, pathspec.PathSpec | None] = {}  # root-relative dir -> its .gitignore

    def forget_ignore_files(self) -> None:
        """A .gitignore changed: read them again when next asked."""
        self._specs.clear()

    def _spec(self, rel_dir: str) -> pathspec.PathSpec | None:
        if rel_dir not in self._specs:
            self._specs[rel_dir] = _ignore_spec(self.root, rel_dir)
        return self._specs[rel_dir]

    def relative(self, absolute: str) -> str | None:
        """Root-relative '/' path, or None when ``absolute`` is not under the root."""
        if absolute == self.root:
            return ""
        if not absolute.startswith(self.root + os.sep):
            return None
        return absolute[len(self.root) + 1 :].replace(os.sep, "/")

    def inside_ignored_dir(self, rel: str) -> bool:
        """Is any directory above ``rel`` one the walker never enters?"""
        return self._ignored(rel, last_is_dir=None)

    def ignored(self, rel: str, is_dir: bool) -> bool:
        """Would the walker skip ``rel`` (a file, or a directory when ``is_dir``)?"""
        return self._ignored(rel, last_is_dir=is_dir)

    def _ignored(self, rel: str, last_is_dir: bool | None) -> bool:
        parts = rel.split("/")
        specs: tuple = ((self.exclude, ""),) if self.exclude is not None else ()
        own = self._spec("")
        if own is not None:
            specs = ((own, ""),)
        for i, name in enumerate(parts):
            sub = "/".join(parts[: i + 1])
            last = i == len(parts) - 1
            if last and last_is_dir is None:
                return False
            is_dir = last_is_dir if last else True
            if is_dir and name in DEFAULT_EXCLUDED_DIRS:
                return True
            if _ignored(specs, sub, bool(is_dir)):
                return True
            if not last:
                own = self._spec(sub)
                if own is not None:
                    specs = specs + ((own, sub),)
        return False

    def language(self, rel: str) -> str | None:
        lang = self.language_for(rel.rsplit("/", 1)[-1])
        return getattr(lang, "name", None)
