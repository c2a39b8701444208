"""Re-indexing touches only what changed: edits, additions, deletions and renames between runs
are re-parsed (and counted), everything else is skipped, and answers follow."""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from codecairn.workspace import Workspace
from realcode import answers, listed, python_edges, python_qualified

pytestmark = pytest.mark.anyio


@contextlib.contextmanager
def statements_asked(store, method: str) -> Iterator[list[tuple[str, tuple]]]:
    """The (SQL, parameters) the store's ``method`` (``fetch``, ``fetch_writer``) runs meanwhile."""
    asked: list[tuple[str, tuple]] = []
    read = getattr(store, method)

    async def recorded(sql: str, params=()):
        asked.append((sql, tuple(params)))
        return await read(sql, params)

    setattr(store, method, recorded)
    try:
        yield asked
    finally:
        setattr(store, method, read)


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


async def test_two_servers_editing_one_file_keep_only_ids_the_store_gives_it(tmp_path: Path, cache_dir: Path) -> None:
    """A symbol keeps its id across an edit only if the store still gives that id to the file: the
    second server remembers the file as it was before the first one's edit (ids of symbols that
    edit removed, none of those it added), and its own edit must neither reuse a removed id nor
    leave the added symbols behind, nor an edge pointing at a symbol that is not there. (That b.py's
    call of beta, emptied by the first edit, stays unresolved here is another matter: a server
    follows the edits its own watcher sees, and this one was not told of the first edit.)"""
    (tmp_path / "a.py").write_text("def alpha():\n    return 1\n\n\ndef beta():\n    return alpha()\n")
    (tmp_path / "b.py").write_text("from a import alpha, beta\n\n\ndef use():\n    return alpha() + beta()\n")
    first = await Workspace.open(tmp_path)
    await first.index_now()
    second = await Workspace.open(tmp_path)
    try:
        (tmp_path / "a.py").write_text("def alpha():\n    return 1\n\n\ndef gamma():\n    return alpha()\n")
        await first.indexer.refresh(["a.py"])
        (tmp_path / "a.py").write_text(
            "# again\ndef alpha():\n    return 1\n\n\ndef beta():\n    return alpha()\n\n\ndef delta():\n    pass\n"
        )
        await second.indexer.refresh(["a.py"])
    finally:
        await second.close()
        await first.close()
    fresh = await Workspace.open(tmp_path)
    try:
        assert (await fresh.index_now()).parsed == 0
        db = sqlite3.connect(fresh.store.path)
        names = db.execute(
            "SELECT qualified_name FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = 'a.py'"
        )
        assert sorted(n for (n,) in names) == ["a", "a.alpha", "a.beta", "a.delta"]
        dangling = (
            "SELECT count(*) FROM edges WHERE target_id IS NOT NULL AND target_id NOT IN (SELECT id FROM symbols)"
        )
        assert db.execute(dangling).fetchone() == (0,)
        db.close()
        use = await answers(fresh).get_symbol("b.use")
        assert python_edges(use["callees"])["a.alpha"] == "import"
        beta = await answers(fresh).get_symbol("a.beta")
        assert python_edges(beta["callees"]) == {"a.alpha": "exact"}
    finally:
        await fresh.close()


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


async def test_an_edit_leaves_what_points_at_the_symbols_still_there(tmp_path: Path, cache_dir: Path) -> None:
    """A symbol an edit keeps (same qualified name and kind) keeps its id, and the edges elsewhere
    that point at it are left as they were (rewriting them, to nothing and back, was a fifth of an
    edit of argparse.py); those into a symbol the edit removed lose their target. The edited file's
    own edges that are still there keep their rows too, resolved, at their new lines."""
    a = "def helper():\n    return 1\n\n\ndef keep():\n    return helper()\n\n\ndef gone():\n    return 2\n"
    (tmp_path / "a.py").write_text(a)
    (tmp_path / "b.py").write_text("from a import gone, helper\n\n\ndef use():\n    helper()\n    gone()\n")
    ws = await Workspace.open(tmp_path)
    try:
        await ws.index_now()
        db = sqlite3.connect(ws.store.path)
        calls = (
            "SELECT e.id, e.target, e.line, e.target_id, e.resolution FROM edges e JOIN files f ON f.id = e.file_id "
            "WHERE f.path = ? AND e.kind = 'calls' ORDER BY e.target"
        )
        helper_id = ws.state.symbols.by_qn["a.helper"][0]
        before = db.execute(calls, ("b.py",)).fetchall()
        assert [(t, tid is not None) for _, t, _, tid, _ in before] == [("gone", True), ("helper", True)]
        [own] = db.execute(calls, ("a.py",)).fetchall()
        assert own[1:] == ("helper", 6, helper_id, "exact")

        (tmp_path / "a.py").write_text("# a comment moves every line\n" + a.replace("def gone", "def went"))
        assert (await ws.indexer.refresh(["a.py"])).parsed == 1
        assert ws.state.symbols.by_qn["a.helper"] == (helper_id,)
        assert ws.state.symbols.rows[helper_id].start_line == 2
        after = db.execute(calls, ("b.py",)).fetchall()
        assert after[1] == before[1], "the edge into helper is the row it was"
        assert after[0][:3] == before[0][:3] and after[0][3:] == (None, None), "gone went away"
        assert db.execute(calls, ("a.py",)).fetchall() == [(own[0], "helper", 7, helper_id, "exact")]
        db.close()
        use = await answers(ws).get_symbol("b.use")
        assert python_edges(use["callees"]) == {"a.helper": "import"}
        assert (await answers(ws).get_symbol("a.helper"))["lines"] == "2-3"
        keep = await answers(ws).get_symbol("a.keep")
        assert python_edges(keep["callees"]) == {"a.helper": "exact"}
    finally:
        await ws.close()


