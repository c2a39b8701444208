"""The metrics log on disk: it rotates by size and keeps a bounded number of files, all-time
totals survive rotation, a half-written line is skipped, and file token counts are cached by
content (an unchanged file is tokenized once, a changed one again)."""

from __future__ import annotations

import json
from pathlib import Path

from codecairn.metrics.jsonl import MetricsLog, log_path
from codecairn.metrics.record import CallRecord, now_iso
from codecairn.metrics.tokens import TokenCounter


def record(n: int, outcome: str = "hit") -> CallRecord:
    return CallRecord(
        time=now_iso(), session_id="s", root="/r", tool="read_symbol", outcome=outcome, duration_ms=1.0,
        answer_bytes=100, tokens_used=10, tokens_saved=n, symbol=f"mod.fn{n}",
    )  # fmt: skip


def test_the_log_rotates_by_size_and_all_time_survives_rotation(tmp_path: Path) -> None:
    log = MetricsLog(log_path(tmp_path / "root-abc.db"), max_bytes=4096, keep=2)
    assert log.path.name == "root-abc.metrics.jsonl"
    written = [record(n, "miss" if n % 5 == 0 else "hit") for n in range(300)]
    for r in written:
        assert log.append([r])
    names = sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".jsonl")
    assert names == ["root-abc.metrics.1.jsonl", "root-abc.metrics.2.jsonl", "root-abc.metrics.jsonl"]
    assert all(p.stat().st_size <= 4096 for p in log.files())
    kept = list(log.records())
    assert 0 < len(kept) < 300 and [r.id for r in kept] == [r.id for r in written[-len(kept) :]]
    totals = log.totals()  # the deleted files' totals were archived before they went
    assert totals.calls == 300 and totals.misses == 60 and totals.hits == 240
    assert totals.tokens_saved == sum(range(300)) and totals.tokens_used == 3000


def test_a_half_written_line_is_skipped_and_the_next_write_starts_a_new_one(tmp_path: Path) -> None:
    log = MetricsLog(tmp_path / "x.metrics.jsonl")
    log.append([record(1)])
    with open(log.path, "a") as fh:
        fh.write('{"time": "2026-01-01T00:00:00Z", "sess')  # what a full disk leaves behind
    log._failing = True  # the writer saw that write fail
    log.append([record(2)])
    assert [r.tokens_saved for r in log.records()] == [1, 2]
    assert log.totals().calls == 2
    lines = log.path.read_text().splitlines()
    assert len(lines) == 3 and json.loads(lines[-1])["tokens_saved"] == 2


def test_all_time_reads_on_from_where_it_stopped(tmp_path: Path) -> None:
    log = MetricsLog(tmp_path / "x.metrics.jsonl")
    log.append([record(1), record(2)])
    assert log.totals().tokens_saved == 3
    other = MetricsLog(tmp_path / "x.metrics.jsonl")  # another server of the same workspace
    other.append([record(10)])
    assert log.totals().tokens_saved == 13 and log.totals().calls == 3


def test_file_token_counts_are_cached_by_content_hash() -> None:
    counter = TokenCounter()
    assert counter.name == "cl100k_base"
    source = b"def charge(order):\n    return order.total * 1.2\n"
    first = counter.count_bytes(source)
    assert first == counter.count(source.decode()) and counter.file_misses == 1
    assert counter.count_bytes(bytes(source)) == first and counter.file_hits == 1
    counter.count_bytes(source + b"# edited\n")
    assert counter.file_misses == 2


def test_without_the_encoding_counts_are_bytes_over_four_and_say_why() -> None:
    counter = TokenCounter(encoding="no_such_encoding")
    assert counter.name == "bytes/4" and "no_such_encoding" in counter.why_not
    assert counter.count("12345") == 2 and counter.count("") == 0
