"""The command line a user types: index with a JSON summary, query, export as JSON Lines."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from realcode import copy_most_of_stdlib


def run(exe: str, cache: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([exe, "--cache-dir", str(cache), *args], capture_output=True, text=True, timeout=300)


def test_index_json_query_and_export(stdlib_part: Path, tmp_path: Path, codecairn_exe: str) -> None:
    cache = tmp_path / "cache"
    out = run(codecairn_exe, cache, "index", str(stdlib_part), "--json", "--no-embed")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert {"files", "symbols", "edges", "skipped", "seconds"} <= set(summary)
    assert summary["files"] > 50 and summary["symbols"] > 1000 and summary["edges"] > 1000

    human = run(codecairn_exe, cache, "index", str(stdlib_part), "--no-embed")
    assert human.returncode == 0 and "python" in human.stdout and "unchanged" in human.stdout

    q = run(codecairn_exe, cache, "query", "JSONDecoder.decode", "--root", str(stdlib_part), "--json")
    answer = json.loads(q.stdout)
    assert answer["qualified_name"] == "json.decoder.JSONDecoder.decode" and answer["path"] == "json/decoder.py"

    ex = run(codecairn_exe, cache, "export", str(stdlib_part))
    assert ex.returncode == 0, ex.stderr
    records = [json.loads(line) for line in ex.stdout.splitlines()]
    by_type: dict[str, list[dict]] = {}
    for r in records:
        by_type.setdefault(r["type"], []).append(r)
    assert set(by_type) == {"symbol", "edge", "import", "export"}
    assert len(by_type["symbol"]) == summary["symbols"] and len(by_type["edge"]) == summary["edges"]
    sym = next(s for s in by_type["symbol"] if s["qualified_name"] == "json.decoder.JSONDecoder")
    assert {"kind", "name", "qualified_name", "path", "start_line", "end_line"} <= set(sym)
    assert not sym["path"].startswith("/")
    edge = next(
        e
        for e in by_type["edge"]
        if e["source"] == "json.decoder.JSONDecoder.decode"
        and e["kind"] == "calls"
        and e["target"] == "json.decoder.JSONDecoder.raw_decode"
    )
    assert {"kind", "source", "target", "line", "resolution"} <= set(edge)


def test_an_unchanged_reindex_reports_what_a_full_one_does_and_follows_changes(
    stdlib_part: Path, tmp_path: Path, codecairn_exe: str
) -> None:
    """`codecairn index` on an unchanged tree reads neither symbols nor edges (its summary is
    kept with the index generation); the summary must still be the truth, before and after a change."""
    cache = tmp_path / "cache"
    keys = (
        "files",
        "symbols",
        "edges",
        "edge_kinds",
        "symbol_kinds",
        "unresolved_calls",
        "call_resolution",
        "most_called",
        "most_extended",
        "languages",
    )
    first = json.loads(run(codecairn_exe, cache, "index", str(stdlib_part), "--json", "--no-embed").stdout)
    again = json.loads(run(codecairn_exe, cache, "index", str(stdlib_part), "--json", "--no-embed").stdout)
    assert again["parsed"] == 0 and again["unchanged"] == first["files"]
    assert {k: again[k] for k in keys} == {k: first[k] for k in keys}
    assert first["most_called"] and all(isinstance(n, int) and n > 0 for _, n in first["most_called"])

    # A new caller of the most called function: its count, and the edge totals, move.
    target, count = first["most_called"][0]
    module, _, function = target.rpartition(".")
    extra = stdlib_part / "codecairn_extra.py"
    extra.write_text(f"from {module} import {function}\n\n\ndef use_it():\n    {function}()\n    {function}()\n")
    changed = json.loads(run(codecairn_exe, cache, "index", str(stdlib_part), "--json", "--no-embed").stdout)
    assert changed["parsed"] == 1 and changed["files"] == first["files"] + 1
    assert changed["edge_kinds"]["calls"] == first["edge_kinds"]["calls"] + 2
    assert changed["most_called"][0] == [target, count + 2]
    assert changed["symbol_kinds"]["function"] == first["symbol_kinds"].get("function", 0) + 1

    human = run(codecairn_exe, cache, "index", str(stdlib_part), "--no-embed")
    assert f"most called: {target} ({count + 2})" in " ".join(human.stdout.split())


def test_ctrl_c_stops_the_index_between_batches_and_the_next_run_continues(tmp_path: Path, codecairn_exe: str) -> None:
    root = tmp_path / "big"
    root.mkdir()
    copy_most_of_stdlib(root)
    total = sum(1 for _ in root.rglob("*.py"))
    cache = tmp_path / "cache"
    proc = subprocess.Popen(
        [codecairn_exe, "--cache-dir", str(cache), "index", str(root), "--no-embed"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # Ctrl-C once the first batch is committed: the run is still parsing or resolving then.
    written = 0
    deadline = time.monotonic() + 120
    while not written and proc.poll() is None and time.monotonic() < deadline:
        for db in cache.rglob("*.db"):
            try:
                with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.01) as con:
                    written = con.execute("SELECT COUNT(*) FROM files").fetchone()[0]
            except sqlite3.Error:
                pass
        time.sleep(0.005)
    if not written:
        proc.kill()
        proc.communicate()
        pytest.fail(f"no batch was committed before the run ended or 120 s passed (exit {proc.returncode})")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "interrupted: what was indexed is kept" in err and "Traceback" not in err

    again = run(codecairn_exe, cache, "index", str(root), "--json", "--no-embed")
    assert again.returncode == 0, again.stderr
    summary = json.loads(again.stdout)
    assert summary["files"] == total and summary["parsed"] + summary["unchanged"] == total
    db = next(cache.rglob("*.db"))
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        for table in ("symbols", "edges", "imports", "exports"):
            orphans = con.execute(f"SELECT COUNT(*) FROM {table} WHERE file_id NOT IN (SELECT id FROM files)")
            assert orphans.fetchone()[0] == 0, table
        edges = con.execute("SELECT COUNT(*), COUNT(DISTINCT id) FROM edges").fetchone()
        assert edges[0] == edges[1] == summary["edges"]
