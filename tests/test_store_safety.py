"""The index holds structure, never source text; an unusable database is reported with its path
and left exactly as it was."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

import pytest
from codecairn.store.store import database_path
from codecairn.workspace import Workspace
from realcode import wait_for

pytestmark = pytest.mark.anyio


def _body_lines(path: Path, count: int = 5) -> list[str]:
    """Distinctive lines from inside function bodies: long, indented, unique in the file."""
    lines = path.read_text().splitlines()
    picked = []
    for line in lines:
        s = line.strip()
        if (
            line.startswith("        ")
            and len(s) > 40
            and lines.count(line) == 1
            and not s.startswith(("def ", "class ", "#", '"', "'"))
        ):
            picked.append(s)
        if len(picked) == count:
            break
    return picked


async def test_no_source_text_is_stored(stdlib_part: Path, cache_dir: Path) -> None:
    ws = await Workspace.open(stdlib_part)
    await ws.index_now()
    db = ws.store.path
    await ws.close()
    blob = b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))
    samples = _body_lines(stdlib_part / "json" / "decoder.py") + _body_lines(stdlib_part / "argparse.py")
    assert len(samples) >= 8
    for line in samples:
        assert line.encode() not in blob, f"source text found in the index: {line!r}"
    # ...while the structure is there.
    assert b"json.decoder.JSONDecoder" in blob


def _run(exe: str, *args: str, cache: Path) -> subprocess.CompletedProcess:
    return subprocess.run([exe, "--cache-dir", str(cache), *args], capture_output=True, text=True, timeout=300)


def test_a_corrupt_database_is_reported_and_left_untouched(
    stdlib_part: Path, tmp_path: Path, codecairn_exe: str
) -> None:
    cache = tmp_path / "cache"
    assert _run(codecairn_exe, "index", str(stdlib_part), "--json", cache=cache).returncode == 0
    db = database_path(stdlib_part, cache)
    # Damage pages in the middle of the file, the way a bad disk or a killed copy would.
    data = bytearray(db.read_bytes())
    for offset in range(len(data) // 3, len(data) // 3 + 8192, 7):
        data[offset] = 0xFF
    db.write_bytes(bytes(data))
    for suffix in ("-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    before = hashlib.sha256(db.read_bytes()).hexdigest()

    result = _run(codecairn_exe, "index", str(stdlib_part), cache=cache)
    assert result.returncode == 2
    assert str(db) in result.stderr and "rebuild" in result.stderr
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before, "the damaged file was not touched"

    rebuilt = _run(codecairn_exe, "index", str(stdlib_part), "--json", "--rebuild", cache=cache)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert json.loads(rebuilt.stdout)["files"] > 50


def test_a_file_that_is_not_a_database_is_reported(stdlib_part: Path, tmp_path: Path, codecairn_exe: str) -> None:
    cache = tmp_path / "cache"
    db = database_path(stdlib_part, cache)
    db.parent.mkdir(parents=True)
    db.write_bytes(b"this is not sqlite\n" * 100)
    result = _run(codecairn_exe, "index", str(stdlib_part), cache=cache)
    assert result.returncode == 2 and str(db) in result.stderr
    assert db.read_bytes() == b"this is not sqlite\n" * 100


def test_a_rebuild_keeps_what_agents_remembered(stdlib_part: Path, tmp_path: Path, codecairn_exe: str) -> None:
    import asyncio
    import os

    cache = tmp_path / "cache"
    assert _run(codecairn_exe, "index", str(stdlib_part), "--json", cache=cache).returncode == 0

    async def remember_then_count(write: bool) -> int:
        os.environ["CODECAIRN_CACHE_DIR"] = str(cache)
        ws = await Workspace.open(stdlib_part)
        try:
            if write:
                await ws.memory.remember(
                    reason="where JSON documents are decoded", symbol="json.decoder.JSONDecoder.decode"
                )
            return await ws.memory.count()
        finally:
            await ws.close()

    assert asyncio.run(remember_then_count(True)) == 1
    rebuilt = _run(codecairn_exe, "index", str(stdlib_part), "--json", "--rebuild", cache=cache)
    assert rebuilt.returncode == 0 and "kept 1 remembered" in rebuilt.stderr
    assert asyncio.run(remember_then_count(False)) == 1


def clock_passed(path: Path) -> None:
    """Wait until a file written now gets a later modification time than ``path`` has."""
    probe = path.with_name(path.name + ".clock")

    def later() -> bool:
        probe.write_bytes(b"")
        return probe.stat().st_mtime_ns > path.stat().st_mtime_ns

    wait_for(later, "the file system's clock moves past the database's last write", interval=0.005)
    probe.unlink()


async def test_the_integrity_check_is_skipped_only_for_a_file_as_its_last_clean_close_left_it(tmp_path: Path) -> None:
    import os

    from codecairn.store import seal
    from codecairn.store.store import Store

    def holds(db: Path) -> bool:
        return seal.verified(db) is not None

    db = tmp_path / "index.db"
    store = await Store.open(db)
    await store.set_meta({"root": "/somewhere"})
    assert not holds(db), "an open database is never sealed"
    await store.close()
    assert holds(db)

    # Opened and killed before closing (no close, so no seal): checked next time.
    crashed = await Store.open(db)
    assert not holds(db)
    await crashed.close()
    assert holds(db)

    # Any change to the file since that close, even of the same size, breaks the seal (after one
    # tick of the file system's clock: a write in the same tick as the close keeps its mtime).
    clock_passed(db)
    data = db.read_bytes()
    db.write_bytes(data)
    assert not holds(db)
    reopened = await Store.open(db)
    assert await reopened.get_meta("root") == "/somewhere"
    await reopened.close()
    assert holds(db)

    # ...and so does a change that kept the inode, the size and the times: the content is sealed too.
    before = db.stat()
    with open(db, "r+b") as fh:
        fh.seek(len(data) - 100)
        fh.write(b"\xff" * 10)
    os.utime(db, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert not holds(db)
