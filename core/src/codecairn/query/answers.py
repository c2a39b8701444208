"""Answers about symbols, shaped for an agent: compact, root-relative, bounded, honest.

Every bounded list says ``complete``; when cut, ``limit_reached`` and ``limit_reason`` too.
Ambiguity is an answer (``ambiguous: true`` with candidates), never a silent first pick.
"""

from __future__ import annotations

import asyncio
import heapq
import re
import threading
from typing import TYPE_CHECKING, Any

from codecairn.errors import BAD_ARGUMENT, NOT_FOUND, ToolError, quoted
from codecairn.model import CALLABLE_KINDS, CONTAINER_KINDS, TYPE_KINDS
from codecairn.paths import read_for_answer
from codecairn.query.overview import index_overview
from codecairn.query.symbol_index import GLOB_SLICE_CHARS, GRAM, Sym, build_grams, glob_regex, glob_scan

if TYPE_CHECKING:
    from codecairn.workspace import Workspace

_SPLIT = re.compile(r"::|\.|#|/")
LIST_LIMIT = 50
READ_MAX_LINES = 400
READ_MAX_BYTES = 64 * 1024
OUTLINE_LIMIT = 400  # symbols in one outline page
READ_MAX_FILE_BYTES = 64 * 1024 * 1024  # a symbol's file, read to cut the symbol's lines from


def kind_rank(kind: str) -> int:
    if kind in TYPE_KINDS:
        return 0
    if kind in CALLABLE_KINDS:
        return 1
    if kind in CONTAINER_KINDS:
        return 2
    return 3


def bounded(items: list, limit: int, reason: str = "limit") -> dict[str, Any]:
    if len(items) > limit:
        return {"complete": False, "limit_reached": True, "limit_reason": reason}
    return {"complete": True}


