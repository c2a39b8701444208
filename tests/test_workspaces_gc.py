"""A developer has indexed several projects over months: `codecairn workspaces` lists them, and
`--gc` deletes the indexes nobody needs — never one in use, never one whose root merely cannot be
reached right now, never a database it cannot read."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import sqlite3
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from codecairn import workspaces
from codecairn.store.store import database_path
from codecairn.workspace import Workspace

DAY = 86400.0


def project(parent: Path, name: str, functions: int = 3) -> Path:
    root = parent / name
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "core.py").write_text("".join(f"def {name}_{i}():\n    return {i}\n\n" for i in range(functions)))
    return root


def cli(exe: str, cache: Path, *args: str) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [exe, *args], env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache)}, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done


def indexed(exe: str, cache: Path, root: Path) -> Path:
    cli(exe, cache, "index", str(root), "--json")
    return database_path(root.resolve(), cache)


def last_used(db: Path, when: float) -> None:
    """Time passes: the index was last opened at ``when``."""
    con = sqlite3.connect(db)
    con.execute("UPDATE meta SET value=? WHERE key='last_used_at'", (str(when),))
    con.commit()
    con.close()


def test_the_list_shows_each_root_with_its_size_last_use_and_counts(
    tmp_path: Path, cache_dir: Path, codecairn_exe: str
) -> None:
    shop = project(tmp_path, "shop", functions=5)
    blog = project(tmp_path, "blog", functions=2)
    started = time.time()
    indexed(codecairn_exe, cache_dir, shop)
    indexed(codecairn_exe, cache_dir, blog)

    listed = json.loads(cli(codecairn_exe, cache_dir, "workspaces", "--json").stdout)
    by_root = {entry["root"]: entry for entry in listed}
    assert set(by_root) == {str(shop), str(blog)}
    assert by_root[str(shop)]["files"] == 2 and by_root[str(shop)]["symbols"] == 5 + 2
    assert by_root[str(blog)]["symbols"] == 2 + 2
    for entry in listed:
        assert entry["root_state"] == "present" and entry["in_use"] is False
        assert entry["size_bytes"] > 0 and entry["last_used_at"] >= started - 1
        assert entry["last_used"].startswith(time.strftime("%Y-", time.gmtime()))

    text = cli(codecairn_exe, cache_dir, "workspaces").stdout
    assert str(shop) in text and "2 files, 7 symbols" in text and "[present]" in text


@pytest.mark.anyio
async def test_gc_deletes_indexes_whose_root_is_gone_but_never_one_in_use(
    tmp_path: Path, cache_dir: Path, codecairn_exe: str
) -> None:
    gone = project(tmp_path, "gone")
    busy = project(tmp_path, "busy")
    kept = project(tmp_path, "kept")
    gone_db, busy_db, kept_db = (indexed(codecairn_exe, cache_dir, r) for r in (gone, busy, kept))
    open_busy = await Workspace.open(busy)  # a server has it open
    try:
        shutil.rmtree(gone)
        shutil.rmtree(busy)
        report = json.loads(cli(codecairn_exe, cache_dir, "workspaces", "--gc", "--json").stdout)
        assert [(r["root"], r["reason"]) for r in report["removed"]] == [(str(gone), "root is gone")]
        assert not any(Path(str(gone_db) + s).exists() for s in ("", "-wal", "-shm", ".lock"))
        assert busy_db.exists() and kept_db.exists()
        listed = {e["root"]: e for e in json.loads(cli(codecairn_exe, cache_dir, "workspaces", "--json").stdout)}
        assert listed[str(busy)]["in_use"] is True and listed[str(busy)]["root_state"] == "gone"
    finally:
        await open_busy.close()
    report = json.loads(cli(codecairn_exe, cache_dir, "workspaces", "--gc", "--json").stdout)
    assert [r["root"] for r in report["removed"]] == [str(busy)], "closed now, so collected"
    assert kept_db.exists()


def _collect_as_nobody(cache: str, queue) -> None:
    os.setgroups([])
    os.setgid(65534)
    os.setuid(65534)
    report = workspaces.collect(Path(cache))
    queue.put((report.removed, [workspaces.root_state(k["root"]) for k in report.kept]))


def test_a_root_that_cannot_be_reached_is_not_gone(tmp_path: Path, codecairn_exe: str) -> None:
    # The cache must be usable by the unprivileged user who runs the collection; the root is
    # inside a directory that user may not enter: stat says "permission denied", not "no such file".
    cache = Path(tempfile.mkdtemp(prefix="codecairn-gc-"))
    try:
        private = tmp_path / "private"
        private.mkdir()
        root = project(private, "secret")
        db = indexed(codecairn_exe, cache, root)
        private.chmod(0o700)
        for path in [cache, *cache.rglob("*")]:
            path.chmod(0o777 if path.is_dir() else 0o666)
        if os.geteuid() == 0:  # root reads everything: collect as "nobody", in a forked child
            ctx = multiprocessing.get_context("fork")
            queue = ctx.Queue()
            child = ctx.Process(target=_collect_as_nobody, args=(str(cache), queue))
            child.start()
            removed, states = queue.get(timeout=60)
            child.join(60)
        else:
            private.chmod(0o000)
            try:
                report = workspaces.collect(cache)
                removed, states = report.removed, [workspaces.root_state(k["root"]) for k in report.kept]
            finally:
                private.chmod(0o700)
        assert removed == []
        assert states == ["unreachable (Permission denied)"]
        assert db.exists()

        shutil.rmtree(private)  # now it is really gone
        assert [r["reason"] for r in workspaces.collect(cache).removed] == ["root is gone"]
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def test_unused_indexes_expire_and_the_size_cap_drops_the_least_recently_used(
    tmp_path: Path, cache_dir: Path, codecairn_exe: str
) -> None:
    old, older, recent = (project(tmp_path, n, functions=40) for n in ("old", "older", "recent"))
    dbs = {r.name: indexed(codecairn_exe, cache_dir, r) for r in (old, older, recent)}
    now = time.time()
    last_used(dbs["old"], now - 100 * DAY)
    last_used(dbs["older"], now - 30 * DAY)
    last_used(dbs["recent"], now - 1 * DAY)
    (cache_dir / "workspaces" / "damaged-000000000000.db").write_bytes(b"not a database at all" * 100)

    listed = {
        Path(e["database"]).name: e for e in json.loads(cli(codecairn_exe, cache_dir, "workspaces", "--json").stdout)
    }
    assert listed["damaged-000000000000.db"]["error"].startswith("unreadable")

    dry = json.loads(cli(codecairn_exe, cache_dir, "workspaces", "--gc", "--dry-run", "--json").stdout)
    assert [r["root"] for r in dry["removed"]] == [str(old)] and dry["dry_run"]
    assert dbs["old"].exists(), "a dry run deletes nothing"

    report = json.loads(cli(codecairn_exe, cache_dir, "workspaces", "--gc", "--json").stdout)
    assert [(r["root"], r["reason"]) for r in report["removed"]] == [(str(old), "unused for 100 days (limit 90)")]

    # Over the size cap: the least recently used goes first, until the rest fits.
    sizes = {name: workspaces.describe(db).size_bytes for name, db in dbs.items() if name != "old"}
    cap = sizes["recent"] + 100 + len(b"not a database at all" * 100)
    report = json.loads(cli(codecairn_exe, cache_dir, "workspaces", "--gc", "--max-bytes", str(cap), "--json").stdout)
    assert [(r["root"], r["reason"]) for r in report["removed"]] == [
        (str(older), f"total size over the {cap} byte cap")
    ]
    assert dbs["recent"].exists()
    assert (cache_dir / "workspaces" / "damaged-000000000000.db").exists(), "never deleted: it cannot be read"

    # The age limit is configurable: half a day.
    report = json.loads(cli(codecairn_exe, cache_dir, "workspaces", "--gc", "--max-age-days", "0.5", "--json").stdout)
    assert [r["root"] for r in report["removed"]] == [str(recent)]
