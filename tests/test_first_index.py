"""A first index holds its edges in memory, resolves them a chunk at a time and counts the summary's
aggregates on the way: what it stores and reports must be what a scan of the finished tables says,
and a cancel in the middle of the resolution must leave a store the next run completes."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from codecairn.index import pipeline
from codecairn.index.edge_loader import EdgeLoader
from codecairn.model import ALSO
from codecairn.store.overview import _compute, index_overview
from codecairn.store.store import Store
from codecairn.workspace import Workspace

pytestmark = pytest.mark.anyio


async def edge_indexes(ws: Workspace) -> dict[str, str]:
    rows = await ws.store.fetch("SELECT name, sql FROM sqlite_master WHERE type='index' AND tbl_name='edges'")
    return {name: sql.replace(" IF NOT EXISTS", "") for name, sql in rows}


async def edge_rows(ws: Workspace) -> list[tuple]:
    return await ws.store.fetch(
        "SELECT id, file_id, kind, source_id, target, receiver, receiver_type, line, "
        "target_id, resolution FROM edges ORDER BY id"
    )


async def reference_edges(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    """The edges of the same files indexed in one go, into another cache."""
    monkeypatch.setenv("CODECAIRN_CACHE_DIR", str(tmp_path / "reference"))
    ref = await Workspace.open(root)
    try:
        await ref.index_now()
        return await edge_rows(ref)
    finally:
        await ref.close()


def given(rows: list[tuple]) -> list[tuple]:
    """The edges the files gave: not the rows a resolution adds beside a call that reaches several
    functions (model.ALSO), which a run cancelled before resolving that call has not made yet."""
    return [r for r in rows if not r[6].startswith(ALSO)]


async def test_the_counted_overview_is_what_a_scan_of_the_tables_gives(stdlib_part: Path, cache_dir: Path) -> None:
    ws = await Workspace.open(stdlib_part)
    try:
        summary = await ws.index_now()
        counted = await index_overview(ws.store, ws.state.generation)  # from the meta table: counted while inserting
        assert counted["generation"] == summary.generation == ws.state.generation
        scanned = await _compute(ws.store, ws.state.generation)
        assert counted == scanned
        assert list(counted["symbol_kinds"].items()) == list(scanned["symbol_kinds"].items()), "same order"
        assert counted["most_called"] and counted["call_resolution"]
        assert counted["edges"]["calls"] > counted["unresolved_calls"] > 0
    finally:
        await ws.close()


async def test_cancelled_while_resolving_then_completed(
    stdlib_part: Path, cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = await reference_edges(stdlib_part, tmp_path, monkeypatch)
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
        stored = given(await edge_rows(ws))
        # Every edge is there exactly once: the two resolved chunks and the rest unresolved.
        assert [r[:8] for r in stored] == [r[:8] for r in given(expected)]
        resolved_before = sum(1 for r in stored if r[8] is not None)
        assert 0 < resolved_before < sum(1 for r in expected if r[8] is not None)
        assert await store.get_meta("resolution_pending") == "1"

        again = await ws.index_now()
        assert again.parsed == 0 and not again.cancelled
        assert await edge_rows(ws) == expected
        assert await index_overview(ws.store, ws.state.generation) == await _compute(ws.store, ws.state.generation)
    finally:
        await ws.close()


async def test_a_helper_process_loads_the_edges_to_the_same_result_and_a_cancel_keeps_each_once(
    stdlib_part: Path, cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The reference: this small tree's edges are inserted by the indexing process itself.
    monkeypatch.setenv("CODECAIRN_CACHE_DIR", str(tmp_path / "reference"))
    ref = await Workspace.open(stdlib_part)
    try:
        await ref.index_now()
        expected = await edge_rows(ref)
        expected_overview = await index_overview(ref.store, ref.state.generation)
        expected_indexes = await edge_indexes(ref)
    finally:
        await ref.close()

    # Many small chunks, each inserted by the helper process while the next one resolves.
    monkeypatch.setattr(pipeline, "HELPER_LOADS_EDGES", 0)
    monkeypatch.setattr(pipeline, "RESOLVE_CHUNK", 500)
    sent = []
    original_insert = EdgeLoader.insert

    async def counting_insert(self, rows, end, edges):
        sent.append(len(rows))
        await original_insert(self, rows, end, edges)

    monkeypatch.setattr(EdgeLoader, "insert", counting_insert)
    monkeypatch.setenv("CODECAIRN_CACHE_DIR", str(tmp_path / "helper"))
    ws = await Workspace.open(stdlib_part)
    try:
        await ws.index_now()
        assert len(sent) == -(-len(expected) // 500) and sum(sent) == len(expected)
        assert await edge_rows(ws) == expected
        assert await index_overview(ws.store, ws.state.generation) == expected_overview
        # Some indexes kept up while the rows came, the others built after: the same as one build.
        assert set(await edge_indexes(ws)) == set(Store.EDGE_INDEXES)
        assert await edge_indexes(ws) == expected_indexes
    finally:
        await ws.close()

    # Cancelled when the third chunk is handed over: two are in the store, the third is in flight.
    sent.clear()

    async def insert_then_cancel(self, rows, end, edges):
        await counting_insert(self, rows, end, edges)
        if len(sent) == 3:
            asyncio.current_task().cancel()

    monkeypatch.setattr(EdgeLoader, "insert", insert_then_cancel)
    monkeypatch.setenv("CODECAIRN_CACHE_DIR", str(cache_dir))
    ws = await Workspace.open(stdlib_part)
    try:
        with pytest.raises(asyncio.CancelledError):
            await ws.index_now()
        stored = given(await edge_rows(ws))
        assert [r[:8] for r in stored] == [r[:8] for r in given(expected)], "every edge exactly once"
        assert any(r[8] is not None for r in stored[1000:1500]), "the chunk in flight was written whole"
        assert all(r[8] is None for r in stored[1500:]), "the rest is stored unresolved"
        assert await ws.store.get_meta("resolution_pending") == "1"
        again = await ws.index_now()
        assert again.parsed == 0 and not again.cancelled
        assert await edge_rows(ws) == expected
    finally:
        await ws.close()


async def test_a_chunk_the_helper_cannot_write_fails_the_run_with_its_own_error_and_the_next_run_starts_over(
    stdlib_part: Path, cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = await reference_edges(stdlib_part, tmp_path, monkeypatch)

    # Chunks of 500, two on their way at a time; SQLite itself refuses a row of the second chunk (a
    # trigger of the database, so the helper's connection meets it too) when the third chunk, which
    # it would take, is already handed over.
    monkeypatch.setattr(pipeline, "HELPER_LOADS_EDGES", 0)
    monkeypatch.setattr(pipeline, "RESOLVE_CHUNK", 500)
    monkeypatch.setenv("CODECAIRN_CACHE_DIR", str(cache_dir))
    ws = await Workspace.open(stdlib_part)
    try:
        await ws.store.db.execute(
            f"CREATE TRIGGER refuse_second_chunk BEFORE INSERT ON edges WHEN NEW.id = {expected[600][0]} "
            "BEGIN SELECT RAISE(ABORT, 'disk refused the chunk'); END"
        )
        await ws.store.db.commit()
        with pytest.raises(Exception, match="disk refused the chunk"):
            await ws.index_now()
        stored = await edge_rows(ws)
        # The first chunk only: neither the one that failed nor the one handed over after it.
        assert [r[0] for r in stored] == [r[0] for r in expected[:500]]
        assert await ws.store.get_meta("edges_pending") == "1"
        await ws.store.db.execute("DROP TRIGGER refuse_second_chunk")
        await ws.store.db.commit()
        again = await ws.index_now()
        assert not again.cancelled
        assert await edge_rows(ws) == expected
    finally:
        await ws.close()
