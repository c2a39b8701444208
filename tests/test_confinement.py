"""Every file the server opens is confined at the moment it is opened, whatever led to it: a
symbol's stored path, a memory being placed again, a .gitignore, a shared snapshot. A file (or a
directory) swapped for a link out of the root after indexing is never read.

The attacker's move in every story: index a project, then replace one of its files or directories
with a symlink to something outside, and ask for it by the name the index remembers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

pytestmark = pytest.mark.anyio

SECRET = "TOP-SECRET-CONTENT-7f3a"


def project(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "swap.py").write_text("class Util:\n    def helper(self):\n        return 1\n")
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "mod.py").write_text("class Inner:\n    def run(self):\n        return 2\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    # Outside, the same shapes with a secret inside: a reader that follows the link finds lines
    # where the index says the symbol is.
    (outside / "secret.py").write_text(f"class Util:\n    def helper(self):\n        return '{SECRET}'\n")
    (outside / "mod.py").write_text(f"class Inner:\n    def run(self):\n        return '{SECRET}'\n")
    return root, outside


def server(root: Path, cache: Path, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "codecairn.cli", "serve", str(root), *extra],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache)},
    )


async def ask(session: ClientSession, tool: str, args: dict) -> tuple[bool, dict, str]:
    result = await session.call_tool(tool, args)
    text = "\n".join(c.text for c in result.content)
    # read_symbol's source comes as a text block after a one-line header; its fields are structured.
    return bool(result.is_error), result.structured_content or json.loads(text), text


async def test_a_file_swapped_for_a_link_out_of_the_root_is_not_served(tmp_path: Path, cache_dir: Path) -> None:
    root, outside = project(tmp_path)
    async with stdio_client(server(root, cache_dir, "--no-index", "--no-watch", "--no-embed")) as (r, w):
        async with ClientSession(r, w) as session:
            await session.initialize()
            await ask(session, "index", {})
            error, before, _ = await ask(session, "read_symbol", {"name": "swap.Util"})
            assert not error and "return 1" in before["source"]

            (root / "swap.py").unlink()
            (root / "swap.py").symlink_to(outside / "secret.py")
            error, answer, text = await ask(session, "read_symbol", {"name": "swap.Util"})
            assert SECRET not in text
            assert error and answer["error"] == "outside_workspace", answer

            # Asking for the method inside it, or naming the path, is refused the same way.
            error, _, text = await ask(session, "read_symbol", {"name": "swap.Util.helper"})
            assert error and SECRET not in text
            error, _, text = await ask(session, "read_symbol", {"name": "Util", "path": "swap.py"})
            assert error and SECRET not in text


async def test_a_directory_swapped_for_a_link_out_of_the_root_is_not_served(tmp_path: Path, cache_dir: Path) -> None:
    root, outside = project(tmp_path)
    async with stdio_client(server(root, cache_dir, "--no-index", "--no-watch", "--no-embed")) as (r, w):
        async with ClientSession(r, w) as session:
            await session.initialize()
            await ask(session, "index", {})
            (root / "pkg").rename(tmp_path / "pkg-away")
            (root / "pkg").symlink_to(outside)
            error, answer, text = await ask(session, "read_symbol", {"name": "pkg.mod.Inner.run"})
            assert SECRET not in text
            assert error and answer["error"] == "outside_workspace", answer


async def test_with_the_watcher_the_swapped_file_never_leaks(tmp_path: Path, cache_dir: Path) -> None:
    """The watcher re-indexes the swap away; before it does, and after, the secret is never read."""
    root, outside = project(tmp_path)
    async with stdio_client(server(root, cache_dir, "--no-embed")) as (r, w):
        async with ClientSession(r, w) as session:
            await session.initialize()
            await ask(session, "index", {})
            (root / "swap.py").unlink()
            (root / "swap.py").symlink_to(outside / "secret.py")
            for _ in range(20):
                _, _, text = await ask(session, "read_symbol", {"name": "swap.Util"})
                assert SECRET not in text


async def test_a_remembered_place_is_not_found_again_in_a_file_outside(tmp_path: Path, cache_dir: Path) -> None:
    """Re-anchoring reads the file a memory points into: after a swap it must not place the memory
    inside the outside file (that would tell where the outside file holds matching lines)."""
    root, outside = project(tmp_path)
    (outside / "secret.py").write_text("# padding\n" * 30 + "class Util:\n    def helper(self):\n        return 1\n")
    async with stdio_client(server(root, cache_dir, "--no-index", "--no-watch", "--no-embed")) as (r, w):
        async with ClientSession(r, w) as session:
            await session.initialize()
            await ask(session, "index", {})
            error, placed, _ = await ask(session, "remember", {"reason": "the helper", "symbol": "swap.Util.helper"})
            assert not error and placed["start_line"] == 2
            (root / "swap.py").unlink()
            (root / "swap.py").symlink_to(outside / "secret.py")
            error, recalled, _ = await ask(session, "recall", {})
            assert not error
            (memory,) = recalled["memories"]
            assert memory["start_line"] == 2, "not moved to where the outside file has the same lines"
            assert memory.get("state") == "orphaned", memory


def test_a_gitignore_linked_out_of_the_root_is_not_read(tmp_path: Path, codecairn_exe: str) -> None:
    root, outside = project(tmp_path)
    (outside / "rules").write_text("*.py\n")
    (root / ".gitignore").symlink_to(outside / "rules")
    result = subprocess.run(
        [codecairn_exe, "--cache-dir", str(tmp_path / "cache"), "index", str(root), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["files"] == 3, "the outside rules did not hide the project's files"


def test_a_file_swapped_between_the_walk_and_the_parse_is_not_parsed(tmp_path: Path) -> None:
    """The walker skips links out of the root; a swap after the walk reaches the parse worker."""
    from codecairn.host import PluginHost
    from codecairn.index.parse_pool import ParsePool

    root, outside = project(tmp_path)
    (root / "swap.py").unlink()
    (root / "swap.py").symlink_to(outside / "secret.py")
    fifo = root / "pipe.py"
    os.mkfifo(fifo)  # opening it must not wait for a writer
    pool = ParsePool(PluginHost().languages)
    results = pool.parse_inline(os.path.realpath(root), [("swap.py", "python", None), ("pipe.py", "python", None)])
    assert [r[0] for r in results] == ["skipped", "skipped"]
    assert "outside" in results[0][2] and "regular file" in results[1][2]


def test_a_snapshot_linked_out_of_the_root_is_not_imported(tmp_path: Path, codecairn_exe: str) -> None:
    root, outside = project(tmp_path)
    cache = tmp_path / "cache"
    exported = subprocess.run(
        [codecairn_exe, "--cache-dir", str(cache), "snapshot", "export", str(root), "--output", str(outside / "x.zst")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert exported.returncode == 0, exported.stderr
    (root / ".codecairn").mkdir()
    (root / ".codecairn" / "index.db.zst").symlink_to(outside / "x.zst")
    fresh = subprocess.run(
        [codecairn_exe, "--cache-dir", str(tmp_path / "cache2"), "index", str(root), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert fresh.returncode == 0, fresh.stderr
    assert "snapshot" not in json.loads(fresh.stdout)
    assert "outside the workspace root" in fresh.stderr
