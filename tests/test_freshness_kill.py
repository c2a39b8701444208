"""The indexer is killed (-9: no cleanup, no handlers) in the middle of a large index, twice: during
the first index of ~600 files of the standard library, and during a re-index of half of them.
Each time the database must be consistent on its own, and complete after the next run."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from codecairn.store.store import database_path
from realcode import STDLIB, copy_stdlib

pytestmark = pytest.mark.slow

DEADLINE = 300.0


def whole_stdlib(root: Path) -> Path:
    root.mkdir()
    return copy_stdlib(
        root,
        tuple(
            p.name if p.is_dir() else p.stem
            for p in STDLIB.iterdir()
            if (
                p.is_dir()
                and (p / "__init__.py").exists()
                and p.name not in ("site-packages", "test", "idlelib", "lib2to3", "venv")
            )
            or p.suffix == ".py"
        ),
    )


def index(exe: str, root: Path, cache: Path) -> subprocess.Popen:
    # A session of its own, so what the killed indexer leaves behind can be cleaned up after.
    return subprocess.Popen(
        [exe, "index", str(root), "--json", "--no-embed"],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def query(db: Path, sql: str) -> int:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        return con.execute(sql).fetchone()[0]
    finally:
        con.close()


def kill_when(proc: subprocess.Popen, db: Path, sql: str) -> None:
    """SIGKILL the indexer as soon as ``sql`` counts something: part of the work is committed."""
    deadline = time.monotonic() + DEADLINE
    while True:
        assert proc.poll() is None, f"the indexer finished before it could be killed: {proc.communicate()}"
        assert time.monotonic() < deadline
        try:
            if db.exists() and query(db, sql) > 0:
                break
        except sqlite3.OperationalError:  # no such table yet, or busy
            pass
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)  # the indexer itself, as `kill -9 PID` would
    assert proc.wait() == -signal.SIGKILL
    proc.communicate()
    # Its parse workers and their fork server outlive it (they hold each other's pipes open):
    # not this test's subject, but they must not outlive the test either.
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def assert_consistent(db: Path) -> None:
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        orphans = {
            "symbols without a file": "SELECT COUNT(*) FROM symbols WHERE file_id NOT IN (SELECT id FROM files)",
            "symbols without a parent": "SELECT COUNT(*) FROM symbols WHERE parent_id IS NOT NULL "
            "AND parent_id NOT IN (SELECT id FROM symbols)",
            "edges without a file": "SELECT COUNT(*) FROM edges WHERE file_id NOT IN (SELECT id FROM files)",
            "edges from nowhere": "SELECT COUNT(*) FROM edges WHERE source_id IS NOT NULL "
            "AND source_id NOT IN (SELECT id FROM symbols)",
            "edges to nowhere": "SELECT COUNT(*) FROM edges WHERE target_id IS NOT NULL "
            "AND target_id NOT IN (SELECT id FROM symbols)",
            "imports without a file": "SELECT COUNT(*) FROM imports WHERE file_id NOT IN (SELECT id FROM files)",
            "exports without a file": "SELECT COUNT(*) FROM exports WHERE file_id NOT IN (SELECT id FROM files)",
        }
        found = {what: con.execute(sql).fetchone()[0] for what, sql in orphans.items()}
        assert found == dict.fromkeys(orphans, 0)
    finally:
        con.close()


def assert_complete(db: Path, root: Path) -> None:
    """Every file on disk is indexed at its current content, and nothing is pending."""
    con = sqlite3.connect(db)
    try:
        rows = dict(con.execute("SELECT path, hash FROM files").fetchall())
        meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
    finally:
        con.close()
    on_disk = {p.relative_to(root).as_posix(): p for p in root.rglob("*.py")}
    assert set(rows) == set(on_disk)
    stale = [
        rel for rel, p in on_disk.items() if hashlib.blake2b(p.read_bytes(), digest_size=16).hexdigest() != rows[rel]
    ]
    assert stale == []
    assert meta.get("resolution_pending") == "0" and meta.get("edges_pending", "0") == "0"


def test_a_killed_index_leaves_a_consistent_database_and_the_next_run_completes(
    tmp_path: Path, cache_dir: Path, codecairn_exe: str
) -> None:
    root = whole_stdlib(tmp_path / "stdlib")
    total = sum(1 for _ in root.rglob("*.py"))
    assert total > 500

    # Killed during the first index, once a batch of files is committed.
    db = database_path(root, cache_dir)
    proc = index(codecairn_exe, root, cache_dir)
    kill_when(proc, db, "SELECT COUNT(*) FROM files")
    assert_consistent(db)
    assert query(db, "SELECT COUNT(*) FROM files") < total

    done = index(codecairn_exe, root, cache_dir)
    out, err = done.communicate(timeout=DEADLINE)
    assert done.returncode == 0, err
    assert json.loads(out)["files"] == total
    assert_consistent(db)
    assert_complete(db, root)
    generation = query(db, "SELECT CAST(value AS INTEGER) FROM meta WHERE key='generation'")

    # Half the files change; killed during the re-index, once a batch of them is committed.
    changed = sorted(root.rglob("*.py"))[::2]
    for i, path in enumerate(changed):
        with open(path, "a") as fh:
            fh.write(f"\n\ndef added_by_the_test_{i}():\n    return {i}\n")
    proc = index(codecairn_exe, root, cache_dir)
    kill_when(proc, db, f"SELECT COUNT(*) FROM files WHERE generation > {generation}")
    assert_consistent(db)
    kept = query(db, f"SELECT COUNT(*) FROM files WHERE generation > {generation}")
    assert 0 < kept < len(changed)
    assert query(db, "SELECT value FROM meta WHERE key='resolution_pending'") == "1", (
        "the interrupted run's resolution is still owed"
    )

    done = index(codecairn_exe, root, cache_dir)
    out, err = done.communicate(timeout=DEADLINE)
    assert done.returncode == 0, err
    summary = json.loads(out)
    assert summary["files"] == total
    assert summary["parsed"] == len(changed) - kept, "what the killed run committed is not parsed again"
    assert_consistent(db)
    assert_complete(db, root)
    assert query(db, "SELECT COUNT(*) FROM symbols WHERE name LIKE 'added_by_the_test_%'") == len(changed)
