"""The file tools' work, for one call, over the parts it needs: the declared roots, the index state
(enclosing symbols, the indexed languages), the store (the edit history), the indexer's narrow path
(``refresh``) and the parse pool (symbols of a file no index covers). context.ServedContext hands
each file method of the tool API to this object.

Blocking work (reading, hashing, JSON, writing, comparing) runs in a thread whose ``stop`` flag is
set when the call is cancelled; ripgrep runs as a child that is killed then (codecairn.subprocesses).
Writes are serialised per index (one lock), planned, checked against their preconditions, refused
by the risk rules unless acknowledged, committed all or nothing together with their history entry,
and followed by a narrow re-index of the files in the indexed root before the call returns.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
import re
import threading
import weakref
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

from codecairn import subprocesses
from codecairn.errors import BAD_ARGUMENT, NOT_FOUND, OUTSIDE_WORKSPACE, STALE, UNAVAILABLE, ToolError, quoted
from codecairn.files import compare as comparing
from codecairn.files import edits, fuzzy, jsonstream, reading, ripgrep, risk, writing
from codecairn.files.attached import syntax_of
from codecairn.files.roots import DeclaredRoots, Place, traverses_link
from codecairn.limits import MAX_WINDOW_BYTES
from codecairn.model import (
    CALLABLE_KINDS,
    DECORATED_REACH,
    TYPE_KINDS,
    DirectoryComparison,
    FileChange,
    FileDigest,
    FileEntry,
    FileListing,
    HistoryEntry,
    HistoryFile,
    IndexedSymbol,
    IndexSummary,
    JsonCheck,
    JsonSelection,
    Symbol,
    TextMatch,
    TextSearch,
    TextWindow,
    WriteReport,
    WrittenFile,
)
from codecairn.paths import Refused
from codecairn.store import history as history_table

if TYPE_CHECKING:
    from codecairn.index.parse_pool import ParsePool
    from codecairn.index.state import IndexState
    from codecairn.store.store import Store

log = logging.getLogger("codecairn.files")

SHA256 = re.compile(r"[0-9a-fA-F]{64}")
LISTING_CAP = 500_000  # paths one listing holds at most (ranking and maps work on them)
JSON_TEXT_MAX = 4 << 20
ENCLOSING_KINDS = CALLABLE_KINDS | TYPE_KINDS  # what a search match is said to be in, first

Refresh = Callable[[list[str]], Awaitable[IndexSummary]]

# One write at a time per index: two edits of one file must not interleave their plan and commit.
_write_locks: weakref.WeakKeyDictionary[object, asyncio.Lock] = weakref.WeakKeyDictionary()


async def in_thread(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``function(*args, stop=..., **kwargs)`` in a thread; ``stop()`` turns True once the call is
    cancelled, so the work stops at its next check instead of running on unseen."""
    stopped = threading.Event()
    try:
        return await asyncio.to_thread(function, *args, stop=stopped.is_set, **kwargs)
    except asyncio.CancelledError:
        stopped.set()
        raise


def _stoppable(function: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any, stop: Callable[[], bool], **kwargs: Any) -> Any:
        return function(*args, **kwargs)

    return run


