"""Fuzzing every tool through the real server at scale (issue 20: at least 10,000 cases): the same
property as tests/test_fuzz_tools.py, over a real corpus. CODECAIRN_FUZZ_CASES sets the number
(default 10,000; the small tier runs 500 so that CI's quick pass stays quick)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))

from fuzzing import fuzz_every_tool  # noqa: E402
from measure import TIER, corpus, report  # noqa: E402

CASES = int(os.environ.get("CODECAIRN_FUZZ_CASES", 10_000 if TIER == "large" else 500))


def test_ten_thousand_fuzzed_calls_get_valid_answers_or_documented_errors(bench_cache: Path, tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "rich"  # a copy: notes and memories written by valid calls stay out of the corpus
    shutil.copytree(corpus("py-rich"), root, ignore=shutil.ignore_patterns(".git"))
    started = time.perf_counter()
    seen = fuzz_every_tool(root, bench_cache, CASES)
    report("fuzzed tool calls", {"tier": TIER, "cases": CASES, "seconds": round(time.perf_counter() - started), **seen})
    assert sum(seen.values()) == CASES
