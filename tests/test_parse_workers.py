"""Large runs parse in worker processes: plain children of the indexing process (no forkserver, no
resource tracker beside them), gone once the parsing is done, and a worker that dies fails the
run cleanly — the next run completes it. The pool itself: answers in order, exceptions carried
back, a printing plugin cannot corrupt the channel, a bad call or a failed start is reported."""

from __future__ import annotations

import os
import signal
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest
from codecairn.index import pipeline
from codecairn.index.process_pool import ProcessPool
from codecairn.workspace import Workspace
from realcode import pid_after, shout, until

pytestmark = pytest.mark.anyio


def children(pid: int) -> dict[int, str]:
    """Child processes of ``pid`` and their command lines, from /proc."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmdline = fh.read().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError, ValueError):
            continue
        if ppid == pid:
            found[int(entry)] = cmdline
    return found


def wait_until_gone(pids: set[int], seconds: float = 20.0) -> set[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = {p for p in pids if os.path.exists(f"/proc/{p}") and "Z" not in _state(p)}
        if not left:
            return set()
        time.sleep(0.05)
    return left


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


@pytest.fixture
def through_the_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """Send even a small tree through the worker processes (a few files are parsed in-process)."""
    monkeypatch.setattr(pipeline, "INLINE_LIMIT", 0)
    monkeypatch.setattr(pipeline, "INLINE_BYTES", 0)


async def edges_and_symbols(ws: Workspace) -> tuple[list[tuple], list[tuple]]:
    edges = await ws.store.fetch(
        "SELECT e.kind, f.path, e.line, e.target, e.receiver, t.qualified_name, e.resolution "
        "FROM edges e JOIN files f ON f.id = e.file_id "
        "LEFT JOIN symbols t ON t.id = e.target_id ORDER BY 1, 2, 3, 4, 5"
    )
    symbols = await ws.store.fetch(
        "SELECT f.path, s.kind, s.qualified_name, s.start_line, s.signature "
        "FROM symbols s JOIN files f ON f.id = s.file_id ORDER BY 1, 4, 3"
    )
    return edges, symbols


async def test_workers_are_plain_children_that_end_with_the_parsing_and_match_an_in_process_index(
    stdlib_part: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODECAIRN_CACHE_DIR", str(tmp_path / "inline-cache"))
    ws = await Workspace.open(stdlib_part)
    try:
        assert (await ws.index_now()).parsed > 50
        reference = await edges_and_symbols(ws)
    finally:
        await ws.close()

    monkeypatch.setattr(pipeline, "INLINE_LIMIT", 0)
    monkeypatch.setattr(pipeline, "INLINE_BYTES", 0)
    monkeypatch.setenv("CODECAIRN_CACHE_DIR", str(tmp_path / "pool-cache"))
    seen: dict[int, str] = {}

    async def progress(done: int, total: int, phase: str) -> None:
        if phase == "parsing":
            seen.update(children(os.getpid()))

    ws = await Workspace.open(stdlib_part)
    try:
        await ws.index_now(progress)
        workers = {pid for pid, cmd in seen.items() if "codecairn.index.process_pool" in cmd}
        assert len(workers) == ws.indexer.target.pool.workers, seen
        assert not [cmd for cmd in seen.values() if "forkserver" in cmd or "resource_tracker" in cmd], seen
        # Released once the files are parsed: nothing idles through the resolution or the server's life.
        assert wait_until_gone(workers) == set()
        assert await edges_and_symbols(ws) == reference
    finally:
        await ws.close()


async def test_a_worker_killed_mid_index_fails_the_run_and_the_next_run_completes_it(
    stdlib_part: Path, cache_dir: Path, tmp_path: Path, through_the_pool: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pipeline, "CHUNK_FILES", 2)  # many chunks: most are still to come at the kill
    killed: list[int] = []

    async def kill_one(done: int, total: int, phase: str) -> None:
        if phase == "parsing" and not killed:
            workers = [p for p, cmd in children(os.getpid()).items() if "codecairn.index.process_pool" in cmd]
            os.kill(workers[0], signal.SIGKILL)
            killed.append(workers[0])
            # The pool has seen it once it reaped the worker (the pid is gone, not a zombie).
            await until(lambda: not os.path.exists(f"/proc/{workers[0]}"), "the pool reaps its killed worker")

    ws = await Workspace.open(stdlib_part)
    try:
        with pytest.raises(BrokenProcessPool, match="ended abruptly"):
            await ws.index_now(kill_one)
    finally:
        await ws.close()
    assert killed

    ws = await Workspace.open(stdlib_part)
    try:
        summary = await ws.index_now()
        assert summary.files == summary.parsed > 50 and not summary.failed
        after_kill = await edges_and_symbols(ws)
    finally:
        await ws.close()

    monkeypatch.setenv("CODECAIRN_CACHE_DIR", str(tmp_path / "clean-cache"))
    ws = await Workspace.open(stdlib_part)
    try:
        await ws.index_now()
        assert after_kill == await edges_and_symbols(ws)
    finally:
        await ws.close()


# ---- the pool on its own ------------------------------------------------------------------------


def test_answers_come_back_in_order_with_their_exceptions() -> None:
    pool = ProcessPool(2)
    try:
        futures = [pool.submit(shout, w) for w in ("a", "b", "c", "d", "e")]
        failing = pool.submit(int, "not a number")
        unpicklable = pool.submit(len, lambda: 0)
        after = pool.submit(shout, "f")  # a bad call costs that call only
        assert [f.result(60) for f in futures] == ["A", "B", "C", "D", "E"]
        with pytest.raises(ValueError, match="not a number"):
            failing.result(60)
        with pytest.raises(Exception, match="lambda"):
            unpicklable.result(60)
        assert after.result(60) == "F"
        # Both workers take calls (realcode is imported by them from the parent's sys.path).
        pids = {f.result(60) for f in [pool.submit(pid_after, 0.3) for _ in range(4)]}
        assert pids == set(pool.pids) and os.getpid() not in pids
    finally:
        pool.shutdown()
    assert wait_until_gone(set(pool.pids)) == set()


def test_a_failing_initializer_breaks_the_pool_with_its_reason() -> None:
    pool = ProcessPool(1, initializer=int, initargs=("not a number",))
    try:
        fut = pool.submit(os.getpid)
        with pytest.raises(BrokenProcessPool, match="could not start: ValueError"):
            fut.result(60)
        with pytest.raises(BrokenProcessPool):
            pool.submit(os.getpid)
    finally:
        pool.shutdown()


def test_shutdown_cancels_waiting_calls_and_finishes_running_ones() -> None:
    pool = ProcessPool(1)
    assert pool.submit(os.getpid).result(60) == pool.pids[0]  # the worker is up: its start is answered
    running = pool.submit(pid_after, 0.5)
    waiting = [pool.submit(pid_after, 0) for _ in range(3)]
    pool.shutdown()
    assert running.result(60) == pool.pids[0]
    # One more was already in the worker's pipe (two calls per worker); the rest never ran.
    assert sum(f.cancelled() for f in waiting) == 2
    assert wait_until_gone(set(pool.pids)) == set()
    with pytest.raises(RuntimeError, match="closed"):
        pool.submit(os.getpid)


def test_an_edited_file_parsed_again_from_its_last_tree_gives_what_a_fresh_parse_gives(tmp_path: Path) -> None:
    """The narrow path keeps the trees of the files it parsed last and parses an edited one
    incrementally (tree-sitter re-parses the changed region): the facts must be exactly those of a
    parse from scratch, for edits at the start, in the middle, at the end, that add or remove lines,
    that put in non-ASCII text, and for a file replaced by something else entirely."""
    import sysconfig

    from codecairn.host import PluginHost
    from codecairn.index import parse_pool
    from codecairn.index.parse_pool import ParsePool, parse_chunk

    source = Path(sysconfig.get_paths()["stdlib"]) / "argparse.py"
    text = source.read_text()
    edits = [
        lambda t: "# edited\n" + t,
        lambda t: t.replace(
            "def _get_values(self, action, arg_strings):",
            "def _get_values(self, act, strings):\n    pass\n\n\ndef _get_values(self, action, arg_strings):",
            1,
        ),
        lambda t: t.replace(
            "    def error(self, message):", '    def error(self, message):  # é ü\n        """ünïcode"""', 1
        ),
        lambda t: t + "\n\ndef appended():\n    return ArgumentParser().parse_args([])\n",
        lambda t: t.replace("class Namespace(_AttributeHolder):", "class Namespace(_AttributeHolder, dict):", 1),
        lambda t: "\n".join(line for line in t.splitlines() if not line.startswith("import ")) + "\n",
        lambda t: "def replaced():\n    return 1\n",
        lambda t: text,
    ]
    pool = ParsePool(PluginHost().languages, workers=1)
    path = tmp_path / "argparse.py"
    path.write_text(text)
    assert pool.parse_inline(str(tmp_path), [("argparse.py", "python", None)])[0][0] == "parsed"
    assert ("python", path.read_bytes()) == parse_pool._recent[(str(tmp_path.resolve()), "argparse.py")][:2]
    for n, edit in enumerate(edits):
        text_now = edit(path.read_text())
        assert text_now != path.read_text(), n
        path.write_text(text_now)
        incremental = pool.parse_inline(str(tmp_path), [("argparse.py", "python", None)])
        fresh = parse_chunk(str(tmp_path), [("argparse.py", "python", None)])  # keeps no tree
        assert incremental[0][0] == "parsed", incremental
        assert incremental == fresh, n
    pool.close()