class FileAccess:
    def __init__(
        self,
        roots: DeclaredRoots,
        state: IndexState,
        store: Store | None,
        language_for: Callable[[str], Any],
        refresh: Refresh,
        indexing: Callable[[], bool],
        pool: ParsePool,
        search_timeout: float = ripgrep.SEARCH_TIMEOUT_SECONDS,
    ) -> None:
        self.roots = roots
        self.search_timeout = search_timeout  # a search or listing's time (the project may set it)
        self.state = state
        self.store = store
        self.language_for = language_for
        self._refresh = refresh
        self._indexing = indexing
        self._pool = pool

    # ---- places -------------------------------------------------------------------------------

    def place(self, given: str, *, allow_root: bool = True) -> Place:
        return self.roots.place(given, allow_root=allow_root)

    def _file_place(self, given: str) -> Place:
        place = self.place(given, allow_root=False)
        full = place.real
        if not os.path.lexists(full):
            raise ToolError(NOT_FOUND, f"{place.shown} does not exist", path=place.shown)
        if os.path.isdir(full):
            raise ToolError(BAD_ARGUMENT, f"{place.shown} is a directory; give a file", path=place.shown)
        return place

    def _read_failure(self, place: Place, exc: OSError) -> ToolError:
        if isinstance(exc, Refused):
            code = OUTSIDE_WORKSPACE if "outside" in str(exc) else BAD_ARGUMENT
            return ToolError(code, f"{exc}; not read", path=place.shown)
        if isinstance(exc, FileNotFoundError):
            return ToolError(NOT_FOUND, f"{place.shown} does not exist", path=place.shown)
        return ToolError(NOT_FOUND, f"{place.shown} cannot be read: {exc.strerror or exc}", path=place.shown)

    # ---- reads --------------------------------------------------------------------------------

    async def read_text(
        self,
        path: str,
        *,
        start_line: int | None = None,
        end_line: int | None = None,
        tail: int | None = None,
        start_byte: int | None = None,
        max_bytes: int = reading.DEFAULT_WINDOW_BYTES,
    ) -> TextWindow:
        chosen = [
            n for n, v in (("start_line", start_line), ("tail", tail), ("start_byte", start_byte)) if v is not None
        ]
        if len(chosen) > 1:
            raise ToolError(BAD_ARGUMENT, f"give one of start_line, tail, start_byte (not {' and '.join(chosen)})")
        if end_line is not None and start_byte is not None or end_line is not None and tail is not None:
            raise ToolError(BAD_ARGUMENT, "end_line goes with start_line")
        if start_line is not None and end_line is not None and end_line < start_line:
            raise ToolError(BAD_ARGUMENT, f"end_line {end_line} is before start_line {start_line}")
        place = self._file_place(path)
        try:
            if tail is not None:
                return await in_thread(reading.read_tail, place.root, place.rel, place.shown, tail, max_bytes)
            if start_byte is not None:
                return await in_thread(reading.read_bytes, place.root, place.rel, place.shown, start_byte, max_bytes)
            return await in_thread(
                reading.read_lines, place.root, place.rel, place.shown, start_line or 1, end_line, max_bytes
            )
        except ValueError as exc:  # a wide-encoding file too large to read by lines
            raise ToolError(BAD_ARGUMENT, f"{place.shown}: {exc}; read it by start_byte", path=place.shown) from None
        except OSError as exc:
            raise self._read_failure(place, exc) from None

    async def file_digest(self, path: str) -> FileDigest:
        place = self._file_place(path)
        try:
            found = await in_thread(reading.digest, place.root, place.rel)
        except OSError as exc:
            raise self._read_failure(place, exc) from None
        return dataclasses.replace(found, path=place.shown)  # a copy: digests are remembered and shared

    async def read_json(self, path: str, pointer: str, max_bytes: int = reading.DEFAULT_WINDOW_BYTES) -> JsonSelection:
        try:
            jsonstream.pointer_tokens(pointer)
        except ValueError as exc:
            raise ToolError(BAD_ARGUMENT, f"json_pointer {quoted(pointer)}: {exc}") from None
        place = self._file_place(path)
        try:
            return await in_thread(_select_json, place, pointer, max_bytes)
        except OSError as exc:
            raise self._read_failure(place, exc) from None

    async def check_json(self, path: str | None = None, text: str | None = None) -> JsonCheck:
        if (path is None) == (text is None):
            raise ToolError(BAD_ARGUMENT, "give path or text (one of them)")
        if text is not None:
            data = text.encode("utf-8", "surrogatepass")
            return await in_thread(_check_json_bytes, data)
        place = self._file_place(path)  # type: ignore[arg-type]
        try:
            checked = await in_thread(_check_json_file, place)
            checked.path = place.shown
            return checked
        except OSError as exc:
            raise self._read_failure(place, exc) from None

    # ---- listings, searches ---------------------------------------------------------------------

    def _scopes(self, path: str | None) -> list[Place]:
        """The places a search or listing covers: ``path``, or every declared root (a root inside
        another one is covered by it)."""
        if path is not None:
            return [self.place(path)]
        roots = self.roots.all
        outer = [r for r in roots if not any(o != r and (r + os.sep).startswith(o + os.sep) for o in roots)]
        return [Place(r, "", self.roots.show_root(r), False, r == self.roots.primary) for r in outer]

    def _shown(self, place: Place, rel_from_root: str) -> str:
        rel_from_root = rel_from_root.removeprefix("./")
        if place.primary:
            return rel_from_root
        return os.path.join(place.root, rel_from_root)

    async def _listing(
        self, places: list[Place], include: list[str], exclude: list[str], keep: int = LISTING_CAP
    ) -> tuple[list[str], int, bool]:
        paths: list[str] = []
        total, timed_out = 0, False
        for place in places:
            if place.rel and not os.path.exists(place.real):
                raise ToolError(NOT_FOUND, f"{place.shown} does not exist", path=place.shown)
            try:
                listed = await ripgrep.list_files(
                    place.root, place.rel, include, exclude, keep, timeout=self.search_timeout
                )
            except subprocesses.ProgramUnavailable as exc:
                raise ripgrep.unavailable(exc) from None
            paths += [self._shown(place, p) for p in listed.paths]
            total += listed.total
            timed_out = timed_out or listed.timed_out
        return paths, total, timed_out

    async def list_files(
        self,
        path: str | None = None,
        include: Iterable[str] = (),
        exclude: Iterable[str] = (),
        limit: int = 1000,
        sizes: bool = False,
    ) -> FileListing:
        places = self._scopes(path)
        include, exclude = _checked_globs(include, exclude)
        paths, total, timed_out = await self._listing(places, include, exclude)
        kept = paths[:limit]
        entries = await in_thread(_entries, self, kept) if sizes else [self._entry(p, 0) for p in kept]
        complete = total <= limit and not timed_out
        reason = "timed_out" if timed_out else ("limit" if total > limit else "")
        base = places[0].shown if path is not None and os.path.isdir(places[0].real) else ""
        return FileListing(entries, total, complete, reason, timed_out, base)

    def _entry(self, shown: str, size: int) -> FileEntry:
        language = self.language_for(shown.rsplit("/", 1)[-1])
        return FileEntry(shown, size, getattr(language, "name", ""))

    async def find_files(self, query: str, path: str | None = None, limit: int = 20) -> FileListing:
        if not query.strip():
            raise ToolError(BAD_ARGUMENT, "query is empty: give a few letters of the file's name")
        paths, total, timed_out = await self._listing(self._scopes(path), [], [])
        ranked, matched = await in_thread(fuzzy.rank, query, paths, limit)
        complete = matched <= limit and not timed_out
        return FileListing(
            [self._entry(p, 0) for p in ranked],
            matched,
            complete,
            "timed_out" if timed_out else ("limit" if matched > limit else ""),
            timed_out,
        )

    async def search_text(
        self,
        pattern: str,
        *,
        literal: bool = False,
        case: str = "smart",
        word: bool = False,
        path: str | None = None,
        include: Iterable[str] = (),
        exclude: Iterable[str] = (),
        context: int = 0,
        max_matches: int = 100,
    ) -> TextSearch:
        if not pattern:
            raise ToolError(BAD_ARGUMENT, "pattern is empty")
        if "\0" in pattern:
            raise ToolError(BAD_ARGUMENT, "pattern contains a NUL byte")
        places = self._scopes(path)
        include, exclude = _checked_globs(include, exclude)
        out = TextSearch([])
        deadline = asyncio.get_running_loop().time() + self.search_timeout
        for place in places:
            if place.rel and not os.path.exists(place.real):
                raise ToolError(NOT_FOUND, f"{place.shown} does not exist", path=place.shown)
            remaining = max_matches - len(out.matches)
            q = ripgrep.TextQuery(
                pattern, literal, case, word, place.rel, include, exclude, context, remaining,
                timeout=max(0.1, deadline - asyncio.get_running_loop().time()),
            )  # fmt: skip
            try:
                found = await ripgrep.search(place.root, q)
            except subprocesses.ProgramUnavailable as exc:
                raise ripgrep.unavailable(exc) from None
            if place.primary:
                await self._fresh_for_symbols({self._shown(place, m.path) for m in found.matches})
            for m in found.matches:
                shown = self._shown(place, m.path)
                symbol = self.enclosing_symbol(shown, m.line, m.text) if place.primary else None
                out.matches.append(
                    TextMatch(
                        shown,
                        m.line,
                        m.column,
                        m.text,
                        m.line_truncated,
                        tuple(m.before),
                        tuple(m.after),
                        symbol,
                        tuple(m.more_columns),
                    )
                )
            out.files_searched += found.files_searched
            out.files_matched += found.files_matched
            out.bytes_searched += found.bytes_searched
            out.errors += found.errors
            if found.limit_reached or found.timed_out:
                out.limit_reached = found.limit_reached
                out.limit_reason = found.limit_reason
                out.timed_out = found.timed_out
                break
        if not out.matches and not out.timed_out:
            # ripgrep's --json summary counts no searched file when nothing matched: count them
            # (same walk, same globs) so that "nothing found" and "nothing searched" read apart.
            _, out.files_searched, _ = await self._listing(places, include, exclude, keep=0)
        out.matches.sort(key=lambda m: (m.path, m.line))
        out.filters = _filters(places, include, exclude, literal, case, word, pattern)
        return out

    async def _fresh_for_symbols(self, paths: set[str]) -> None:
        """Index the matched files that changed since they were indexed (an edit a moment ago, the
        watcher not there yet), a few at most: a match is named by the symbol it is in now, not
        by the old lines' (a search right after an edit named symbols by the old index)."""
        stale = sorted(p for p in paths if p in self.state.files_by_path and self.state.changed_since_indexed(p))
        if not stale or len(stale) > FRESH_BEFORE_NAMING or self._indexing():
            return
        try:
            await self._refresh(stale)
        except ToolError:
            pass  # (the answer says stale, as before)

    def enclosing_symbol(self, path: str, line: int, text: str | None = None) -> IndexedSymbol | None:
        """The innermost function or type of ``path`` (root-relative) whose lines hold ``line`` —
        what an agent wants to know of a match — else the innermost symbol of any kind (a module,
        a field: ``self.items = {}`` inside ``__init__`` is ``__init__``'s, not the field's). A
        decorator line (``text`` starting ``@``, Rust's ``#[``) is the decorated symbol's, below it."""
        indexed = self.state.files_by_path.get(path)
        if indexed is None:
            return None
        rows = self.state.symbols.rows
        syntax = syntax_of(self.language_for(path.rsplit("/", 1)[-1]))
        if text is not None and syntax.decorators and text.lstrip().startswith(syntax.decorators):
            below = [
                s
                for sid in self.state.symbols.by_file.get(indexed.id, ())
                if (s := rows.get(sid)) is not None and line < s.start_line <= line + DECORATED_REACH
            ]
            if below:
                return min(below, key=lambda s: (s.start_line, s.kind not in ENCLOSING_KINDS))
        best: IndexedSymbol | None = None
        best_key: tuple[bool, int, int] | None = None
        for sid in self.state.symbols.by_file.get(indexed.id, ()):
            s = rows.get(sid)
            if s is None or not (s.start_line <= line <= s.end_line):
                continue
            key = (s.kind not in ENCLOSING_KINDS, s.end_line - s.start_line, -s.start_line)
            if best_key is None or key < best_key:
                best, best_key = s, key
        return best

    # ---- comparing ------------------------------------------------------------------------------

    async def compare_directories(
        self, left: str, right: str, *, diffs: bool = False, limit: int = 200, diff_bytes: int = 60_000
    ) -> DirectoryComparison:
        sides = []
        for given in (left, right):
            place = self.place(given)
            if not os.path.isdir(place.real):
                raise ToolError(BAD_ARGUMENT, f"{place.shown} is not a directory", path=place.shown)
            sides.append(place)
        listings = []
        for place in sides:
            try:
                listed = await ripgrep.list_files(
                    place.root, place.rel, [], [], LISTING_CAP, timeout=self.search_timeout
                )
            except subprocesses.ProgramUnavailable as exc:
                raise ripgrep.unavailable(exc) from None
            prefix = place.rel + "/" if place.rel else ""
            listings.append([p.removeprefix("./").removeprefix(prefix) for p in listed.paths])
        result = await in_thread(
            comparing.compare,
            (sides[0].root, sides[0].rel),
            (sides[1].root, sides[1].rel),
            listings[0],
            listings[1],
            limit,
            diffs,
            diff_bytes,
        )
        result.left, result.right = sides[0].shown or ".", sides[1].shown or "."
        return result

    # ---- symbols of any file ----------------------------------------------------------------------

    async def parse_symbols(self, path: str) -> list[Symbol]:
        place = self._file_place(path)
        language = self.language_for(place.rel.rsplit("/", 1)[-1])
        if language is None:
            raise ToolError(
                BAD_ARGUMENT, f"{place.shown}: no installed language reads this kind of file", path=place.shown
            )
        results = await in_thread(_stoppable(self._pool.parse_inline), place.root, [(place.rel, language.name, None)])
        outcome = results[0]
        if outcome[0] != "parsed":
            raise ToolError(BAD_ARGUMENT, f"{place.shown} was not parsed: {outcome[-1]}", path=place.shown)
        return [Symbol(*s) for s in outcome[4].symbols]

    # ---- writes ---------------------------------------------------------------------------------

    def _lock(self) -> asyncio.Lock:
        lock = _write_locks.get(self.state)
        if lock is None:
            lock = _write_locks[self.state] = asyncio.Lock()
        return lock

    async def write_files(
        self, changes: Iterable[FileChange], *, tool: str, acknowledge_risk: bool = False
    ) -> WriteReport:
        changes = list(changes)
        if not changes:
            raise ToolError(BAD_ARGUMENT, "nothing to write: give at least one file")
        for change in changes:  # malformed preconditions are refused before anything is read
            if change.expected_hash is not None and not SHA256.fullmatch(change.expected_hash.removeprefix("sha256:")):
                raise ToolError(
                    BAD_ARGUMENT,
                    f"expected_hash {quoted(change.expected_hash)} is not a sha256 (64 hexadecimal digits); "
                    "nothing was changed",
                )
        async with self._lock():
            acknowledged: list[str] = []
            plans: dict[str, writing.Planned] = {}
            for number, change in enumerate(changes):
                earlier = False
                try:
                    place = self.place(change.path, allow_root=False)
                    acknowledged += risk.check(place, change.path, acknowledge_risk)
                    plan = plans.get(place.real)
                    if plan is None:
                        plan = await asyncio.to_thread(writing.plan_file, place)
                        plan.after = plan.before  # unchanged until a change says otherwise
                        _check_expected(plan, change)
                        plans[place.real] = plan
                    else:
                        earlier = True
                        if change.expected_hash is not None:
                            _check_expected(plan, change)
                    _apply(plan, change)
                except ToolError as exc:
                    raise _in_batch(exc, number, len(changes), change.path, earlier) from None
            ordered = list(plans.values())
            report = await self._commit(ordered, tool)
            report.warnings = sorted(set(acknowledged))
            await self._follow(report, ordered)
            return report

    async def _commit(self, plans: list[writing.Planned], tool: str, undoes: int | None = None) -> WriteReport:
        """Write the plans all or nothing, with their history entry (when the index can be written)."""
        changed = [p for p in plans if p.before_sha != p.after_sha or (p.before is None) != (p.after is None)]
        files = [
            WrittenFile(
                p.place.shown, p.before_sha, p.after_sha, p.replacements, len(p.before or b""), len(p.after or b"")
            )
            for p in plans
        ]
        if not changed:
            return WriteReport(None, files, history_note="nothing changed: the new content is the old")
        problem = self._history_problem()
        if problem:
            rollback = await asyncio.to_thread(writing.commit, changed)
            rollback.finish()  # type: ignore[attr-defined]
            return WriteReport(None, files, history_note=f"not recorded for undo: {problem}")
        records = [
            history_table.Change(p.place.root, p.place.rel, p.before_sha, p.after_sha, p.mode, p.before)
            for p in changed
        ]
        holder: list[Callable[[], None]] = []

        async def write() -> None:
            holder.append(await asyncio.to_thread(writing.commit, changed))

        assert self.store is not None
        try:
            entry_id = await history_table.record(self.store.path, tool, records, write, undoes)
        except BaseException:
            if holder:  # the files were written but the entry could not be: put them back
                await asyncio.to_thread(holder[0])
            raise
        holder[0].finish()  # type: ignore[attr-defined]
        return WriteReport(entry_id, files)

    def _history_problem(self) -> str:
        if self.store is None:
            return "no index database"
        if self.store.read_only is not None:
            return f"the index is read-only ({self.store.read_only})"
        return ""

    async def _follow(self, report: WriteReport, plans: list[writing.Planned]) -> None:
        """Bring the index up to date with what was written in the indexed root, now."""
        rels = [p.place.rel for p in plans if p.place.primary]
        if not rels:
            report.reindex_note = "outside the indexed root: not indexed"
            return
        if self._indexing():
            report.reindex_note = "an index run is in progress; it will pick the change up"
            return
        try:
            await self._refresh(rels)
            report.reindexed = True
        except ToolError as exc:
            report.reindex_note = exc.message
        except Exception as exc:  # read-only or busy index: the write stands, the index catches up later
            report.reindex_note = f"not re-indexed now ({type(exc).__name__}: {exc}); the watcher will"

    # ---- history ----------------------------------------------------------------------------------

    async def history(self, limit: int = 20, path: str | None = None) -> list[HistoryEntry]:
        if self.store is None:
            return []
        root = rel = None
        if path is not None:
            place = self.place(path, allow_root=False)
            root, rel = place.root, place.rel
        found = await history_table.entries(self.store.reader, limit, root, rel)
        for entry in found:
            entry.files = [
                HistoryFile(self._shown_for(f.root, f.path), f.sha256_before, f.sha256_after) for f in entry.files
            ]
        return found

    def _shown_for(self, root: str, rel: str) -> str:
        return rel if root == self.roots.primary else os.path.join(root, rel)

    async def undo(self, entry_id: int, *, acknowledge_risk: bool = False) -> WriteReport:
        if self.store is None:
            raise ToolError(UNAVAILABLE, "there is no edit history here (no index database)")
        async with self._lock():
            found = await history_table.entry(self.store.reader, entry_id)
            if found is None:
                raise ToolError(NOT_FOUND, f"history entry {entry_id} does not exist (or was evicted: see history)")
            head, recorded = found
            if head.undone_by is not None:
                raise ToolError(BAD_ARGUMENT, f"entry {entry_id} was already undone by entry {head.undone_by}")
            plans, acknowledged = [], []
            for r in recorded:
                shown = self._shown_for(r.root, r.path)
                if not r.kept:
                    raise ToolError(
                        BAD_ARGUMENT, f"entry {entry_id}'s state of {shown} was too large to keep; it cannot be undone"
                    )
                if r.root not in self.roots.all:
                    raise ToolError(OUTSIDE_WORKSPACE, f"{shown} is no longer in a declared root; nothing was changed")
                linked = traverses_link(r.root, r.path.split("/"))
                real = os.path.realpath(os.path.join(r.root, r.path))
                if linked and not (real == r.root or real.startswith(r.root + os.sep)):
                    # A link that leads out of the root now: no acknowledgement could let the write
                    # through (it was asked for first, then refused)
                    raise ToolError(
                        OUTSIDE_WORKSPACE, f"{shown} now leads outside the workspace root; nothing was changed"
                    )
                place = Place(r.root, r.path, shown, linked, r.root == self.roots.primary)
                acknowledged += risk.check(place, shown, acknowledge_risk)
                plan = await asyncio.to_thread(writing.plan_file, place)
                if plan.before_sha != r.sha256_after:
                    now = "is gone since" if not plan.before_sha else "changed since"
                    raise ToolError(
                        STALE,
                        f"{shown} {now} entry {entry_id} wrote it; undoing would overwrite that, so nothing was changed",
                        path=shown,
                    )
                plan.after = r.before
                if plan.mode is None and r.mode is not None:
                    plan.mode = r.mode
                plans.append(plan)
            report = await self._commit(plans, "undo", undoes=entry_id)
            report.warnings = sorted(set(acknowledged))
            await self._follow(report, plans)
            return report


