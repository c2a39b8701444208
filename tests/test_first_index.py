"""A first index holds its edges in memory, resolves them a chunk at a time and counts the summary's
aggregates on the way: what it stores and reports must be what a scan of the finished tables says,
and a cancel in the middle of the resolution must leave a store the next run completes."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from codecairn.index import pipeline
from codecairn.query.overview import _compute, index_overview
from codecairn.workspace import Workspace

pytestmark = pytest.mark.anyio


async def edge_rows(ws: Workspace) -> list[tuple]:
    return await ws.store.fetch("SELECT id, file_id, kind, source_id, target, receiver, receiver_type, line, "
                                "target_id, resolution FROM edges ORDER BY id")


async def test_the_counted_overview_is_what_a_scan_of_the_tables_gives(stdlib_part: Path, cache_dir: Path) -> None:
    ws = await Workspace.open(stdlib_part)
    try:
        summary = await ws.index_now()
        counted = await index_overview(ws)  # from the meta table: counted while inserting
        assert counted["generation"] == summary.generation == ws.generation
        scanned = await _compute(ws)
        assert counted == scanned
        assert list(counted["symbol_kinds"].items()) == list(scanned["symbol_kinds"].items()), "same order"
        assert counted["most_called"] and counted["call_resolution"]
        assert counted["edges"]["calls"] > counted["unresolved_calls"] > 0
    finally:
        await ws.close()


async def test_cancelled_while_resolving_then_completed(stdlib_part: Path, cache_dir: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # The reference: the same files indexed in one go, into another cache.
    monkeypatch.setenv("CODECAIRN_CACHE_DIR", str(tmp_path / "reference"))
    ref = await Workspace.open(stdlib_part)
    try:
        await ref.index_now()
        expected = await edge_rows(ref)
    finally:
        await ref.close()
    monkeypatch.setenv("CODECAIRN_CACHE_DIR", str(cache_dir))

    # Small chunks, and the run cancelled once two of them are in the store.
    monkeypatch.setattr(pipeline, "RESOLVE_CHUNK", 500)
    ws = await Workspace.open(stdlib_part)
    try:
        store = ws.store
        inserts = 0
        original = store.insert_edges

        async def insert_then_cancel(rows: list[tuple]) -> None:
            nonlocal inserts
            await original(rows)
            inserts += 1
            if inserts == 2:
                asyncio.current_task().cancel()

        store.insert_edges = insert_then_cancel
        with pytest.raises(asyncio.CancelledError):
            await ws.index_now()
        store.insert_edges = original
        stored = await edge_rows(ws)
        # Every edge is there exactly once: the two resolved chunks and the rest unresolved.
        assert [r[:8] for r in stored] == [r[:8] for r in expected]
        resolved_before = sum(1 for r in stored if r[8] is not None)
        assert 0 < resolved_before < sum(1 for r in expected if r[8] is not None)
        assert await store.get_meta("resolution_pending") == "1"

        again = await ws.index_now()
        assert again.parsed == 0 and not again.cancelled
        assert await edge_rows(ws) == expected
        assert await index_overview(ws) == await _compute(ws)
    finally:
        await ws.close()