class Answers:
    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self._grams_lock = asyncio.Lock()

    # ---- helpers ------------------------------------------------------------------------------

    def path_of(self, sym: Sym) -> str:
        state = self.ws.files_by_id.get(sym.file_id)
        return state.path if state else ""

    def brief(self, sym: Sym, signature: str | None = None) -> dict[str, Any]:
        out = {
            "name": sym.name,
            "kind": sym.kind,
            "qualified_name": sym.qualified_name,
            "path": self.path_of(sym),
            "start_line": sym.start_line,
            "end_line": sym.end_line,
        }
        if signature:
            out["signature"] = signature
        state = self.ws.files_by_id.get(sym.file_id)
        if state is not None and state.extractor == "tags":
            out["extractor"] = "tags"  # a grammar pack's facts: shallower resolution, say so
        return out

    async def signatures(self, ids: list[int]) -> dict[int, str]:
        if not ids:
            return {}
        rows = await self.ws.store.fetch_now(
            f"SELECT id, signature FROM symbols WHERE id IN ({','.join('?' * len(ids))})", ids
        )
        return {r[0]: r[1] for r in rows}

    def _filters(self, kinds, path, language):
        kinds = set(kinds) if kinds else None
        prefix = None
        if path is not None:  # "" is refused like everywhere else; "." is the whole root
            prefix = self.ws.relpath(path)
        files = self.ws.files_by_id

        def keep(sym: Sym) -> bool:
            if kinds is not None and sym.kind not in kinds:
                return False
            if prefix is not None or language:
                state = files.get(sym.file_id)
                if state is None:
                    return False
                if prefix and not (state.path == prefix or state.path.startswith(prefix.rstrip("/") + "/")):
                    return False
                if language and state.language != language:
                    return False
            return True

        return keep

    # ---- find_symbols ---------------------------------------------------------------------------

    async def find_symbols(
        self,
        name: str | None = None,
        pattern: str | None = None,
        kinds: list[str] | None = None,
        path: str | None = None,
        language: str | None = None,
        limit: int = 20,
        query: str | None = None,
    ) -> dict[str, Any]:
        keep = self._filters(kinds, path, language)  # a bad filter is refused first, whatever else is given
        if not (name or pattern or kinds or path or language or query):
            raise ToolError(BAD_ARGUMENT, "give at least one of name, pattern, query, kinds, path, language")
        if language and language not in self.ws.host.languages:
            raise ToolError(
                BAD_ARGUMENT, f"unknown language {quoted(language)}", languages=sorted(self.ws.host.languages)
            )
        filtered = bool(kinds or path or language)
        index = self.ws.index
        rows = index.rows
        # Match ranks (exact, prefix, substring) in order; within one, index.order_keys decides.
        # A tier after the first `wanted` results is only counted, never ordered.
        tiers: list[tuple[int, list[str] | None]] = []
        if name or pattern:
            if pattern:
                tiers = await self._glob(pattern)
            else:  # prefixes and substrings are looked up below, only as far as they matter
                tiers = [(0, index.exact_matches(name or "")), (1, None), (2, None)]
        elif not query:
            tiers = [(0, None)]  # every symbol
        wanted = max(limit, 200) if query else limit
        ranked: list[int] = []  # the first `wanted` + 1 symbol ids, in answer order
        total = 0
        at_least = False  # total leaves out the names that merely contain `name` (see below)
        order = index.order_keys(kind_rank)
        for rank, lowers in sorted(tiers, key=lambda t: t[0]):
            room = wanted + 1 - len(ranked)
            if rank == 1 and lowers is None and name:
                if room <= 0 and not filtered:
                    total += index.prefix_count(name)
                    continue
                lowers = index.prefix_matches(name)
            if rank == 2 and lowers is None and name:
                if room <= 0:
                    # Matches enough already, and counting the names that merely contain the
                    # needle would cost more than the whole answer (for "tes", tens of
                    # thousands): say "at least".
                    at_least = True
                    continue
                if len(name) >= GRAM and not index.grams_ready():
                    await self._build_grams()
                lowers = index.substring_matches(name)
            if room <= 0 and not filtered and lowers is not None:
                total += index.count_of(lowers)
                continue
            ids = list(rows) if lowers is None else index.ids_of(lowers)
            if filtered:
                ids = [sid for sid in ids if keep(rows[sid])]
            total += len(ids)
            if room > 0:
                ranked.extend(
                    heapq.nsmallest(room, ids, key=order.__getitem__)
                    if len(ids) > 4 * room
                    else sorted(ids, key=order.__getitem__)[:room]
                )
        if query:
            return await self._hybrid(
                query,
                ranked[:200],
                bool(name or pattern),
                {s.id for s in rows.values() if keep(s)} if filtered else None,
                limit,
            )
        top = ranked[:limit]
        sigs = await self.signatures(top)
        # (an index run may have removed some while this call waited)
        results = [self.brief(rows[sid], sigs.get(sid)) for sid in top if sid in rows]
        self._count(bool(results))
        answer: dict[str, Any] = {"results": results, **bounded(range(total), limit)}
        if not answer["complete"]:
            answer["total_at_least" if at_least else "total"] = total
        return answer

    async def _glob(self, pattern: str) -> list[tuple[int, list[str]]]:
        """Glob matches as tiers; a large index is scanned in a thread, a slice at a time, so the
        event loop keeps answering and a timed-out call stops scanning (see glob_scan)."""
        index = self.ws.index
        regex = glob_regex(pattern.lower())
        names = index.glob_snapshot()
        if len(names) <= GLOB_SLICE_CHARS:
            return index.glob_tiers(pattern, glob_scan(regex, names))
        stop = threading.Event()
        try:
            found = await asyncio.to_thread(glob_scan, regex, names, stop=stop)
        finally:
            stop.set()  # cancelled or timed out: the thread gives up at its next slice
        return index.glob_tiers(pattern, found)

    async def _build_grams(self) -> None:
        """The substring index is built on the first substring search; on a large index that is
        a second or more of work, done in a thread so that other calls are answered meanwhile."""
        async with self._grams_lock:
            index = self.ws.index
            if index.grams_ready():
                return
            names = index.gram_names()
            stop = threading.Event()
            try:
                grams = await asyncio.to_thread(build_grams, names, stop)
            finally:
                stop.set()
            index.install_grams(grams, names)

    async def _hybrid(
        self, query: str, lexical: list[int], by_name: bool, candidates: set[int] | None, limit: int
    ) -> dict[str, Any]:
        """Natural-language search, fused (reciprocal rank) with the name ranking when both are asked."""
        from codecairn.semantic.fusion import reciprocal_rank_fusion

        if not isinstance(query, str) or not query.strip():
            raise ToolError(BAD_ARGUMENT, "query must be a non-empty string")
        semantic = await self.ws.semantic.search(query, max(limit * 3, 30), candidates)
        rows = self.ws.index.rows
        fused = reciprocal_rank_fusion(lexical if by_name else [], [p for p in semantic if p[0] in rows])
        top = [f for f in fused if f.id in rows][:limit]
        sigs = await self.signatures([f.id for f in top])
        results = []
        for f in top:
            entry = self.brief(rows[f.id], sigs.get(f.id))
            entry["matched"] = list(f.matched)
            if f.semantic_score is not None:
                entry["semantic_score"] = round(f.semantic_score, 3)
            results.append(entry)
        self._count(bool(results))
        answer: dict[str, Any] = {"results": results, **bounded(fused, limit, "limit")}
        pending = self.ws.embeddings.pending_count()
        if pending:
            answer["embeddings_pending"] = pending
        return answer

    def _count(self, hit: bool) -> None:
        if hit:
            self.ws.hits += 1
        else:
            self.ws.misses += 1

    # ---- lookup by qualified name ---------------------------------------------------------------

    def lookup(self, name: str, path: str | None = None, line: int | None = None) -> list[Sym]:
        if not isinstance(name, str) or not name.strip():
            raise ToolError(BAD_ARGUMENT, "name must be a non-empty string")
        index = self.ws.index
        rows = index.rows
        ids = list(index.by_qn.get(name, ()))
        if not ids:
            parts = [p for p in _SPLIT.split(name.strip()) if p]
            if not parts:
                raise ToolError(BAD_ARGUMENT, f"cannot read a symbol name from {quoted(name)}")
            for sid in index.by_name.get(parts[-1], ()):
                qparts = [p for p in _SPLIT.split(rows[sid].qualified_name) if p]
                if qparts[-len(parts) :] == parts:
                    ids.append(sid)
        candidates = [rows[i] for i in ids]
        if path is not None:
            rel = self.ws.relpath(path)
            candidates = [s for s in candidates if self.path_of(s) == rel]
        if line is not None:
            spanning = [s for s in candidates if s.start_line <= line <= s.end_line]
            exact = [s for s in spanning if s.start_line == line]
            candidates = exact or sorted(spanning, key=lambda s: s.end_line - s.start_line)[:1] or []
        return sorted(candidates, key=lambda s: (kind_rank(s.kind), self.path_of(s), s.start_line))

    async def resolve_one(self, name: str, path: str | None, line: int | None) -> Sym | dict[str, Any]:
        candidates = self.lookup(name, path, line)
        if not candidates:
            self._count(False)
            near = await self.find_symbols(name=_SPLIT.split(name)[-1] or name, limit=5)
            raise ToolError(
                NOT_FOUND,
                f"no symbol named {quoted(name)}",
                **({"did_you_mean": [r["qualified_name"] for r in near["results"]]} if near["results"] else {}),
            )
        if len(candidates) > 1:
            self._count(True)
            shown = candidates[:LIST_LIMIT]
            sigs = await self.signatures([s.id for s in shown])
            return {
                "ambiguous": True,
                "candidates": [self.brief(s, sigs.get(s.id)) for s in shown],
                **bounded(candidates, LIST_LIMIT),
                "hint": "pass path and/or line (or a more qualified name) to choose one",
            }
        self._count(True)
        return candidates[0]

    # ---- get_symbol -------------------------------------------------------------------------------

    async def get_symbol(
        self, name: str, path: str | None = None, line: int | None = None, limit: int = LIST_LIMIT
    ) -> dict[str, Any]:
        found = await self.resolve_one(name, path, line)
        if isinstance(found, dict):
            return found
        sym = found
        ws, rows = self.ws, self.ws.index.rows
        row = await ws.store.fetch("SELECT signature, doc, modifiers FROM symbols WHERE id=?", (sym.id,))
        signature, doc, modifiers = row[0] if row else ("", "", "")
        answer = self.brief(sym, signature)
        state = ws.files_by_id.get(sym.file_id)
        if state is not None:
            answer["language"] = state.language
            if state.partial:
                answer["partial"] = True
            if state.extractor and state.extractor != state.language:
                answer["extractor"] = state.extractor
        if doc:
            answer["doc"] = doc
        if modifiers:
            answer["modifiers"] = modifiers.split()
        if sym.parent_id is not None and sym.parent_id in rows:
            answer["parent"] = rows[sym.parent_id].qualified_name
        members = [rows[c] for c in ws.index.children.get(sym.id, ())]
        if members:
            members.sort(key=lambda s: s.start_line)
            answer["members"] = [{"name": m.name, "kind": m.kind, "line": m.start_line} for m in members[:limit]]
            if len(members) > limit:
                answer["members_complete"] = False
        edges = await ws.store.fetch(
            "SELECT kind, target, target_id, resolution, line, receiver FROM edges WHERE source_id=? ORDER BY line",
            (sym.id,),
        )
        bases = [self._edge_target(e) for e in edges if e[0] in ("extends", "implements")]
        if bases:
            answer["bases"] = bases
        if sym.kind in TYPE_KINDS or sym.kind == "impl":
            subs = await ws.store.fetch(
                "SELECT source_id, kind, line FROM edges WHERE target_id=? AND kind IN ('extends','implements') "
                "LIMIT ?",
                (sym.id, limit + 1),
            )
            if subs:
                answer["subclasses"] = [
                    {**self._short(rows[s[0]]), **({"kind": s[1]} if s[1] != "extends" else {})}
                    for s in subs[:limit]
                    if s[0] in rows
                ]
                if len(subs) > limit:
                    answer["subclasses_complete"] = False
        callees = [e for e in edges if e[0] == "calls"]
        if callees:
            resolved = [self._edge_target(e) for e in callees if e[2] is not None]
            unresolved = [e for e in callees if e[2] is None]
            answer["callees"] = resolved[:limit]
            if len(resolved) > limit:
                answer["callees_complete"] = False
            if unresolved:
                answer["unresolved_callees"] = len(unresolved)
                answer["unresolved_callee_names"] = sorted({e[1] for e in unresolved})[:limit]
        callers = await ws.store.fetch(
            "SELECT source_id, file_id, line, resolution FROM edges WHERE target_id=? AND kind='calls' "
            "ORDER BY file_id, line LIMIT ?",
            (sym.id, limit + 1),
        )
        if callers:
            out = []
            for source_id, file_id, line_no, how in callers[:limit]:
                entry: dict[str, Any] = {}
                if source_id is not None and source_id in rows:
                    entry["caller"] = rows[source_id].qualified_name
                entry["path"] = ws.files_by_id[file_id].path if file_id in ws.files_by_id else ""
                entry["line"] = line_no
                if how != "exact":
                    entry["resolution"] = how
                out.append(entry)
            answer["callers"] = out
            if len(callers) > limit:
                answer["callers_complete"] = False
        # Calls by this name that resolution could not pin down: possible callers, never hidden.
        if sym.kind in CALLABLE_KINDS or sym.kind in TYPE_KINDS:
            count = await ws.store.fetch(
                "SELECT COUNT(*) FROM edges WHERE target=? AND target_id IS NULL AND kind='calls'", (sym.name,)
            )
            if count and count[0][0]:
                answer["unresolved_call_sites"] = count[0][0]
        return answer

    def _embedding_stats(self) -> dict[str, Any]:
        job = self.ws.embeddings
        if job.model_id is None and not job.hash_of:
            from codecairn.semantic.minilm import unavailable_reason

            reason = unavailable_reason()
            if reason:
                return {"semantic": reason}
        return {
            "embeddings": len(job.hash_of),
            "embeddings_pending": job.pending_count(),
            **({"embedding_model": job.model_id} if job.model_id else {}),
        }

    def _short(self, sym: Sym) -> dict[str, Any]:
        return {"qualified_name": sym.qualified_name, "path": self.path_of(sym), "line": sym.start_line}

    def _edge_target(self, edge: tuple) -> dict[str, Any]:
        kind, target, target_id, how, line, receiver = edge
        rows = self.ws.index.rows
        out: dict[str, Any] = {}
        if kind not in ("calls", "extends"):
            out["kind"] = kind
        if target_id is not None and target_id in rows:
            out.update(self._short(rows[target_id]))
            if how != "exact":
                out["resolution"] = how
        else:
            out["name"] = target
            out["resolved"] = False
        if kind == "calls":
            out["call_line"] = line
            out.pop("line", None)
        return out

    # ---- read_symbol ------------------------------------------------------------------------------

    async def read_symbol(
        self, name: str, path: str | None = None, line: int | None = None, max_lines: int = READ_MAX_LINES
    ) -> dict[str, Any]:
        found = await self.resolve_one(name, path, line)
        if isinstance(found, dict):
            return found
        sym = found
        rel = self.path_of(sym)
        answer = self.brief(sym)
        # Opened confined: the name was indexed, but the file may have been swapped for a link out
        # of the root since; that is refused here, on the descriptor actually read.
        data = await asyncio.to_thread(read_for_answer, self.ws.root_real, rel, READ_MAX_FILE_BYTES)
        if self.ws.changed_since_indexed(rel):
            answer["stale"] = True
            answer["hint"] = (
                "the file changed since it was indexed; lines may have moved (re-index or wait for the watcher)"
            )
        lines = data.decode("utf-8", "replace").splitlines()
        start = max(sym.start_line, 1)
        end = min(sym.end_line, len(lines), start + max(1, max_lines) - 1)
        out, size = [], 0
        for i in range(start - 1, end):
            size += len(lines[i]) + 1
            if size > READ_MAX_BYTES:
                end = i
                break
            out.append(lines[i])
        answer["source"] = "\n".join(out)
        if end < min(sym.end_line, len(lines)):
            answer["truncated"] = True
            answer["next_line"] = end + 1
        return answer

    # ---- file_outline -------------------------------------------------------------------------------

    async def file_outline(
        self,
        path: str,
        kinds: list[str] | None = None,
        start_line: int | None = None,
        end_line: int | None = None,
        limit: int = OUTLINE_LIMIT,
    ) -> dict[str, Any]:
        """A file's symbol tree with its imports and exports, narrowed by kinds and a line range,
        one page of at most ``limit`` entries at a time (``next_start_line`` continues)."""
        ws = self.ws
        rel = ws.relpath(path)
        if start_line is not None and end_line is not None and end_line < start_line:
            raise ToolError(BAD_ARGUMENT, f"end_line {end_line} is before start_line {start_line}")
        state = ws.files_by_path.get(rel)
        if state is None:
            full = ws.root / rel
            if not full.exists():
                raise ToolError(NOT_FOUND, f"{rel} does not exist", path=rel)
            if full.is_dir():
                raise ToolError(BAD_ARGUMENT, f"{rel} is a directory; give a file", path=rel)
            raise ToolError(
                NOT_FOUND, f"{rel} is not indexed (unknown language, ignored, binary or too large)", path=rel
            )
        rows = ws.index.rows
        first, last = start_line or 1, end_line or max(state.lines, 1)
        wanted = set(kinds) if kinds else None
        ids = sorted(
            (
                i
                for i in ws.index.by_file.get(state.id, ())
                if first <= rows[i].start_line <= last and (wanted is None or rows[i].kind in wanted)
            ),
            key=lambda i: (rows[i].start_line, rows[i].id),
        )
        imports = exports = []
        if wanted is None:  # a kinds filter asks for symbols only
            imports = await ws.store.fetch(
                "SELECT module, name, alias, line, kind FROM imports WHERE file_id=? AND line BETWEEN ? AND ? "
                "ORDER BY line",
                (state.id, first, last),
            )
            exports = await ws.store.fetch(
                "SELECT name, line, kind, source, alias FROM exports WHERE file_id=? AND line BETWEEN ? AND ? "
                "ORDER BY line",
                (state.id, first, last),
            )
        # One page: the first `limit` entries by line, ending between two lines so that the next
        # page starts at a line. A single line with more entries than a page (minified code) is
        # cut at the limit and said so (`cut_line`): narrow it with kinds.
        entries = sorted(
            [(rows[i].start_line, 0, n, i) for n, i in enumerate(ids)]
            + [(r[3], 1, n, r) for n, r in enumerate(imports)]
            + [(r[1], 2, n, r) for n, r in enumerate(exports)],
            key=lambda e: e[:3],
        )
        next_line = cut_line = None
        if len(entries) > limit:
            cut = limit
            while cut > 0 and entries[cut][0] == entries[cut - 1][0]:
                cut -= 1
            if cut == 0:
                cut, cut_line = limit, entries[0][0]
            next_line = entries[cut][0] + (1 if cut_line else 0)
            page = entries[:cut]
            ids = [e[3] for e in page if e[1] == 0]
            imports = [e[3] for e in page if e[1] == 1]
            exports = [e[3] for e in page if e[1] == 2]
        sigs = await self.signatures([i for i in ids if rows[i].kind in CALLABLE_KINDS])
        nodes: dict[int, dict[str, Any]] = {}
        roots: list[dict[str, Any]] = []
        for sid in ids:
            s = rows[sid]
            node: dict[str, Any] = {"name": s.name, "kind": s.kind, "lines": f"{s.start_line}-{s.end_line}"}
            if sid in sigs and sigs[sid]:
                node["signature"] = sigs[sid]
            nodes[sid] = node
            parent = nodes.get(s.parent_id) if s.parent_id is not None else None
            if parent is not None:
                parent.setdefault("children", []).append(node)
            else:
                roots.append(node)
        answer: dict[str, Any] = {"path": rel, "language": state.language, "lines": state.lines, "symbols": roots}
        if next_line is None:
            answer["complete"] = True
        else:
            answer.update(complete=False, limit_reached=True, limit_reason="limit", next_start_line=next_line)
            if cut_line is not None:
                answer["cut_line"] = cut_line
        if state.partial:
            answer["partial"] = True
        if state.extractor and state.extractor != state.language:
            answer["extractor"] = state.extractor
        if imports:
            answer["imports"] = [
                {k: v for k, v in zip(("module", "name", "alias", "line", "kind"), r) if v not in ("", None)}
                for r in imports
            ]
        if exports:
            answer["exports"] = [
                {k: v for k, v in zip(("name", "line", "kind", "source", "alias"), r) if v not in ("", None, 0)}
                for r in exports
            ]
        if ws.changed_since_indexed(rel):
            answer["stale"] = True
        return answer

    # ---- stats ----------------------------------------------------------------------------------------

    async def stats(self) -> dict[str, Any]:
        ws = self.ws
        await ws.ensure_symbols()
        overview = await index_overview(ws)
        partial = [f.path for f in ws.files_by_id.values() if f.partial]
        last = await ws.store.get_meta("last_indexed_at")
        answer: dict[str, Any] = {
            "root": str(ws.root),
            "files": len(ws.files_by_id),
            "symbols": len(ws.index),
            "edges": overview["edges"],
            "unresolved_calls": overview["unresolved_calls"],
            "call_resolution": overview["call_resolution"],
            "languages": ws.language_counts(),
            "generation": ws.generation,
            "database": str(ws.store.path),
            "database_size_bytes": await ws.store.size_bytes(),
            "cache": {"hits": ws.hits, "misses": ws.misses},
            **self._embedding_stats(),
            "memories": await ws.memory.count(),
        }
        if last:
            answer["last_indexed_at"] = _iso(float(last))
        if partial:
            answer["partial_files"] = len(partial)
            answer["partial_examples"] = sorted(partial)[:10]
        if ws.last_summary is not None and ws.last_summary.skipped:
            answer["skipped"] = ws.last_summary.skipped
        if ws.host.failures:
            answer["plugin_failures"] = [f.__dict__ for f in ws.host.failures]
        return answer


def _iso(ts: float) -> str:
    import datetime as dt

    return dt.datetime.fromtimestamp(ts, dt.UTC).isoformat(timespec="seconds")
