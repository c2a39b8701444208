"""The command line a user types: index with a JSON summary, query, export as JSON Lines."""

from __future__ import annotations

import json
import os
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
        # The summary counts the edges answers show: not the values calls pass (model.PASSES).
        edges = con.execute("SELECT COUNT(*), COUNT(DISTINCT id) FROM edges WHERE kind != 'passes'").fetchone()
        assert edges[0] == edges[1] == summary["edges"]


def test_rough_edges_a_new_user_finds_are_gone(stdlib_part: Path, tmp_path: Path, codecairn_exe: str) -> None:
    """Issue 20, "found by trying it": each of these once failed as described in its comment."""
    cache = tmp_path / "cache"
    # Global options after the command (once only understood before it).
    indexed = subprocess.run(
        [codecairn_exe, "index", str(stdlib_part), "--json", "--cache-dir", str(cache)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert indexed.returncode == 0, indexed.stderr
    assert (cache / "workspaces").is_dir(), "--cache-dir after the command is the cache used"
    summary = json.loads(indexed.stdout)

    # The summary for people lists every symbol kind (it stopped at eight).
    human = run(codecairn_exe, cache, "index", str(stdlib_part))
    assert all(kind in human.stdout for kind in summary["symbol_kinds"])

    # `export | head` stops quietly (it ended in a BrokenPipeError traceback).
    piped = subprocess.run(
        f"'{codecairn_exe}' --cache-dir '{cache}' export '{stdlib_part}' | head -n 3",
        shell=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert len(piped.stdout.splitlines()) == 3 and "Traceback" not in piped.stderr and "Error" not in piped.stderr

    # A name that matches nothing: a message and exit status 1 (it printed an empty dict, status 0).
    missing = run(codecairn_exe, cache, "query", "NoSuchSymbolAnywhere", "--root", str(stdlib_part))
    assert missing.returncode == 1 and "NoSuchSymbolAnywhere" in missing.stderr and not missing.stdout.strip()

    # An answer for people, not a Python dict's repr.
    found = run(codecairn_exe, cache, "query", "JSONDecoder.decode", "--root", str(stdlib_part))
    assert found.returncode == 0, found.stderr
    assert "json/decoder.py:" in found.stdout and "def decode(self" in found.stdout
    assert "{'" not in found.stdout and "':" not in found.stdout

    # Help describes positionals and --json.
    helped = run(codecairn_exe, cache, "query", "--help")
    assert "a symbol's name" in helped.stdout and "as JSON" in helped.stdout

    # `workspaces --delete ROOT` deletes that root's index, and only that.
    listed = json.loads(run(codecairn_exe, cache, "workspaces", "--json").stdout)
    assert [Path(i["root"]) for i in listed] == [stdlib_part.resolve()]
    deleted = run(codecairn_exe, cache, "workspaces", "--delete", str(stdlib_part))
    assert deleted.returncode == 0, deleted.stderr
    assert json.loads(run(codecairn_exe, cache, "workspaces", "--json").stdout) == []
    assert (stdlib_part / "json" / "decoder.py").is_file(), "the root itself is untouched"
    again = run(codecairn_exe, cache, "workspaces", "--delete", str(stdlib_part))
    assert again.returncode == 1 and "no index of" in again.stderr


def test_clients_writes_a_registration_that_starts_the_server_and_keeps_other_entries(
    tmp_path: Path, codecairn_exe: str
) -> None:
    project = tmp_path / "project"
    (project / ".cursor").mkdir(parents=True)
    (project / "app.py").write_text("def main():\n    pass\n")
    (project / ".cursor" / "mcp.json").write_text('{"mcpServers": {"other": {"command": "other-server"}}}')
    cache = tmp_path / "cache"

    shown = run(codecairn_exe, cache, "clients", "cursor", str(project))
    assert shown.returncode == 0 and '"codecairn"' in shown.stdout
    assert json.loads((project / ".cursor" / "mcp.json").read_text()) == {
        "mcpServers": {"other": {"command": "other-server"}}
    }, "printing writes nothing"

    written = run(codecairn_exe, cache, "clients", "cursor", str(project), "--write")
    assert written.returncode == 0, written.stderr
    servers = json.loads((project / ".cursor" / "mcp.json").read_text())["mcpServers"]
    assert servers["other"] == {"command": "other-server"}, "other entries are kept"

    # What was written starts a server for the project, as the agent would start it.
    entry = servers["codecairn"]
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
    }
    started = subprocess.run(
        [entry["command"], *entry["args"], "--no-index", "--no-watch", "--no-embed"],
        input=json.dumps(initialize) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "CODECAIRN_CACHE_DIR": str(cache)},
    )
    assert json.loads(started.stdout.splitlines()[0])["result"]["serverInfo"]["name"] == "codecairn"

    # A configuration that is not JSON is left alone.
    broken = project / ".vscode" / "mcp.json"
    broken.parent.mkdir()
    broken.write_text("{not json")
    refused = run(codecairn_exe, cache, "clients", "vscode", str(project), "--write")
    assert refused.returncode == 2 and "not valid JSON" in refused.stderr and broken.read_text() == "{not json"


def test_doctor_says_what_works_and_how_to_fix_what_does_not(tmp_path: Path, codecairn_exe: str) -> None:
    healthy = run(codecairn_exe, tmp_path / "cache", "doctor", "--json")
    report = json.loads(healthy.stdout)
    assert healthy.returncode == 0 and report["ok"], report
    names = {c["check"] for c in report["checks"]}
    assert {"python", "sqlite", "plugins", "grammar python", "grammar rust", "semantic model", "cache"} <= names

    not_a_directory = tmp_path / "a-file"
    not_a_directory.write_text("")
    broken = run(codecairn_exe, not_a_directory, "doctor")
    assert broken.returncode == 1
    assert "FIX cache" in broken.stdout and "CODECAIRN_CACHE_DIR" in broken.stdout
