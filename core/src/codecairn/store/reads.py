"""The store's queries of the structural index: what the indexer reads back to resolve names, and
what answers read beyond the in-memory symbol index (details, edges, imports, exports).

Model types out. The resolver's reads go through the writer connection (they must see the run's
own uncommitted batches); answers read through the reader connection, which never waits for the
indexer's transaction, or — for a few rows by primary key — on the event loop's own thread.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Collection, Iterable
from typing import Any

from codecairn.model import (
    FLOW,
    HTTP_CALLS,
    INHERITANCE_KINDS,
    PARAMETER,
    PASSES,
    RESOLVED_FIRST,
    RETURNS,
    Edge,
    Export,
    Import,
    StoredSymbol,
    SymbolDetail,
    is_route_name,
)

EDGE_COLUMNS = "id, file_id, kind, source_id, target, receiver, receiver_type, line, target_id, resolution"
# The columns the resolver reads of an edge (its answers are the last two columns).
TO_RESOLVE = "id, file_id, kind, source_id, target, receiver, receiver_type"
_INHERITANCE_SQL = ",".join(f"'{k}'" for k in INHERITANCE_KINDS)
_FIRST_SQL = ",".join(f"'{k}'" for k in RESOLVED_FIRST)
# What an answer may show when it asks for every kind: not the values calls pass (model.PASSES),
# which the resolver keeps for itself (a call edge already says the call is there).
SHOWN = f"kind != '{PASSES}'"
MAX_PARAMS = 30000  # SQLite's bound-parameter limit is 32766


_STORED_SYMBOL = "id, file_id, parent_id, kind, name, qualified_name, start_line, end_line, signature, doc"


def _marks(values: Collection[Any]) -> str:
    return ",".join("?" * len(values))


async def through_unresolved_index(
    fetch: Callable[[str, Any], Awaitable[list[tuple]]], sql: str, params: Any
) -> list[tuple]:
    """``sql`` (``{edges}`` standing for the table) through the partial index of unresolved edges;
    without it while a first index has its edge indexes dropped for the bulk load."""
    try:
        return await fetch(sql.format(edges="edges INDEXED BY edges_unresolved"), params)
    except sqlite3.OperationalError as exc:
        if "no such index" not in str(exc):
            raise
        return await fetch(sql.format(edges="edges"), params)


class IndexReads:
    """Mixed into Store, which holds the connections and these three primitives."""

    async def fetch(self, sql: str, params: Iterable[Any] = ()) -> list[tuple]:
        raise NotImplementedError  # the reader connection

    async def fetch_now(self, sql: str, params: Iterable[Any] = ()) -> list[tuple]:
        raise NotImplementedError  # a few rows by primary key, on the event loop's thread

    async def fetch_writer(self, sql: str, params: Iterable[Any] = ()) -> list[tuple]:
        raise NotImplementedError  # the writer connection: sees the indexer's uncommitted batches

    # ---- for the resolver (writer connection) -------------------------------------------------

    async def import_bindings(self) -> list[tuple[int, str, str, str]]:
        """(file_id, name, alias, target) of every import."""
        return await self.fetch_writer("SELECT file_id, name, alias, target FROM imports")

    async def binding_exports(self) -> list[tuple[int, str, str]]:
        """(file_id, name, kind) of every export the resolver binds by: JavaScript's `export
        default`, Python's ``__all__``."""
        return await self.fetch_writer("SELECT file_id, name, kind FROM exports WHERE kind IN ('default', 'all')")

    async def resolved_supertypes(self) -> list[tuple[int | None, int, str]]:
        """(source_id, target_id, receiver_type) of every resolved extends/implements edge."""
        return await self.fetch_writer(
            f"SELECT source_id, target_id, receiver_type FROM edges WHERE kind IN ({_INHERITANCE_SQL}) "
            "AND target_id IS NOT NULL"
        )

    async def resolved_returns(self) -> list[tuple[int, int, str]]:
        """(function id, target id, receiver_type) of every resolved returns edge."""
        return await self.fetch_writer(
            f"SELECT source_id, target_id, receiver_type FROM edges WHERE kind = '{RETURNS}' "
            "AND target_id IS NOT NULL AND source_id IS NOT NULL"
        )

    async def resolved_passes(self) -> list[tuple[int, int, int, str, str]]:
        """(edge id, file id, function id, parameter key, resolution) of every resolved passes edge."""
        return await self.fetch_writer(
            f"SELECT id, file_id, target_id, receiver_type, resolution FROM edges WHERE kind = '{PASSES}' "
            "AND target_id IS NOT NULL"
        )

    async def edges_by_id(self, edge_ids: Collection[int]) -> list[tuple]:
        """Edges in TO_RESOLVE columns, by id."""
        ids = sorted(set(edge_ids))
        out: list[tuple] = []
        for start in range(0, len(ids), MAX_PARAMS):
            chunk = ids[start : start + MAX_PARAMS]
            out += await self.fetch_writer(f"SELECT {TO_RESOLVE} FROM edges WHERE id IN ({_marks(chunk)})", chunk)
        return out

    async def calls_through_parameters(
        self, function_ids: Collection[int], function_names: Collection[str] = ()
    ) -> list[tuple]:
        """Edges in TO_RESOLVE columns of the calls through a parameter (model.PARAMETER) in these
        functions, and of the calls through an attribute these functions (by qualified name) set
        from a parameter (`@0:target:threading.Thread.__init__`): what other modules pass them changed."""
        ids = sorted(set(function_ids))
        out: list[tuple] = []
        for start in range(0, len(ids), MAX_PARAMS):
            chunk = ids[start : start + MAX_PARAMS]
            out += await self.fetch_writer(
                f"SELECT {TO_RESOLVE} FROM edges WHERE source_id IN ({_marks(chunk)}) "
                f"AND substr(receiver_type, 1, 1) = '{PARAMETER}'",
                chunk,
            )
        # A name ends the mark: compared as the receiver_type's tail (one scan of the calls
        # through a parameter for a whole chunk of names).
        patterns = sorted({f"{PARAMETER}*:{name}" for name in function_names if not set(name) & set("*?[")})
        for start in range(0, len(patterns), MAX_PARAMS):
            globs = patterns[start : start + MAX_PARAMS]
            out += await self.fetch_writer(
                f"SELECT {TO_RESOLVE} FROM edges WHERE substr(receiver_type, 1, 1) = '{PARAMETER}' "
                f"AND ({' OR '.join('receiver_type GLOB ?' for _ in globs)})",
                globs,
            )
        return out

    async def calls_on_self(self, function_ids: Collection[int], receivers: Collection[str]) -> list[tuple]:
        """Edges in TO_RESOLVE columns of the calls on ``receivers`` (self, super()) in these
        functions that their class's subclasses decide: unresolved (subclasses disagree, a
        `super()` call) or resolved through them (`flow`)."""
        ids, names = sorted(set(function_ids)), sorted(set(receivers))
        out: list[tuple] = []
        step = MAX_PARAMS - len(names)
        for start in range(0, len(ids), step):
            chunk = ids[start : start + step]
            out += await self.fetch_writer(
                f"SELECT {TO_RESOLVE} FROM edges WHERE source_id IN ({_marks(chunk)}) AND kind = 'calls' "
                f"AND receiver IN ({_marks(names)}) AND (target_id IS NULL OR resolution = '{FLOW}')",
                [*chunk, *names],
            )
        return out

    async def calls_without_target(self, receivers: Collection[str]) -> list[tuple]:
        """Edges in TO_RESOLVE columns of the calls on ``receivers`` (self) or on a typed receiver
        that reach no symbol of the index (unresolved, or external): what a supertype outside the
        index may answer (resolver._from_external_base)."""
        names = sorted(set(receivers)) or [""]
        return await self.fetch_writer(
            f"SELECT {TO_RESOLVE} FROM edges WHERE kind = 'calls' AND target_id IS NULL "
            f"AND (receiver IN ({_marks(names)}) OR receiver_type != '')",
            names,
        )

    async def calls_without_target_naming(
        self, names: Collection[str], called: Collection[str] | None = None
    ) -> list[tuple]:
        """Edges in TO_RESOLVE columns of the calls that reach no symbol of the index (unresolved,
        or external) whose receiver or receiver type contains one of ``names`` (`Table().items()`,
        `t.items()` with t typed Table): what a change of Table's supertype outside the index may
        decide. Containing: the caller drops a longer name that holds one. ``called``: only calls
        of these names (read through an index instead of every call without a target)."""
        names = sorted(set(names))
        if not names:
            return []
        out: list[tuple] = []
        if called is not None:
            targets = sorted(set(called))
            for start in range(0, len(targets), MAX_PARAMS):
                chunk = targets[start : start + MAX_PARAMS]
                # (the planner would read every call without a target through edges_in: 80 ms on CPython)
                sql = f"SELECT {TO_RESOLVE} FROM {{edges}} WHERE target IN ({_marks(chunk)}) AND kind = 'calls' AND target_id IS NULL"
                out += await through_unresolved_index(self.fetch_writer, sql, chunk)
            return [e for e in out if any(n in e[5] or n in e[6] for n in names)]
        step = MAX_PARAMS // 2
        for start in range(0, len(names), step):
            chunk = names[start : start + step]
            conds = " OR ".join("instr(receiver_type, ?) OR instr(receiver, ?)" for _ in chunk)
            out += await self.fetch_writer(
                f"SELECT {TO_RESOLVE} FROM edges WHERE target_id IS NULL AND kind = 'calls' AND ({conds})",
                [n for n in chunk for _ in (0, 1)],
            )
        return out

    async def calls_through_returns(self, names: Collection[str]) -> list[tuple]:
        """Edges in TO_RESOLVE columns of the calls that follow what a function of one of these
        names returns (receiver_type ``~make()``, ``~shop.make()``, a link of a chain: ``~A.make().g()``)
        or a variable of these names holds (receiver ``repo``, ``db.repo``; called itself: ``handler()``,
        ``self.handler()`` where a base class's ``handler = first``): when that changes."""
        if not names or 5 * len(names) > MAX_PARAMS:
            return []
        conds = " OR ".join(
            "receiver_type LIKE ? OR receiver_type LIKE ? OR receiver = ? OR receiver LIKE ? OR target = ?"
            for _ in names
        )
        return await self.fetch_writer(
            f"SELECT {TO_RESOLVE} FROM edges WHERE kind NOT IN ({_FIRST_SQL}) AND ({conds})",
            [p for n in names for p in (f"~%{n}()", f"~%{n}().%", n, f"%.{n}", n)],
        )

    async def unresolved_supertypes(self, harmless: Collection[str]) -> list[tuple[int, int | None, str, str | None]]:
        """(edge id, source_id, receiver_type, resolution) of every extends/implements edge left
        unresolved in the index (its resolution names the class outside, when known), but for those
        naming one of ``harmless``."""
        harmless = tuple(harmless) or ("",)
        return await self.fetch_writer(
            "SELECT id, source_id, receiver_type, resolution FROM edges "
            f"WHERE kind IN ({_INHERITANCE_SQL}) AND target_id IS NULL "
            f"AND target NOT IN ({_marks(harmless)})",
            harmless,
        )

    async def edges_to_resolve(
        self, file_ids: Collection[int], names: Collection[str], everything: bool
    ) -> tuple[list[tuple], list[tuple]]:
        """(inheritance, other) edges in TO_RESOLVE columns: every edge, or those of ``file_ids``
        and those whose target is one of ``names``."""
        if everything or len(file_ids) + len(names) > MAX_PARAMS:
            where, params = "1", ()
        else:
            conds: list[str] = []
            values: list[Any] = []
            if file_ids:
                conds.append(f"file_id IN ({_marks(file_ids)})")
                values.extend(file_ids)
            if names:
                conds.append(f"target IN ({_marks(names)})")
                values.extend(names)
                if any(is_route_name(n) for n in names):  # routes came or went: every HTTP call may move
                    conds.append(f"kind = '{HTTP_CALLS}'")
            where, params = (" OR ".join(conds) or "0"), tuple(values)
        first = await self.fetch_writer(
            f"SELECT {TO_RESOLVE} FROM edges WHERE kind IN ({_FIRST_SQL}) AND ({where})", params
        )
        others = await self.fetch_writer(
            f"SELECT {TO_RESOLVE} FROM edges WHERE kind NOT IN ({_FIRST_SQL}) AND ({where})", params
        )
        return first, others

    async def resolved_edges_of(self, file_ids: Collection[int]) -> list[tuple]:
        """TO_RESOLVE columns, target_id and resolution of every edge of these files, the rows
        beside calls (model.ALSO) included: what a re-parse of them is compared with (index/reuse.py)."""
        ids = sorted(set(file_ids))
        out: list[tuple] = []
        for start in range(0, len(ids), MAX_PARAMS):
            chunk = ids[start : start + MAX_PARAMS]
            out += await self.fetch_writer(
                f"SELECT {TO_RESOLVE}, target_id, resolution FROM edges WHERE file_id IN ({_marks(chunk)})", chunk
            )
        return out

    async def edges_matching(
        self, file_ids: Collection[int], edge_ids: Collection[int], names: Collection[str]
    ) -> list[tuple] | None:
        """Edges in TO_RESOLVE columns of ``file_ids``, with ids ``edge_ids`` or targets ``names``;
        None when there are more than one statement can name (resolve everything instead)."""
        if len(file_ids) + len(edge_ids) + len(names) > MAX_PARAMS:
            return None
        conds: list[str] = []
        params: list[Any] = []
        for column, values in (("file_id", file_ids), ("id", edge_ids), ("target", names)):
            if values:
                conds.append(f"{column} IN ({_marks(values)})")
                params.extend(values)
        if any(is_route_name(n) for n in names):  # routes came or went: every HTTP call may move
            conds.append(f"kind = '{HTTP_CALLS}'")
        if not conds:
            return []
        return await self.fetch_writer(f"SELECT {TO_RESOLVE} FROM edges WHERE {' OR '.join(conds)}", params)

    async def edges_into(self, file_ids: Collection[int]) -> list[tuple[int, int, str, str, int | None]]:
        """(edge id, target_id, resolution, kind, source_id) of edges in *other* files that point
        into symbols of ``file_ids``: they lose their target when those files are rewritten."""
        if not file_ids:
            return []
        marks = _marks(file_ids)
        return await self.fetch_writer(
            f"SELECT e.id, e.target_id, e.resolution, e.kind, e.source_id FROM edges e "
            f"JOIN symbols s ON e.target_id = s.id WHERE s.file_id IN ({marks}) AND e.file_id NOT IN ({marks})",
            [*file_ids, *file_ids],
        )

    # ---- for answers (reader connection) -------------------------------------------------------

    async def signatures(self, ids: Collection[int]) -> dict[int, str]:
        if not ids:
            return {}
        rows = await self.fetch_now(f"SELECT id, signature FROM symbols WHERE id IN ({_marks(ids)})", list(ids))
        return {r[0]: r[1] for r in rows}

    async def symbol_details(self, ids: Collection[int]) -> dict[int, SymbolDetail]:
        if not ids:
            return {}
        rows = await self.fetch_now(
            f"SELECT id, signature, doc, modifiers, start_col, end_col FROM symbols WHERE id IN ({_marks(ids)})",
            list(ids),
        )
        return {r[0]: SymbolDetail(r[1], r[2], tuple(r[3].split()), r[4], r[5]) for r in rows}

    async def edges_from(self, symbol_id: int, kinds: Iterable[str] = ()) -> list[Edge]:
        """The edges that occur in a symbol (its calls, its bases), in line order."""
        kinds = tuple(kinds)
        rows = await self.fetch(
            f"SELECT {EDGE_COLUMNS} FROM edges WHERE source_id=?"
            + (f" AND kind IN ({_marks(kinds)})" if kinds else f" AND {SHOWN}")
            + " ORDER BY line, id",
            (symbol_id, *kinds),
        )
        return [Edge(*r) for r in rows]

    async def edges_to(self, symbol_id: int, kinds: Iterable[str] = (), limit: int | None = None) -> list[Edge]:
        """The resolved edges that point at a symbol (its callers, its subtypes), by file and line."""
        kinds = tuple(kinds)
        rows = await self.fetch(
            f"SELECT {EDGE_COLUMNS} FROM edges WHERE target_id=?"
            + (f" AND kind IN ({_marks(kinds)})" if kinds else f" AND {SHOWN}")
            + " ORDER BY file_id, line, id"
            + (" LIMIT ?" if limit is not None else ""),
            (symbol_id, *kinds, *((limit,) if limit is not None else ())),
        )
        return [Edge(*r) for r in rows]

    async def unresolved_named(self, name: str, kind: str = "calls", limit: int | None = None) -> list[Edge]:
        """Edges of ``kind`` whose target is written ``name`` and that resolution left unresolved."""
        rows = await self.fetch(
            f"SELECT {EDGE_COLUMNS} FROM edges WHERE target=? AND target_id IS NULL AND resolution IS NULL AND kind=? ORDER BY file_id, line"
            + (" LIMIT ?" if limit is not None else ""),
            (name, kind, *((limit,) if limit is not None else ())),
        )
        return [Edge(*r) for r in rows]

    async def count_unresolved_named(self, name: str, kind: str = "calls") -> int:
        rows = await self.fetch(
            "SELECT COUNT(*) FROM edges WHERE target=? AND target_id IS NULL AND resolution IS NULL AND kind=?",
            (name, kind),
        )
        return rows[0][0] if rows else 0

    async def imports_of(self, file_id: int, first: int = 1, last: int = 1 << 31) -> list[Import]:
        rows = await self.fetch(
            "SELECT module, name, alias, line, kind, target FROM imports WHERE file_id=? AND line BETWEEN ? AND ? "
            "ORDER BY line",
            (file_id, first, last),
        )
        return [Import(*r) for r in rows]

    async def imports_naming(self, modules: list[str], limit: int = 1000) -> list[tuple[int, int, str]]:
        """(file_id, line, target) of the imports whose target is one of ``modules`` or a name in
        one (``pkg.a``, ``pkg.a.f``, ``src/a.f``), by file and line."""
        out: list[tuple[int, int, str]] = []
        for at in range(0, len(modules), 500):  # (SQLite's bound on a statement's parameters)
            tests, params = [], []
            for module in modules[at : at + 500]:
                tests.append("target = ? OR substr(target, 1, ?) IN (?, ?)")
                params += [module, len(module) + 1, module + ".", module + "/"]
            rows = await self.fetch(
                f"SELECT file_id, line, target FROM imports WHERE {' OR '.join(tests)} ORDER BY file_id, line LIMIT ?",
                (*params, limit - len(out)),
            )
            out += [tuple(r) for r in rows]
            if len(out) >= limit:
                break
        return sorted(set(out))

    async def exports_of(self, file_id: int, first: int = 1, last: int = 1 << 31) -> list[Export]:
        rows = await self.fetch(
            "SELECT name, line, kind, source, alias FROM exports WHERE file_id=? AND line BETWEEN ? AND ? "
            "ORDER BY line",
            (file_id, first, last),
        )
        return [Export(*r) for r in rows]

    async def symbols_of_file(self, file_id: int) -> list[StoredSymbol]:
        """The file's symbols in id order (parents before their children)."""
        rows = await self.fetch(f"SELECT {_STORED_SYMBOL} FROM symbols WHERE file_id=? ORDER BY id", (file_id,))
        return [StoredSymbol(*r) for r in rows]

    # ---- the whole graph, for exports -----------------------------------------------------------

    async def all_symbol_rows(self) -> list[StoredSymbol]:
        rows = await self.fetch(f"SELECT {_STORED_SYMBOL} FROM symbols ORDER BY file_id, id")
        return [StoredSymbol(*r) for r in rows]

    async def all_edges(self) -> list[Edge]:
        return [
            Edge(*r) for r in await self.fetch(f"SELECT {EDGE_COLUMNS} FROM edges WHERE {SHOWN} ORDER BY file_id, id")
        ]

    async def all_imports(self) -> list[tuple[int, Import]]:
        rows = await self.fetch(
            "SELECT file_id, module, name, alias, line, kind, target FROM imports ORDER BY file_id, line"
        )
        return [(r[0], Import(*r[1:])) for r in rows]

    async def all_exports(self) -> list[tuple[int, Export]]:
        rows = await self.fetch("SELECT file_id, name, line, kind, source, alias FROM exports ORDER BY file_id, line")
        return [(r[0], Export(*r[1:])) for r in rows]
