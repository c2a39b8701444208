"""With CODECAIRN_METRICS_DB_URL set, every record also lands in PostgreSQL's mcp_calls, and no
fault of PostgreSQL reaches an agent: a server that is down at start, stopped mid-run, frozen, or
refusing the password leaves every call answered and every record in the JSONL log; once it is
back, what it missed is backfilled, each record exactly once. Against a real PostgreSQL cluster
started for the test (tests/postgres_cluster.py), with the faults caused for real."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from codecairn.store.store import database_path
from mcp import ClientSession, StdioServerParameters, stdio_client
from postgres_cluster import Cluster, available
from realcode import copy_stdlib, until

pytestmark = pytest.mark.anyio


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    why = available()
    if why:
        pytest.fail(why)
    c = Cluster()
    try:
        yield c
    finally:
        c.close()


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "code"
    root.mkdir()
    return copy_stdlib(root, ("json", "textwrap", "shlex"))


def serve(root: Path, cache: Path, url: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "codecairn.cli", "serve", str(root), "--no-index", "--no-watch", "--no-embed"],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache), "CODECAIRN_METRICS_DB_URL": url},
    )


def logged_ids(root: Path, cache: Path) -> list[str]:
    db = database_path(root, cache)
    path = db.with_name(db.stem + ".metrics.jsonl")
    return [json.loads(line)["id"] for line in path.read_text().splitlines()] if path.exists() else []


async def ask(session: ClientSession, tool: str, args: dict | None = None) -> dict:
    result = await session.call_tool(tool, args or {})
    payload = json.loads(result.content[0].text)
    assert not result.is_error, payload
    return payload


QUESTIONS = [
    ("get_symbol", {"name": "json.decoder.JSONDecoder"}),
    ("read_symbol", {"name": "shlex.split"}),
    ("file_outline", {"path": "textwrap.py"}),
    ("find_symbols", {"name": "dedent"}),
]


async def ask_all(session: ClientSession) -> None:
    for tool, args in QUESTIONS:
        await ask(session, tool, args)


async def test_a_stopped_then_frozen_server_misses_nothing(tree: Path, cache_dir: Path, cluster: Cluster) -> None:
    cluster.start()
    async with stdio_client(serve(tree, cache_dir, cluster.url())) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await ask(session, "index")
            await ask_all(session)
            first = await until(lambda: len(ids := logged_ids(tree, cache_dir)) == 5 and ids, "5 records logged")
            await until(
                lambda: {r[0] for r in (cluster.rows_or_none() or [])} == set(first), "the first records in PostgreSQL"
            )
            assert [r[1] for r in cluster.rows()] == ["index", *(t for t, _ in QUESTIONS)]
            stats = await ask(session, "stats")
            assert stats["cache"]["metrics_database"]["state"] == "connected"

            cluster.stop()  # mid-run: the next records cannot be sent
            await ask_all(session)
            stats = await ask(session, "stats")
            assert stats["cache"]["hits"] == 1 + 2 * len(QUESTIONS) + 1

            async def unreachable() -> bool:
                return (await ask(session, "stats"))["cache"]["metrics_database"]["state"] == "unreachable"

            await until(unreachable, "stats saying PostgreSQL is unreachable")

            cluster.start()  # back on the same port: reconnect (with backoff) and backfill
            await ask_all(session)
            await ask(session, "stats")
            everything = await until(lambda: len(ids := logged_ids(tree, cache_dir)) == 15 and ids, "15 records")
            await until(
                lambda: sorted(r[0] for r in (cluster.rows_or_none() or [])) == sorted(everything),
                "every logged record in PostgreSQL, once",
                timeout=90,
            )

            cluster.freeze()  # slow: it accepts nothing and refuses nothing
            try:
                await ask_all(session)
                stats = await ask(session, "stats")
                assert stats["cache"]["hits"] == 1 + 4 * len(QUESTIONS) + 2
            finally:
                cluster.thaw()
            everything = await until(lambda: len(ids := logged_ids(tree, cache_dir)) == 20 and ids, "20 records")
            await until(
                lambda: sorted(r[0] for r in (cluster.rows_or_none() or [])) == sorted(everything),
                "the records of the frozen minutes copied once it thawed",
                timeout=90,
            )
    rows = cluster.rows()
    assert len(rows) == len({r[0] for r in rows})  # nothing twice
    assert sorted(r[0] for r in rows) == sorted(logged_ids(tree, cache_dir))  # the last stats' too, at exit


async def test_down_at_start_then_backfilled(tree: Path, cache_dir: Path, cluster: Cluster) -> None:
    async with stdio_client(serve(tree, cache_dir, cluster.url())) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await ask(session, "index")
            await ask_all(session)
            stats = await ask(session, "stats")
            assert stats["cache"]["metrics_database"]["state"] == "unreachable"
            cluster.start()
            logged = await until(lambda: len(ids := logged_ids(tree, cache_dir)) == 6 and ids, "6 records logged")
            await until(
                lambda: sorted(r[0] for r in cluster.rows_or_none() or []) == sorted(logged),
                "the records written while PostgreSQL was down, backfilled",
                timeout=90,
            )


async def test_a_refused_password_is_said_and_nothing_breaks(tree: Path, cache_dir: Path, cluster: Cluster) -> None:
    cluster.start()
    async with stdio_client(serve(tree, cache_dir, cluster.url(password="wrong"))) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await ask(session, "index")
            await ask_all(session)

            async def refused() -> dict | None:
                db = (await ask(session, "stats"))["cache"]["metrics_database"]
                return db if db["state"] == "refused" else None

            db = await until(refused, "stats saying the password was refused")
    assert "password authentication failed" in db["error"] and "wrong" not in db["error"]
    assert len(logged_ids(tree, cache_dir)) >= 1 + len(QUESTIONS)
    assert cluster.rows_or_none() is None  # the table was never created
