"""Re-index a few named files without walking the tree: what the watcher does after an edit.

The guarantees are the full run's (``index.pipeline.run_index``): a file's new facts replace its
old ones in one transaction, edges out of it and into it are resolved again, and the generation
advances only once all of that is written. A failure leaves every affected file in its previous
state. What cannot be decided from the named paths alone — more files than a handful, ignore rules
that changed — is left to a full run, which ``reindex_paths`` starts itself.
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import anyio

from codecairn.freshness.rules import WalkRules
from codecairn.index.pipeline import NARROW_LIMIT, IndexSummary, resolve
from codecairn.index.resolver import Bindings, FileInfo, Resolver, build_bindings
from codecairn.index.walker import max_file_bytes, walk
from codecairn.store.store import FileRow, ParsedFile

if TYPE_CHECKING:
    from codecairn.workspace import FileState, Workspace

log = logging.getLogger("codecairn.freshness")

GONE = (FileNotFoundError, NotADirectoryError)


@dataclass
class Plan:
    jobs: list[tuple[str, str, str | None]] = field(default_factory=list)  # (path, language, old hash)
    stats: dict[str, tuple[int, int]] = field(default_factory=dict)  # path -> (size, mtime_ns)
    deleted: dict[str, int] = field(default_factory=dict)  # path -> file id
    unchanged: int = 0
    full_run: str = ""  # why a full run is needed
    seconds: float = 0.0


def plan(ws: Workspace, rules: WalkRules, paths: Iterable[str]) -> Plan:
    """Decide, by stat alone, what each named path needs. Runs in a thread."""
    started = time.perf_counter()
    out = Plan()
    root = str(ws.root)
    limit = max_file_bytes()
    known = ws.files_by_path
    candidates: dict[str, tuple[int, int]] = {}  # path -> (size, mtime_ns)

    def forget_under(prefix: str) -> None:
        for p, state in list(known.items()):
            if p.startswith(prefix + "/"):
                out.deleted[p] = state.id

    for rel in sorted(set(paths)):
        if not rel or rel.rsplit("/", 1)[-1] == ".gitignore":
            rules.forget_ignore_files()
            out.full_run = "ignore rules changed"
            return out
        if rules.inside_ignored_dir(rel):
            continue
        full = os.path.join(root, rel)
        try:
            st = os.lstat(full)
        except GONE:
            if rel in known:
                out.deleted[rel] = known[rel].id
            forget_under(rel)  # a directory that went away (or was renamed: its new name is another event)
            continue
        except OSError as exc:  # unreadable now: keep what we know, the next run decides
            log.info("cannot stat %s (%s); keeping its previous state", rel, exc.strerror or exc)
            continue
        if stat.S_ISLNK(st.st_mode):
            target = os.path.realpath(full)
            try:
                st = os.stat(target)
            except OSError:
                st = None
            real_root = os.path.realpath(root)
            if st is None or not target.startswith(real_root + os.sep) or not stat.S_ISREG(st.st_mode):
                if rel in known:  # the walker would not index it (any more)
                    out.deleted[rel] = known[rel].id
                continue
        if stat.S_ISDIR(st.st_mode):
            if rules.ignored(rel, is_dir=True):
                continue
            # A directory appeared (mkdir, or moved in): files created in it before its watch
            # existed produce no events of their own, so look inside.
            sub = walk(full, rules.language_for)
            seen = set()
            for f in sub.files:
                path = f"{rel}/{f.path}"
                if not rules.ignored(path, is_dir=False):
                    seen.add(path)
                    candidates[path] = (f.size, f.mtime_ns)
            for p, state in known.items():
                # Not found under a directory it could not read is not gone: kept as it was.
                if p.startswith(rel + "/") and p not in seen and not sub.hides(p[len(rel) + 1 :]):
                    out.deleted[p] = state.id
            continue
        if not stat.S_ISREG(st.st_mode):
            continue
        if rules.language(rel) is None or rules.ignored(rel, is_dir=False) or st.st_size > limit:
            if rel in known:
                out.deleted[rel] = known[rel].id
            continue
        candidates[rel] = (st.st_size, st.st_mtime_ns)
    for rel, (size, mtime) in candidates.items():
        language = rules.language(rel)
        if language is None:
            continue
        old: FileState | None = known.get(rel)
        if old is not None and old.language == language and old.size == size and old.mtime_ns == mtime:
            out.unchanged += 1
            continue
        out.jobs.append((rel, language, old.hash if old is not None and old.language == language else None))
        out.stats[rel] = (size, mtime)
    if len(out.jobs) + len(out.deleted) > NARROW_LIMIT:
        out.full_run = f"{len(out.jobs) + len(out.deleted)} files changed"
    out.seconds = time.perf_counter() - started
    return out


def _row(state: FileState) -> FileRow:
    return FileRow(
        state.id,
        state.path,
        state.language,
        state.size,
        state.mtime_ns,
        state.hash,
        state.lines,
        state.module,
        state.extractor,
        state.partial,
        0,
    )


def _shape(ws: Workspace, file_ids: Iterable[int]) -> dict[str, Counter]:
    """name -> how many symbols of each (kind, qualified name) these files declare."""
    rows = ws.index.rows
    out: dict[str, Counter] = {}
    for fid in file_ids:
        for sid in ws.index.by_file.get(fid, ()):
            s = rows[sid]
            out.setdefault(s.name, Counter())[(s.kind, s.qualified_name)] += 1
    return out


def _identities(ws: Workspace, file_ids: Iterable[int]) -> dict[int, tuple]:
    """symbol id -> (file id, qualified name, kind, how many alike come before it): what stays the
    same when an edit elsewhere in the file moves the symbol."""
    rows = ws.index.rows
    out: dict[int, tuple] = {}
    for fid in file_ids:
        seen: Counter = Counter()
        for sid in sorted(ws.index.by_file.get(fid, ()), key=lambda i: (rows[i].start_line, i)):
            s = rows[sid]
            key = (fid, s.qualified_name, s.kind)
            out[sid] = (*key, seen[key])
            seen[key] += 1
    return out


class Reindexer:
    """Re-indexes named paths of one workspace. Keeps the walker's rules and what the resolver
    needs (every file's import bindings, every file's module) between calls: rebuilding those
    costs more than re-indexing one file. They are rebuilt whenever a run it did not do (a full
    index) moved the generation."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.rules = WalkRules(ws.root, ws.host.language_for)
        self._generation: int | None = None
        self._bindings: dict[int, Bindings] = {}
        self._infos: dict[int, FileInfo] = {}

    async def run(self, paths: Iterable[str]) -> IndexSummary:
        """Bring the named root-relative paths (files, or directories that appeared or went away)
        up to date. Raises on failure (disk full, database locked...), having changed nothing."""
        ws = self.ws
        paths = list(paths)
        started = time.perf_counter()
        async with ws.index_lock:
            todo = await anyio.to_thread.run_sync(plan, ws, self.rules, paths)
            summary = None if todo.full_run else await self.apply(todo, started)
            if summary is not None:
                summary.phases["plan"] = todo.seconds
        if summary is None:
            log.info("full refresh of %s: %s", ws.root, todo.full_run)
            return await ws.index_now()
        return summary

    async def apply(self, todo: Plan, started: float, *, settle: bool = True) -> IndexSummary:
        """Carry out a plan; the caller holds ``ws.index_lock``. ``settle=False``: the caller
        runs ``ws.after_change()`` itself (a full run that found only a few changed files)."""
        ws, store = self.ws, self.ws.store
        summary = IndexSummary(unchanged=todo.unchanged, deleted=len(todo.deleted))
        pending_resolution = await store.get_meta("resolution_pending") == "1"
        parsed: list[ParsedFile] = []
        touched: list[tuple[int, int]] = []
        if todo.jobs:
            t = time.perf_counter()
            results = await anyio.to_thread.run_sync(ws.pool.parse_inline, str(ws.root), todo.jobs)
            summary.phases["parse"] = time.perf_counter() - t
            languages = {j[0]: j[1] for j in todo.jobs}
            for res in results:
                status, path = res[0], res[1]
                if status == "parsed":
                    size, mtime = todo.stats[path]
                    parsed.append(ParsedFile(path, languages[path], size, mtime, res[2], res[3], res[4]))
                elif status == "same":
                    touched.append((ws.files_by_path[path].id, todo.stats[path][1]))
                    summary.unchanged += 1
                elif status == "skipped":
                    summary.skipped[res[2]] = summary.skipped.get(res[2], 0) + 1
                else:  # the extractor failed: this file keeps its previous facts
                    summary.failed[path] = res[2]
                    log.warning("extraction failed for %s: %s", path, res[2])
        summary.parsed = len(parsed)
        changed = bool(parsed or todo.deleted)
        if not (changed or touched or pending_resolution):
            return self._finish(summary, started)
        known = {p.path: _row(ws.files_by_path[p.path]) for p in parsed if p.path in ws.files_by_path}
        deleted = list(todo.deleted.values())
        old_ids = [r.id for r in known.values()] + deleted
        generation = ws.generation + 1 if changed else ws.generation
        with anyio.CancelScope(shield=True):  # written whole, or not at all
            await self._ensure_cache()
            into: list[tuple] = []
            if changed:
                # Edges elsewhere that point into the old symbols lose their target in the write.
                marks = ",".join("?" * len(old_ids))
                into = (
                    await store.fetch_writer(
                        f"SELECT e.id, e.target_id, e.resolution, e.kind, e.source_id FROM edges e "
                        f"JOIN symbols s ON e.target_id = s.id WHERE s.file_id IN ({marks}) "
                        f"AND e.file_id NOT IN ({marks})",
                        old_ids * 2,
                    )
                    if old_ids
                    else []
                )
                before = _shape(ws, old_ids)
                old_identity = _identities(ws, old_ids)
                await store.set_meta({"resolution_pending": 1})
            t = time.perf_counter()
            try:
                rows, file_ids = await store.write_batch(parsed, touched, deleted, known, generation)
            except BaseException:
                if changed and not pending_resolution:
                    # Nothing was written: the retry can stay narrow (if this fails too, it will not).
                    with contextlib.suppress(Exception):
                        await store.set_meta({"resolution_pending": 0})
                raise
            ws.apply_batch(parsed, deleted, known, rows, file_ids)
            ws.touch(touched)
            summary.phases["write"] = time.perf_counter() - t
            if changed or pending_resolution:
                self._update_cache(parsed, file_ids, deleted)
                t = time.perf_counter()
                if pending_resolution:
                    summary.resolved_edges = await resolve(ws, set(), set(), full=True)
                else:
                    after = _shape(ws, file_ids.values())
                    names = {n for n in before.keys() | after.keys() if before.get(n) != after.get(n)}
                    # An edge into a symbol that is still there (same qualified name and kind) points
                    # at its new row; only those whose target went away are resolved again.
                    new_id = {identity: sid for sid, identity in _identities(ws, file_ids.values()).items()}
                    kept, lost, bases = [], [], []
                    for eid, target, how, kind, source in into:
                        sid = new_id.get(old_identity.get(target))
                        if sid is None:
                            lost.append(eid)
                            continue
                        kept.append((sid, how, eid))
                        if kind in ("extends", "implements") and source is not None:
                            bases.append((source, sid))
                    ws.index.set_bases(bases)
                    summary.resolved_edges = await self._resolve(set(file_ids.values()), lost, names, kept)
                summary.phases["resolve"] = time.perf_counter() - t
                await store.set_meta(
                    {"resolution_pending": 0, "generation": generation, "last_indexed_at": time.time()}
                )
                ws.generation = generation
                self._generation = generation
                if settle:
                    t = time.perf_counter()
                    await ws.after_change()  # memories follow the code; new symbols get embedded
                    summary.phases["memory"] = time.perf_counter() - t
        return self._finish(summary, started)

    def _finish(self, summary: IndexSummary, started: float) -> IndexSummary:
        summary.files = len(self.ws.files_by_path)
        summary.generation = self.ws.generation
        summary.seconds = time.perf_counter() - started
        return summary

    # ---- resolution ---------------------------------------------------------------------------

    async def warm(self) -> bool:
        """Build what the resolver needs now, while nothing is waiting (the watcher calls this when
        idle), so the next edit costs only its own work. True if there was anything to do."""
        if self._generation == self.ws.generation or self.ws.index_lock.locked():
            return False
        async with self.ws.index_lock:
            await self._ensure_cache()
        return True

    async def _ensure_cache(self) -> None:
        if self._generation != self.ws.generation:
            rows = await self.ws.store.fetch_writer("SELECT file_id, name, alias, target FROM imports")
            self._bindings = build_bindings(rows)
            self._infos = self.ws.file_infos()
            self._generation = self.ws.generation

    def _update_cache(self, parsed: list[ParsedFile], file_ids: dict[str, int], deleted: list[int]) -> None:
        for fid in deleted:
            self._bindings.pop(fid, None)
            self._infos.pop(fid, None)
        for p in parsed:
            fid = file_ids[p.path]
            fresh = build_bindings([(fid, i.name, i.alias, i.target) for i in p.facts.imports])
            self._bindings[fid] = fresh.get(fid, Bindings())
            self._infos[fid] = FileInfo(p.path, p.language, p.facts.module)

    async def _resolve(self, file_ids: set[int], edge_ids: list[int], names: set[str], known: list[tuple] = ()) -> int:
        """Resolve the edges an edit can have changed: those of the re-parsed files, ``edge_ids``
        (they pointed into symbols that went away), and those naming a symbol that appeared, went
        away or changed kind or qualified name (a body-only edit changes none). ``known`` are
        resolutions already decided, written with the others."""
        ws, store = self.ws, self.ws.store
        if len(file_ids) + len(edge_ids) + len(names) > 30000:  # SQLite's bound-parameter limit
            await store.write_resolutions(known)
            return await resolve(ws, set(), set(), full=True)
        conds, params = [], []
        for column, values in (("file_id", file_ids), ("id", edge_ids), ("target", names)):
            if values:
                conds.append(f"{column} IN ({','.join('?' * len(values))})")
                params.extend(values)
        if not conds:
            await store.write_resolutions(known)
            return len(known)
        edges = await store.fetch_writer(
            f"SELECT id, file_id, kind, source_id, target, receiver, receiver_type FROM edges WHERE {' OR '.join(conds)}",
            params,
        )
        inheritance = [e for e in edges if e[2] in ("extends", "implements")]
        calls = [e for e in edges if e[2] not in ("extends", "implements")]
        resolver = Resolver(ws.index, self._infos, ws.host.languages, self._bindings)

        def work() -> list[tuple]:
            out = resolver.resolve_inheritance(inheritance)
            out.extend(resolver.resolve_calls(calls))
            return out

        updates = await anyio.to_thread.run_sync(work)
        decided = {u[2] for u in updates}  # resolved again (its name's symbols changed): that wins
        updates.extend(u for u in known if u[2] not in decided)
        await store.write_resolutions(updates)
        return sum(1 for u in updates if u[0] is not None)


async def reindex_paths(ws: Workspace, paths: Iterable[str]) -> IndexSummary:
    """One-off :meth:`Reindexer.run` (a watcher keeps its Reindexer, and with it its caches)."""
    return await Reindexer(ws).run(paths)
