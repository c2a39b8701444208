"""The file tools against their reference points, in one run (ratios; times printed, not asserted —
these machines are shared and noisy):

* ``search_text`` through the real server (MCP over stdio, indexed, each match given its enclosing
  symbol) against raw ``rg --json`` on the same query and tree — the issue's target is ≤ 1.3×.
  Large tier: the JDK 17 class library (java-jdk17, ~15,000 files); small: Guava.
* reading a 20 MB minified file by byte windows through the server: the server process's peak RSS
  (VmHWM) — issue 15's target was < 60 MB; see the bounds below for what the MCP SDK leaves.
* ``edit`` of one file, the narrow re-index included (the answer is sent once the index has it):
  p50 — target ≤ 100 ms. Large tier: CPython's json/decoder.py (a typical module) and argparse.py
  (one of the largest) in the whole standard library; small: rich/text.py and rich/console.py. Then
  the typical file again, each edit adding (renaming) a class over ``Exception``.
"""

from __future__ import annotations

import asyncio
import shutil
import statistics
import subprocess
import time
from pathlib import Path

from codecairn import subprocesses
from codecairn.workspace import Workspace
from measure import TIER, RawMcpClient, corpus, percentile, report
from realcode import answers

SEARCH_ROOT = corpus("java-guava", "java-jdk17")
EDIT_ROOT = corpus("py-rich", "py-cpython-lib")
# A typical file and one at the large end (CPython: json/decoder.py, 356 lines; argparse.py, 2,633).
EDITED = ("json/decoder.py", "argparse.py") if TIER == "large" else ("rich/text.py", "rich/console.py")
# Two queries ripgrep runs to the end for both (the like-for-like ratio: ~100 and ~160 matches on the
# JDK), two that stop at max_matches (search_text stops early; raw rg reads every file).
PATTERNS = [
    ("class \\w+Spliterator\\b", False),
    ("ConcurrentModificationException()", True),
    ("hashCode()", True),
    ("@since 1[0-9]", False),
]
ROUNDS = 5


