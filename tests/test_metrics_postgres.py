"""With CODECAIRN_METRICS_DB_URL set, every record also lands in PostgreSQL's mcp_calls, and no
fault of PostgreSQL reaches an agent: a server that is down at start, stopped mid-run, frozen, or
refusing the password leaves every call answered and every record in the JSONL log; once it is
back, what it missed is backfilled, each record exactly once. Against a real PostgreSQL cluster
started for the test (tests/postgres_cluster.py), with the faults caused for real."""

from __future__ import annotations

import json
import os
import subprocess
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
    payload = result.structured_content or json.loads(result.content[0].text)
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


def state_is(session: ClientSession, state: str):
    async def check() -> bool:
        return (await ask(session, "stats"))["cache"]["metrics_database"]["state"] == state

    return check


def in_postgres(cluster: Cluster) -> list[str]:
    return sorted(r[0] for r in cluster.rows_or_none() or [])


async def copied(cluster: Cluster, logged: list[str], what: str) -> None:
    """Until every one of ``logged`` is in PostgreSQL (and nothing is there twice)."""
    await until(lambda: set(logged) <= set(in_postgres(cluster)), what, timeout=90, interval=0.2)


async def test_a_stopped_then_frozen_server_misses_nothing(tree: Path, cache_dir: Path, cluster: Cluster) -> None:
    cluster.start()
    async with stdio_client(serve(tree, cache_dir, cluster.url())) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await ask(session, "index")
            await ask_all(session)
            first = await until(lambda: len(ids := logged_ids(tree, cache_dir)) == 5 and ids, "5 records logged")
            await copied(cluster, first, "the first records in PostgreSQL")
            assert [r[1] for r in cluster.rows()] == ["index", *(t for t, _ in QUESTIONS)]
            stats = await ask(session, "stats")
            assert stats["cache"]["metrics_database"]["state"] == "connected"

            cluster.stop()  # mid-run: the next records cannot be sent
            hits = stats["cache"]["hits"]
            await ask_all(session)
            stats = await ask(session, "stats")
            assert stats["cache"]["hits"] == hits + len(QUESTIONS) + 1  # every call answered (stats too)

            await until(state_is(session, "unreachable"), "stats saying PostgreSQL is unreachable", interval=0.5)

            cluster.start()  # back on the same port: reconnect (with backoff) and backfill
            await ask_all(session)
            await ask(session, "stats")  # answered once every record before it is in the log
            await copied(cluster, logged_ids(tree, cache_dir), "the records of the outage backfilled")

            cluster.freeze()  # slow: it accepts nothing and refuses nothing
            try:
                hits = (await ask(session, "stats"))["cache"]["hits"]
                await ask_all(session)
                stats = await ask(session, "stats")
                assert stats["cache"]["hits"] == hits + len(QUESTIONS) + 1
                await until(state_is(session, "stalled"), "stats saying the copy is stalled", interval=0.5)
            finally:
                cluster.thaw()
            await copied(cluster, logged_ids(tree, cache_dir), "the records of the frozen minutes, once it thawed")
    rows = in_postgres(cluster)
    assert len(rows) == len(set(rows))  # nothing twice
    assert rows == sorted(logged_ids(tree, cache_dir))  # the last stats' too, sent at exit


async def test_down_at_start_then_backfilled_and_reported(tree: Path, cache_dir: Path, cluster: Cluster) -> None:
    async with stdio_client(serve(tree, cache_dir, cluster.url())) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await ask(session, "index")
            await ask_all(session)
            await until(state_is(session, "unreachable"), "stats saying PostgreSQL is unreachable", interval=0.5)
            cluster.start()
            logged = await until(lambda: len(ids := logged_ids(tree, cache_dir)) == 6 and ids, "6 records logged")
            await copied(cluster, logged, "the records written while PostgreSQL was down, backfilled")
            assert in_postgres(cluster) == sorted(logged)

            assert cluster.drop_connections("codecairn-metrics") >= 1  # the server drops our connections
            await ask_all(session)
            await ask(session, "stats")
            await copied(cluster, logged_ids(tree, cache_dir), "the records after the dropped connections")

    # the report reads the same figures from PostgreSQL as from the log
    from_log, from_db = (
        subprocess.run(
            [
                sys.executable,
                "-m",
                "codecairn.cli",
                "report",
                str(tree),
                "--json",
                "--no-claude",
                "--tz",
                "UTC",
                *extra,
            ],
            env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache_dir)},
            capture_output=True,
            text=True,
            timeout=120,
        )
        for extra in ([], ["--from-db", "--db-url", cluster.url()])
    )
    assert from_db.returncode == 0, from_db.stderr
    log_report, db_report = json.loads(from_log.stdout), json.loads(from_db.stdout)
    assert db_report["total"] == log_report["total"] and db_report["total"]["calls"] == len(logged_ids(tree, cache_dir))
    for table in ("sessions", "tools", "files", "days", "symbols"):
        assert db_report[table] == log_report[table], table


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
