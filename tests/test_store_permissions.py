"""Files codecairn may not read or write: a root or directory it cannot read never empties an index
(what was indexed there stays until it can be read again), and an index it cannot write is served
read-only — answers work, indexing says why it cannot run. No traceback, and no advice to delete
anything when the cause is a permission.

Permissions are real. These tests run as root in CI, and root ignores permission bits through two
capabilities (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH). So the commands under test run through
``setpriv`` (util-linux: in every Debian) with those two removed from their bounding set: still
uid 0, still the owner of the files, but the kernel now checks the owner's mode bits for them like
for anyone. As an ordinary user nothing is needed, and the prefix is empty. Each test first checks
that the prefix really takes the privilege away.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from codecairn.store.store import database_path
from raw_client import serve
from realcode import wait_for

LOSE_PRIVILEGE = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"]


@pytest.fixture(scope="module")
def unprivileged(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The command prefix that makes a process subject to permission bits."""
    if os.geteuid() != 0:
        return []
    assert shutil.which("setpriv"), "setpriv (util-linux) is needed to test permissions as root"
    probe = tmp_path_factory.mktemp("probe") / "locked"
    probe.write_text("secret")
    probe.chmod(0)
    denied = subprocess.run([*LOSE_PRIVILEGE, "cat", str(probe)], capture_output=True, text=True)
    assert denied.returncode != 0 and "Permission denied" in denied.stderr, "setpriv did not take the privilege away"
    return LOSE_PRIVILEGE


@contextmanager
def mode(path: Path, bits: int) -> Iterator[None]:
    before = path.stat().st_mode & 0o7777
    path.chmod(bits)
    try:
        yield
    finally:
        path.chmod(before)


def watcher_runs(server) -> int:
    """How many re-index runs (done or failed) the server's watcher has logged so far."""
    return server.stderr.count("re-indexed ") + server.stderr.count("re-index of ")


def run(prefix: list[str], exe: str, cache: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*prefix, exe, "--cache-dir", str(cache), *args], capture_output=True, text=True, timeout=120)


