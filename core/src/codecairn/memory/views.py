"""Files as they are now, for placing memories: their lines, content hash and symbols.

Placing never trusts an index that may lag behind an edit: a file is read from disk (confined to
the root at open time), and its symbols come from the index only when the index holds exactly this
content, else from parsing the file here and now.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from codecairn.errors import ToolError
from codecairn.hookspecs import Language
from codecairn.index.parse_pool import BINARY_SNIFF, content_hash
from codecairn.index.state import IndexState
from codecairn.memory.anchors import FileView, SymbolView, trimmed_lines
from codecairn.paths import Refused, confine, open_confined
from codecairn.store.store import Store

log = logging.getLogger("codecairn.memory")

MAX_FILE_BYTES = 16 * 1024 * 1024


class Gone:
    """The file is not there (deleted, renamed, or no longer a regular file)."""


class Unreadable:
    """The file is there but cannot be read now: not absence, so nothing is re-anchored."""


GONE, UNREADABLE = Gone(), Unreadable()


class FileViews:
    def __init__(
        self, root: Path, state: IndexState, store: Store, language_for: Callable[[str], Language | None]
    ) -> None:
        self.root = root
        self.state = state
        self.store = store
        self.language_for = language_for
        self._parsers: dict[str, Any] = {}
        self._parse_lock = threading.Lock()

    async def view(self, path: str) -> FileView | Gone | Unreadable:
        try:
            rel = confine(self.root, path)
        except ToolError:
            return GONE  # e.g. a symlink that now leads out of the root: not ours to read
        try:
            data = await asyncio.to_thread(self._read, rel)
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
            return GONE
        except OSError:
            return UNREADABLE
        if data is None:
            return GONE
        digest = content_hash(data)
        symbols = await self._symbols(rel, digest, data)
        return FileView(rel, digest, trimmed_lines(data), symbols)

    def current_hash(self, path: str) -> str | Gone | Unreadable:
        """The file's content hash now: the index's when the file is unchanged since indexing
        (one stat), else read from disk."""
        state = self.state.files_by_path.get(path)
        if state is not None and not self.state.changed_since_indexed(path):
            return state.hash
        try:
            data = self._read(path)
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
            return GONE
        except OSError:
            return UNREADABLE
        return GONE if data is None else content_hash(data)

    def _read(self, rel: str) -> bytes | None:
        try:
            fd = open_confined(self.state.root_real, rel)
        except Refused:  # a link out of the root, or no regular file: not this workspace's code
            return None
        with os.fdopen(fd, "rb") as fh:
            if os.fstat(fd).st_size > MAX_FILE_BYTES:
                raise OSError(f"{rel} is larger than {MAX_FILE_BYTES} bytes")
            data = fh.read(MAX_FILE_BYTES)
        if b"\0" in data[:BINARY_SNIFF]:
            return None
        return data

    async def _symbols(self, rel: str, digest: str, data: bytes) -> list[SymbolView]:
        """The file's symbols for exactly this content: from the index when it has this content,
        else parsed here and now (one file; the index may not have caught up with an edit)."""
        state = self.state.files_by_path.get(rel)
        if state is not None and state.hash == digest:
            rows = await self.store.symbols_of_file(state.id)
            position = {r.id: i for i, r in enumerate(rows)}
            return [
                SymbolView(
                    r.kind,
                    r.name,
                    r.qualified_name,
                    r.start_line,
                    r.end_line,
                    r.signature,
                    -1 if r.parent_id is None else position.get(r.parent_id, -1),
                )
                for r in rows
            ]
        language = self.language_for(rel)
        if language is None:
            return []
        return await asyncio.to_thread(self._parse, language, data, rel)

    def _parse(self, language: Language, data: bytes, rel: str) -> list[SymbolView]:
        # A parser of our own: the parse pool's in-process parsers belong to the indexer's thread.
        with self._parse_lock:
            try:
                parser = self._parsers.get(language.name)
                if parser is None:
                    import tree_sitter

                    grammar = language.grammar()
                    if not isinstance(grammar, tree_sitter.Language):
                        grammar = tree_sitter.Language(grammar)
                    parser = self._parsers[language.name] = tree_sitter.Parser(grammar)
                facts = language.extractor(data, parser.parse(data), rel)
            except Exception as exc:  # a plugin's bug: place by content only
                log.warning("could not extract %s for memory anchoring: %s: %s", rel, type(exc).__name__, exc)
                return []
        return [
            SymbolView(s.kind, s.name, s.qualified_name, s.start_line, s.end_line, s.signature, s.parent)
            for s in facts.symbols
        ]
