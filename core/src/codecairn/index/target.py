"""What an index run works on: one root's files, the languages that read them, the store that keeps
their facts, the in-memory state that mirrors the store, and the pool that parses."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pathspec

from codecairn.hookspecs import Language
from codecairn.index.parse_pool import ParsePool
from codecairn.index.state import IndexState
from codecairn.store.store import Store


@dataclass
class IndexTarget:
    root: Path  # the served root, resolved
    languages: dict[str, Language]
    language_for: Callable[[str], Language | None]
    store: Store
    state: IndexState
    pool: ParsePool
    # The project's configuration (codecairn.config): its excludes and its file size limit.
    exclude: pathspec.PathSpec | None = None
    max_file_bytes: int | None = None  # None: the walker's default (or its environment variable)

    @property
    def root_real(self) -> str:
        return self.state.root_real