def index_json(exe: str, cache: Path, root: Path) -> dict:
    done = run([], exe, cache, "index", str(root), "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def clean_refusal(result: subprocess.CompletedProcess, *mentions: str) -> None:
    """Exit 2, a message naming what and why, no traceback, no advice to delete anything."""
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    for text in mentions:
        assert text in result.stderr, (text, result.stderr)
    assert "--rebuild" not in result.stderr and "delete" not in result.stderr, result.stderr


def test_an_unreadable_root_keeps_its_index(
    stdlib_part: Path, tmp_path: Path, codecairn_exe: str, unprivileged: list[str]
) -> None:
    cache = tmp_path / "cache"
    files = index_json(codecairn_exe, cache, stdlib_part)["files"]
    with mode(stdlib_part, 0):
        refused = run(unprivileged, codecairn_exe, cache, "index", str(stdlib_part), "--json")
        clean_refusal(refused, str(stdlib_part), "Permission denied")

        server = serve(stdlib_part, cache, "--no-embed", prefix=unprivileged)
        try:
            server.initialize()
            is_error, answer = server.call("index")
            assert is_error and "Permission denied" in answer["message"], answer
            is_error, stats = server.call("stats")
            assert not is_error and stats["files"] == files, "an unreadable root emptied the index"
            is_error, found = server.call("get_symbol", {"name": "json.decoder.JSONDecoder"})
            assert not is_error and found["qualified_name"] == "json.decoder.JSONDecoder"
        finally:
            assert server.close() == 0, server.stderr[-2000:]
    # Readable again: nothing had been forgotten, so nothing is parsed again.
    again = index_json(codecairn_exe, cache, stdlib_part)
    assert again["files"] == files and again["parsed"] == 0


def test_a_first_index_of_an_unreadable_root_is_refused_cleanly(
    stdlib_part: Path, tmp_path: Path, codecairn_exe: str, unprivileged: list[str]
) -> None:
    cache = tmp_path / "cache"
    with mode(stdlib_part, 0):
        refused = run(unprivileged, codecairn_exe, cache, "index", str(stdlib_part))
    clean_refusal(refused, str(stdlib_part), "Permission denied")


def test_an_unreadable_directory_keeps_its_files_facts_until_it_can_be_read(
    stdlib_part: Path, tmp_path: Path, codecairn_exe: str, unprivileged: list[str]
) -> None:
    cache = tmp_path / "cache"
    files = index_json(codecairn_exe, cache, stdlib_part)["files"]
    json_dir = stdlib_part / "json"
    server = serve(stdlib_part, cache, "--no-index", "--no-embed", prefix=unprivileged)
    try:
        server.initialize()
        wait_for(lambda: "for file events" in server.stderr, "the server's watcher is watching")
        handled = watcher_runs(server)
        with mode(json_dir, 0):
            wait_for(lambda: watcher_runs(server) > handled, "the watcher handles the directory's change")
            is_error, found = server.call("get_symbol", {"name": "json.decoder.JSONDecoder"})
            assert not is_error, found
            assert found["qualified_name"] == "json.decoder.JSONDecoder"
            assert "json/decoder.py" in found.get("stale", []), "its facts are kept, and said to be unverifiable"
            is_error, summary = server.call("index")
            assert not is_error, summary
            assert summary["files"] == files and summary.get("deleted", 0) == 0, summary
            assert summary["unreadable"] == ["json"], summary
            # The command line agrees, and says so too.
            cli = run(unprivileged, codecairn_exe, cache, "index", str(stdlib_part), "--json")
            assert cli.returncode == 0, cli.stderr
            assert json.loads(cli.stdout)["files"] == files and "json" in cli.stderr
        is_error, summary = server.call("index")
        assert not is_error and summary["files"] == files and summary["parsed"] == 0, summary
    finally:
        assert server.close() == 0, server.stderr[-2000:]


def test_a_read_only_database_is_served_read_only(
    stdlib_part: Path, tmp_path: Path, codecairn_exe: str, unprivileged: list[str]
) -> None:
    cache = tmp_path / "cache"
    files = index_json(codecairn_exe, cache, stdlib_part)["files"]
    db = database_path(stdlib_part, cache)
    before = db.read_bytes()
    with mode(db, 0o444):
        refused = run(unprivileged, codecairn_exe, cache, "index", str(stdlib_part))
        clean_refusal(refused, str(db), "read-only")

        looked_up = run(
            unprivileged,
            codecairn_exe,
            cache,
            "query",
            "json.decoder.JSONDecoder",
            "--root",
            str(stdlib_part),
            "--json",
        )
        assert looked_up.returncode == 0, looked_up.stderr
        assert json.loads(looked_up.stdout)["qualified_name"] == "json.decoder.JSONDecoder"

        # Background index, watcher and embedder asked for (the shipped model as it is: no quantising).
        server = serve(stdlib_part, cache, prefix=unprivileged, env={"CODECAIRN_EMBED_INT8": "0"})
        try:
            server.initialize()
            is_error, found = server.call("find_symbols", {"name": "JSONDecoder"})
            assert not is_error and [(p, e["name"]) for p, es in found["results"].items() for e in es] == [
                ("json/decoder.py", "JSONDecoder")
            ]
            is_error, stats = server.call("stats")
            assert not is_error and stats["files"] == files
            for tool, args in (
                ("index", {}),
                ("remember", {"reason": "decoding", "symbol": "json.decoder.JSONDecoder"}),
            ):
                is_error, answer = server.call(tool, args)
                assert is_error and answer["error"] == "unavailable", (tool, answer)
                assert "read-only" in answer["message"] and str(db) in answer["message"], answer
                assert "--rebuild" not in answer["message"] and "delete" not in answer["message"]
            # An edit: nobody tries to write it in, again and again — watched for a while, the server
            # keeps answering and never starts a re-index.
            decoder = stdlib_part / "json" / "decoder.py"
            decoder.write_text(decoder.read_text() + "\n\ndef added():\n    return 1\n")
            watched_for = time.monotonic() + 2.0
            while time.monotonic() < watched_for:
                assert server.call("stats")[0] is False
                assert "re-index" not in server.stderr, server.stderr[-3000:]
                time.sleep(0.1)
        finally:
            assert server.close() == 0, server.stderr[-2000:]
        log = server.stderr
        assert "Traceback" not in log, log[-3000:]
        assert log.count("read-only") <= 3 and "re-index" not in log, log[-3000:]
        assert "failed" not in log, log[-3000:]  # the embedder too: vectors it cannot store stay in memory
    assert db.read_bytes() == before


def test_no_database_and_a_read_only_cache_directory(
    stdlib_part: Path, tmp_path: Path, codecairn_exe: str, unprivileged: list[str]
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    with mode(cache, 0o555):
        refused = run(unprivileged, codecairn_exe, cache, "index", str(stdlib_part))
    clean_refusal(refused, str(cache), "Permission denied", "--cache-dir")


def test_a_read_only_workspaces_directory(
    stdlib_part: Path, tmp_path: Path, codecairn_exe: str, unprivileged: list[str]
) -> None:
    cache = tmp_path / "cache"
    index_json(codecairn_exe, cache, stdlib_part)
    db = database_path(stdlib_part, cache)
    with mode(db.parent, 0o555):
        refused = run(unprivileged, codecairn_exe, cache, "index", str(stdlib_part))
        clean_refusal(refused, str(db.parent), "read-only")
        looked_up = run(
            unprivileged,
            codecairn_exe,
            cache,
            "query",
            "json.decoder.JSONDecoder",
            "--root",
            str(stdlib_part),
            "--json",
        )
        assert looked_up.returncode == 0, looked_up.stderr
        assert json.loads(looked_up.stdout)["qualified_name"] == "json.decoder.JSONDecoder"