async def test_callers_are_read_from_an_index_of_the_resolved_edges_only(tmp_path: Path, cache_dir: Path) -> None:
    """Callers are asked for by symbol, so edges_in leaves out the edges without a target (the
    unresolved and external two fifths of CPython's calls: half its size, and most of what a first
    index waited for at its end). Reads of callers still go through it, and a database made before
    gets the smaller index when it is next opened."""
    (tmp_path / "a.py").write_text("def helper():\n    return 1\n")
    (tmp_path / "b.py").write_text(
        "from a import helper\n\n\ndef use(items):\n    helper()\n    mystery()\n    return len(items)\n"
    )

    async def check(ws: Workspace) -> None:
        store = ws.store
        with statements_asked(store, "fetch") as asked:
            helper = await answers(ws).get_symbol("a.helper")
        assert python_edges(helper["callers"]) == {"b.use": "import"}, helper["callers"]
        use = await answers(ws).get_symbol("b.use")
        assert "mystery" in str(use["callees"]) and "builtins.len" in str(use["callees"]), use["callees"]
        by_target = [(sql, params) for sql, params in asked if re.search(r"\btarget_id ?(=|IN)", sql)]
        assert by_target, asked
        for sql, params in by_target:  # the callers, read from the index alone
            plan = " ".join(str(r[-1]) for r in await store.fetch(f"EXPLAIN QUERY PLAN {sql}", params))
            assert "INDEX edges_in" in plan, plan
        with sqlite3.connect(store.path) as con:
            (sql,) = con.execute("SELECT sql FROM sqlite_master WHERE name = 'edges_in'").fetchone()
            assert sql.endswith("WHERE target_id IS NOT NULL"), sql
            assert con.execute("SELECT COUNT(*) FROM edges WHERE target_id IS NULL").fetchone()[0] == 2  # mystery, len
        con.close()

    ws = await Workspace.open(tmp_path)
    try:
        await ws.index_now()
        await check(ws)
        db = ws.store.path
    finally:
        await ws.close()
    with sqlite3.connect(db) as con:  # as schema 8 left it: every edge in edges_in
        con.execute("DROP INDEX edges_in")
        con.execute("CREATE INDEX edges_in ON edges(target_id, kind, source_id, resolution, file_id, line)")
        con.execute("PRAGMA user_version = 8")
    con.close()
    ws = await Workspace.open(tmp_path)
    try:
        await check(ws)
    finally:
        await ws.close()


async def test_calls_through_a_parameter_are_found_without_reading_every_edge(tmp_path: Path, cache_dir: Path) -> None:
    """What other modules pass a function decides its calls through a parameter; an edit that
    changes it looks them up again by the function's name. Through the edges_through_parameter
    index, not a scan of every edge (that scan was 50 ms of each edit of argparse.py on CPython's
    Lib), and a database indexed before that index existed gets it when it is next opened."""
    (tmp_path / "runner.py").write_text(
        "class Runner:\n    def __init__(self, job):\n        self._job = job\n\n    def go(self):\n"
        "        self._job()\n\n\ndef run(job):\n    job()\n"
    )
    (tmp_path / "main.py").write_text("from runner import Runner, run\n\n\ndef first():\n    pass\n\n\nrun(first)\n")
    ws = await Workspace.open(tmp_path)
    await ws.index_now()
    db = ws.store.path
    await ws.close()
    with sqlite3.connect(db) as con:  # as the previous schema left it
        con.execute("DROP INDEX edges_through_parameter")
        con.execute("PRAGMA user_version = 7")
    con.close()

    ws = await Workspace.open(tmp_path)
    try:
        store = ws.store
        with statements_asked(store, "fetch_writer") as asked:
            found = await store.calls_through_parameters([], ["runner.Runner.__init__"])
        assert [(e[4], e[5]) for e in found] == [("_job", "self")], found
        assert asked
        for sql, params in asked:
            plan = " ".join(str(r[-1]) for r in await store.fetch_writer(f"EXPLAIN QUERY PLAN {sql}", params))
            assert "USING INDEX edges_through_parameter" in plan, plan

        # The index answers what a scan did: `job()` follows what main.py passes, also after an edit.
        ask = answers(ws)
        callees = python_edges((await ask.call("get_symbol", name="run", path="runner.py"))["callees"])
        assert callees == {"main.first": "flow"}, callees
        (tmp_path / "main.py").write_text(
            "from runner import Runner, run\n\n\ndef second():\n    pass\n\n\nrun(second)\n"
        )
        await ws.indexer.refresh(["main.py"])
        callees = python_edges((await ask.call("get_symbol", name="run", path="runner.py"))["callees"])
        assert callees == {"main.second": "flow"}, callees
    finally:
        await ws.close()


