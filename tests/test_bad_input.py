"""Bad input gets a clear error and changes nothing: roots that are not directories, binary and
huge files, symlink loops and links out of the root."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path


def run(exe: str, *args: str, cache: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [exe, "--cache-dir", str(cache), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def test_a_missing_root_and_a_file_as_root_are_refused(tmp_path: Path, codecairn_exe: str) -> None:
    cache = tmp_path / "cache"
    missing = run(codecairn_exe, "index", str(tmp_path / "nope"), cache=cache)
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    f = tmp_path / "single.py"
    f.write_text("x = 1\n")
    as_file = run(codecairn_exe, "index", str(f), cache=cache)
    assert as_file.returncode == 2 and "not a directory" in as_file.stderr
    assert not cache.exists() or not any(cache.rglob("*.db")), "nothing was created"


def test_binary_huge_and_looping_files_are_skipped_and_counted(tmp_path: Path, codecairn_exe: str) -> None:
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("def ok():\n    return 1\n")
    (root / "pkg" / "blob.py").write_bytes(b"def x():\n    pass\n\0\0\0binary")
    (root / "pkg" / "huge.py").write_text("VALUE = 1\n" * 20000)  # 200 kB
    (root / "pkg" / "loop").symlink_to(root / "pkg")  # a directory loop
    outside = tmp_path / "outside.py"
    outside.write_text("def leaked():\n    pass\n")
    (root / "pkg" / "leak.py").symlink_to(outside)  # a link out of the root
    (root / "node_modules").mkdir()
    (root / "node_modules" / "dep.py").write_text("def vendored():\n    pass\n")
    (root / ".gitignore").write_text("ignored_*.py\n")
    (root / "ignored_me.py").write_text("def hidden():\n    pass\n")

    result = run(
        codecairn_exe,
        "index",
        str(root),
        "--json",
        cache=tmp_path / "cache",
        env={"CODECAIRN_MAX_FILE_BYTES": "100000"},
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["files"] == 1, "only pkg/__init__.py is indexable"
    reasons = summary["skipped_reasons"]
    assert reasons["binary"] == 1
    assert reasons["larger than 100000 bytes"] == 1
    assert reasons["symlink outside the root"] == 1
    assert reasons["symlinked directory (not followed)"] == 1
    assert summary["skipped"] == 4

    listed = run(codecairn_exe, "query", "leaked", "--root", str(root), "--json", cache=tmp_path / "cache")
    assert json.loads(listed.stdout)["results"] == {} and listed.returncode == 1
