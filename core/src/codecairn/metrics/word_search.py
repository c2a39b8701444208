"""What a list of callers stands in for: the word search an agent runs to find them.

Without codecairn, "who calls ``parse``?" is ``grep -rnw parse`` over the files of the language, and
the agent reads every line it prints — the call sites, and also the imports, the definition, the
mentions in comments and strings, the namesakes' calls. An answer's ``callers`` spare the agent
that output, so the metrics count it: ripgrep runs the same search (word, fixed string, line
numbers, the index's walk rules, the symbol's file extension) and its output is tokenized.

It runs in the metrics writer thread, never on the event loop, bounded in time and in bytes read; a
search that cannot run (no ripgrep, too slow) counts nothing. Results are kept per name and index
generation, so asking about one function again does not search again.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from pathlib import PurePosixPath

from codecairn import subprocesses
from codecairn.files.ripgrep import walk_arguments

SEARCH_SECONDS = 10.0
MAX_OUTPUT_BYTES = 8 * 1024 * 1024  # as a file larger than this: not what an agent reads whole
CACHED_SEARCHES = 256
_LAST_PART = re.compile(r"[.:#]+")


def searched_name(qualified_name: str) -> str:
    """The name an agent would search for: the last part of a qualified name (``pkg.mod.Class.m``,
    ``crate::m::f``, ``Class#m``)."""
    return _LAST_PART.split(qualified_name)[-1]


def search_arguments(name: str, path: str) -> list[str]:
    """``grep -rnw NAME --include=*.EXT``, as ripgrep arguments (each one argument: nothing in
    ``name`` is read as an option)."""
    suffix = PurePosixPath(path).suffix
    globs = [f"--glob=*{suffix}"] if suffix else []
    return [
        "--line-number",
        "--with-filename",
        "--no-heading",
        "--color=never",
        "--sort=path",  # the same output, hence the same count, every time
        "--word-regexp",
        "--fixed-strings",
        *walk_arguments(),
        *globs,
        f"--regexp={name}",
    ]


class WordSearches:
    """The output of word searches over one root, by (name, extension, generation)."""

    def __init__(self, root: str) -> None:
        self.root = root
        self._done: OrderedDict[tuple[str, str, object], bytes | None] = OrderedDict()

    def output(self, qualified_name: str, path: str, generation: object = None) -> bytes | None:
        """What ``grep -rnw`` prints for the symbol's name over files like ``path``; None when the
        search could not run. Called from a thread without an event loop (the metrics writer)."""
        name = searched_name(qualified_name)
        if not name:
            return None
        key = (name, PurePosixPath(path).suffix, generation)
        if key in self._done:
            self._done.move_to_end(key)
            return self._done[key]
        try:
            found: bytes | None = subprocesses.read_blocking(
                "rg", search_arguments(name, path), self.root, SEARCH_SECONDS, MAX_OUTPUT_BYTES
            )
        except subprocesses.ProgramUnavailable:
            found = None
        self._done[key] = found
        if len(self._done) > CACHED_SEARCHES:
            self._done.popitem(last=False)
        return found
