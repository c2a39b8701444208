"""`codecairn report` adds up what the metrics log recorded: the figures a user reads (hit rate,
tokens saved and used, per session, tool, file, day, symbol) are those of the log's records; days
follow the chosen time zone; the HTML page draws its charts in a real browser (headless Chromium);
Claude Code's session usage of the same period is shown beside it, malformed logs skipped with a
note. Two real server sessions over stdio make the records."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from codecairn.store.store import database_path
from mcp import ClientSession, StdioServerParameters, stdio_client
from realcode import copy_stdlib

pytestmark = pytest.mark.anyio

CALLS = [
    ("index", {}),
    ("get_symbol", {"name": "json.decoder.JSONDecoder"}),
    ("read_symbol", {"name": "textwrap.dedent"}),
    ("file_outline", {"path": "shlex.py"}),
    ("get_symbol", {"name": "NoSuchThing"}),  # a miss
    ("file_outline", {"path": "../outside.py"}),  # an error
]


def serve(root: Path, cache: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "codecairn.cli", "serve", str(root), "--no-index", "--no-watch", "--no-embed"],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache)},
    )


def report(root: Path, cache: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "codecairn.cli", "report", str(root), *args],
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def logged(root: Path, cache: Path) -> list[dict]:
    db = database_path(root, cache)
    return [json.loads(line) for line in db.with_name(db.stem + ".metrics.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A tree served twice (two sessions), each asked CALLS."""
    base = tmp_path_factory.mktemp("report")
    root, cache = base / "code", base / "cache"
    root.mkdir()
    copy_stdlib(root, ("json", "textwrap", "shlex"))

    async def session() -> None:
        async with stdio_client(serve(root, cache)) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                for tool, args in CALLS:
                    await s.call_tool(tool, args)

    import anyio

    for _ in range(2):
        anyio.run(session)
    return root, cache


def test_the_report_adds_up_the_log(served: tuple[Path, Path]) -> None:
    root, cache = served
    records = logged(root, cache)
    assert len(records) == 2 * len(CALLS)
    done = report(root, cache, "--json", "--no-claude")
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)

    total = got["total"]
    assert total["calls"] == len(records)
    assert total["hits"] == sum(r["outcome"] == "hit" for r in records) == 2 * 4
    assert total["misses"] == 2 and total["errors"] == 2
    assert total["hit_rate"] == round(8 / 10, 4)  # errors are neither: 8 hits of 10 answerable calls
    assert total["tokens_saved"] == sum(r["tokens_saved"] for r in records) > 0
    assert total["tokens_used"] == sum(r["tokens_used"] for r in records) > 0

    assert [s["key"] for s in got["sessions"]] == list(dict.fromkeys(r["session_id"] for r in records))
    assert all(s["calls"] == len(CALLS) for s in got["sessions"])
    tools = {t["key"]: t for t in got["tools"]}
    assert tools["get_symbol"]["calls"] == 4 and tools["get_symbol"]["misses"] == 2
    assert tools["read_symbol"]["tokens_saved"] == sum(r["tokens_saved"] for r in records if r["tool"] == "read_symbol")
    # per-file savings share each record's savings among its files: they add up to the total
    assert abs(sum(f["tokens_saved"] for f in got["files"]) - total["tokens_saved"]) <= len(records)
    assert {"textwrap.py", "shlex.py", "json/decoder.py"} <= {f["key"] for f in got["files"]}
    symbols = [s["key"] for s in got["symbols"]]
    assert symbols[0] in ("json.decoder.JSONDecoder", "textwrap.dedent") and "NoSuchThing" in symbols

    text = report(root, cache, "--no-claude", "--tz", "UTC")
    assert text.returncode == 0, text.stderr
    assert f"{total['tokens_saved']:,} saved" in text.stdout
    for title in ("per session", "per tool", "per file", "per day", "top symbols by savings"):
        assert title in text.stdout


def test_days_and_times_follow_the_time_zone(served: tuple[Path, Path]) -> None:
    root, cache = served
    east = json.loads(report(root, cache, "--json", "--no-claude", "--tz", "Pacific/Kiritimati").stdout)  # UTC+14
    west = json.loads(report(root, cache, "--json", "--no-claude", "--tz", "Pacific/Pago_Pago").stdout)  # UTC-11
    assert east["period"][0].endswith("+14:00") and west["period"][0].endswith("-11:00")
    # The same first record, 25 hours apart: one or two dates apart depending on the hour in UTC
    # (at 10:30 UTC it is the 6th in Kiritimati and still the 4th in Pago Pago). Each zone's first
    # day is the date of that record in that zone; UTC's date differs from at least one of them.
    first = dt.datetime.fromisoformat(east["period"][0])
    east_day = dt.date.fromisoformat(east["days"][0]["key"])
    west_day = dt.date.fromisoformat(west["days"][0]["key"])
    assert east_day == first.date()
    assert west_day == first.astimezone(dt.timezone(dt.timedelta(hours=-11))).date()
    assert east_day - west_day in (dt.timedelta(days=1), dt.timedelta(days=2))
    bad = report(root, cache, "--tz", "Nowhere/Atlantis")
    assert bad.returncode == 2 and "unknown time zone 'Nowhere/Atlantis'" in bad.stderr


