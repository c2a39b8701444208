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
import re
import sqlite3
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from codecairn.errors import BAD_ARGUMENT, NOT_FOUND, StoreNotWritable, ToolError, quoted
from codecairn.hookspecs import Embedder, Language
from codecairn.index.state import IndexState
from codecairn.limits import MAX_REASON_CHARS, MAX_TAG_CHARS, MAX_TAGS
from codecairn.memory.anchors import FileView, anchor_for
from codecairn.memory.notes import NotesFile
from codecairn.memory.placing import Placer, needs_placing
from codecairn.memory.ranking import RecallRanking, check_query
from codecairn.memory.views import FileViews, Gone, Unreadable
from codecairn.model import CURRENT, ORPHANED, MemoryRow
from codecairn.paths import confine
from codecairn.query.lookup import lookup
from codecairn.store import memories as table
from codecairn.store.store import Store

log = logging.getLogger("codecairn.memory")

MAX_MEMORIES = 20_000
LIST_LIMIT = 50  # candidates shown when a symbol name is ambiguous
RECALL_LIMIT = 20
_SPLIT = re.compile(r"::|\.|#|/")


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
        self.views = FileViews(root, state, store, language_for)
        self.placer = Placer(state, self.views)
        self.ranking = RecallRanking(embedder)
        self._lock = asyncio.Lock()
        self._notes_lock = asyncio.Lock()

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
        line: int | None = None,
    ) -> dict[str, Any]:
        reason = _clean_reason(reason)
        tag_list = _clean_tags(tags)
        if line is not None and symbol is None:
            raise ToolError(BAD_ARGUMENT, "line chooses among the symbols a name means: give it with symbol")
        if symbol is not None:
            if start_line is not None or end_line is not None:
                raise ToolError(
                    BAD_ARGUMENT,
                    "give either symbol or start_line/end_line, not both (path and line narrow a symbol to one)",
                )
            rel, view, start, end = await self._symbol_range(symbol, path, line)
        else:
            if path is None or start_line is None:
                raise ToolError(BAD_ARGUMENT, "give path with start_line (and end_line), or symbol")
            rel = confine(self.root, path)
            seen = await self.views.view(rel)
            if isinstance(seen, Gone):
                raise ToolError(NOT_FOUND, f"{rel} is not a readable text file in the workspace", path=rel)
            if isinstance(seen, Unreadable):
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
                    had = m.tags.split("\n") if m.tags else []
                    added = [t for t in tag_list if t not in had]
                    if added:  # the same place and reason, new tags: they join it (they were dropped)
                        m.tags = "\n".join([*had, *added][:MAX_TAGS])
                        await table.update(self.store.path, [m])
                    answer = self._placed(m)
                    answer["existing"] = True
                    if added:
                        answer["tags_added"] = added
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

    async def _symbol_range(self, symbol: Any, path: str | None, line: int | None) -> tuple[str, FileView, int, int]:
        candidates = lookup(self.state, symbol, confine(self.root, path) if path is not None else None, line)
        if not candidates:
            where = f" at line {line}" if line is not None else ""
            raise ToolError(NOT_FOUND, f"no symbol named {quoted(symbol)}{where}")
        if len(candidates) > 1:
            grouped: dict[str, list[dict[str, Any]]] = {}
            for c in candidates[:LIST_LIMIT]:
                span = f"{c.start_line}-{c.end_line}" if c.end_line != c.start_line else str(c.start_line)
                grouped.setdefault(self.state.path_of(c), []).append(
                    {"qualified_name": c.qualified_name, "kind": c.kind, "lines": span}
                )
            more = {"complete": False, "total": len(candidates)} if len(candidates) > LIST_LIMIT else {}
            raise ToolError(
                BAD_ARGUMENT,
                f"{quoted(symbol)} names more than one symbol; pass path and/or line (one of the candidates' "
                "lines: overloads share a name), or a more qualified name",
                ambiguous=True,
                candidates=grouped,
                **more,
            )
        found = candidates[0]
        rel = self.state.path_of(found)
        view = await self.views.view(rel)
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
            check_query(query)
        rows = [m for m in await self.refresh() if keep(m)]
        answer: dict[str, Any] = {}
        if query is not None:
            ranked, semantic = await self.ranking.rank(rows, query)
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
            self.ranking.forget(removed)
        return {"forgotten": len(removed), **({"ids": removed} if removed else {}), **answer}

    async def forget_everything(self) -> tuple[int, str | None]:
        """Forget every memory and delete the notes file (the `clear` tool with include_memories).
        Returns how many memories were forgotten and the notes file deleted, if there was one."""
        async with self._lock:
            ids = [m.id for m in await table.all_rows(self.store.reader)]
            await table.delete(self.store.path, ids)
            self.ranking.forget(ids)
        async with self._notes_lock:
            notes = await asyncio.to_thread(NotesFile(self.root).remove)
        return len(ids), notes

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
        write: Callable[[str, str, bytes], Awaitable[dict[str, Any]]] | None = None,
    ) -> dict[str, Any]:
        """``write(path, sha256 read, new bytes)``: how set and delete write the document (the
        file tools: one history entry, undo); without it, the notes file writes it itself."""
        allowed = {
            "outline": set(),
            "get": {"heading", "line"},
            "set": {"heading", "text", "mode", "level", "line"},
            "delete": {"heading", "line"},
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
            file_.deferred = write is not None
            if action == "set":
                assert text is not None
                answer = await asyncio.to_thread(
                    file_.set, heading, text, append=mode == "append", level=level, line=line
                )
            else:
                answer = await asyncio.to_thread(file_.delete, heading, line)
            if write is not None and file_.pending is not None:
                answer.update(await write(file_.rel, file_.read_sha, file_.pending))
            return answer

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
                now = self.views.current_hash(path)
                if isinstance(now, Unreadable):
                    continue
                due = [m for m in group if needs_placing(m, now, generation)]
                if not due:
                    continue
                await self.state.ensure_symbols(self.store)  # placing looks symbols up (the CLI loads them lazily)
                view = await self.views.view(path)
                if isinstance(view, Unreadable):
                    continue
                for m in due:
                    if await self.placer.replace(m, view):
                        updated.append(m)
            try:
                await table.update(self.store.path, updated)
            except (sqlite3.OperationalError, ToolError, StoreNotWritable) as exc:
                log.warning("could not save %d re-anchored memories now (%s); will retry", len(updated), exc)
            return rows


def _bounded(count: int, limit: int) -> dict[str, Any]:
    if count > limit:
        return {"complete": False, "limit_reached": True, "limit_reason": "limit"}
    return {"complete": True}


def _contains_run(haystack: list[str], needle: list[str]) -> bool:
    n = len(needle)
    return any(haystack[i : i + n] == needle for i in range(len(haystack) - n + 1))


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