def _in_batch(exc: ToolError, number: int, count: int, path: str, earlier: bool) -> ToolError:
    """A batch's refusal says which of its changes it is (and that an earlier one had changed the
    file it was applied to): "old_text not found" alone does not tell which of ten edits failed."""
    if count == 1:
        return exc
    where = f"files[{number}] ({path}"
    where += ", as the batch's earlier changes to it left it)" if earlier else ")"
    return ToolError(exc.code, f"{where}: {exc.message}", **{"index": number, **exc.details})


def _check_expected(plan: writing.Planned, change: FileChange) -> None:
    expected = change.expected_hash
    if expected is None:
        return
    expected = expected.removeprefix("sha256:").lower()
    if plan.before_sha != expected:
        # The actual hash is not repeated: the agent reads the file again (and sees its new content).
        now = "does not exist" if plan.before is None else "has changed since that hash was read"
        raise ToolError(
            STALE, f"{plan.place.shown} {now}: expected_hash does not match; nothing was changed", path=plan.place.shown
        )


def _apply(plan: writing.Planned, change: FileChange) -> None:
    """Work ``change`` out on top of what the plan will write (a batch may change one file twice)."""
    shown = plan.place.shown
    if change.content is not None:
        plan.after = change.content
        return
    if change.delete:
        if plan.after is None:
            raise ToolError(NOT_FOUND, f"{shown} does not exist; nothing was changed", path=shown)
        plan.after = None
        return
    if change.create is not None:
        if plan.after is not None:
            raise ToolError(
                BAD_ARGUMENT, f"{shown} exists: edit it, or delete it first; nothing was changed", path=shown
            )
        plan.after = edits.Text.new(change.create).encode()
        return
    if plan.after is None:
        raise ToolError(NOT_FOUND, f"{shown} does not exist (create it with create); nothing was changed", path=shown)
    if not change.edits:
        raise ToolError(BAD_ARGUMENT, f"no edit given for {shown}")
    text = edits.Text.decode(plan.after, shown)
    for edit in change.edits:
        text, count = edits.apply(text, edit, shown)
        plan.replacements += count
    plan.after = text.encode()


