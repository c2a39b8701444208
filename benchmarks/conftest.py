"""Shared pieces of the benchmark suites.

CODECAIRN_BENCH_TIER=small (CI: proves the suites run, on the small corpora) or large (the figures
for release notes: whole standard libraries). Benchmarks print ratios against the reference tools
measured in the same run; absolute times on shared machines are only indicative.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from measure import TIER  # noqa: E402


def pytest_report_header(config):
    return (
        f"codecairn benchmarks: tier={TIER} corpora={os.environ.get('CODECAIRN_CORPORA', '~/.cache/codecairn-corpora')}"
    )


@pytest.fixture
def bench_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("CODECAIRN_CACHE_DIR", str(d))
    return d
