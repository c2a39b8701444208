"""A disk, a copy or another program damaged the index database without changing its size or its
times: the damage is found before anything is answered from the file, and whenever SQLite meets
damage later, the command or the answer says so clearly — with the file's path and what to do —
and nothing hangs. The damaged file is left exactly as it was.

Damage is real: 4 KB of random bytes written over a page of a real index, in place (same inode,
same size), then the file's access and modification times put back with ``os.utime``.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
from pathlib import Path

import pytest
from codecairn.errors import DamagedStore
from codecairn.index.edge_buffer import EdgeBuffer
from codecairn.index.edge_loader import EdgeLoader
from codecairn.store.store import database_path
from codecairn.workspace import Workspace
from raw_client import serve

pytestmark = pytest.mark.anyio


def page_size(db: Path) -> int:
    size = int.from_bytes(db.read_bytes()[16:18], "big")
    return 65536 if size == 1 else size


def damage(db: Path, page: int, seed: int) -> None:
    """Random bytes over one page, in place; the file's size, inode and times stay as they were."""
    size = page_size(db)
    before = db.stat()
    with open(db, "r+b") as fh:
        fh.seek(page * size)
        fh.write(random.Random(seed).randbytes(size))
    os.utime(db, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = db.stat()
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (before.st_ino, before.st_size, before.st_mtime_ns)


def put_back(db: Path, original: bytes) -> None:
    before = db.stat()
    with open(db, "r+b") as fh:
        fh.write(original)
    os.utime(db, ns=(before.st_atime_ns, before.st_mtime_ns))


def run(exe: str, cache: Path, *args: str) -> subprocess.CompletedProcess:
    # A hang fails the test through the timeout.
    return subprocess.run([exe, "--cache-dir", str(cache), *args], capture_output=True, text=True, timeout=120)


def indexed_without_free_pages(exe: str, root: Path, cache: Path) -> Path:
    """Index, compact (every page then holds data: damage anywhere is real damage), index again."""
    assert run(exe, cache, "index", str(root), "--json").returncode == 0
    db = database_path(root, cache)
    with sqlite3.connect(db) as con:
        con.execute("VACUUM")
    con.close()
    again = run(exe, cache, "index", str(root), "--json")
    assert again.returncode == 0, again.stderr
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        assert con.execute("PRAGMA freelist_count").fetchone()[0] == 0
    con.close()
    return db


def says_damaged(text: str, db: Path) -> bool:
    return str(db) in text and "damaged" in text and "--rebuild" in text


def test_a_damaged_page_under_restored_times_is_found_and_the_file_left_alone(
    stdlib_part: Path, tmp_path: Path, codecairn_exe: str
) -> None:
    cache = tmp_path / "cache"
    db = indexed_without_free_pages(codecairn_exe, stdlib_part, cache)
    original = db.read_bytes()
    pages = len(original) // page_size(db)
    assert pages > 50
    # The schema's neighbour, the files table's region, symbols, edges, the last page.
    for seed, page in enumerate(sorted({1, 4, pages // 4, pages // 2, 3 * pages // 4, pages - 1})):
        damage(db, page, seed)
        damaged = db.read_bytes()
        result = run(codecairn_exe, cache, "index", str(stdlib_part), "--json")
        assert result.returncode == 2, f"page {page}: exit {result.returncode}, {result.stderr[-1500:]}"
        assert "Traceback" not in result.stderr, f"page {page}: {result.stderr[-1500:]}"
        assert says_damaged(result.stderr, db), f"page {page}: {result.stderr}"
        assert db.read_bytes() == damaged, f"page {page}: the damaged file was changed"
        put_back(db, original)
    # The same bytes as the last clean close: trusted again, without anything re-parsed.
    healthy = run(codecairn_exe, cache, "index", str(stdlib_part), "--json")
    assert healthy.returncode == 0, healthy.stderr
    assert json.loads(healthy.stdout)["parsed"] == 0


def test_serving_a_damaged_index_answers_errors_that_say_so_and_exits_cleanly(
    stdlib_part: Path, tmp_path: Path, codecairn_exe: str
) -> None:
    cache = tmp_path / "cache"
    db = indexed_without_free_pages(codecairn_exe, stdlib_part, cache)
    pages = len(db.read_bytes()) // page_size(db)
    damage(db, pages // 2, seed=7)
    damaged = db.read_bytes()

    server = serve(stdlib_part, cache)  # with its background index, watcher and embedder
    try:
        assert server.initialize()["result"]["serverInfo"]["name"] == "codecairn"
        assert server.request("tools/list")["result"]["tools"]
        for tool, args in (("find_symbols", {"name": "JSONDecoder"}), ("stats", {}), ("index", {})):
            is_error, payload = server.call(tool, args)
            assert is_error, (tool, payload)
            assert payload["error"] == "unavailable" and says_damaged(payload["message"], db), (tool, payload)
        assert server.request("ping")["result"] == {}
    finally:
        code = server.close()
    assert code == 0, server.stderr[-2000:]
    assert "Traceback" not in server.stderr, server.stderr[-3000:]
    assert db.read_bytes() == damaged


def test_damage_met_while_serving_turns_into_error_answers_never_a_hang(
    stdlib_part: Path, tmp_path: Path, codecairn_exe: str
) -> None:
    cache = tmp_path / "cache"
    db = indexed_without_free_pages(codecairn_exe, stdlib_part, cache)
    server = serve(stdlib_part, cache, "--no-index", "--no-embed")
    try:
        server.initialize()
        is_error, found = server.call("get_symbol", {"name": "json.decoder.JSONDecoder"})
        assert not is_error and found["qualified_name"] == "json.decoder.JSONDecoder"
        # Every page but the first (its schema) is damaged under the running server; then an edit.
        pages = len(db.read_bytes()) // page_size(db)
        for page in range(1, pages):
            damage(db, page, seed=page)
        decoder = stdlib_part / "json" / "decoder.py"
        decoder.write_text(decoder.read_text() + "\n\ndef added_after_the_damage():\n    return 1\n")
        errors = []
        for tool, args in (
            ("index", {}),
            ("get_symbol", {"name": "json.decoder.JSONDecoder.raw_decode"}),
            ("find_symbols", {"name": "added_after_the_damage"}),
            ("read_symbol", {"name": "json.loads"}),
            ("stats", {}),
        ):
            is_error, payload = server.call(tool, args)
            if is_error:
                # Never an internal error or a raw SQLite message: the damage, the file, what to do.
                assert payload["error"] == "unavailable" and says_damaged(payload["message"], db), (tool, payload)
                errors.append(tool)
        assert "index" in errors, "re-indexing into a damaged file must fail, and say why"
        assert server.request("ping")["result"] == {}
    finally:
        code = server.close()
    assert code == 0, server.stderr[-2000:]


async def test_the_embedding_job_memories_and_the_edge_loader_report_damage_in_their_own_connections(
    stdlib_part: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODECAIRN_EMBED_INT8", "0")  # the shipped model as it is: no quantising for this
    ws = await Workspace.open(stdlib_part)
    try:
        await ws.index_now()
        db = ws.store.path
        await ws.store.fetch_writer("PRAGMA wal_checkpoint(TRUNCATE)")  # everything in the main file
        pages = len(db.read_bytes()) // page_size(db)
        for page in range(1, pages):
            damage(db, page, seed=page)
        # Each opens a connection of its own, which reads the damaged pages from the disk.
        with pytest.raises(DamagedStore) as embedding:
            await ws.embeddings.run_once()
        with pytest.raises(DamagedStore) as remembering:
            await ws.memory.remember(reason="where documents are decoded", symbol="json.decoder.JSONDecoder.decode")
        # The first index's edge-loading helper process: its failure crosses the process boundary
        # with SQLite's own code, and the workspace says what it means. (Its first step, the indexes
        # it keeps up while loading, already reads the damaged file: the insert may be what fails.)
        loader = EdgeLoader(db)
        try:
            with pytest.raises(sqlite3.DatabaseError) as loading:
                await loader.insert([(10**6, 1, "calls", None, "f", "", "", 1, None, None)], 1, EdgeBuffer())
                await loader.settle(EdgeBuffer())
        finally:
            loader.close()
        assert isinstance(ws.explain(loading.value), DamagedStore)
        for failure in (embedding.value, remembering.value, ws.explain(loading.value)):
            assert says_damaged(str(failure), db)
        assert ws.failure is not None, "the workspace knows, and answers nothing more from the file"
    finally:
        await ws.close()