FRESH_BEFORE_NAMING = 20  # changed files a search indexes before it names the symbols of its matches


def _entries(access: FileAccess, paths: list[str], stop: Callable[[], bool]) -> list[FileEntry]:
    out = []
    for index, shown in enumerate(paths):
        if index % 1024 == 0 and stop():
            raise reading.Stopped
        full = shown if os.path.isabs(shown) else os.path.join(access.roots.primary, shown)
        try:
            size = os.stat(full).st_size
        except OSError:
            size = 0
        out.append(access._entry(shown, size))
    return out


def _checked_globs(include: Iterable[str], exclude: Iterable[str]) -> tuple[list[str], list[str]]:
    """The globs as lists; one with a NUL byte is refused (no program takes it as an argument: it
    crashed list_files and search_text with an internal error — found by fuzzing)."""
    include, exclude = list(include), list(exclude)
    for name, globs in (("include", include), ("exclude", exclude)):
        if any("\0" in g for g in globs):
            raise ToolError(BAD_ARGUMENT, f"{name} has a glob with a NUL byte")
    return include, exclude


def _filters(places: list[Place], include: list[str], exclude: list[str], literal: bool, case: str, word: bool,
             pattern: str) -> dict[str, Any]:  # fmt: skip
    """What narrowed a search, for an answer with no match to say what could explain it."""
    out: dict[str, Any] = {"scope": [p.shown or "." for p in places]}
    if include:
        out["include"] = include
    if exclude:
        out["exclude"] = exclude
    out["case"] = case
    if case == "smart" and pattern != pattern.lower():
        out["capitals"] = True  # smart case then matches case-sensitively
    if word:
        out["word"] = True
    out["literal"] = literal
    if not literal and re.search(r"[.*+?()\[\]{}|^$\\]", pattern):
        out["regex_characters"] = True  # a literal search may be what was meant
    return out


