"""Location memory for one workspace: remember, recall, forget — and keep every memory pointing
at its code as the code moves.

A memory is placed again ("re-anchored") whenever the content of the file it was last seen in
differs from what it was placed against: after each index run (only memories whose files
changed or disappeared) and lazily before every recall/forget, so an answer is right even
before the index catches up. Files are read from disk when placing — an index that lags behind
an edit never decides the lines. A memory whose code is gone is kept, ``orphaned``, at its last
known place; it is tried again whenever the index changes (the code may come back, or turn up
in a file that was not indexed yet).
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from codecairn.errors import BAD_ARGUMENT, NOT_FOUND, StoreNotWritable, ToolError, quoted
from codecairn.hookspecs import Embedder, Language
from codecairn.index.parse_pool import BINARY_SNIFF, content_hash
from codecairn.index.state import IndexState
from codecairn.limits import MAX_REASON_CHARS, MAX_TAG_CHARS, MAX_TAGS
from codecairn.memory.anchors import (
    FILE_LEVEL_KINDS,
    FileView,
    Placement,
    SymbolView,
    anchor_for,
    matches_elsewhere,
    place_in_file,
    rebased,
    trimmed_lines,
)
from codecairn.memory.notes import NotesFile
from codecairn.model import CURRENT, MOVED, ORPHANED, MemoryRow
from codecairn.paths import Refused, confine, open_confined
from codecairn.query.lookup import lookup
from codecairn.store import memories as table
from codecairn.store.store import Store

log = logging.getLogger("codecairn.memory")

MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_MEMORIES = 20_000
LIST_LIMIT = 50  # candidates shown when a symbol name is ambiguous
RECALL_LIMIT = 20
ELSEWHERE_MAX_FILES = 50
QUERY_MAX_WORDS = 16  # words of a recall query that are scored: each costs a pass over every memory
RANK_SLICE = 1000  # memories scored between two looks at the event loop
SEMANTIC_MIN_COSINE = 0.3
_SPLIT = re.compile(r"::|\.|#|/")
_WORD = re.compile(r"\w+")
_STOPWORDS = frozenset(
    "a an and are as at be by for from how in is it of on or that the this to was what where which why with".split()
)


class _Gone:
    """The file is not there (deleted, renamed, or no longer a regular file)."""


class _Unreadable:
    """The file is there but cannot be read now: not absence, so nothing is re-anchored."""


GONE, UNREADABLE = _Gone(), _Unreadable()


class Memories:
    def __init__(
        self,
        root: Path,
        state: IndexState,
        store: Store,
        language_for: Callable[[str], Language | None],
        embedder: Callable[[], Embedder | None],
    ) -> None:
        self.root = root
        self.state = state
        self.store = store
        self.language_for = language_for
        self.embedder = embedder
        self._lock = asyncio.Lock()
        self._parsers: dict[str, Any] = {}
        self._parse_lock = threading.Lock()
        self._vectors: dict[int, tuple[str, Any]] = {}  # memory id -> (text embedded, vector)
        self._notes_lock = asyncio.Lock()

    # ---- reading files as they are now ---------------------------------------------------------

    async def view(self, path: str) -> FileView | _Gone | _Unreadable:
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
            position = {r[0]: i for i, r in enumerate(rows)}
            return [SymbolView(r[2], r[3], r[4], r[5], r[6], r[7], position.get(r[1], -1)) for r in rows]
        language = self.language_for(rel)
        if language is None:
            return []
        return await asyncio.to_thread(self._parse, language, data, rel)

    def _parse(self, language, data: bytes, rel: str) -> list[SymbolView]:
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

    def _current_hash(self, path: str) -> str | _Gone | _Unreadable:
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

    # ---- remember ---------------------------------------------------------------------------------

    async def remember(
        self,
        *,
        reason: Any,
        path: str | None = None,
        start_line: int | None = None,
        end_line: int | None = None,
        symbol: str | None = None,
        tags: list[str] | None = None,
    ) -> dict[str, Any]:
        reason = _clean_reason(reason)
        tag_list = _clean_tags(tags)
        if symbol is not None:
            if start_line is not None or end_line is not None:
                raise ToolError(
                    BAD_ARGUMENT,
                    "give either symbol or start_line/end_line, not both (path may narrow a symbol to one file)",
                )
            rel, view, start, end = await self._symbol_range(symbol, path)
        else:
            if path is None or start_line is None:
                raise ToolError(BAD_ARGUMENT, "give path with start_line (and end_line), or symbol")
            rel = confine(self.root, path)
            seen = await self.view(rel)
            if isinstance(seen, _Gone):
                raise ToolError(NOT_FOUND, f"{rel} is not a readable text file in the workspace", path=rel)
            if isinstance(seen, _Unreadable):
                raise ToolError(NOT_FOUND, f"{rel} cannot be read now", path=rel)
            view = seen
            assert isinstance(view, FileView)
            start, end = start_line, start_line if end_line is None else end_line
            if not (1 <= start <= end <= len(view.lines)):
                raise ToolError(
                    BAD_ARGUMENT,
                    f"lines {start}-{end} are not inside {rel}, which has "
                    f"{len(view.lines)} lines (and start_line <= end_line)",
                    path=rel,
                    lines=len(view.lines),
                )
        async with self._lock:
            existing = await table.all_rows(self.store.reader)
            for m in existing:
                if (m.path, m.start_line, m.end_line, m.reason) == (rel, start, end, reason) and m.state != ORPHANED:
                    answer = self._placed(m)
                    answer["existing"] = True
                    return answer
            if len(existing) >= MAX_MEMORIES:
                raise ToolError(
                    BAD_ARGUMENT, f"this workspace already holds {MAX_MEMORIES} memories; forget some first"
                )
            a = anchor_for(view, start, end)
            row = MemoryRow(
                0,
                reason,
                "\n".join(tag_list),
                time.time(),
                rel,
                start,
                end,
                CURRENT,
                rel,
                start,
                end,
                *a,
                view.hash,
                self.state.generation,
                0,
            )
            row.id = await table.insert(self.store.path, row)
        return self._placed(row)

    async def _symbol_range(self, symbol: Any, path: str | None) -> tuple[str, FileView, int, int]:
        candidates = lookup(self.state, symbol, confine(self.root, path) if path is not None else None)
        if not candidates:
            raise ToolError(NOT_FOUND, f"no symbol named {quoted(symbol)}")
        if len(candidates) > 1:
            raise ToolError(
                BAD_ARGUMENT,
                f"{quoted(symbol)} names more than one symbol; pass path or a more qualified name",
                ambiguous=True,
                candidates=[
                    {"qualified_name": c.qualified_name, "path": self.state.path_of(c), "start_line": c.start_line}
                    for c in candidates[:LIST_LIMIT]
                ],
            )
        found = candidates[0]
        rel = self.state.path_of(found)
        view = await self.view(rel)
        if not isinstance(view, FileView):
            raise ToolError(NOT_FOUND, f"{rel} can no longer be read", path=rel)
        # The index may lag behind an edit: take the symbol's lines from the file as it is now.
        same = [s for s in view.symbols if s.qualified_name == found.qualified_name and s.kind == found.kind]
        if not same:
            raise ToolError(
                NOT_FOUND,
                f"{found.qualified_name} is no longer in {rel} (it changed since it was "
                "indexed); run index or remember by path and lines",
                path=rel,
            )
        s = min(same, key=lambda s: abs(s.start_line - found.start_line))
        return rel, view, s.start_line, s.end_line

    # ---- recall / forget --------------------------------------------------------------------------

    async def recall(
        self,
        *,
        path: str | None = None,
        symbol: str | None = None,
        query: str | None = None,
        tags: list[str] | None = None,
        limit: int = RECALL_LIMIT,
    ) -> dict[str, Any]:
        keep = self._matcher(path=path, symbol=symbol, tags=tags)
        if query is not None:
            _check_query(query)
        rows = [m for m in await self.refresh() if keep(m)]
        answer: dict[str, Any] = {}
        if query is not None:
            ranked, semantic = await self._rank(rows, query)
            rows = [m for _, m in ranked]
            if semantic:
                answer["semantic"] = True
        elif path is None and symbol is None:
            rows.sort(key=lambda m: -m.id)  # everything: the newest first
        else:
            rows.sort(key=lambda m: (m.path, m.start_line, m.id))
        shown = rows[:limit]
        answer = {"memories": [self._placed(m, full=True) for m in shown], **_bounded(len(rows), limit), **answer}
        if not answer["complete"]:
            answer["total"] = len(rows)
        if any(m.state == ORPHANED for m in shown):
            answer["hint"] = (
                "orphaned: the code is gone from where it was (last known place shown); "
                "forget it or remember the new place"
            )
        return answer

    async def forget(
        self,
        *,
        ids: list[int] | None = None,
        path: str | None = None,
        symbol: str | None = None,
        tags: list[str] | None = None,
    ) -> dict[str, Any]:
        if not ids and path is None and symbol is None and not tags:
            raise ToolError(BAD_ARGUMENT, "give ids, path, symbol or tags of the memories to forget")
        keep = self._matcher(path=path, symbol=symbol, tags=tags)
        rows = await self.refresh()  # filters apply to where the memories are now
        async with self._lock:
            answer: dict[str, Any] = {}
            if ids:
                wanted = set(ids)
                known = {m.id for m in rows}
                missing = sorted(wanted - known)
                if missing:
                    answer["not_found"] = missing
                rows = [m for m in rows if m.id in wanted]
            rows = [m for m in rows if keep(m)]
            removed = sorted(m.id for m in rows)
            await table.delete(self.store.path, removed)
            for i in removed:
                self._vectors.pop(i, None)
        return {"forgotten": len(removed), **({"ids": removed} if removed else {}), **answer}

    async def count(self) -> int:
        return await table.count(self.store.reader)

    def _matcher(self, *, path: str | None, symbol: str | None, tags: list[str] | None):
        """Validate the filters first (a bad one changes nothing), then match memories by them."""
        rel = confine(self.root, path) if path is not None else None
        parts: list[str] | None = None
        if symbol is not None:
            if not isinstance(symbol, str) or not symbol.strip():
                raise ToolError(BAD_ARGUMENT, "symbol must be a non-empty qualified name")
            parts = [p for p in _SPLIT.split(symbol.strip()) if p]
            if not parts:
                raise ToolError(BAD_ARGUMENT, f"cannot read a symbol name from {quoted(symbol)}")
        wanted = {t.lower() for t in _clean_tags(tags)} if tags else None
        prefix = rel.rstrip("/") + "/" if rel else ""

        def keep(m: MemoryRow) -> bool:
            if rel and not (m.path == rel or m.path.startswith(prefix)):
                return False
            if parts is not None and not (m.symbol and _contains_run([p for p in _SPLIT.split(m.symbol) if p], parts)):
                return False
            return wanted is None or wanted <= {t.lower() for t in m.tag_list}

        return keep

    async def _rank(self, rows: list[MemoryRow], query: Any) -> tuple[list[tuple[float, MemoryRow]], bool]:
        words = list(dict.fromkeys(_WORD.findall(query.lower())))  # each word once
        meaningful = ([w for w in words if w not in _STOPWORDS] or words)[:QUERY_MAX_WORDS]
        scores: dict[int, float] = {}
        for n, m in enumerate(rows):
            if n % RANK_SLICE == RANK_SLICE - 1:
                await asyncio.sleep(0)  # thousands of memories: let other calls in, and a time limit stop this
            text_words = set(_WORD.findall(f"{m.reason}\n{m.tags}".lower()))
            hits = sum(1 for w in meaningful if any(t == w or (len(w) >= 3 and t.startswith(w)) for t in text_words))
            if meaningful and hits:
                scores[m.id] = hits / len(meaningful)
        cosines = await self._cosines(rows, query)
        semantic = cosines is not None
        ranked = []
        for m in rows:
            words_score = scores.get(m.id, 0.0)
            cosine = cosines.get(m.id, 0.0) if cosines else 0.0
            if words_score > 0 or cosine >= SEMANTIC_MIN_COSINE:
                ranked.append((words_score + max(cosine, 0.0), m))
        ranked.sort(key=lambda sm: (-sm[0], -sm[1].id))
        return ranked, semantic

    async def _cosines(self, rows: list[MemoryRow], query: str) -> dict[int, float] | None:
        """Cosine of the query against each reason, when an embedder is installed; else None."""
        if not rows:
            return None
        try:
            embedder = await asyncio.to_thread(self.embedder)
        except Exception:
            return None
        if embedder is None:
            return None
        try:
            import numpy as np

            texts = {m.id: f"{m.reason} {' '.join(m.tag_list)}".strip() for m in rows}
            todo = [i for i, t in texts.items() if self._vectors.get(i, ("",))[0] != t]
            batch = [query] + [texts[i] for i in todo]
            vectors = await asyncio.to_thread(embedder.embed, batch)
            q = np.asarray(vectors[0], dtype=np.float32)
            for i, v in zip(todo, vectors[1:], strict=True):
                self._vectors[i] = (texts[i], np.asarray(v, dtype=np.float32))
            return {i: float(np.dot(q, self._vectors[i][1])) for i in texts}
        except Exception as exc:  # the embedder failing costs semantic ranking, not the recall
            log.warning("semantic recall unavailable: %s: %s", type(exc).__name__, exc)
            return None

    def _placed(self, m: MemoryRow, *, full: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"id": m.id, "path": m.path, "start_line": m.start_line, "end_line": m.end_line}
        if m.symbol:
            out["symbol"] = m.symbol
        if not full:
            return out
        out["reason"] = m.reason
        if m.tags:
            out["tags"] = m.tag_list
        out["state"] = m.state
        if m.edited:
            out["edited"] = True
        if m.state != CURRENT:
            out["remembered_at"] = f"{m.origin_path}:{m.origin_start}-{m.origin_end}"
        return out

    # ---- the notes file ---------------------------------------------------------------------------

    async def notes(
        self,
        action: str = "outline",
        *,
        heading: str | None = None,
        text: str | None = None,
        mode: str = "replace",
        level: int | None = None,
        line: int | None = None,
        file: str | None = None,
    ) -> dict[str, Any]:
        allowed = {
            "outline": set(),
            "get": {"heading", "line"},
            "set": {"heading", "text", "mode", "level"},
            "delete": {"heading"},
        }
        if action not in allowed:
            raise ToolError(BAD_ARGUMENT, f"action must be one of {', '.join(allowed)}")
        given = {
            k for k, v in (("heading", heading), ("text", text), ("level", level), ("line", line)) if v is not None
        }
        if mode != "replace":
            given.add("mode")
        extra = given - allowed[action]
        if extra:
            raise ToolError(BAD_ARGUMENT, f"{', '.join(sorted(extra))} do(es) not apply to action {action!r}")
        if action in ("set", "delete") and heading is None:
            raise ToolError(BAD_ARGUMENT, f"{action} needs a heading")
        if action == "set" and text is None:
            raise ToolError(BAD_ARGUMENT, "set needs text (the section's new body; '' empties it)")
        if mode not in ("replace", "append"):
            raise ToolError(BAD_ARGUMENT, "mode must be replace or append")
        file_ = NotesFile(self.root, file)
        async with self._notes_lock:
            if action == "outline":
                return await asyncio.to_thread(file_.outline)
            if action == "get":
                return await asyncio.to_thread(file_.get, heading, line)
            assert heading is not None  # set and delete were refused above without one
            if action == "set":
                assert text is not None
                return await asyncio.to_thread(file_.set, heading, text, append=mode == "append", level=level)
            return await asyncio.to_thread(file_.delete, heading)

    # ---- following the code ---------------------------------------------------------------------

    async def after_index(self) -> None:
        """Called by the workspace after each index run: re-place memories whose files changed."""
        try:
            await self.refresh()
        except (asyncio.CancelledError, KeyboardInterrupt):
            raise
        except Exception:
            log.exception("re-anchoring memories after indexing failed; recall will try again")

    async def refresh(self) -> list[MemoryRow]:
        """Re-place every memory whose file changed (or vanished) since it was placed, and retry
        orphaned ones once per index generation. Returns every memory, placed.

        Saving the new places can wait: if the database is busy (a long bulk write by the
        indexer), the answer still uses them and the next call saves them."""
        async with self._lock:
            rows = await table.all_rows(self.store.reader)
            by_path: dict[str, list[MemoryRow]] = {}
            for m in rows:
                by_path.setdefault(m.path, []).append(m)
            generation = self.state.generation
            updated: list[MemoryRow] = []
            for path, group in by_path.items():
                now = self._current_hash(path)
                if isinstance(now, _Unreadable):
                    continue
                due = [m for m in group if _due(m, now, generation)]
                if not due:
                    continue
                await self.state.ensure_symbols(self.store)  # placing looks symbols up (the CLI loads them lazily)
                view = await self.view(path)
                if isinstance(view, _Unreadable):
                    continue
                for m in due:
                    if await self._replace(m, view):
                        updated.append(m)
            try:
                await table.update(self.store.path, updated)
            except (sqlite3.OperationalError, ToolError, StoreNotWritable) as exc:
                log.warning("could not save %d re-anchored memories now (%s); will retry", len(updated), exc)
            return rows

    async def _replace(self, m: MemoryRow, view: FileView | _Gone) -> bool:
        """Place ``m`` again; update it in place. Returns whether anything changed."""
        before = (
            m.path,
            m.start_line,
            m.end_line,
            m.state,
            m.symbol,
            m.fingerprint,
            m.offset_start,
            m.file_hash,
            m.generation,
            m.edited,
        )
        anchor = m.anchor
        found: tuple[FileView, Placement] | None = None
        if isinstance(view, FileView):
            placement = place_in_file(anchor, view, m.start_line)
            if placement is not None:
                found = (view, placement)
        if found is None:
            found = await self._elsewhere(m, origin_gone=view is GONE)
        if found is None:
            m.state = ORPHANED
            m.edited = 0
            if isinstance(view, FileView):
                m.file_hash = view.hash  # else keep the gone file's hash: a renamed twin may turn up
        else:
            where, placement = found
            a = rebased(anchor, where, placement)
            (m.symbol, m.symbol_kind, m.symbol_name, m.parent_name, m.fingerprint, m.offset_start, m.offset_end) = a[:7]
            m.path, m.start_line, m.end_line = where.path, placement.start_line, placement.end_line
            m.file_hash = where.hash
            m.edited = int(placement.edited)
            home = (m.path, m.start_line, m.end_line) == (m.origin_path, m.origin_start, m.origin_end)
            m.state = CURRENT if home else MOVED
        m.generation = self.state.generation
        return before != (
            m.path,
            m.start_line,
            m.end_line,
            m.state,
            m.symbol,
            m.fingerprint,
            m.offset_start,
            m.file_hash,
            m.generation,
            m.edited,
        )

    async def _elsewhere(self, m: MemoryRow, *, origin_gone: bool) -> tuple[FileView, Placement] | None:
        """Look for the memory's code in other files: the file renamed unchanged (same content
        hash), or its symbol moved to another file (same name, kind, structure and parent)."""
        state = self.state
        if origin_gone and m.file_hash:
            twins = [f.path for f in state.files_by_path.values() if f.hash == m.file_hash and f.path != m.path]
            if len(twins) == 1:
                view = await self.view(twins[0])
                if isinstance(view, FileView):
                    placement = place_in_file(m.anchor, view, m.start_line)
                    if placement is not None:
                        return view, placement
        if not m.symbol or m.symbol_kind in FILE_LEVEL_KINDS:
            return None
        rows = state.symbols.rows
        files: list[str] = []
        for sid in state.symbols.by_name.get(m.symbol_name, ()):
            sym = rows[sid]
            if sym.kind != m.symbol_kind:
                continue
            parent = rows.get(sym.parent_id) if sym.parent_id is not None else None
            parent_name = parent.name if parent is not None and parent.kind not in FILE_LEVEL_KINDS else ""
            f = state.files_by_id.get(sym.file_id)
            if parent_name == m.parent_name and f is not None and f.path != m.path and f.path not in files:
                files.append(f.path)
        found: list[tuple[FileView, Placement]] = []
        for path in files[:ELSEWHERE_MAX_FILES]:
            view = await self.view(path)
            if not isinstance(view, FileView):
                continue
            for i in range(len(view.symbols)):
                placement = matches_elsewhere(m.anchor, view, i, origin_gone)
                if placement is not None:
                    found.append((view, placement))
        exact = [f for f in found if not f[1].edited]
        pool = exact or found
        return pool[0] if len(pool) == 1 else None  # two equally good places: no guessing


def _due(m: MemoryRow, now: str | _Gone, generation: int) -> bool:
    """Does ``m`` need placing again? Yes when its file changed or vanished; an orphaned one,
    also once per index generation (its code may have turned up elsewhere)."""
    if m.state == ORPHANED:
        return m.generation != generation or (now is not GONE and now != m.file_hash)
    return now is GONE or now != m.file_hash


def _bounded(count: int, limit: int) -> dict[str, Any]:
    if count > limit:
        return {"complete": False, "limit_reached": True, "limit_reason": "limit"}
    return {"complete": True}


def _contains_run(haystack: list[str], needle: list[str]) -> bool:
    n = len(needle)
    return any(haystack[i : i + n] == needle for i in range(len(haystack) - n + 1))


def _check_query(query: Any) -> None:
    if not isinstance(query, str) or not query.strip() or "\0" in query or len(query) > MAX_REASON_CHARS:
        raise ToolError(BAD_ARGUMENT, f"query must be non-empty text of at most {MAX_REASON_CHARS} characters")


def _clean_reason(reason: Any) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise ToolError(BAD_ARGUMENT, "reason must be non-empty text: why this place matters")
    if "\0" in reason:
        raise ToolError(BAD_ARGUMENT, "reason contains a NUL character; give plain text")
    if len(reason) > MAX_REASON_CHARS:
        raise ToolError(BAD_ARGUMENT, f"reason is {len(reason)} characters long; at most {MAX_REASON_CHARS}")
    return reason.strip()


def _clean_tags(tags: Any) -> list[str]:
    if tags is None:
        return []
    if not isinstance(tags, list) or len(tags) > MAX_TAGS:
        raise ToolError(BAD_ARGUMENT, f"tags must be a list of at most {MAX_TAGS} words")
    out: list[str] = []
    for t in tags:
        if not isinstance(t, str) or not t.strip() or len(t) > MAX_TAG_CHARS or any(c in t for c in "\0\n\r"):
            raise ToolError(BAD_ARGUMENT, f"each tag must be one line of 1-{MAX_TAG_CHARS} characters", tag=quoted(t))
        if t.strip().lower() not in {o.lower() for o in out}:
            out.append(t.strip())
    return out
