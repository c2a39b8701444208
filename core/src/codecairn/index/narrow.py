"""Re-index a few files in-process, resolving only what the change can have moved: what the
watcher does after an edit, and what an ``index`` that finds a handful of changed files does.

The guarantees are the full run's (index/pipeline.py): a file's new facts replace its old ones in
one transaction, edges out of it and into it are resolved again, and the generation advances only
once all of that is written. A failure leaves every affected file in its previous state.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import anyio

from codecairn.index import reuse
from codecairn.index.outcomes import Outcomes
from codecairn.index.pipeline import load_bindings, resolve
from codecairn.index.plan import Plan
from codecairn.index.resolver import Bindings, ModuleMap, Resolver, add_exports, build_bindings
from codecairn.index.stale_calls import (
    calls_external_bases_decide,
    calls_their_subtypes_decide,
    calls_through_rebound,
    their_own_edges,
)
from codecairn.index.symbol_index import SymbolIndex
from codecairn.index.target import IndexTarget
from codecairn.model import (
    INHERITANCE_KINDS,
    PASSES,
    RESOLVED_FIRST,
    RETURNS,
    FileInfo,
    IndexedFile,
    IndexSummary,
)
from codecairn.store.carried import Carried
from codecairn.store.store import FileRow, ParsedFile

log = logging.getLogger("codecairn.index")


def _row(state: IndexedFile) -> FileRow:
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


def _shape(symbols: SymbolIndex, file_ids: Iterable[int]) -> dict[str, Counter]:
    """name -> how many symbols of each (kind, qualified name) these files declare."""
    rows = symbols.rows
    out: dict[str, Counter] = {}
    for fid in file_ids:
        for sid in symbols.by_file.get(fid, ()):
            s = rows[sid]
            out.setdefault(s.name, Counter())[(s.kind, s.qualified_name)] += 1
    return out


def _identities(symbols: SymbolIndex, file_ids: Iterable[int]) -> dict[int, tuple]:
    """symbol id -> (file id, qualified name, kind, how many alike come before it): what stays the
    same when an edit elsewhere in the file moves the symbol."""
    rows = symbols.rows
    out: dict[int, tuple] = {}
    for fid in file_ids:
        seen: Counter = Counter()
        for sid in sorted(symbols.by_file.get(fid, ()), key=lambda i: (rows[i].start_line, i)):
            s = rows[sid]
            key = (fid, s.qualified_name, s.kind)
            out[sid] = (*key, seen[key])
            seen[key] += 1
    return out


def _returns(symbols: SymbolIndex, file_ids: Iterable[int]) -> set[tuple[str, tuple]]:
    """(function's qualified name, what it returns) for the functions of ``file_ids`` whose
    returns edge resolved: compared before and after an edit."""
    rows, returns = symbols.rows, symbols.returns
    out = set()
    for fid in file_ids:
        for sid in symbols.by_file.get(fid, ()):
            got = returns.get(sid)
            if got is not None and got[0] in rows:
                out.add((rows[sid].qualified_name, (rows[got[0]].qualified_name, got[1])))
    return out


def _carry(carried: Carried, known: dict[str, FileRow], identity: dict[int, tuple]) -> None:
    """Fill ``carried`` with the ids of the re-parsed files' (``known``) symbols, by identity
    (``identity``: _identities()), for Store.write_batch (store/carried.py)."""
    path_of = {row.id: path for path, row in known.items()}
    for sid, (fid, qualified_name, kind, n) in identity.items():
        if fid in path_of:
            carried.ids.setdefault(path_of[fid], {})[(qualified_name, kind, n)] = sid


@dataclass
class Reparsed:
    """What _resolve needs to keep the resolutions of calls in re-parsed files that say what they
    said before (index/reuse.py)."""

    files: dict[int, reuse.FileBefore]  # file id -> the file before, for those unchanged to the resolver
    identity: dict[int, tuple]  # their symbols now: id -> identity (see _identities)
    new_id: dict[tuple, int]  # ...and back


class NarrowIndexer:
    """Re-indexes a few files of one root in-process. Keeps what the resolver needs (every file's
    import bindings, every file's module) between runs: rebuilding those costs more than
    re-indexing one file. They are rebuilt whenever a run it did not do (a full index) moved the
    generation."""

    def __init__(self, target: IndexTarget) -> None:
        self.target = target
        self._generation: int | None = None
        self._bindings: dict[int, Bindings] = {}
        self._infos: dict[int, FileInfo] = {}
        self._modules: ModuleMap | None = None  # Resolver.module_map() while no file comes or goes

    async def apply(self, todo: Plan, summary: IndexSummary, started: float) -> IndexSummary:
        """Carry out a plan; the caller holds the index lock."""
        target = self.target
        state, store = target.state, target.store
        summary.unchanged += todo.unchanged
        summary.deleted = len(todo.deleted)
        pending_resolution = await store.get_meta("resolution_pending") == "1"
        outcomes = Outcomes(state, summary, todo.stats, {j[0]: j[1] for j in todo.jobs})
        if todo.jobs:
            t = time.perf_counter()
            outcomes.consume(await anyio.to_thread.run_sync(target.pool.parse_inline, target.root_real, todo.jobs))
            summary.phases["parse"] = time.perf_counter() - t
        parsed, touched = outcomes.take()
        changed = bool(parsed or todo.deleted)
        if not (changed or touched or pending_resolution):
            return self._finish(summary, started)
        known = {p.path: _row(state.files_by_path[p.path]) for p in parsed if p.path in state.files_by_path}
        deleted = list(todo.deleted.values())
        old_ids = [r.id for r in known.values()] + deleted
        generation = state.generation + 1 if changed else state.generation
        with anyio.CancelScope(shield=True):  # written whole, or not at all
            await self._ensure_cache()
            into: list[tuple] = []
            carried = Carried()
            if changed:
                # Edges elsewhere that point into the old symbols lose their target in the write.
                into = await store.edges_into(old_ids)
                before = _shape(state.symbols, old_ids)
                returns_before = _returns(state.symbols, old_ids)
                old_identity = _identities(state.symbols, old_ids)
                reparsed = [r.id for r in known.values()]
                _carry(carried, known, old_identity)
                files_before = reuse.before(
                    await store.resolved_edges_of(reparsed),
                    old_identity,
                    state.symbols,
                    self._bindings,
                    {fid: self._infos[fid].module for fid in reparsed if fid in self._infos},
                    reparsed,
                )
                await store.set_meta({"resolution_pending": 1})
            t = time.perf_counter()
            try:
                rows, file_ids = await store.write_batch(parsed, touched, deleted, known, generation, carried=carried)
            except BaseException:
                if changed and not pending_resolution:
                    # Nothing was written: the retry can stay narrow (if this fails too, it will not).
                    with contextlib.suppress(Exception):
                        await store.set_meta({"resolution_pending": 0})
                raise
            state.apply_batch(parsed, deleted, known, rows, file_ids)
            state.touch(touched)
            summary.phases["write"] = time.perf_counter() - t
            if changed or pending_resolution:
                self._update_cache(parsed, file_ids, deleted)
                t = time.perf_counter()
                if pending_resolution:
                    summary.resolved_edges = await resolve(target, set(), set(), full=True)
                else:
                    after = _shape(state.symbols, file_ids.values())
                    names = {n for n in before.keys() | after.keys() if before.get(n) != after.get(n)}
                    # An edge into a symbol that is still there (same qualified name and kind) points
                    # at its row (the same id, unless another server re-indexed the file meanwhile);
                    # only those whose target went away are resolved again.
                    new_identity = _identities(state.symbols, file_ids.values())
                    new_id = {identity: sid for sid, identity in new_identity.items()}
                    kept, lost, bases = [], [], []
                    for eid, target, how, kind, source in into:
                        sid = new_id.get(old_identity.get(target, ()))
                        if sid is None or kind in (RETURNS, PASSES):  # resolved again, kept in memory
                            lost.append(eid)
                            continue
                        if sid != target:
                            kept.append((sid, how, eid))
                        if kind in INHERITANCE_KINDS and source is not None:
                            bases.append((source, sid))
                    state.symbols.set_bases(bases)
                    rebound, stale = state.symbols.passed.settle(old_ids, state.files_by_id, state.symbols.rows)
                    unchanged = {
                        fid: file
                        for fid, file in files_before.items()
                        if fid in self._infos
                        and reuse.unchanged(file, state.symbols, fid, self._bindings.get(fid), self._infos[fid].module)
                    }
                    summary.resolved_edges = await self._resolve(
                        set(file_ids.values()),
                        lost + stale,
                        names,
                        kept,
                        returns_before,
                        rebound,
                        Reparsed(unchanged, new_identity, new_id),
                        carried,
                    )
                summary.phases["resolve"] = time.perf_counter() - t
                await store.set_meta(
                    {"resolution_pending": 0, "generation": generation, "last_indexed_at": time.time()}
                )
                state.generation = generation
                self._generation = generation
        return self._finish(summary, started)

    def _finish(self, summary: IndexSummary, started: float) -> IndexSummary:
        summary.files = len(self.target.state.files_by_path)
        summary.generation = self.target.state.generation
        summary.seconds = time.perf_counter() - started
        return summary

    # ---- resolution ---------------------------------------------------------------------------

    def cold(self) -> bool:
        """Does the next run have to rebuild the resolver's caches first?"""
        return self._generation != self.target.state.generation

    async def _ensure_cache(self) -> None:
        """The caller holds the index lock."""
        state = self.target.state
        if self._generation != state.generation:
            self._bindings = await load_bindings(self.target.store)
            self._infos = state.file_infos()
            self._modules = None
            self._generation = state.generation

    async def warm(self) -> None:
        """Build what the resolver needs now (the caller holds the index lock)."""
        await self._ensure_cache()

    def _update_cache(self, parsed: list[ParsedFile], file_ids: dict[str, int], deleted: list[int]) -> None:
        for fid in deleted:
            self._bindings.pop(fid, None)
            self._infos.pop(fid, None)
            self._modules = None
        for p in parsed:
            fid = file_ids[p.path]
            if (was := self._infos.get(fid)) is None or was.module != p.facts.module or was.language != p.language:
                self._modules = None
            fresh = build_bindings([(fid, i.name, i.alias, i.target) for i in p.facts.imports])
            add_exports(fresh, ((fid, e.name, e.kind) for e in p.facts.exports))
            self._bindings[fid] = fresh.get(fid, Bindings())
            self._infos[fid] = FileInfo(p.path, p.language, p.facts.module)

    async def _resolve(
        self,
        file_ids: set[int],
        edge_ids: list[int],
        names: set[str],
        known: list[tuple] | None = None,
        returns_before: frozenset[tuple[str, tuple]] | set[tuple[str, tuple]] = frozenset(),
        rebound: set[int] | None = None,
        reparsed: Reparsed | None = None,
        carried: Carried | None = None,
    ) -> int:
        """Resolve the edges an edit can have changed: those of the re-parsed files, ``edge_ids``
        (they pointed into symbols that went away), those naming a symbol that appeared, went
        away or changed kind or qualified name (a body-only edit changes none), and the calls that
        follow what a function returns when that changed (``returns_before``: _returns() before the
        edit), and the calls through parameters of functions whose passed values changed
        (``rebound``, and what resolving the passes edges here changes). ``known`` are
        resolutions already decided, written with the others. ``reparsed``: the re-parsed files
        that tell the resolver what they told before, whose calls keep their resolutions (index/reuse.py).
        ``carried``: what the write carried over; a resolution it wrote already is not written again."""
        known = known or []
        unwritten = carried.unwritten if carried is not None else list
        target = self.target
        store = target.store
        edges = await store.edges_matching(file_ids, edge_ids, names)
        if edges is None:  # more than one statement can name: resolve everything
            await store.write_resolutions(known)
            return await resolve(target, set(), set(), full=True)
        beside: list[tuple] = []
        if reparsed is not None:
            edges, standing, beside = reuse.kept(edges, reparsed.files, reparsed.identity, reparsed.new_id, names)
            known = known + standing
        first = [e for e in edges if e[2] in RESOLVED_FIRST]
        calls = await their_own_edges(store, [e for e in edges if e[2] not in RESOLVED_FIRST])
        resolver = Resolver(target.state.symbols, self._infos, target.languages, self._bindings, self._modules)
        updates = await anyio.to_thread.run_sync(resolver.resolve_first, first) if first else []
        self._modules = resolver.module_map()
        # A function here that returns something else now: the calls elsewhere that follow it too.
        changed = {qn.rpartition(".")[2] for qn, _ in returns_before ^ _returns(target.state.symbols, file_ids)}
        if changed:
            seen = {e[0] for e in calls}
            calls += [e for e in await store.calls_through_returns(changed) if e[0] not in seen]
        calls += await calls_through_rebound(target, (rebound or set()) | resolver.rebound, calls)
        calls += await calls_their_subtypes_decide(target, target.state.symbols.take_hierarchy_changes(), calls)
        if moved := target.state.symbols.take_external_base_changes():
            calls += await calls_external_bases_decide(target, moved, first, self._bindings, calls)
        if not first and not calls:
            await store.write_resolutions(unwritten(known), beside)
            return sum(1 for u in known if u[0] is not None)
        updates += await anyio.to_thread.run_sync(resolver.resolve_calls, calls)
        decided = {u[2] for u in updates}  # resolved again (its name's symbols changed): that wins
        updates.extend(u for u in known if u[2] not in decided)
        beside = [b for b in beside if b[0] not in decided]
        await store.write_resolutions(unwritten(updates), resolver.fan_out(calls) + beside)
        return sum(1 for u in updates if u[0] is not None)
