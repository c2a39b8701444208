"""Aggregates over the whole index — edge counts by kind, how calls were resolved, symbol kinds,
the most called and most extended symbols — for `stats` and the CLI summary.

They are full scans of the edges table (≈0.3–0.5 s on CPython's Lib), and they only change when
the index does, so they are kept in the store's meta table under the generation they describe. An
unchanged re-index then answers from the cache without reading a single symbol or edge. A first
index, which holds every edge in memory anyway, counts them as it inserts them (EdgeTally) instead
of scanning the table afterwards.
"""

from __future__ import annotations

import json
from collections import Counter
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from codecairn.model import EXTERNAL, INHERITANCE_KINDS, PASSES
from codecairn.store.reads import SHOWN

if TYPE_CHECKING:
    from codecairn.model import IndexedSymbol
    from codecairn.store.store import Store

META_KEY = "overview"
TOP = 5
_KIND, _TARGET_ID, _HOW = itemgetter(2), itemgetter(8), itemgetter(9)  # in an edge row


async def index_overview(store: Store, generation: int) -> dict[str, Any]:
    cached = await store.get_meta(META_KEY)
    # Writers set resolution_pending before they touch a table and move the generation after:
    # a cache is trusted only for a finished run's generation.
    settled = await store.get_meta("resolution_pending") != "1"
    if cached and settled:
        try:
            overview = json.loads(cached)
        except ValueError:
            overview = None
        if isinstance(overview, dict) and overview.get("generation") == generation:
            return overview
    overview = await _compute(store, generation)
    if settled and store.read_only is None:  # a read-only index is answered from, never written
        await store.set_meta({META_KEY: json.dumps(overview)})
    return overview


async def _compute(store: Store, generation: int) -> dict[str, Any]:
    fetch = store.fetch
    # COUNT(resolution): edges that resolved to a symbol, and the external ones (no target id).
    edges = await fetch(f"SELECT kind, COUNT(*), COUNT(resolution) FROM edges WHERE {SHOWN} GROUP BY kind")
    resolution = await fetch(
        f"SELECT CASE WHEN resolution LIKE '{EXTERNAL}:%' THEN '{EXTERNAL}' ELSE resolution END r, COUNT(*) "
        "FROM edges WHERE kind='calls' AND resolution IS NOT NULL GROUP BY r"
    )
    kinds = await fetch("SELECT kind, COUNT(*) c FROM symbols GROUP BY kind ORDER BY c DESC, kind")

    async def top(kinds_sql: str) -> list[list]:
        rows = await fetch(
            f"SELECT s.qualified_name, t.c FROM (SELECT target_id, COUNT(*) c FROM edges WHERE kind IN ({kinds_sql}) "
            f"AND target_id IS NOT NULL GROUP BY target_id ORDER BY c DESC, target_id LIMIT {TOP}) t "
            f"JOIN symbols s ON s.id = t.target_id ORDER BY t.c DESC, t.target_id"
        )
        return [list(r) for r in rows]

    return {
        "generation": generation,
        "symbols": sum(n for _, n in kinds),
        "symbol_kinds": dict(kinds),
        "edges": {k: n for k, n, _ in edges},
        "unresolved_calls": sum(n - r for k, n, r in edges if k == "calls"),
        "call_resolution": dict(resolution),
        "most_called": await top("'calls'"),
        "most_extended": await top("'extends','implements'"),
    }


class EdgeTally:
    """The edge aggregates of _compute, counted from edge rows as they are inserted (a first index).
    Rows: (id, file_id, kind, source_id, target, receiver, receiver_type, line, target_id, resolution)."""

    def __init__(self) -> None:
        self.by_kind: Counter[str] = Counter()
        self.resolved: Counter[str] = Counter()
        self.external: Counter[str] = Counter()
        self.call_resolution: Counter[str] = Counter()
        self.called: Counter[int] = Counter()
        self.extended: Counter[int] = Counter()

    def add(self, rows: list[tuple]) -> None:
        rows = [r for r in rows if r[2] != PASSES]  # the resolver's own facts (store.reads.SHOWN)
        self.by_kind.update(map(_KIND, rows))
        resolved = [r for r in rows if r[8] is not None]
        self.resolved.update(map(_KIND, resolved))
        calls = [r for r in resolved if r[2] == "calls"]
        self.call_resolution.update(map(_HOW, calls))
        external = [r for r in rows if r[8] is None and r[9] is not None]  # to a dotted name outside
        self.external.update(map(_KIND, external))
        self.call_resolution[EXTERNAL] += sum(1 for r in external if r[2] == "calls")
        self.called.update(map(_TARGET_ID, calls))
        self.extended.update(r[8] for r in resolved if r[2] in INHERITANCE_KINDS)

    def resolved_total(self) -> int:
        return sum(self.resolved.values())

    def overview(self, rows: dict[int, IndexedSymbol], generation: int) -> dict[str, Any]:
        """What _compute would answer once these rows are the whole edges table (``rows``: every
        symbol, by id)."""
        kinds = sorted(Counter(s.kind for s in rows.values()).items(), key=lambda kv: (-kv[1], kv[0]))

        def top(counts: Counter[int]) -> list[list]:
            best = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP]
            return [[rows[tid].qualified_name, n] for tid, n in best if tid in rows]

        return {
            "generation": generation,
            "symbols": len(rows),
            "symbol_kinds": dict(kinds),
            "edges": dict(sorted(self.by_kind.items())),
            "unresolved_calls": self.by_kind["calls"] - self.resolved["calls"] - self.external["calls"],
            "call_resolution": dict(sorted((k, n) for k, n in self.call_resolution.items() if n)),
            "most_called": top(self.called),
            "most_extended": top(self.extended),
        }
