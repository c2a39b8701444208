"""Re-indexing touches only what changed: edits, additions, deletions and renames between runs
are re-parsed (and counted), everything else is skipped, and answers follow."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from codecairn.workspace import Workspace
from realcode import answers, listed, python_edges, python_qualified

pytestmark = pytest.mark.anyio


async def test_only_changed_files_are_reparsed_and_answers_follow(stdlib_part: Path, cache_dir: Path) -> None:
    ws = await Workspace.open(stdlib_part)
    try:
        first = await ws.index_now()
        assert first.parsed == first.files > 50 and first.unchanged == 0

        again = await ws.index_now()
        assert (again.parsed, again.unchanged, again.deleted) == (0, first.files, 0)

        # A touch without a content change is read and hashed, never parsed.
        os.utime(stdlib_part / "shlex.py", None)
        touched = await ws.index_now()
        assert touched.parsed == 0

        # Edit one file, add one, delete one, rename one.
        tw = stdlib_part / "textwrap.py"
        tw.write_text(tw.read_text() + "\n\ndef brand_new_helper(text):\n    return dedent(text)\n")
        (stdlib_part / "json" / "extra.py").write_text(
            "from .decoder import JSONDecoder\n\n\nclass Strict(JSONDecoder):\n    pass\n"
        )
        (stdlib_part / "email" / "quoprimime.py").unlink()
        (stdlib_part / "http" / "cookies.py").rename(stdlib_part / "http" / "biscuits.py")

        changed = await ws.index_now()
        assert changed.parsed == 3, "edited + added + renamed-to"
        assert changed.deleted == 2, "deleted + renamed-from"
        assert changed.files == first.files

        found = await answers(ws).find_symbols(name="brand_new_helper")
        assert [python_qualified(r) for r in listed(found["results"])] == ["textwrap.brand_new_helper"]
        helper = await answers(ws).get_symbol("textwrap.brand_new_helper")
        assert python_edges(helper["callees"]) == {"textwrap.dedent": "exact"}

        strict = await answers(ws).get_symbol("json.extra.Strict")
        assert python_edges(strict["bases"]) == {"json.decoder.JSONDecoder": "extends (import)"}

        assert not (await answers(ws).find_symbols(name="header_check", path="email"))["results"]
        morsel = await answers(ws).find_symbols(name="Morsel")
        assert set(morsel["results"]) == {"http/biscuits.py"}

        settled = await ws.index_now()
        assert settled.parsed == 0 and settled.deleted == 0
    finally:
        await ws.close()


async def test_the_index_survives_a_restart(stdlib_part: Path, cache_dir: Path) -> None:
    ws = await Workspace.open(stdlib_part)
    first = await ws.index_now()
    symbols = len(ws.state.symbols)
    await ws.close()

    reopened = await Workspace.open(stdlib_part)
    try:
        assert len(reopened.state.symbols) == symbols
        assert (await answers(reopened).get_symbol("json.decoder.JSONDecoder"))["kind"] == "class"
        again = await reopened.index_now()
        assert again.parsed == 0 and again.unchanged == first.files
    finally:
        await reopened.close()


async def test_two_servers_of_one_root_both_refresh(tmp_path: Path, cache_dir: Path) -> None:
    """Two agents on one project: two servers share its database. Each numbered new symbols from
    its own counters, read when it opened, so the second one's re-index failed ("UNIQUE constraint
    failed: symbols.id") once the first had written (found by benchmarks/test_soak.py)."""
    (tmp_path / "a.py").write_text("def alpha():\n    return 1\n")
    (tmp_path / "b.py").write_text("def beta():\n    return 2\n")
    first = await Workspace.open(tmp_path)
    await first.index_now()
    second = await Workspace.open(tmp_path)
    try:
        (tmp_path / "a.py").write_text("def alpha():\n    return 1\n\n\ndef alpha_two():\n    return 3\n")
        await first.indexer.refresh(["a.py"])
        (tmp_path / "b.py").write_text("def beta():\n    return 2\n\n\ndef beta_two():\n    return alpha()\n")
        await second.indexer.refresh(["b.py"])
        found = await answers(second).find_symbols(name="beta_two")
        assert [python_qualified(r) for r in listed(found["results"])] == ["b.beta_two"]
    finally:
        await second.close()
        await first.close()


async def test_a_file_two_servers_index_is_stored_once(tmp_path: Path, cache_dir: Path) -> None:
    """A new file both servers' watchers see: each thought it new and gave it an id of its own; the
    second's replaced the first's row and left the first's symbols behind, orphans found by name."""
    (tmp_path / "a.py").write_text("def alpha():\n    return 1\n")
    first = await Workspace.open(tmp_path)
    await first.index_now()
    second = await Workspace.open(tmp_path)
    try:
        (tmp_path / "c.py").write_text("def gamma():\n    return 3\n")
        await first.indexer.refresh(["c.py"])
        await second.indexer.refresh(["c.py"])
    finally:
        await second.close()
        await first.close()
    fresh = await Workspace.open(tmp_path)
    try:
        found = await answers(fresh).find_symbols(name="gamma")
        assert [python_qualified(r) for r in listed(found["results"])] == ["c.gamma"]
        assert (await fresh.index_now()).parsed == 0
    finally:
        await fresh.close()