def _rg(root: Path, pattern: str, literal: bool) -> float:
    args = [subprocesses.program("rg"), "--json", "--smart-case", *(["--fixed-strings"] if literal else []), pattern]
    started = time.perf_counter()
    subprocess.run(args, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def test_search_text_against_raw_ripgrep(bench_cache: Path) -> None:
    client = RawMcpClient(SEARCH_ROOT, bench_cache, "--no-watch", "--no-embed", "--no-index")
    try:
        client.call("index")
        figures = {}
        for pattern, literal in PATTERNS:
            ours, theirs, matches = [], [], 0
            for _ in range(ROUNDS):  # interleaved: both see the same page cache and the same load
                theirs.append(_rg(SEARCH_ROOT, pattern, literal))
                started = time.perf_counter()
                found = client.call("search_text", {"pattern": pattern, "literal": literal, "max_matches": 500})
                ours.append(time.perf_counter() - started)
                matches = found["matches"]
            figures[pattern] = {
                "matches": matches,
                "complete": found["complete"],
                "rg_median_s": statistics.median(theirs),
                "search_text_median_s": statistics.median(ours),
                "ratio": statistics.median(ours) / statistics.median(theirs),
            }
        report(f"search_text vs rg ({SEARCH_ROOT.name})", figures)
        assert all(f["matches"] > 0 for f in figures.values())
    finally:
        client.close()


def _rss_mb(pid: int, field: str = "VmHWM") -> float:
    """The process's own RSS from /proc: VmHWM is its peak since it started."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field}")


# Issue 15 asked for < 60 MB. The server cannot start that small with the MCP SDK: Python with asyncio
# is 19 MB, importing mcp's low-level server 37 MB more (pydantic and the protocol's types 18, the
# HTTP transports, auth and cryptography it imports whatever the transport), codecairn's own modules
# 20 — 82 MB at rest (docs/benchmarks.md has the breakdown). The metrics' cl100k tokenizer
# (docs/metrics.md) adds 27 MB resident once the first call is recorded, 40 at its peak while it loads.
LEAN_BOUND_MB = 90  # CODECAIRN_METRICS=off: no tokenizer (84 measured)
SHIPPED_BOUND_MB = 140  # as shipped (the cl100k tokenizer), first start on an empty cache (134 measured): the
# grammar packs' queries are compiled once and remembered, 13 MB of their tables left resident
GROWTH_BOUND_MB = 4  # what reading the whole file by windows may add to the peak


def _read_by_windows(client: RawMcpClient, size: int, most: int | None = None) -> tuple[int, int]:
    start, windows, text_bytes = 0, 0, 0
    while start is not None and (most is None or windows < most):
        result = client.request(
            "tools/call", {"name": "read", "arguments": {"path": "bundle.min.js", "start_byte": start}}
        )
        window = result["structuredContent"]
        text_bytes += len(window["text"].encode())
        start = window.get("next_start_byte")
        windows += 1
    return windows, text_bytes


def test_reading_a_20_mb_minified_file_by_windows(bench_cache: Path, tmp_path: Path) -> None:
    root = tmp_path / "site"
    root.mkdir()
    minified = root / "bundle.min.js"
    with open(minified, "w") as fh:
        fh.write("var a=[")
        for block in range(1330):  # ≈ 20 MB, one line
            fh.write(",".join(f'"k{block}_{i}":{i}' for i in range(1000)))
        fh.write("];\n")
    size = minified.stat().st_size
    figures: dict[str, dict[str, float]] = {}

    # As shipped, on an empty cache: the first call's record loads the tokenizer (stats waits for it).
    client = RawMcpClient(root, bench_cache, "--no-watch", "--no-embed", "--no-index")
    try:
        client.call("read", {"path": "bundle.min.js", "max_bytes": 1000})
        client.call("stats")
        before = _rss_mb(client.proc.pid)
        started = time.perf_counter()
        windows, text_bytes = _read_by_windows(client, size)
        seconds = time.perf_counter() - started
        figures["as shipped (metrics with cl100k), empty cache"] = {
            "windows": windows,
            "seconds": seconds,
            "peak_rss_before_reads_mb": before,
            "peak_rss_mb": _rss_mb(client.proc.pid),
            "rss_after_mb": _rss_mb(client.proc.pid, "VmRSS"),
        }
        assert text_bytes == size, "every byte read once, in order"
    finally:
        client.close()

    # Without the tokenizer, the cache now warm (a user's usual start): the leanest the server gets.
    client = RawMcpClient(root, bench_cache, "--no-watch", "--no-embed", "--no-index", env={"CODECAIRN_METRICS": "off"})
    try:
        client.call("read", {"path": "bundle.min.js", "max_bytes": 1000})
        before = _rss_mb(client.proc.pid)
        windows, _ = _read_by_windows(client, size, None if TIER == "large" else 40)
        figures["CODECAIRN_METRICS=off, warm cache"] = {
            "windows": windows,
            "peak_rss_before_reads_mb": before,
            "peak_rss_mb": _rss_mb(client.proc.pid),
            "rss_after_mb": _rss_mb(client.proc.pid, "VmRSS"),
        }
    finally:
        client.close()

    report(f"20 MB minified file ({size / 1e6:.1f} MB) by byte windows: the server's RSS", figures)
    shipped, lean = figures.values()
    for f in (shipped, lean):  # the file is streamed: neither it nor the answers are held
        assert f["peak_rss_mb"] - f["peak_rss_before_reads_mb"] <= GROWTH_BOUND_MB, figures
    assert shipped["peak_rss_mb"] <= SHIPPED_BOUND_MB, figures
    assert lean["peak_rss_mb"] <= LEAN_BOUND_MB, figures


def test_edit_with_its_index_refresh(bench_cache: Path, tmp_path: Path) -> None:
    root = tmp_path / "project"
    shutil.copytree(EDIT_ROOT, root, symlinks=True)

    async def run() -> dict[str, list[float]]:
        ws = await Workspace.open(root)
        try:
            await ws.index_now()
            ask = answers(ws)
            times: dict[str, list[float]] = {}
            for edited in EDITED:
                for n in range(21):  # a comment line added, then changed: each edit re-indexes the file
                    if n == 0:
                        args = {"path": edited, "insert_line": 1, "new_text": "# edited 0\n"}
                    else:
                        args = {"path": edited, "start_line": 1, "end_line": 1, "new_text": f"# edited {n}\n"}
                    started = time.perf_counter()
                    done = await ask.call("edit", **args)
                    if n:
                        times.setdefault(edited, []).append(time.perf_counter() - started)
                    assert "index" not in done, done
            # A class over a base outside the index, added then renamed at each edit: the calls such a
            # base may answer are resolved again, not every call without a target (index/stale_calls.py).
            edited = EDITED[0]
            for n in range(21):
                if n == 0:
                    args = {"path": edited, "insert_line": 1, "new_text": "class Edited0Error(Exception):\n    pass\n"}
                else:
                    args = {
                        "path": edited,
                        "start_line": 1,
                        "end_line": 1,
                        "new_text": f"class Edited{n}Error(Exception):\n",
                    }
                started = time.perf_counter()
                done = await ask.call("edit", **args)
                if n:
                    times.setdefault(f"{edited}, a class over Exception", []).append(time.perf_counter() - started)
                assert "index" not in done, done
            return times
        finally:
            await ws.close()

    for edited, times in asyncio.run(run()).items():
        report(
            f"edit + index refresh ({EDIT_ROOT.name}: {edited})",
            {"rounds": len(times), "p50_ms": percentile(times, 0.5) * 1000, "p90_ms": percentile(times, 0.9) * 1000},
        )
