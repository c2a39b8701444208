"""The store's reads for graph answers (trace, references, impact, architecture): edges around a
set of symbols in one statement per traversal level, unresolved uses by name, and the whole-index
aggregates the architecture map is computed from. Model types and plain tuples out; all through
the reader connection, which never waits for the indexer's transaction.

A walk level reads the ends of every edge around its symbols from a covering index (``edges_in``,
``edges_out``: no table row is touched), chooses which to show, and only then reads the whole
rows of those (by primary key): the JDK's most-called method has 7,289 callers, a trace shows 20.
Unresolved uses by name read a partial index of the unresolved edges only (``edges_unresolved``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from codecairn.model import Edge
from codecairn.store.reads import EDGE_COLUMNS, MAX_PARAMS, SHOWN, through_unresolved_index
from codecairn.store.transactions import one_transaction

if TYPE_CHECKING:
    from codecairn.store.store import Store


def _marks(values: Collection[object]) -> str:
    return ",".join("?" * len(values))


def _chunks(values: list, size: int = MAX_PARAMS // 2) -> Iterable[list]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


async def edges_touching(
    store: Store, symbol_ids: Collection[int], direction: str, kinds: Collection[str] = (), limit: int | None = None
) -> list[Edge]:
    """Edges pointing at (``direction="in"``: resolved edges whose target is one of ``symbol_ids``)
    or occurring in (``"out"``) any of the symbols, of ``kinds`` (all when empty), in file and line
    order; at most ``limit`` when given (the caller asks for one more than it shows)."""
    column = "target_id" if direction == "in" else "source_id"
    kinds = tuple(kinds)
    out: list[Edge] = []
    for chunk in _chunks(sorted(set(symbol_ids))):
        rows = await store.fetch(
            f"SELECT {EDGE_COLUMNS} FROM edges WHERE {column} IN ({_marks(chunk)})"
            + (f" AND kind IN ({_marks(kinds)})" if kinds else f" AND {SHOWN}")
            + " ORDER BY file_id, line, id"
            + (" LIMIT ?" if limit is not None else ""),
            (*chunk, *kinds, *((limit - len(out),) if limit is not None else ())),
        )
        out.extend(Edge(*r) for r in rows)
        if limit is not None and len(out) >= limit:
            break
    return out


# (edge id, near symbol, far symbol or None, resolution, file id, line): what choosing needs
EdgeEnds = tuple[int, int, int | None, str | None, int, int]


async def edge_ends(
    store: Store, symbol_ids: Collection[int], direction: str, kinds: Collection[str]
) -> list[EdgeEnds]:
    """The ends of the edges pointing at (``direction="in"``: near is the target) or occurring in
    (``"out"``: near is the source) any of ``symbol_ids``, of ``kinds``, in file and line order —
    from the covering index alone."""
    near, far = ("target_id", "source_id") if direction == "in" else ("source_id", "target_id")
    kinds = tuple(kinds)
    out: list[EdgeEnds] = []
    for chunk in _chunks(sorted(set(symbol_ids))):
        out.extend(
            await store.fetch(
                f"SELECT id, {near}, {far}, resolution, file_id, line FROM edges "
                f"WHERE {near} IN ({_marks(chunk)}) AND kind IN ({_marks(kinds)})",
                (*chunk, *kinds),
            )
        )
    out.sort(key=lambda r: (r[4], r[5], r[0]))
    return out


async def edges_by_id(store: Store, edge_ids: Collection[int]) -> dict[int, Edge]:
    """Whole edges by id (primary-key lookups)."""
    out: dict[int, Edge] = {}
    for chunk in _chunks(sorted(set(edge_ids))):
        for r in await store.fetch(f"SELECT {EDGE_COLUMNS} FROM edges WHERE id IN ({_marks(chunk)})", chunk):
            out[r[0]] = Edge(*r)
    return out


async def unresolved_named(
    store: Store, names: Collection[str], kinds: Collection[str], limit: int
) -> tuple[list[Edge], dict[str, int]]:
    """Unresolved edges of ``kinds`` whose written target is one of ``names`` (the first ``limit``
    in file and line order), and how many there are of each name."""
    names, kinds = sorted(set(names)), tuple(kinds)
    shown: list[Edge] = []
    counts: dict[str, int] = {}
    for chunk in _chunks(names):
        # The partial index holds the unresolved edges only; left to itself the planner would take
        # "target_id IS NULL" to edges_in and count through every unresolved edge of the index.
        where = (
            f"target IN ({_marks(chunk)}) AND target_id IS NULL AND resolution IS NULL AND kind IN ({_marks(kinds)})"
        )
        counted = f"SELECT target, COUNT(*) FROM {{edges}} WHERE {where} GROUP BY target"
        for name, n in await through_unresolved_index(store.fetch, counted, (*chunk, *kinds)):
            counts[name] = n
        if len(shown) < limit:
            rows = await through_unresolved_index(
                store.fetch,
                f"SELECT {EDGE_COLUMNS} FROM {{edges}} WHERE {where} ORDER BY file_id, line LIMIT ?",
                (*chunk, *kinds, limit - len(shown)),
            )
            shown.extend(Edge(*r) for r in rows)
    return shown, counts


async def edges_in_files(store: Store, file_ids: Collection[int], kinds: Collection[str] = ()) -> list[Edge]:
    """Every edge occurring in ``file_ids`` (all kinds when ``kinds`` is empty), by file and line."""
    kinds = tuple(kinds)
    out: list[Edge] = []
    for chunk in _chunks(sorted(set(file_ids))):
        rows = await store.fetch(
            f"SELECT {EDGE_COLUMNS} FROM edges WHERE file_id IN ({_marks(chunk)})"
            + (f" AND kind IN ({_marks(kinds)})" if kinds else f" AND {SHOWN}")
            + " ORDER BY file_id, line, id",
            (*chunk, *kinds),
        )
        out.extend(Edge(*r) for r in rows)
    return out


async def files_with_edges(store: Store, kind: str) -> set[int]:
    """Files with at least one edge of ``kind``."""
    return {r[0] for r in await store.fetch("SELECT DISTINCT file_id FROM edges WHERE kind=?", (kind,))}


async def files_naming(store: Store, name: str) -> list[int]:
    """Files with an edge whose written target is ``name`` or ends in ``.name`` / ``::name``
    (where a token search for ``name`` should look first)."""
    rows = await store.fetch(
        "SELECT DISTINCT file_id FROM edges WHERE target=? OR target LIKE ? ESCAPE '\\' OR target LIKE ? ESCAPE '\\'",
        (name, "%." + _like(name), "%::" + _like(name)),
    )
    return [r[0] for r in rows]


def _like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


# ---- whole-index answers saved per generation (graph_answers) ---------------------------------------


async def saved_answers(store: Store, generation: int) -> dict[str, str]:
    """key -> JSON text of the answers saved for ``generation``."""
    rows = await store.fetch("SELECT key, value FROM graph_answers WHERE generation=?", (generation,))
    return dict(rows)


async def save_answer(db_path: Path, generation: int, key: str, value: str) -> None:
    """Save one answer for ``generation``, dropping those of every other generation (one small
    transaction on a connection of its own: the writer connection belongs to the indexer)."""
    async with one_transaction(db_path) as db:
        await db.execute("DELETE FROM graph_answers WHERE generation<>?", (generation,))
        await db.execute(
            "INSERT INTO graph_answers(key, generation, value) VALUES (?,?,?) "
            "ON CONFLICT(key) DO UPDATE SET generation=excluded.generation, value=excluded.value",
            (key, generation, value),
        )


# ---- whole-index aggregates (architecture; cached by the caller per generation) -----------------


async def reference_counts(store: Store) -> list[tuple[int, int, str, int]]:
    """(file_id, target symbol id, kind, count) over every resolved edge: who uses what, how often."""
    return await store.fetch(
        "SELECT file_id, target_id, kind, COUNT(*) FROM edges WHERE target_id IS NOT NULL "
        "GROUP BY file_id, target_id, kind"
    )


async def call_fan_out(store: Store) -> list[tuple[int, int]]:
    """(source symbol id, calls made in it, resolved or not)."""
    return await store.fetch(
        "SELECT source_id, COUNT(*) FROM edges WHERE kind='calls' AND source_id IS NOT NULL GROUP BY source_id"
    )


async def import_rows(store: Store) -> list[tuple[int, str, str, str]]:
    """(file_id, module, name, target) of every import."""
    return await store.fetch("SELECT file_id, module, name, target FROM imports")


async def edge_kind_counts(store: Store) -> list[tuple[str, int, int]]:
    """(kind, edges, resolved edges) per edge kind."""
    return await store.fetch("SELECT kind, COUNT(*), COUNT(target_id) FROM edges GROUP BY kind")


async def resolution_counts(store: Store) -> list[tuple[str, str | None, int]]:
    """(kind, resolution, edges): how each kind of edge was resolved (None: unresolved)."""
    return await store.fetch("SELECT kind, resolution, COUNT(*) FROM edges GROUP BY kind, resolution")


async def symbols_with_modifier(
    store: Store, suffixes: Collection[str], limit: int, imported: Collection[str] = ()
) -> list[int]:
    """Ids of symbols one of whose modifiers (decorators, annotations as written: ``@click.command``)
    ends with one of ``suffixes`` (``.command``) or is one (``@command``); with ``imported``, only
    in files that import one of those packages (``@group()`` of a file that imports no CLI
    library is some other group)."""
    conds, params = [], []
    for suffix in suffixes:
        conds.append("(' ' || modifiers || ' ') LIKE ? ESCAPE '\\'")
        params.append(f"%{_like(suffix)} %")
    if not conds:
        return []
    where = f"({' OR '.join(conds)})"
    if imported:
        top = "CASE WHEN instr(i.module, '.') > 0 THEN substr(i.module, 1, instr(i.module, '.') - 1) ELSE i.module END"
        where += f" AND EXISTS (SELECT 1 FROM imports i WHERE i.file_id = s.file_id AND {top} IN ({','.join('?' * len(imported))}))"
        params.extend(imported)
    rows = await store.fetch(f"SELECT s.id FROM symbols s WHERE {where} ORDER BY s.id LIMIT ?", (*params, limit))
    return [r[0] for r in rows]