async def test_descendants_follow_edits_of_either_side(tmp_path: Path, cache_dir: Path) -> None:
    """The subtypes of a type are kept beside its supertypes through every change: a subclass that
    drops its base, a base re-created by an edit of its own file (a new row), a subclass's file
    deleted, a new subclass — `type_hierarchy` answers what a fresh index would."""
    (tmp_path / "shapes.py").write_text("class Shape:\n    pass\n")
    (tmp_path / "square.py").write_text("from shapes import Shape\n\n\nclass Square(Shape):\n    pass\n")
    (tmp_path / "circle.py").write_text("from shapes import Shape\n\n\nclass Circle(Shape):\n    pass\n")
    ws = await Workspace.open(tmp_path)
    ask = answers(ws)

    async def descendants() -> list[str]:
        # Kept exactly the other way round from the supertypes: no id of a row an edit replaced
        # stays behind (a long session would hold every one it ever had).
        index = ws.state.symbols
        inverse: dict[int, list[int]] = {}
        for sub, supertypes in index.bases.items():
            for base in supertypes:
                inverse.setdefault(base, []).append(sub)
        assert {b: sorted(s) for b, s in index.subtypes_of.items()} == {b: sorted(s) for b, s in inverse.items()}
        found = await ask.call("type_hierarchy", name="Shape", path="shapes.py")
        return sorted(d["qualified_name"] for d in found["descendants"])

    try:
        await ws.index_now()
        assert await descendants() == ["circle.Circle", "square.Square"]
        (tmp_path / "square.py").write_text("class Square:\n    pass\n")
        await ws.indexer.refresh(["square.py"])
        assert await descendants() == ["circle.Circle"]
        (tmp_path / "shapes.py").write_text("# shapes\n\n\nclass Shape:\n    sides = 0\n")
        await ws.indexer.refresh(["shapes.py"])
        assert await descendants() == ["circle.Circle"]
        (tmp_path / "circle.py").unlink()
        (tmp_path / "oval.py").write_text("import shapes\n\n\nclass Oval(shapes.Shape):\n    pass\n")
        await ws.indexer.refresh(["circle.py", "oval.py"])
        assert await descendants() == ["oval.Oval"]
        found = await ask.call("type_hierarchy", name="Oval", path="oval.py")
        assert [a["qualified_name"] for a in found["ancestors"]] == ["shapes.Shape"]
    finally:
        await ws.close()


async def test_a_file_added_or_removed_between_edits_is_seen_by_the_next_edit(tmp_path: Path, cache_dir: Path) -> None:
    """The narrow path keeps which files make up each module between edits; a file that comes or
    goes must be seen by the next edit's resolution: a Go package is its directory's files, and a
    call of a function another file of the package defines resolves once that file is there, and
    no longer once it is gone."""
    (tmp_path / "go.mod").write_text("module example.com/app\n\ngo 1.21\n")
    (tmp_path / "main.go").write_text("package main\n\nfunc main() {\n}\n")
    ws = await Workspace.open(tmp_path)
    ask = answers(ws)

    async def callees() -> list[str]:
        found = (await ask.call("get_symbol", name="main", path="main.go")).get("callees", {})
        return sorted(
            f"{path}:{name}"
            for how, paths in found.items()
            if how in ("exact", "import")
            for path, names in paths.items()
            for name in names
        )

    try:
        await ws.index_now()
        (tmp_path / "main.go").write_text("package main\n\n// edited\nfunc main() {\n}\n")
        await ws.indexer.refresh(["main.go"])
        (tmp_path / "util.go").write_text("package main\n\nfunc helper() {\n}\n")
        await ws.indexer.refresh(["util.go"])
        (tmp_path / "main.go").write_text("package main\n\nfunc main() {\n\thelper()\n}\n")
        await ws.indexer.refresh(["main.go"])
        assert await callees() == ["util.go:helper"]
        (tmp_path / "util.go").unlink()
        await ws.indexer.refresh(["util.go"])
        (tmp_path / "main.go").write_text("package main\n\nfunc main() {\n\thelper()\n}\n\n// again\n")
        await ws.indexer.refresh(["main.go"])
        assert await callees() == []
    finally:
        await ws.close()
