"""A developer edits, adds, deletes and moves files while the watcher runs; answers follow
without anyone calling `index`. Real files, real file-system events, real git for the polling
fallback, on a copy of part of the standard library."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
from codecairn.errors import ToolError
from codecairn.freshness.watcher import Watcher, filesystem_type, poll_interval
from codecairn.workspace import Workspace
from realcode import answers, python_edges

pytestmark = pytest.mark.anyio

DEADLINE = 15.0  # generous: the machines running this are shared and busy


@asynccontextmanager
async def watched(root: Path, **options) -> AsyncIterator[tuple[Workspace, Watcher]]:
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        watcher = Watcher(ws.indexer, **options)
        async with anyio.create_task_group() as tg:
            tg.start_soon(watcher.run)
            with anyio.fail_after(DEADLINE):
                await watcher.ready.wait()
            yield ws, watcher
            tg.cancel_scope.cancel()
    finally:
        await ws.close()


async def eventually(check: Callable[[], Awaitable[bool]], what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not await check():
        if time.monotonic() > deadline:
            pytest.fail(f"after {DEADLINE:g}s still not: {what}")
        await anyio.sleep(0.02)


async def found(ws: Workspace, name: str) -> bool:
    await ws.indexer.wait_fresh()
    try:
        answer = await answers(ws).get_symbol(name)
    except ToolError:
        return False
    return not answer.get("ambiguous")


async def absent(ws: Workspace, path: str) -> bool:
    """Neither the file nor (for a directory) anything under it is indexed."""
    await ws.indexer.wait_fresh()
    return path not in ws.state.files_by_path and not any(p.startswith(path + "/") for p in ws.state.files_by_path)


def names_in(ws: Workspace, path: str) -> set[str]:
    state = ws.state.files_by_path.get(path)
    if state is None:
        return set()
    return {ws.state.symbols.rows[i].qualified_name for i in ws.state.symbols.by_file.get(state.id, ())}


async def test_an_edit_is_in_the_answers_without_calling_index(stdlib_part: Path, cache_dir: Path) -> None:
    async with watched(stdlib_part) as (ws, watcher):
        assert watcher.active == "events"
        before = ws.state.generation
        with open(stdlib_part / "json" / "decoder.py", "a") as fh:
            fh.write("\n\ndef decode_twice(text):\n    return JSONDecoder().raw_decode(text)\n")

        await eventually(lambda: found(ws, "json.decoder.decode_twice"), "the new function is known")
        answer = await answers(ws).get_symbol("json.decoder.decode_twice")
        assert "json.decoder.JSONDecoder.__init__" in python_edges(answer["callees"])  # JSONDecoder() runs it
        assert int(answer["lines"].split("-")[0]) > 300
        assert ws.state.generation > before
        assert ws.state.stale_paths(["json/decoder.py"]) == []

        # A later edit of the same function's body moves what the answers say.
        text = (stdlib_part / "json" / "decoder.py").read_text()
        (stdlib_part / "json" / "decoder.py").write_text(
            text.replace("    return JSONDecoder().raw_decode(text)\n", "    return loads(text)\n")
        )

        async def calls_loads() -> bool:
            await ws.indexer.wait_fresh()
            callees = (await answers(ws).get_symbol("json.decoder.decode_twice")).get("callees", {})
            return "json.decoder.JSONDecoder.__init__" not in python_edges(callees)

        await eventually(calls_loads, "the edited body's calls replace the old ones")


async def test_files_and_directories_that_come_go_and_move(stdlib_part: Path, cache_dir: Path) -> None:
    async with watched(stdlib_part) as (ws, _):
        # A new file.
        (stdlib_part / "json" / "fresh.py").write_text("def brand_new():\n    return 1\n")
        await eventually(lambda: found(ws, "json.fresh.brand_new"), "a new file is indexed")

        # A rename: the old path is gone, the new one has the symbols.
        os.rename(stdlib_part / "json" / "fresh.py", stdlib_part / "json" / "renamed.py")
        await eventually(lambda: found(ws, "json.renamed.brand_new"), "the renamed file is indexed")
        await eventually(lambda: absent(ws, "json/fresh.py"), "the old name is forgotten")

        # A deletion.
        (stdlib_part / "json" / "renamed.py").unlink()
        await eventually(lambda: absent(ws, "json/renamed.py"), "a deleted file is forgotten")
        assert not await found(ws, "json.renamed.brand_new")

        # A directory that appears with files already in it (copied or moved in): its files raise
        # no events of their own.
        outside = stdlib_part.parent / "staging" / "extras"
        outside.mkdir(parents=True)
        (outside / "__init__.py").write_text("")
        (outside / "tools.py").write_text("class Wrench:\n    def turn(self):\n        return 2\n")
        shutil.move(str(outside), str(stdlib_part / "extras"))
        await eventually(lambda: found(ws, "extras.tools.Wrench.turn"), "a moved-in directory is indexed")

        # The directory moved within the root: every file follows.
        os.rename(stdlib_part / "extras", stdlib_part / "toolbox")
        await eventually(lambda: found(ws, "toolbox.tools.Wrench"), "a renamed directory's files are indexed")
        await eventually(lambda: absent(ws, "extras"), "the old directory is forgotten")

        # And removed altogether.
        shutil.rmtree(stdlib_part / "toolbox")
        await eventually(lambda: absent(ws, "toolbox"), "a removed directory is forgotten")


async def test_ignored_places_stay_out_until_the_rules_change(stdlib_part: Path, cache_dir: Path) -> None:
    (stdlib_part / ".gitignore").write_text("generated/\n")
    async with watched(stdlib_part) as (ws, _):
        (stdlib_part / "node_modules" / "pkg").mkdir(parents=True)
        (stdlib_part / "node_modules" / "pkg" / "vendored.py").write_text("def vendored():\n    pass\n")
        (stdlib_part / "generated").mkdir()
        (stdlib_part / "generated" / "output.py").write_text("def generated_code():\n    pass\n")
        # Something that is indexed, written last: once it shows, the others had their chance.
        (stdlib_part / "marker.py").write_text("def marker():\n    pass\n")
        await eventually(lambda: found(ws, "marker.marker"), "the marker file is indexed")
        assert not any(p.startswith(("node_modules/", "generated/")) for p in ws.state.files_by_path)

        # The rules change: what they no longer exclude is indexed.
        (stdlib_part / ".gitignore").write_text("# nothing ignored now\n")
        await eventually(
            lambda: found(ws, "generated.output.generated_code"),
            "a directory the .gitignore no longer excludes is indexed",
        )
        assert not any(p.startswith("node_modules/") for p in ws.state.files_by_path), "node_modules is never indexed"


async def test_a_query_arriving_during_a_reindex_waits_for_it(stdlib_part: Path, cache_dir: Path) -> None:
    # A file big enough that re-indexing it takes a while: 3,000 small functions.
    body = "".join(f"def step_{i}(x):\n    return step_{i - 1}(x) if x else {i}\n\n" for i in range(1, 3000))
    async with watched(stdlib_part) as (ws, _):
        (stdlib_part / "steps.py").write_text("def step_0(x):\n    return 0\n\n" + body)
        deadline = time.monotonic() + DEADLINE
        while not ws.indexer.pending:  # the watcher has the change and is re-indexing it
            assert time.monotonic() < deadline, "the watcher never picked the change up"
            await anyio.sleep(0.001)
        assert "step_2999" not in ws.state.symbols.by_name, "caught before the re-index finished"

        assert await ws.indexer.wait_fresh(timeout=DEADLINE), "the wait ends when the file is indexed"
        assert not ws.indexer.pending
        answer = await answers(ws).get_symbol("steps.step_2999")
        assert set(python_edges(answer["callees"])) == {"steps.step_2998"}


async def test_a_remembered_place_moves_with_the_edit_the_watcher_picked_up(stdlib_part: Path, cache_dir: Path) -> None:
    async with watched(stdlib_part) as (ws, _):
        memo = await ws.memory.remember(reason="where decoding starts", symbol="json.decoder.JSONDecoder.raw_decode")
        before = ws.state.generation
        decoder = stdlib_part / "json" / "decoder.py"
        decoder.write_text("# one\n# two\n# three\n" + decoder.read_text())

        async def reindexed() -> bool:
            await ws.indexer.wait_fresh()
            return ws.state.generation > before

        await eventually(reindexed, "the edit is re-indexed")
        # Stored as moved by the watcher's run itself, before anyone recalls it.
        rows = await ws.store.fetch("SELECT start_line, end_line, state FROM memories WHERE id=?", (memo["id"],))
        assert rows == [(memo["start_line"] + 3, memo["end_line"] + 3, "moved")]


def git(root: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    return subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True, text=True).stdout


async def test_polling_follows_git_edits_new_files_reverts_and_checkouts(stdlib_part: Path, cache_dir: Path) -> None:
    git(stdlib_part, "init", "-q", "-b", "main")
    git(stdlib_part, "add", "-A")
    git(stdlib_part, "commit", "-q", "-m", "stdlib")
    git(stdlib_part, "checkout", "-q", "-b", "feature")
    (stdlib_part / "shlex.py").write_text((stdlib_part / "shlex.py").read_text() + "\ndef on_feature():\n    pass\n")
    git(stdlib_part, "commit", "-q", "-am", "feature")
    git(stdlib_part, "checkout", "-q", "main")

    async with watched(stdlib_part, mode="poll", poll_seconds=0.1) as (ws, watcher):
        assert watcher.active == "git"
        decoder = stdlib_part / "json" / "decoder.py"
        original = decoder.read_text()
        decoder.write_text(original + "\ndef edited_on_main():\n    pass\n")
        await eventually(lambda: found(ws, "json.decoder.edited_on_main"), "an edit to a tracked file")

        (stdlib_part / "untracked.py").write_text("def untracked():\n    pass\n")
        await eventually(lambda: found(ws, "untracked.untracked"), "a new untracked file")

        # Edited again while already dirty: git status says the same, the file does not.
        decoder.write_text(original + "\ndef edited_again():\n    pass\n")
        await eventually(lambda: found(ws, "json.decoder.edited_again"), "a second edit to a dirty file")

        git(stdlib_part, "checkout", "--", "json/decoder.py")  # reverted: clean again

        async def reverted() -> bool:
            await ws.indexer.wait_fresh()
            return "json.decoder.edited_again" not in names_in(ws, "json/decoder.py")

        await eventually(reverted, "a reverted file")

        (stdlib_part / "untracked.py").unlink()
        git(stdlib_part, "checkout", "-q", "feature")  # HEAD moves: everything may differ
        await eventually(lambda: found(ws, "shlex.on_feature"), "the checked-out branch's code")
        assert "untracked.py" not in ws.state.files_by_path


async def test_polling_without_git_compares_modification_times(stdlib_part: Path, cache_dir: Path) -> None:
    async with watched(stdlib_part, mode="poll", poll_seconds=0.1) as (ws, watcher):
        assert watcher.active == "mtime"
        (stdlib_part / "textwrap.py").write_text("def only_this():\n    pass\n")
        await eventually(lambda: found(ws, "textwrap.only_this"), "an edit found by scanning")
        assert not await found(ws, "textwrap.TextWrapper")
        (stdlib_part / "textwrap.py").unlink()
        await eventually(lambda: absent(ws, "textwrap.py"), "a deletion found by scanning")


def test_polling_slows_down_as_the_repository_grows() -> None:
    assert poll_interval(0) == 5.0
    assert poll_interval(5000) == 15.0
    assert poll_interval(1_000_000) == 60.0
    assert poll_interval(500, base=0.1) == pytest.approx(1.1)


def test_the_file_system_type_comes_from_the_mount_table(tmp_path: Path) -> None:
    assert filesystem_type("/proc/self") == "proc"
    assert filesystem_type(str(tmp_path)) != ""
