"""Alice commits a snapshot of her index; Bob clones the repository and his first `codecairn index`
starts from it, re-parsing only the files that differ. Real git, real processes, part of the
standard library as the code."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
import zstandard
from codecairn.snapshot import export_snapshot
from codecairn.workspace import Workspace
from realcode import answers


def git(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    return subprocess.run(["git", *args], cwd=root, env=env, check=check, capture_output=True, text=True)


def codecairn(exe: str, cache: Path, *args: str) -> dict:
    done = subprocess.run(
        [exe, *args, "--json"],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return {**json.loads(done.stdout), "_stderr": done.stderr}


def repository(root: Path) -> Path:
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "code")
    return root


def graph(exe: str, cache: Path, root: Path) -> list[dict]:
    out = subprocess.run(
        [exe, "export", str(root)],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache)},
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    ).stdout
    return sorted((json.loads(line) for line in out.splitlines()), key=lambda r: json.dumps(r, sort_keys=True))


def test_a_teammate_starts_from_the_committed_snapshot(stdlib_part: Path, tmp_path: Path, codecairn_exe: str) -> None:
    alice = repository(stdlib_part)
    exported = codecairn(codecairn_exe, tmp_path / "alice-cache", "snapshot", "export", str(alice))
    snapshot = alice / ".codecairn" / "index.db.zst"
    assert Path(exported["path"]) == snapshot and snapshot.stat().st_size == exported["size_bytes"]
    assert exported["size_bytes"] < exported["database_bytes"] / 2
    assert (alice / ".codecairn" / ".gitattributes").read_text() == "index.db.zst binary merge=ours\n"
    git(alice, "add", ".codecairn")
    git(alice, "commit", "-q", "-m", "share the index")

    bob = tmp_path / "bob"
    git(tmp_path, "clone", "-q", str(alice), str(bob))
    with open(bob / "json" / "decoder.py", "a") as fh:
        fh.write("\n\ndef bobs_helper(text):\n    return JSONDecoder().decode(text)\n")
    (bob / "shlex.py").unlink()

    summary = codecairn(codecairn_exe, tmp_path / "bob-cache", "index", str(bob))
    assert summary["snapshot"]["files"] == exported["files"]
    assert (summary["parsed"], summary["deleted"]) == (1, 1), "only Bob's edited file is parsed again"
    assert summary["unchanged"] == exported["files"] - 2
    assert summary["files"] == exported["files"] - 1

    # What Bob gets is what indexing his tree from scratch gives.
    scratch = tmp_path / "scratch"
    shutil.copytree(bob, scratch, ignore=shutil.ignore_patterns(".git", ".codecairn"))
    codecairn(codecairn_exe, tmp_path / "scratch-cache", "index", str(scratch))
    assert graph(codecairn_exe, tmp_path / "bob-cache", bob) == graph(
        codecairn_exe, tmp_path / "scratch-cache", scratch
    )


@pytest.mark.anyio
async def test_the_snapshot_holds_no_absolute_path_no_source_and_no_memories(
    stdlib_part: Path, cache_dir: Path, tmp_path: Path
) -> None:
    ws = await Workspace.open(stdlib_part)
    try:
        await ws.index_now()
        await ws.memory.remember(
            reason="Alice's private note about the decoder", path="json/decoder.py", start_line=1, end_line=3
        )
        # An edit through codecairn keeps the file's state before it (and its root's absolute path)
        # in the edit history: personal, never shared.
        await answers(ws).call("edit", path="json/decoder.py", insert_line=1, new_text="# Alice's edit\n")
        result = await export_snapshot(ws.root, ws.host, ws.store, ws.indexer.lock)
    finally:
        await ws.close()
    data = zstandard.ZstdDecompressor().stream_reader(open(result.path, "rb")).read()
    assert data.startswith(b"SQLite format 3\0")
    assert str(tmp_path).encode() not in data, "no absolute path (root, cache) anywhere in the file"
    assert b"private note" not in data

    source = (stdlib_part / "json" / "decoder.py").read_text()
    statements = {
        line.strip()
        for line in source.splitlines()
        if re.match(r"\s+(return |raise |if |for |while |\w+ = )", line) and len(line.strip()) > 20
    }
    assert len(statements) > 20
    assert [s for s in statements if s.encode() in data] == [], "no line of code is in the snapshot"

    copy = tmp_path / "opened.db"
    copy.write_bytes(data)
    con = sqlite3.connect(copy)
    try:
        meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
        assert set(meta) == {"generation", "resolved_once", "snapshot_plugins"}
        assert "python" in json.loads(meta["snapshot_plugins"])
        assert con.execute("SELECT COUNT(*) FROM memories").fetchone()[0] == 0
        assert con.execute("SELECT COUNT(*) FROM history_files").fetchone()[0] == 0
        assert con.execute("SELECT COUNT(*) FROM history").fetchone()[0] == 0
        assert con.execute("SELECT COUNT(*) FROM files WHERE path LIKE '/%'").fetchone()[0] == 0
        assert con.execute("SELECT COUNT(*) FROM symbols").fetchone()[0] > 1000
    finally:
        con.close()


def test_branches_that_both_change_the_snapshot_merge_keeping_ours(
    stdlib_part: Path, tmp_path: Path, codecairn_exe: str
) -> None:
    repo = repository(stdlib_part)
    cache = tmp_path / "cache"
    codecairn(codecairn_exe, cache, "snapshot", "export", str(repo))
    git(repo, "add", ".codecairn")
    git(repo, "commit", "-q", "-m", "snapshot")
    codecairn(codecairn_exe, cache, "snapshot", "export", str(repo))
    assert git(repo, "status", "--porcelain").stdout == "", "an unchanged index exports to the same bytes"
    assert git(repo, "check-attr", "merge", "binary", "--", ".codecairn/index.db.zst").stdout.splitlines() == [
        ".codecairn/index.db.zst: merge: ours",
        ".codecairn/index.db.zst: binary: set",
    ]

    git(repo, "checkout", "-q", "-b", "theirs")
    with open(repo / "shlex.py", "a") as fh:
        fh.write("\ndef on_their_branch():\n    pass\n")
    codecairn(codecairn_exe, cache, "snapshot", "export", str(repo))
    git(repo, "commit", "-q", "-am", "theirs")
    git(repo, "checkout", "-q", "main")
    with open(repo / "textwrap.py", "a") as fh:
        fh.write("\ndef on_our_branch():\n    pass\n")
    codecairn(codecairn_exe, cache, "snapshot", "export", str(repo))
    git(repo, "commit", "-q", "-am", "ours")
    ours = (repo / ".codecairn" / "index.db.zst").read_bytes()

    # Without the `ours` driver defined, git cannot merge two binary versions: a conflict.
    conflicted = git(repo, "merge", "-q", "theirs", "-m", "merge", check=False)
    assert conflicted.returncode != 0 and "index.db.zst" in conflicted.stdout + conflicted.stderr
    git(repo, "merge", "--abort")

    # With it (one line of setup per clone, see docs/freshness.md) the merge keeps our snapshot.
    git(repo, "config", "merge.ours.driver", "true")
    merged = git(repo, "merge", "-q", "theirs", "-m", "merge", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert (repo / ".codecairn" / "index.db.zst").read_bytes() == ours
    assert "on_their_branch" in (repo / "shlex.py").read_text(), "the code itself merged normally"


def test_a_snapshot_never_replaces_an_index_and_a_bad_one_is_skipped(
    stdlib_part: Path, tmp_path: Path, codecairn_exe: str
) -> None:
    cache = tmp_path / "cache"
    exported = codecairn(codecairn_exe, cache, "snapshot", "export", str(stdlib_part))

    # The root already has its index: a snapshot appearing later (a pull) is not imported.
    with open(stdlib_part / "textwrap.py", "a") as fh:
        fh.write("\ndef later():\n    pass\n")
    again = codecairn(codecairn_exe, cache, "index", str(stdlib_part))
    assert "snapshot" not in again and again["parsed"] == 1

    # A damaged snapshot in a fresh clone: said so, then indexed from scratch.
    other = tmp_path / "other"
    shutil.copytree(stdlib_part, other)
    packed = other / ".codecairn" / "index.db.zst"
    packed.write_bytes(packed.read_bytes()[: packed.stat().st_size // 2])
    fresh = codecairn(codecairn_exe, tmp_path / "other-cache", "index", str(other))
    assert "not using the snapshot" in fresh["_stderr"]
    assert "snapshot" not in fresh and fresh["parsed"] == fresh["files"] == exported["files"]
    assert [p.name for p in (tmp_path / "other-cache" / "workspaces").iterdir() if ".importing" in p.name] == []


def test_files_of_a_language_whose_plugin_changed_are_parsed_again(
    stdlib_part: Path, tmp_path: Path, codecairn_exe: str
) -> None:
    exported = codecairn(codecairn_exe, tmp_path / "cache", "snapshot", "export", str(stdlib_part))
    # The exporter had another version of the Python plugin (its facts may differ from ours).
    packed = stdlib_part / ".codecairn" / "index.db.zst"
    db = tmp_path / "edit.db"
    db.write_bytes(zstandard.ZstdDecompressor().stream_reader(open(packed, "rb")).read())
    con = sqlite3.connect(db)
    plugins = json.loads(con.execute("SELECT value FROM meta WHERE key='snapshot_plugins'").fetchone()[0])
    plugins["python"] = "codecairn-python 0.0.1"
    con.execute("UPDATE meta SET value=? WHERE key='snapshot_plugins'", (json.dumps(plugins),))
    con.commit()
    con.close()
    packed.write_bytes(zstandard.ZstdCompressor().compress(db.read_bytes()))

    clone = tmp_path / "clone"
    shutil.copytree(stdlib_part, clone)
    summary = codecairn(codecairn_exe, tmp_path / "clone-cache", "index", str(clone))
    assert summary["snapshot"]["reparse_languages"] == ["python"]
    assert summary["parsed"] == summary["files"] == exported["files"]