def _select_json(place: Place, pointer: str, max_bytes: int, stop: Callable[[], bool]) -> JsonSelection:
    from codecairn.paths import open_confined

    fd = open_confined(place.root, place.rel)
    try:
        d = reading.digest_fd(fd, stop)
        # A byte order mark (Visual Studio writes one in tsconfig.json, appsettings.json) is no
        # part of the JSON: read past it, as `read` shows the text without it
        skip = 3 if os.pread(fd, 3, 0) == b"\xef\xbb\xbf" else 0
        os.lseek(fd, skip, os.SEEK_SET)
        out = JsonSelection(place.shown, pointer, d.sha256, d.size)
        try:
            value = _valid_unicode(jsonstream.select(jsonstream.file_reader(fd), pointer, max_bytes, stop))
        except jsonstream.NotThere as exc:
            out.problem = str(exc)
            return out
        except jsonstream.TooLarge as exc:
            out.problem = f"the value is larger than {max_bytes} bytes (at least {exc.size}); select deeper" + (
                "" if max_bytes >= MAX_WINDOW_BYTES else " or raise max_bytes"
            )
            out.value_bytes = exc.size
            return out
        except jsonstream.JsonError as exc:
            out.problem = f"not valid JSON: {exc.message}"
            out.line, out.column = jsonstream.line_and_column(lambda n, at: os.pread(fd, n, at + skip), exc.offset)
            return out
        out.found = True
        out.value = value
        out.value_bytes = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())
        return out
    finally:
        os.close(fd)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _valid_unicode(value: Any) -> Any:
    """``value`` with every lone surrogate (``"\\ud800"``: valid JSON, no character) replaced by
    U+FFFD: no answer can carry one as text (it crashed the read)."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_valid_unicode(v) for v in value]
    if isinstance(value, dict):
        return {_valid_unicode(k): _valid_unicode(v) for k, v in value.items()}
    return value


def _check_json_file(place: Place, stop: Callable[[], bool]) -> JsonCheck:
    from codecairn.paths import open_confined

    fd = open_confined(place.root, place.rel)
    try:
        size = os.fstat(fd).st_size
        try:
            jsonstream.check(jsonstream.file_reader(fd), stop)
        except jsonstream.JsonError as exc:
            line, column = jsonstream.line_and_column(lambda n, at: os.pread(fd, n, at), exc.offset)
            return JsonCheck(False, size, exc.message, line, column, exc.offset)
        return JsonCheck(True, size)
    finally:
        os.close(fd)


def _check_json_bytes(data: bytes, stop: Callable[[], bool]) -> JsonCheck:
    if len(data) > JSON_TEXT_MAX:
        raise ToolError(BAD_ARGUMENT, f"text is larger than {JSON_TEXT_MAX} bytes; validate a file instead")
    try:
        jsonstream.check(jsonstream.text_reader(data), stop)
    except jsonstream.JsonError as exc:
        line, column = jsonstream.line_and_column(lambda n, at: data[at : at + n], exc.offset)
        return JsonCheck(False, len(data), exc.message, line, column, exc.offset)
    return JsonCheck(True, len(data))