@pytest.mark.parametrize("form", [(), ("--json",)], ids=["text", "json"])
def test_a_reader_that_stops_early_ends_the_report_quietly(served: tuple[Path, Path], form: tuple[str, ...]) -> None:
    """`codecairn report | head`: the report is short, so it was all still buffered when the reader
    left, and Python's flush at exit printed "Exception ignored ... BrokenPipeError" (status 120).
    A real pipe whose reader has gone (as after `head -n 0`), and Python buffering stdout as it
    does for users (the test environment may set PYTHONUNBUFFERED)."""
    root, cache = served
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "codecairn.cli", "report", str(root), "--no-claude", *form],
            env={**env, "CODECAIRN_CACHE_DIR": str(cache)},
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write_end)
    assert done.returncode == 141 and done.stderr == "", (done.returncode, done.stderr[-500:])
    # and through `head`, as a user types it: the first line, nothing on stderr
    piped = subprocess.run(
        f"'{sys.executable}' -m codecairn.cli report '{root}' --no-claude {' '.join(form)} | head -n 1",
        shell=True,
        env={**env, "CODECAIRN_CACHE_DIR": str(cache)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert len(piped.stdout.splitlines()) == 1 and piped.stderr == "", piped.stderr[-500:]


def test_a_root_without_metrics_says_so(tmp_path: Path) -> None:
    done = report(tmp_path, tmp_path / "cache", "--no-claude")
    assert done.returncode == 2 and "no metrics log" in done.stderr and "Traceback" not in done.stderr


def test_the_html_page_draws_its_charts_in_a_browser(served: tuple[Path, Path], tmp_path: Path) -> None:
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.fail("chromium is missing: run scripts/test-prerequisites.sh (apt-get install chromium)")
    root, cache = served
    page = tmp_path / "report.html"
    done = report(root, cache, "--no-claude", "--html", str(page), "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert "http" not in re.sub(r"http://www\.w3\.org/2000/svg", "", page.read_text())  # nothing fetched

    browser = subprocess.run(
        [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0"]
        + ["--user-data-dir=" + str(tmp_path / "profile"), "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    dom = browser.stdout
    assert "Uncaught" not in browser.stderr, browser.stderr[-2000:]
    charts = dict(re.findall(r'<svg id="(chart-[a-z]+)"[^>]*data-drawn="(\d+)"', dom))
    assert charts == {"chart-days": str(len(figures["days"])), "chart-tools": str(len(figures["tools"]))}
    bars = re.findall(r'<rect [^>]*class="bar" data-value="(\d+)"', dom)
    assert len(bars) == len(figures["days"]) + 2 * len(figures["tools"])
    day_bars = [int(v) for v in bars[: len(figures["days"])]]
    assert day_bars == [d["tokens_saved"] for d in figures["days"]]
    assert f"<b>{figures['total']['tokens_saved']:,}</b>tokens saved" in dom


def test_claude_code_usage_of_the_same_period_is_shown_beside(served: tuple[Path, Path], tmp_path: Path) -> None:
    root, cache = served
    moment = dt.datetime.fromisoformat(logged(root, cache)[0]["time"].replace("Z", "+00:00"))
    stamp = moment.isoformat().replace("+00:00", "Z")
    before = (moment - dt.timedelta(days=3)).isoformat().replace("+00:00", "Z")
    usage = {
        "input_tokens": 12,
        "output_tokens": 340,
        "cache_creation_input_tokens": 1000,
        "cache_read_input_tokens": 5,
    }

    def assistant(message_id: str, at: str, block: str) -> str:
        line = {
            "type": "assistant",
            "sessionId": "s-1",
            "timestamp": at,
            "cwd": str(root),
            "requestId": "r-" + message_id,
        }
        return json.dumps({**line, "message": {"id": message_id, "usage": usage, "content": [{"type": block}]}})

    project = tmp_path / "claude" / "projects" / "-code"
    project.mkdir(parents=True)
    (project / "s-1.jsonl").write_text(
        "\n".join(
            [
                json.dumps({"type": "user", "sessionId": "s-1", "timestamp": stamp, "message": {"content": "hi"}}),
                assistant("m1", stamp, "text"),
                assistant("m1", stamp, "tool_use"),  # the same message's next content block: counted once
                assistant("m2", stamp, "text"),
                assistant("m0", before, "text"),  # days before the calls: not in the period
                "{not json",
            ]
        )
        + "\n"
    )
    done = report(root, cache, "--json", "--claude-logs", str(tmp_path / "claude" / "projects"))
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert [c["session_id"] for c in got["claude_sessions"]] == ["s-1"]
    session = got["claude_sessions"][0]
    assert (
        session["messages"] == 2 and session["output_tokens"] == 680 and session["cache_creation_input_tokens"] == 2000
    )
    assert session["project"] == str(root)
    assert any("malformed" in note for note in got["notes"])

    missing = report(root, cache, "--claude-logs", str(tmp_path / "nowhere"))
    assert missing.returncode == 0 and "no Claude Code session logs" in missing.stdout
