"""Which function does a call mean? Same file, imports of every form, self/cls, inheritance and
super(), each edge labelled with how it was found; what cannot be resolved stays countable."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from codecairn.workspace import Workspace
from realcode import answers, listed, python_edges, python_qualified

pytestmark = pytest.mark.anyio

PROJECT = {
    "shop/__init__.py": "from .orders import Order\n",
    "shop/money.py": """
        def round_cents(x):
            return round(x, 2)

        class Gateway:
            def charge(self, amount):
                return self.send(round_cents(amount))

            def send(self, value):
                return value
        """,
    "shop/orders.py": """
        from .money import Gateway, round_cents as rc
        from . import money
        import shop.money as m

        class Base:
            def total(self):
                return 0

            @classmethod
            def make(cls):
                return cls.build()

            @classmethod
            def build(cls):
                return cls()

        class Order(Base):
            def __init__(self):
                self.gateway = Gateway()

            def pay(self):
                amount = rc(self.total())
                money.round_cents(amount)
                m.round_cents(amount)
                self.gateway.charge(amount)
                super().total()
                return helper(amount)

        class Refund(Order):
            pass

        def helper(x):
            return mystery_function(x)
        """,
    "app.py": """
        from shop import Order
        import shop.orders

        def main():
            o = Order()
            o.pay()
            shop.orders.helper(1)

        def give_back():
            return shop.orders.Refund()
        """,
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    for rel, text in PROJECT.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text).lstrip())
    return root


def callees(answer: dict) -> dict[str, str]:
    return python_edges(answer.get("callees", {}))


async def test_calls_resolve_through_scopes_imports_and_inheritance(project: Path, cache_dir: Path) -> None:
    ws = await Workspace.open(project)
    try:
        await ws.index_now()
        a = answers(ws)
        pay = await a.get_symbol("Order.pay")
        got = callees(pay)
        assert got["shop.money.round_cents"] == "import"  # rc(...), money.round_cents, m.round_cents
        assert got["shop.orders.Base.total"] == "inherited"  # self.total() and super().total()
        assert got["shop.money.Gateway.charge"] == "import"  # self.gateway = Gateway(), Gateway imported
        assert got["shop.orders.helper"] == "exact"  # same file
        charge = await a.get_symbol("shop.money.Gateway.charge")
        assert callees(charge) == {"shop.money.Gateway.send": "exact", "shop.money.round_cents": "exact"}
        make = await a.get_symbol("Base.make")
        assert callees(make) == {"shop.orders.Base.build": "exact"}  # cls.build()

        main = await a.get_symbol("app.main")
        got = callees(main)
        assert got["shop.orders.Order.__init__"] == "import"  # Order() runs it; Order through the package's re-export
        assert got["shop.orders.helper"] == "import"  # import shop.orders; shop.orders.helper()
        assert got["shop.orders.Order.pay"] == "import"  # o = Order(); o.pay(), Order imported

        helper = await a.get_symbol("shop.orders.helper")
        assert set(python_edges(helper["callers"])) == {"shop.orders.Order.pay", "app.main"}
        assert helper["callees"]["unresolved"] == ["mystery_function"]

        stats = await a.stats()
        assert stats["unresolved_calls"] >= 1  # mystery_function stays countable
        assert set(stats["call_resolution"]) <= {
            "exact",
            "import",
            "inherited",
            "name-only",
            "external",
            "flow",
        }  # cls(): flow
        assert stats["call_resolution"]["external"] >= 1  # round() is the built-in
    finally:
        await ws.close()


async def test_ambiguous_names_are_an_answer_not_a_guess(project: Path, cache_dir: Path) -> None:
    (project / "other.py").write_text("def helper():\n    pass\n")
    ws = await Workspace.open(project)
    try:
        await ws.index_now()
        answer = await answers(ws).get_symbol("helper")
        assert answer["ambiguous"] is True
        assert {python_qualified(c) for c in listed(answer["candidates"])} == {"shop.orders.helper", "other.helper"}
        one = await answers(ws).get_symbol("helper", path="other.py")
        assert one["qualified_name"] == "other.helper"
        assert (await answers(ws).get_symbol("orders::helper"))["qualified_name"] == "shop.orders.helper"
    finally:
        await ws.close()


async def test_calls_to_builtins_are_never_guessed_to_be_a_namesake(tmp_path: Path, cache_dir: Path) -> None:
    """`str(x)` is the built-in unless the file defines or imports `str`: a `def str` in another
    module (CPython's locale.str) must not collect every call to str() in the project."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "fmt.py").write_text(
        "def str(val):\n    return repr(val)\n\n\ndef sorted(items):\n    return items\n\n\n"
        "def local_use():\n    return str(1)\n\n\nclass Exception:\n    pass\n"
    )
    (root / "app.py").write_text(
        "def main(values):\n    return str(len(values)), sorted(values)\n\n\n"
        "class Failure(Exception):\n    pass\n\n\ndef unique_helper():\n    pass\n"
    )
    (root / "use.py").write_text(
        "from fmt import str as fmt_str\n\n\ndef run():\n    unique_helper()\n    return fmt_str(2)\n"
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        main = await a.get_symbol("app.main")
        assert callees(main) == {}, "str(), len() and sorted() are the built-ins here"
        assert main["callees"]["external"] == ["builtins.len", "builtins.sorted", "builtins.str"]
        assert "unresolved" not in main["callees"]
        assert callees(await a.get_symbol("fmt.local_use")) == {"fmt.str": "exact"}  # its own str
        assert callees(await a.get_symbol("use.run")) == {"fmt.str": "import", "app.unique_helper": "name-only"}
        failure = await a.get_symbol("app.Failure")
        assert failure["bases"] == {"external": ["builtins.Exception"]}  # the built-in, never a namesake
    finally:
        await ws.close()


ABC_LAYOUT = {
    # CPython's layout: the classes live in _collections_abc, collections/abc.py re-exports them all.
    "_collections_abc.py": """
        __all__ = ["Mapping", "MutableMapping"]


        class Mapping:
            def get(self, key):
                return key


        class MutableMapping(Mapping):
            def pop(self, key):
                return key
        """,
    "collections/__init__.py": "import _collections_abc\n\n\nclass UserDict(_collections_abc.MutableMapping):\n    pass\n",
    "collections/abc.py": "from _collections_abc import *\nfrom _collections_abc import __all__\n",
    "named.py": "from collections.abc import MutableMapping\n\n\nclass Named(MutableMapping):\n    pass\n",
    "dotted.py": "import collections.abc\n\n\nclass Dotted(collections.abc.MutableMapping):\n    pass\n",
    "package.py": "import collections\n\n\nclass Package(collections.abc.MutableMapping):\n    pass\n",
    "submodule.py": "from collections import abc\n\n\nclass Submodule(abc.MutableMapping):\n    pass\n",
    "aliased.py": """
        import collections.abc as cabc


        class Aliased(cabc.MutableMapping):
            def pop(self, key):
                return cabc.MutableMapping.pop(self, key)
        """,
}


async def test_a_wildcard_re_export_is_followed_from_a_module_attribute(tmp_path: Path, cache_dir: Path) -> None:
    """`collections.abc.MutableMapping` is `_collections_abc.MutableMapping` (re-exported by `import *`)
    however the module is reached: every subclass is a descendant, the call through it an edge."""
    root = tmp_path / "proj"
    for rel, text in ABC_LAYOUT.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text).lstrip())
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        hierarchy = await a.call("type_hierarchy", name="_collections_abc.MutableMapping")
        got = {d["qualified_name"] for d in hierarchy["descendants"] if d["kind"] == "class"}
        assert got == {
            "collections.UserDict",
            "named.Named",
            "dotted.Dotted",
            "package.Package",
            "submodule.Submodule",
            "aliased.Aliased",
        }
        pop = await a.get_symbol("aliased.Aliased.pop")
        assert callees(pop) == {"_collections_abc.MutableMapping.pop": "import"}
    finally:
        await ws.close()


async def test_an_index_made_by_an_older_resolver_is_resolved_again_once(project: Path, cache_dir: Path) -> None:
    """The resolver's improvements reach an index made before them: the next run resolves every edge
    again though no file changed, and the run after that does not."""
    from codecairn.index import resolver

    ws = await Workspace.open(project)
    try:
        await ws.index_now()
        rows = await ws.store.fetch("SELECT id FROM edges WHERE target='helper' AND target_id IS NOT NULL")
        assert rows
        # What an older resolver left behind: the edge unresolved, and its own version in the meta.
        await ws.store.write_resolutions([(None, None, rows[0][0])])
        await ws.store.set_meta({resolver.RESOLVER_META_KEY: "1"})
    finally:
        await ws.close()
    ws = await Workspace.open(project)
    try:
        helper = await answers(ws).get_symbol("shop.orders.helper")
        assert set(python_edges(helper["callers"])) == {"shop.orders.Order.pay"}  # the old index, as it is
        generation = ws.state.generation
        await ws.index_now()
        assert ws.state.generation == generation + 1
        helper = await answers(ws).get_symbol("shop.orders.helper")
        assert set(python_edges(helper["callers"])) == {"shop.orders.Order.pay", "app.main"}
        assert await ws.store.get_meta(resolver.RESOLVER_META_KEY) == resolver.VERSION
        await ws.index_now()
        assert ws.state.generation == generation + 1  # nothing changed: nothing resolved again
    finally:
        await ws.close()


async def test_calls_that_leave_the_project_are_external_edges_not_silence(tmp_path: Path, cache_dir: Path) -> None:
    """Built-ins, built-in types' members and modules the index does not hold become edges labelled
    external to the dotted name they reach; what could be the project's stays unresolved; a name
    the file defines itself is never the built-in; an import from outside is never guessed to be
    a namesake in the project."""
    root = tmp_path / "proj"
    (root / "shop").mkdir(parents=True)
    (root / "shop" / "__init__.py").write_text("def helper():\n    pass\n")
    (root / "other.py").write_text("def sqrt(x):\n    return x\n")
    (root / "mine.py").write_text("def len(x):\n    return 0\n\n\ndef count(x):\n    return len(x)\n")
    (root / "app.py").write_text(
        textwrap.dedent(
            """
            import sys
            import numpy as np
            from math import sqrt
            from shop import helper
            import shop


            def run(values):
                n = len(values)
                text = str.join(",", values)
                sys.stdout.write(text)
                helper()
                shop.missing()
                values.append(np.linalg.norm(values))
                return sqrt(n)
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        run = await a.get_symbol("app.run")
        assert run["callees"]["external"] == [
            "builtins.len",
            "builtins.str.join",
            "math.sqrt",
            "numpy.linalg.norm",
            "sys.stdout.write",
        ]
        assert run["callees"]["unresolved"] == ["append", "missing"]  # an unknown receiver; the project's own module
        assert callees(run) == {"shop.helper": "import"}  # not other.sqrt: sqrt comes from math
        assert callees(await a.get_symbol("mine.count")) == {"mine.len": "exact"}
        assert "external" not in (await a.get_symbol("mine.count"))["callees"]
        stats = await a.stats()
        assert stats["call_resolution"]["external"] == 5
        assert stats["unresolved_calls"] == 2
        trace = await a.call("trace", name="app.run", direction="callees", depth=1)
        hops = {h["callee"]: h for h in trace["callees"]} if isinstance(trace.get("callees"), list) else {}
        assert hops["sys.stdout.write"]["resolution"] == "external", trace
        assert hops["values.append"]["resolved"] is False
    finally:
        await ws.close()
    # Methods of built-in types a receiver is known to hold: literals, constructors, annotations.
    (root / "texts.py").write_text(
        textwrap.dedent(
            """
            def build(names: str, raw):
                parts = []
                seen = set()
                table = dict(a=1)
                parts.append(", ".join(raw))
                seen.add(b"".join(raw))
                table.get("a")
                names.split()
                raw.strip()
            """
        ).lstrip()
    )
    # Indexed modules that hand names on from outside: by name, by one `import *`, or by several.
    (root / "iolike.py").write_text("from _fastio import BytesIO, open_code\n\n\ndef local():\n    pass\n")
    (root / "structlike.py").write_text("from _cstruct import *\n")
    (root / "oslike.py").write_text(
        "import sys\n\nif sys.platform == 'win32':\n    from nt import *\nelse:\n    from posix import *\n"
    )
    (root / "ctlike.py").write_text("from _ctlike import POINTER\n")
    (root / "uses.py").write_text(
        "import iolike\nimport structlike\nimport oslike\nfrom ctlike import *\n\n\n"
        "def go():\n    iolike.BytesIO()\n    structlike.pack(1)\n    oslike.mkdir('x')\n    POINTER(1)\n"
        "    iolike.missing()\n    iolike.local()\n"
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        go = await answers(ws).get_symbol("uses.go")
        assert go["callees"]["external"] == ["_cstruct.pack", "_ctlike.POINTER", "_fastio.BytesIO", "oslike.mkdir"]
        assert go["callees"]["unresolved"] == ["missing"]  # iolike takes nothing wholesale from outside
        assert callees(go) == {"iolike.local": "import"}
        build = await answers(ws).get_symbol("texts.build")
        assert build["callees"]["external"] == [
            "builtins.bytes.join",
            "builtins.dict",
            "builtins.dict.get",
            "builtins.list.append",
            "builtins.set",
            "builtins.set.add",
            "builtins.str.join",
            "builtins.str.split",
        ]
        assert build["callees"]["unresolved"] == ["strip"]  # raw's type: nothing says
    finally:
        await ws.close()
    # What an index keeps survives a reopen (the overview is read back, not recounted by the tally).
    ws = await Workspace.open(root)
    try:
        stats = await answers(ws).stats()
        assert stats["call_resolution"]["external"] == 17 and stats["unresolved_calls"] == 4
    finally:
        await ws.close()


async def test_a_mixin_s_self_call_reaches_what_every_subclass_reaches(tmp_path: Path, cache_dir: Path) -> None:
    """A mixin calls methods it does not define (`self.assertEqual` in a test mixin): the call
    means what every subclass in the index reaches, labelled flow; subclasses that disagree, or
    none at all, leave it unresolved."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "mixins.py").write_text(
        textwrap.dedent(
            """
            from library import LibraryBase, LibraryCase


            class Case:
                def assert_equal(self, a, b):
                    return a == b


            class CheckMixin:
                def check(self):
                    self.assert_equal(1, 1)
                    self.helper()


            class First(CheckMixin, Case):
                def helper(self):
                    return 1


            class Second(CheckMixin, Case):
                def helper(self):
                    return 2


            class Third(Second):
                pass


            class LoneMixin:
                def go(self):
                    self.nothing()


            class ProbeMixin:
                def probe(self):
                    self.assert_equal(1, 2)


            class ProbeFirst(ProbeMixin, Case):
                pass


            class ProbeSecond(ProbeMixin, LibraryCase):
                pass


            class OpenMixin(LibraryBase):
                def go(self):
                    self.run()


            class UsesOpen(OpenMixin):
                def run(self):
                    return 3
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        check = await a.get_symbol("mixins.CheckMixin.check")
        assert callees(check) == {"mixins.Case.assert_equal": "flow"}
        assert check["callees"]["unresolved"] == ["helper"]  # First's and Second's: they disagree
        assert (await a.get_symbol("mixins.LoneMixin.go"))["callees"]["unresolved"] == ["nothing"]
        # A supertype outside the index may hold the method: nothing is inferred.
        assert (await a.get_symbol("mixins.ProbeMixin.probe"))["callees"]["unresolved"] == ["assert_equal"]
        assert (await a.get_symbol("mixins.OpenMixin.go"))["callees"]["unresolved"] == ["run"]
        assert (await a.stats())["call_resolution"]["flow"] == 1

        # A subclass elsewhere that may take assert_equal from outside the index: no longer known.
        # Nothing it defines is called `assert_equal`: the new subtype alone sends the call back.
        (root / "extra.py").write_text("from library import LibraryCase\nfrom mixins import CheckMixin\n\n\n"
                                       "class Odd(CheckMixin, LibraryCase):\n    pass\n")  # fmt: skip
        await ws.refresh(["extra.py"])
        check = await a.get_symbol("mixins.CheckMixin.check")
        assert callees(check) == {} and sorted(check["callees"]["unresolved"]) == ["assert_equal", "helper"]
        (root / "extra.py").unlink()
        await ws.refresh(["extra.py"])
        assert callees(await a.get_symbol("mixins.CheckMixin.check")) == {"mixins.Case.assert_equal": "flow"}
    finally:
        await ws.close()
    (root / "extra.py").write_text("from mixins import CheckMixin\n\n\nclass Odd(CheckMixin):\n    pass\n")
    ws = await Workspace.open(root)  # a restart, and a subtype came while nobody watched
    try:
        await ws.index_now()
        check = await answers(ws).get_symbol("mixins.CheckMixin.check")
        # Odd reaches no assert_equal at all: the subtypes that have one still agree.
        assert callees(check) == {"mixins.Case.assert_equal": "flow"}
        (root / "extra.py").write_text("from library import LibraryCase\nfrom mixins import CheckMixin\n\n\n"
                                       "class Odd(CheckMixin, LibraryCase):\n    pass\n")  # fmt: skip
    finally:
        await ws.close()
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        check = await answers(ws).get_symbol("mixins.CheckMixin.check")
        assert callees(check) == {} and sorted(check["callees"]["unresolved"]) == ["assert_equal", "helper"]
    finally:
        await ws.close()
    (root / "extra.py").unlink()
    # Reopened, the types open to the outside are known before any file is parsed again: a new
    # `run` elsewhere sends OpenMixin.go's call to be resolved again, and it stays unresolved.
    (root / "later.py").write_text("def run():\n    return 4\n")
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        go = await answers(ws).get_symbol("mixins.OpenMixin.go")
        assert go["callees"]["unresolved"] == ["run"]
        assert callees(await answers(ws).get_symbol("mixins.CheckMixin.check")) == {"mixins.Case.assert_equal": "flow"}
    finally:
        await ws.close()


async def test_values_flow_through_assignments_arguments_returns_and_containers(
    tmp_path: Path, cache_dir: Path
) -> None:
    """A call through a name that holds a function or an instance reaches it, labelled flow: plain
    assignments, default values, this file's calls of its own functions, what a function returns
    and containers with literal indexes. A parameter given two different functions calls each."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            class Order:
                def pay(self):
                    pass


            def first():
                pass


            def second():
                pass


            def make():
                return Order()


            def apply(f, order):
                f()
                order.pay()


            def either(g):
                g()


            def run(handler=second):
                a = first
                b = a
                b()
                handler()
                made = make()
                made.pay()
                make().pay()
                pay = made.pay
                pay()
                table = {"one": first, "two": second}
                table["two"]()
                node = made
                node = node.parent


            apply(first, Order())
            either(first)
            either(second)
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        run = await a.get_symbol("main.run")
        assert callees(run) == {
            "main.first": "flow",  # b = a = first; b()
            "main.second": "flow",  # handler=second; table["two"]()
            "main.make": "exact",
            "main.Order.pay": "flow",  # made = make(); make().pay(); pay = made.pay
        }
        assert callees(await a.get_symbol("main.apply")) == {"main.first": "flow", "main.Order.pay": "flow"}
        # first or second: the call may reach either, an edge to each
        assert callees(await a.get_symbol("main.either")) == {"main.first": "flow", "main.second": "flow"}
    finally:
        await ws.close()


async def test_a_decorator_is_called_and_its_wrapper_is_what_the_name_holds(tmp_path: Path, cache_dir: Path) -> None:
    """`@deco` calls deco where the definition stands; a decorator of the file that returns a
    function it defines makes the decorated name hold that wrapper, and the wrapper calls what it
    decorated."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            def deco(f):
                def wrapper():
                    return f()

                return wrapper


            @deco
            def target():
                pass


            class Service:
                @staticmethod
                def build():
                    pass


            def run():
                target()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.run")) == {"main.deco.wrapper": "flow"}
        assert callees(await a.get_symbol("main.deco.wrapper")) == {"main.target": "flow"}
        deco = await a.get_symbol("main.deco")
        assert python_edges(deco["callers"]) == {"main.(top level)": "exact"}  # the decoration, line 7
        assert (await a.get_symbol("main.Service"))["callees"]["external"] == ["builtins.staticmethod"]
    finally:
        await ws.close()


async def test_a_class_call_is_an_edge_to_the_init_it_runs_and_still_a_caller_of_the_class(
    project: Path, cache_dir: Path
) -> None:
    ws = await Workspace.open(project)
    try:
        await ws.index_now()
        a = answers(ws)
        # Refund() runs Order's __init__ (inherited); Gateway() has none in the project: the class.
        assert callees(await a.get_symbol("app.give_back")) == {"shop.orders.Order.__init__": "import"}
        assert callees(await a.get_symbol("Order.__init__")) == {"shop.money.Gateway": "import"}
        init_callers = python_edges((await a.get_symbol("Order.__init__"))["callers"])
        assert set(init_callers) == {"app.main", "app.give_back"}
        # Asked about the classes, each lists the calls that instantiate it, and only those.
        assert set(python_edges((await a.get_symbol("shop.orders.Order"))["callers"])) == {"app.main"}
        assert set(python_edges((await a.get_symbol("shop.orders.Refund"))["callers"])) == {"app.give_back"}
        refs = (await a.call("find_references", name="shop.orders.Refund", tokens=False))["references"]
        # The instantiation, and give_back's returns edge (what it returns is a Refund).
        assert [(r["path"], r["line"], r["kind"]) for r in refs] == [("app.py", 9, "returns"), ("app.py", 10, "calls")]
    finally:
        await ws.close()


async def test_loops_generators_star_arguments_partials_and_class_attributes_carry_values(
    tmp_path: Path, cache_dir: Path
) -> None:
    """A loop over what the file shows calls each thing it holds (a literal, a container, a
    generator of the file, ``*args``); ``**kwargs`` is a container of what the calls pass by name;
    ``partial(f, ...)``, a function that returns a function, ``table.get("k")`` and a class attribute
    naming a function each hold it. A loop over something unknown says nothing."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            import functools


            def first():
                pass


            def second():
                pass


            class Shape:
                def area(self):
                    pass


            class Square(Shape):
                def area(self):
                    pass


            def steps():
                yield first
                yield from [second]


            def choose():
                return first


            def loops(unknown):
                for f in (first, second):
                    f()
                for shape in [Shape(), Square()]:
                    shape.area()
                [s() for s in steps()]
                for u in unknown:
                    u()


            def run_all(*callbacks):
                for callback in callbacks:
                    callback()


            def notify(**handlers):
                handlers["on_done"]()


            def values():
                shout = functools.partial(second, 1)
                shout()
                chosen = choose()
                chosen()
                table = {"a": first}
                table.get("a")()


            class Dispatcher:
                handler = second

                def dispatch(self):
                    self.handler()


            run_all(first)
            notify(on_done=second)
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        loops = await a.get_symbol("main.loops")
        assert callees(loops) == {
            "main.first": "flow",
            "main.second": "flow",
            "main.Shape.area": "flow",
            "main.Square.area": "flow",
            "main.steps": "exact",
            "main.Shape": "exact",
            "main.Square": "exact",
        }
        assert loops["callees"]["unresolved"] == ["u"]
        assert callees(await a.get_symbol("main.run_all")) == {"main.first": "flow"}
        assert callees(await a.get_symbol("main.notify")) == {"main.second": "flow"}
        got = callees(await a.get_symbol("main.values"))
        assert {k: v for k, v in got.items() if v == "flow"} == {"main.first": "flow", "main.second": "flow"}
        assert callees(await a.get_symbol("main.Dispatcher.dispatch")) == {"main.second": "flow"}
    finally:
        await ws.close()


async def test_what_another_modules_function_returns_is_followed_and_kept_current(
    tmp_path: Path, cache_dir: Path
) -> None:
    """`make().pay()`, `order = make(); order.pay()` and `choose()()` where make and choose live in
    another module: the call follows what that function returns (its annotation, its `return
    Order()`, `return first`). Edit only the other module so it returns something else, and the
    calls here follow the change without this file being touched."""
    root = tmp_path / "proj"
    (root / "shop").mkdir(parents=True)
    orders = root / "shop" / "orders.py"
    orders.write_text(
        textwrap.dedent(
            """
            class Order:
                def pay(self):
                    pass


            class Invoice:
                def pay(self):
                    pass


            def make():
                return Order()


            def first():
                pass


            def choose():
                return first
            """
        ).lstrip()
    )
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            from shop.orders import make, choose


            def run():
                make().pay()
                order = make()
                order.pay()
                choose()()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.run")) == {
            "shop.orders.make": "import",
            "shop.orders.choose": "import",
            "shop.orders.Order.pay": "flow",
            "shop.orders.first": "flow",
        }
        orders.write_text(orders.read_text().replace("return Order()", "return Invoice()"))
        await ws.refresh(["shop/orders.py"])
        assert callees(await a.get_symbol("main.run")) == {
            "shop.orders.make": "import",
            "shop.orders.choose": "import",
            "shop.orders.Invoice.pay": "flow",
            "shop.orders.first": "flow",
        }
        orders.write_text(orders.read_text().replace("return Invoice()", "return None"))
        await ws.refresh(["shop/orders.py"])
        assert "shop.orders.Invoice.pay" not in callees(await a.get_symbol("main.run"))
    finally:
        await ws.close()


async def test_what_a_method_returns_is_followed(tmp_path: Path, cache_dir: Path) -> None:
    """`return self`, `-> "Query"`, `return cls()` in a classmethod: the call on what the method
    gave reaches the class's method, through a typed parameter, self, or the class."""
    root = tmp_path / "proj"
    (root / "shop").mkdir(parents=True)
    (root / "shop" / "query.py").write_text(
        textwrap.dedent(
            """
            class Query:
                def where(self, test):
                    return self

                def copy(self) -> "Query":
                    return Query()

                @classmethod
                def empty(cls):
                    return cls()

                def run(self):
                    return self.where(0).copy()
            """
        ).lstrip()
    )
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            from shop.query import Query


            def search(query: Query, other):
                query.where(1).run()
                fresh = query.copy()
                fresh.run()
                Query.empty().run()
                other.where(1).run()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        search = await a.get_symbol("main.search")
        assert callees(search) == {
            "shop.query.Query.where": "import",  # query: Query, the class imported
            "shop.query.Query.copy": "import",
            "shop.query.Query.empty": "import",
            "shop.query.Query.run": "flow",  # on what where, copy and empty give
        }
        assert sorted(search["callees"]["unresolved"]) == ["run", "where"]  # other: untyped, no guess
        assert callees(await a.get_symbol("Query.run")) == {
            "shop.query.Query.where": "exact",
            "shop.query.Query.copy": "flow",
        }
        assert callees(await a.get_symbol("Query.empty")) == {"shop.query.Query": "flow"}  # cls(): the class
    finally:
        await ws.close()


async def test_an_instance_another_module_holds_is_typed_by_what_it_holds(tmp_path: Path, cache_dir: Path) -> None:
    """`repo = Repo()` at a module's top level, `repo.find()` and `db.repo.find()` in another
    module: the calls reach Repo.find (flow), and follow an edit that makes repo something else."""
    root = tmp_path / "proj"
    (root / "app").mkdir(parents=True)
    db = root / "app" / "db.py"
    db.write_text(
        "class Repo:\n    def find(self):\n        pass\n\n\nclass Cache(Repo):\n    def find(self):\n        pass\n\n\nrepo = Repo()\n"
    )
    (root / "main.py").write_text(
        "from app.db import repo\nfrom app import db\n\n\ndef run():\n    repo.find()\n    db.repo.find()\n"
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.run")) == {"app.db.Repo.find": "flow"}
        db.write_text(db.read_text().replace("repo = Repo()", "repo = Cache()"))
        await ws.refresh(["app/db.py"])
        assert callees(await a.get_symbol("main.run")) == {"app.db.Cache.find": "flow"}
    finally:
        await ws.close()


async def test_a_decorator_factory_applies_the_decorator_it_returns(tmp_path: Path, cache_dir: Path) -> None:
    """`@retry(3)` calls retry, then the decorator retry returns, with the function it decorates;
    the decorated name holds the wrapper that decorator returns, and the wrapper calls the function."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            def retry(times):
                def decorator(f):
                    def wrapper():
                        return f()

                    return wrapper

                return decorator


            @retry(3)
            def fetch():
                pass


            def run():
                fetch()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        # Applied at the module's top level, where @retry(3) stands.
        assert list((await a.get_symbol("main.retry"))["callers"]["exact"]) == ["main.py"]
        assert list((await a.get_symbol("main.retry.decorator"))["callers"]["flow"]) == ["main.py"]
        assert callees(await a.get_symbol("main.run")) == {"main.retry.decorator.wrapper": "flow"}
        assert callees(await a.get_symbol("main.retry.decorator.wrapper")) == {"main.fetch": "flow"}
    finally:
        await ws.close()


async def test_unpacking_containers_filled_later_stacked_decorators_and_raised_classes(
    tmp_path: Path, cache_dir: Path
) -> None:
    """Values reach calls through unpacking (nested, starred), keys and appends after the literal,
    a literal passed as an argument, stacked decorators, `next()` of a generator and a named
    lambda's result; `raise Failed` makes a Failed; a method of a class from outside the project is
    external by that class's name, a lower-case callee's is not guessed."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            import socket
            from collections import OrderedDict


            def first():
                pass


            def second():
                pass


            def third():
                pass


            def outer(f):
                def wrap():
                    return f()

                return wrap


            def inner(f):
                def wrap():
                    return f()

                return wrap


            @outer
            @inner
            def target():
                pass


            def one():
                yield third


            class Failed(Exception):
                def __init__(self):
                    pass


            def unpacked():
                (a, b), *rest = (first, second), third
                b()
                rest[0]()


            def filled():
                table = {}
                table["a"] = first
                table["a"]()
                funcs = [first]
                funcs.append(second)
                funcs[1]()


            def each(handlers):
                handlers["go"]()


            each({"go": third})
            get = lambda: second


            def misc():
                target()
                next(one())()
                get()()
                raise Failed


            def pick(n):
                if n:
                    return first
                return second


            def chosen():
                pick(1)()


            class Builder:
                def step(self):
                    return self

                def done(self):
                    pass


            def chained(b: Builder):
                Builder().step().step().done()
                b.step().done()


            class Plain:
                pass


            class Sub(Plain):
                def __init__(self):
                    super().__init__()


            def outside():
                d = OrderedDict()
                d.move_to_end("a")
                s = socket.socket()
                s.connect(("a", 1))
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.unpacked")) == {"main.second": "flow", "main.third": "flow"}
        assert callees(await a.get_symbol("main.filled")) == {"main.first": "flow", "main.second": "flow"}
        assert callees(await a.get_symbol("main.each")) == {"main.third": "flow"}
        misc = callees(await a.get_symbol("main.misc"))
        assert misc["main.outer.wrap"] == "flow"  # target holds outer's wrapper...
        assert "main.target" not in misc
        assert callees(await a.get_symbol("main.outer.wrap")) == {"main.inner.wrap": "flow"}  # ...around inner's
        assert callees(await a.get_symbol("main.inner.wrap")) == {"main.target": "flow"}
        assert misc["main.third"] == "flow"  # next(one())()
        assert misc["main.second"] == "flow"  # get()()
        assert misc["main.Failed.__init__"] == "exact"  # raise Failed
        assert callees(await a.get_symbol("main.chosen")) == {
            "main.pick": "exact",
            "main.first": "flow",
            "main.second": "flow",
        }
        assert callees(await a.get_symbol("main.chained")) == {  # each link through the one before
            "main.Builder": "exact",
            "main.Builder.step": "exact",
            "main.Builder.done": "flow",
        }
        # No class of the project has it: not a namesake (the __init__ making the call), object's.
        sub = await a.get_symbol("main.Sub.__init__")
        assert sub["callees"] == {"external": ["builtins.object.__init__", "builtins.super"]}
        outside = await a.get_symbol("main.outside")
        assert "collections.OrderedDict.move_to_end" in outside["callees"]["external"]
        assert "connect" in outside["callees"]["unresolved"]  # socket.socket() may be any factory's result
    finally:
        await ws.close()


async def test_super_reaches_object_only_when_every_supertype_is_in_the_project(
    tmp_path: Path, cache_dir: Path
) -> None:
    """`super().__init__()` in a class whose supertypes are all in the project and define no
    __init__ runs object's: an external edge. A supertype the project does not hold (imported from
    a library, a name defined nowhere, one a call makes) may define it, and a mixin's super() is
    whatever class follows it in a subclass's method order: unresolved, as is a method object
    lacks. A base named through a name holding a project class (`Alias = Base`) is that class."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "base.py").write_text("class Base:\n    def helper(self):\n        pass\n")
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            from collections import namedtuple

            from base import Base
            from library import Remote


            class Child(Base):
                def __init__(self):
                    super().__init__()
                    super().helper()

                def __repr__(self):
                    return super().__repr__()

                def setup(self):
                    super().setup()


            class Grandchild(Child):
                def __new__(cls):
                    return super().__new__(cls)


            class Local(Remote):
                def __init__(self):
                    super().__init__()


            class Nowhere(Undefined):
                def __init__(self):
                    super().__init__()


            class Point(namedtuple("Point", "x y")):
                def __new__(cls, x, y):
                    return super().__new__(cls, x, y)


            Alias = Base


            class Through(Alias):
                def __init__(self):
                    super().__init__()


            class Mixin:
                def __init__(self):
                    super().__init__()


            class Mixed(Mixin, Base):
                pass
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)

        def outside(answer: dict) -> tuple[list[str], list[str]]:  # (external, unresolved), super() aside
            got = answer["callees"]
            return [n for n in got.get("external", []) if n != "builtins.super"], got.get("unresolved", [])

        child = await a.get_symbol("main.Child.__init__")
        assert outside(child) == (["builtins.object.__init__"], [])
        assert callees(child) == {"base.Base.helper": "inherited"}
        assert outside(await a.get_symbol("main.Child.__repr__")) == (["builtins.object.__repr__"], [])
        assert outside(await a.get_symbol("main.Child.setup")) == ([], ["setup"])  # object has no setup
        assert outside(await a.get_symbol("main.Grandchild.__new__")) == (["builtins.object.__new__"], [])
        assert outside(await a.get_symbol("main.Through.__init__")) == (["builtins.object.__init__"], [])
        for name in ("main.Local.__init__", "main.Nowhere.__init__", "main.Mixin.__init__"):
            assert outside(await a.get_symbol(name)) == ([], ["__init__"]), name
        assert outside(await a.get_symbol("main.Point.__new__")) == ([], ["__new__"])
        assert (await a.get_symbol("main.Point"))["bases"] == {"unresolved": ["namedtuple()"]}
    finally:
        await ws.close()


async def test_what_other_modules_pass_a_parameter_is_followed_and_kept_current(
    tmp_path: Path, cache_dir: Path
) -> None:
    """`util.apply(callback)` written in main.py binds apply's `f`: `f()` inside apply calls
    main.callback, and `listener.notify()` a method of the instance passed. Every edit keeps it
    true without re-indexing the project: the caller passing something else, a second caller
    passing a third value (two values: an edge to each), the caller gone, the callee's file or the
    value's file edited, and after a restart. Passes facts are internal: never shown as a use."""
    root = tmp_path / "proj"
    root.mkdir()
    util, main, hooks = root / "util.py", root / "main.py", root / "hooks.py"
    util.write_text(
        textwrap.dedent(
            """
            def apply(f, x=0):
                return f(x)


            class Runner:
                def start(self, listener, *, on_done):
                    listener.notify()
                    on_done()
            """
        ).lstrip()
    )
    hooks.write_text("def finished():\n    pass\n")
    main.write_text(
        textwrap.dedent(
            """
            import util
            from hooks import finished


            def callback(x):
                return x


            def other(x):
                return x


            class Listener:
                def notify(self):
                    pass


            def run():
                util.apply(callback)
                runner = util.Runner()
                runner.start(Listener(), on_done=finished)
            """
        ).lstrip()
    )

    async def called_by(a, name: str) -> dict[str, str]:
        return callees(await a.get_symbol(name))

    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert (await called_by(a, "util.apply")) == {"main.callback": "flow"}
        assert (await called_by(a, "util.Runner.start")) == {"main.Listener.notify": "flow", "hooks.finished": "flow"}
        callers = python_edges((await a.get_symbol("main.callback"))["callers"])
        assert callers == {"util.apply": "flow"}
        references = (await a.call("find_references", name="main.callback", tokens=False))["references"]
        assert {r["kind"] for r in references} == {"calls"}, "a passes fact is no use of its own"

        main.write_text(main.read_text().replace("util.apply(callback)", "util.apply(other)"))
        await ws.refresh(["main.py"])
        assert (await called_by(a, "util.apply")) == {"main.other": "flow"}

        (root / "second.py").write_text("import util\n\n\ndef third(x):\n    pass\n\n\nutil.apply(third)\n")
        await ws.refresh(["second.py"])
        both = {"main.other": "flow", "second.third": "flow"}
        assert (await called_by(a, "util.apply")) == both, "two values reach f: an edge to each"
        (root / "second.py").unlink()
        await ws.refresh(["second.py"])
        assert (await called_by(a, "util.apply")) == {"main.other": "flow"}

        util.write_text("\n\n" + util.read_text())  # every line moves, every symbol is written again
        await ws.refresh(["util.py"])
        assert (await called_by(a, "util.apply")) == {"main.other": "flow"}
        hooks.write_text("\n\n" + hooks.read_text())
        await ws.refresh(["hooks.py"])
        assert (await called_by(a, "util.Runner.start")) == {"main.Listener.notify": "flow", "hooks.finished": "flow"}
        (root / "second.py").write_text("import util\n\n\ndef third(x):\n    pass\n\n\nutil.apply(third)\n")
        await ws.refresh(["second.py"])
        assert (await called_by(a, "util.apply")) == both
    finally:
        await ws.close()

    ws = await Workspace.open(root)  # a restart: what every file passes is loaded with the index
    try:
        a = answers(ws)
        assert (await called_by(a, "util.apply")) == both  # the row beside the call's edge, kept
        main.write_text("\n" + main.read_text())  # this caller's facts again: second.py's still count
        await ws.refresh(["main.py"])
        assert (await called_by(a, "util.apply")) == both
        (root / "second.py").unlink()
        await ws.refresh(["second.py"])
        assert (await called_by(a, "util.apply")) == {"main.other": "flow"}
        main.write_text(main.read_text().replace("    util.apply(other)\n", ""))
        await ws.refresh(["main.py"])
        assert (await called_by(a, "util.apply")) == {}
        (root / "second.py").write_text("import util\n\n\ndef third(x):\n    pass\n\n\nutil.apply(third)\n")
        await ws.refresh(["second.py"])
        assert (await called_by(a, "util.apply")) == {"second.third": "flow"}
    finally:
        await ws.close()


async def test_a_parameter_different_modules_pass_different_functions_calls_each(
    tmp_path: Path, cache_dir: Path
) -> None:
    """`def run(f): f()` with `run(first)` in one module and `run(second)` in another: the call in
    run reaches both, so each lists run among its callers and run lists both, labelled flow — the
    same for a method called on the instances two modules pass. A parameter handed more than a few
    different functions is a dispatcher: no edge, the call stays unresolved. Stats count the
    call sites left unresolved as before; edits and a restart keep it all true."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "jobs.py").write_text(
        textwrap.dedent(
            """
            def run(f):
                return f()


            def notify(listener):
                listener.done()


            def dispatch(handler):
                handler()
            """
        ).lstrip()
    )
    for name, other in (("a", "first"), ("b", "second")):
        (root / f"{name}.py").write_text(
            textwrap.dedent(
                f"""
                from jobs import dispatch, notify, run


                def {other}():
                    pass


                class Listener:
                    def done(self):
                        pass


                def main():
                    run({other})
                    notify(Listener())
                    dispatch({other})
                """
            ).lstrip()
        )
    for i in range(3):  # with a.py and b.py: five different handlers reach dispatch's parameter
        (root / f"extra{i}.py").write_text(
            f"from jobs import dispatch\n\n\ndef h{i}():\n    pass\n\n\ndispatch(h{i})\n"
        )

    async def called_by(a, name: str) -> dict[str, str]:
        return callees(await a.get_symbol(name))

    async def callers_of(a, name: str) -> dict[str, str]:
        return python_edges((await a.get_symbol(name)).get("callers", {}))

    async def check(a) -> None:
        assert (await called_by(a, "jobs.run")) == {"a.first": "flow", "b.second": "flow"}
        assert (await callers_of(a, "a.first")) == {"jobs.run": "flow"}
        assert (await callers_of(a, "b.second")) == {"jobs.run": "flow"}
        assert (await called_by(a, "jobs.notify")) == {"a.Listener.done": "flow", "b.Listener.done": "flow"}
        assert (await callers_of(a, "b.Listener.done")) == {"jobs.notify": "flow"}
        dispatch = await a.get_symbol("jobs.dispatch")
        assert callees(dispatch) == {} and dispatch["callees"]["unresolved"] == ["handler"]

    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        await check(a)
        stats = await a.call("stats")
        assert stats["unresolved_calls"] == 1  # handler(): one call site, however many edges beside others
        assert stats["call_resolution"]["flow"] == 4  # run's f() and notify's listener.done(), to each

        (root / "b.py").write_text("\n" + (root / "b.py").read_text())  # the values' symbols written again
        await ws.refresh(["b.py"])
        await check(a)
        (root / "jobs.py").write_text("\n" + (root / "jobs.py").read_text())  # the calls written again
        await ws.refresh(["jobs.py"])
        await check(a)
        assert (await a.call("stats"))["edges"] == stats["edges"], "no edge left behind or written twice"
        (root / "b.py").write_text((root / "b.py").read_text().replace("    run(second)\n", ""))
        await ws.refresh(["b.py"])
        assert (await called_by(a, "jobs.run")) == {"a.first": "flow"}  # one value left: the call's own edge
        assert (await callers_of(a, "b.second")) == {}
    finally:
        await ws.close()

    (root / "b.py").write_text((root / "b.py").read_text().replace("    notify(", "    run(second)\n    notify("))
    ws = await Workspace.open(root)  # a restart, and b.py changed while nobody watched
    try:
        await ws.index_now()
        a = answers(ws)
        await check(a)
    finally:
        await ws.close()


async def test_conditional_imports_values_passed_within_a_module_and_shadowing_parameters(
    tmp_path: Path, cache_dir: Path
) -> None:
    """A name imported from two places (`try`/`except ImportError`, an `if` on the platform) may
    be either: a call through it is an edge to each, and stays so through edits of either module.
    `apply(first)` and `apply(second)` in one module: apply's `f()` reaches both. A parameter named
    like a function (or module, or built-in) in scope holds what callers pass, not that namesake."""
    root = tmp_path / "proj"
    root.mkdir()
    files = {
        "fast.py": "def dumps():\n    pass\n",
        "slow.py": "def dumps():\n    pass\n",
        "main.py": """
            import sys

            try:
                from fast import dumps
            except ImportError:
                from slow import dumps

            if sys.platform == "win32":
                import fast as impl
            else:
                import slow as impl


            def save():
                dumps()


            def save_with():
                impl.dumps()


            def first():
                pass


            def second():
                pass


            def callback():
                pass


            def apply(f):
                f()


            def run(callback, type, sys):
                callback()
                type.mro()
                sys.exit()


            apply(first)
            apply(second)
            """,
    }
    for name, text in files.items():
        (root / name).write_text(textwrap.dedent(text).lstrip())

    async def called_by(a, name: str) -> dict[str, str]:
        return callees(await a.get_symbol(name))

    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        both = {"fast.dumps": "import", "slow.dumps": "flow"}
        assert (await called_by(a, "main.save")) == both
        assert (await called_by(a, "main.save_with")) == both
        assert set(await called_by(a, "main.apply")) == {"main.first", "main.second"}
        run = await a.get_symbol("main.run")
        assert callees(run) == {} and sorted(run["callees"]["unresolved"]) == ["callback", "exit", "mro"]
        edges = (await a.call("stats"))["edges"]

        (root / "slow.py").write_text("def loads():\n    pass\n")  # slow no longer has it
        await ws.refresh(["slow.py"])
        assert (await called_by(a, "main.save")) == {"fast.dumps": "import"}
        (root / "slow.py").write_text(files["slow.py"])
        await ws.refresh(["slow.py"])
        assert (await called_by(a, "main.save")) == both
        (root / "main.py").write_text("\n" + (root / "main.py").read_text())  # the calls written again
        await ws.refresh(["main.py"])
        assert (await called_by(a, "main.save_with")) == both
        assert (await a.call("stats"))["edges"] == edges, "no edge left behind or written twice"
    finally:
        await ws.close()


async def test_an_attribute_set_from_a_parameter_calls_what_other_modules_pass(tmp_path: Path, cache_dir: Path) -> None:
    """`self._target = target` in `Thread.__init__`, `self._target()` in `run`: what other modules
    pass `Thread(target=...)` is what run calls, labelled flow (two values: an edge to each), kept
    true through edits; an attribute nothing is passed for stays unresolved."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "worker.py").write_text(
        textwrap.dedent(
            """
            class Thread:
                def __init__(self, target=None, name=None):
                    self._target = target
                    self._name = name

                def run(self):
                    if self._target:
                        self._target()
                    self._name()
            """
        ).lstrip()
    )
    main = "from worker import Thread\n\n\ndef job():\n    pass\n\n\nThread(target=job).run()\n"
    (root / "main.py").write_text(main)
    (root / "other.py").write_text(
        "from worker import Thread\n\n\ndef other_job():\n    pass\n\n\nThread(other_job).run()\n"
    )

    async def run_calls(a) -> dict[str, str]:
        return callees(await a.get_symbol("worker.Thread.run"))

    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert (await run_calls(a)) == {"main.job": "flow", "other.other_job": "flow"}
        assert (await a.get_symbol("worker.Thread.run"))["callees"]["unresolved"] == ["_name"]
        (root / "other.py").write_text("from worker import Thread\n")  # no longer passes one
        await ws.refresh(["other.py"])
        assert (await run_calls(a)) == {"main.job": "flow"}
        (root / "main.py").write_text(main.replace("target=job", "target=job, name=job"))
        await ws.refresh(["main.py"])
        run = await a.get_symbol("worker.Thread.run")
        assert callees(run) == {"main.job": "flow"} and "unresolved" not in run["callees"]
        assert python_edges((await a.get_symbol("main.job"))["callers"]) == {"worker.Thread.run": "flow"}
    finally:
        await ws.close()


async def test_instances_called_dicts_updated_loops_over_items_spreads_and_hops(
    tmp_path: Path, cache_dir: Path
) -> None:
    """`Greeter()()` runs its __call__; `table.update(...)` and `dict(k=f)` fill a dict the
    calls follow; `for k, f in table.items()` and `for i, f in enumerate(funcs)` call each value;
    `on(**{"done": first})` with `on(done=second)` make `events["done"]()` call both; `hop(f)`
    passing its f on to `relay(g)` binds g. Each edge is `flow`; a spread the file cannot read
    (`on(**options)`) binds nothing."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            class Greeter:
                def __call__(self):
                    pass


            def first():
                pass


            def second():
                pass


            def third():
                pass


            def on(**events):
                events["done"]()


            def hop(f):
                relay(f)


            def relay(g):
                g()


            def later(**rest):
                rest["x"]()


            def run(options):
                Greeter()()
                table = {"a": first}
                table.update({"b": second})
                table["b"]()
                table.update(c=third)
                table["c"]()
                other = dict(d=first)
                other["d"]()
                for key, handler in {"x": third}.items():
                    handler()
                for i, step in enumerate([second]):
                    step()
                on(**{"done": first})
                on(done=second)
                hop(third)
                later(**options)
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        run = callees(await a.get_symbol("main.run"))
        assert run["main.Greeter.__call__"] == "flow"
        assert {run[f] for f in ("main.first", "main.second", "main.third")} == {"flow"}
        assert callees(await a.get_symbol("main.on")) == {"main.first": "flow", "main.second": "flow"}
        assert callees(await a.get_symbol("main.relay")) == {"main.third": "flow"}
        assert callees(await a.get_symbol("main.later")) == {}
        callers = python_edges((await a.get_symbol("main.Greeter.__call__"))["callers"])
        assert callers == {"main.run": "flow"}
    finally:
        await ws.close()


async def test_a_variable_holding_a_function_is_followed_from_subclasses_and_other_modules(
    tmp_path: Path, cache_dir: Path
) -> None:
    """`handler = first` as a base class's attribute (called as `self.handler()` in a subclass in
    another module) or as a module's variable (`config.handler()`): the call reaches first, the
    function the variable holds, not the variable. Edit only the module that holds it and the
    calls follow; a variable bound under an `if` (or also imported) is not followed."""
    root = tmp_path / "proj"
    root.mkdir()
    config = root / "config.py"
    config.write_text(
        textwrap.dedent(
            """
            def first():
                pass


            def second():
                pass


            class Base:
                handler = first


            handler = first
            if first:
                maybe = second
            """
        ).lstrip()
    )
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            import config
            from config import handler


            class Child(config.Base):
                def run(self):
                    self.handler()


            def go():
                config.handler()
                handler()
                config.maybe()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.Child.run")) == {"config.first": "flow"}
        go = callees(await a.get_symbol("main.go"))
        assert go["config.first"] == "flow"
        assert "config.second" not in go  # `maybe` is bound under an `if`: it may hold nothing
        callers = python_edges((await a.get_symbol("config.first"))["callers"])
        assert {"main.Child.run", "main.go"} <= callers.keys()
        config.write_text(config.read_text().replace("handler = first", "handler = second"))
        await ws.refresh(["config.py"])
        assert callees(await a.get_symbol("main.Child.run")) == {"config.second": "flow"}
        go = callees(await a.get_symbol("main.go"))
        assert go.get("config.second") == "flow" and "config.first" not in go
    finally:
        await ws.close()


async def test_lists_and_dicts_changed_by_their_methods_spreads_and_returned_parameters(
    tmp_path: Path, cache_dir: Path
) -> None:
    """`funcs.extend(...)`, `funcs.insert(0, f)`, `funcs += [f]`, `funcs[-1]()`, `[*funcs, f]`,
    `{**base, ...}`, `table |= {...}`, `table.setdefault(...)`, `yield from`, a generator expression looped over, a function or named
    lambda returning a parameter (`pick(first, second)()`), a class returned then made
    (`kind()().pay()`), a bound method returned (`Order().payer()()`), an attribute set on an
    instance (`box.f = first; box.f()`): each call
    reaches what Python would call, and an item moved by an insert is not called at its old index."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            def first():
                pass


            def second():
                pass


            def third():
                pass


            class Order:
                def pay(self):
                    pass

                def payer(self):
                    return self.pay


            class Box:
                pass


            def kind():
                return Order


            def pick(a, b):
                return b


            choose = lambda a, b: a


            def inner():
                yield first


            def outer():
                yield from inner()


            def lists():
                funcs = [first]
                funcs.extend([second])
                funcs.insert(0, third)
                funcs[1]()
                more = [*funcs, first]
                more[-2]()
                grown = []
                grown += [second]
                grown[0]()


            def dicts():
                base = {"a": first}
                table = {**base, "b": second}
                table.setdefault("a", third)
                table["a"]()
                table |= {"b": first}
                table["b"]()


            def flows():
                for f in outer():
                    f()
                for g in (h for h in (second,)):
                    g()
                pick(first, third)()
                choose(second, first)()
                kind()().pay()
                box = Box()
                box.f = third
                box.f()


            def bound():
                Order().payer()()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        lists = callees(await a.get_symbol("main.lists"))
        assert {k for k, v in lists.items() if v == "flow"} == {"main.first", "main.second"}
        dicts = callees(await a.get_symbol("main.dicts"))
        assert {k for k, v in dicts.items() if v == "flow"} == {"main.first"}
        flows = callees(await a.get_symbol("main.flows"))
        for called in ("main.first", "main.second", "main.third", "main.Order.pay"):
            assert flows.get(called) == "flow", (called, flows)
        assert callees(await a.get_symbol("main.bound")).get("main.Order.pay") == "flow"
    finally:
        await ws.close()


async def test_calls_follow_pythons_method_resolution_order_and_protocols(tmp_path: Path, cache_dir: Path) -> None:
    """`class Widget(BaseWidget, Pack)` looks a name up in BaseWidget's own bases before Pack (C3,
    as Python does), and a class attribute naming a method (`config = configure`) calls that
    method. `with Session() as s: s.query()` follows what `__enter__` returns; `(g := first)`,
    `a, b = pair()`, `table()["a"]()`, `getattr(order, "pay")()` and a class used as a decorator
    (calling the decorated name runs `__call__`, not the function it wraps), instances and classes
    held in a list or dict (`for s in sessions: s.query()`, `kinds["s"]().query()`), and what a
    subclass's `super().__init__(second)` passes the base reach what Python calls."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            def first():
                pass


            def second():
                pass


            class Misc:
                def configure(self):
                    pass

                config = configure


            class Pack:
                def pack_configure(self):
                    pass

                config = pack_configure


            class BaseWidget(Misc):
                pass


            class Widget(BaseWidget, Pack):
                pass


            class Session:
                def __enter__(self):
                    return self

                def __exit__(self, *exc):
                    return False

                def query(self):
                    pass


            class traced:
                def __init__(self, f):
                    self.f = f

                def __call__(self):
                    return self.f()


            @traced
            def work():
                pass


            def pair():
                return first, second


            def table():
                return {"a": first}


            def widgets():
                Widget().config()


            def protocols():
                with Session() as s:
                    s.query()
                if (g := first) is not None:
                    g()
                a, b = pair()
                b()
                table()["a"]()
                getattr(Session(), "query")()


            def decorated():
                work()


            class Button:
                def __init__(self, on_click):
                    self.on_click = on_click

                def click(self):
                    self.on_click()


            class OkButton(Button):
                def __init__(self):
                    super().__init__(second)


            def held():
                sessions = [Session(), Session()]
                for session in sessions:
                    session.query()
                kinds = {"s": Session}
                kinds["s"]().query()
                sessions[0].query()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.widgets")).get("main.Misc.configure") == "flow"
        assert "main.Pack.pack_configure" not in callees(await a.get_symbol("main.widgets"))
        protocols = callees(await a.get_symbol("main.protocols"))
        for called in ("main.Session.query", "main.first", "main.second"):
            assert protocols.get(called) == "flow", (called, protocols)
        decorated = callees(await a.get_symbol("main.decorated"))
        assert decorated == {"main.traced.__call__": "flow"}
        held = python_edges((await a.get_symbol("main.Session.query"))["callers"])
        assert held.get("main.held") == "flow"
        # `super().__init__(second)` binds Button's on_click, as `Button(second)` would
        assert callees(await a.get_symbol("main.Button.click")) == {"main.second": "flow"}
    finally:
        await ws.close()


async def test_own_star_arguments_handed_on_carry_what_the_calls_pass(tmp_path: Path, cache_dir: Path) -> None:
    """`def relay(*args, **kwargs): run(*args, **kwargs)`: what relay's calls pass reaches run's
    parameters — by position past what is written before the spread, by keyword, into run's own
    `*rest` and `**hooks`, over hops — and a keyword written after a `*` spread binds by name. A
    spread of anything but the caller's own star parameters says nothing about positions.
    `functools.partial(f, a)` binds f's parameters as `f(a)` does."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            import functools
            from functools import partial


            def first():
                pass


            def second():
                pass


            def third():
                pass


            def run(job, then=None, *rest, **hooks):
                job()
                then()
                rest[0]()
                hooks["done"]()


            def relay(*args, **kwargs):
                return run(*args, **kwargs)


            def hop(*args, **kwargs):
                relay(first, *args, **kwargs)


            def guess(items):
                run(*items, then=second)


            def deferred(task, when):
                task()


            hop(second, third, done=first)
            tick = functools.partial(deferred, third)
            tock = partial(deferred, when=1, task=second)
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.run")) == {
            "main.first": "flow",
            "main.second": "flow",
            "main.third": "flow",
        }
        called = python_edges((await a.get_symbol("main.second"))["callers"])
        assert called == {"main.run": "flow", "main.deferred": "flow"}, called
        # `partial(deferred, third)` binds deferred's parameters as `deferred(third)` would
        assert callees(await a.get_symbol("main.deferred")) == {"main.second": "flow", "main.third": "flow"}
    finally:
        await ws.close()


async def test_methods_of_the_modules_own_classes_take_what_its_calls_pass(tmp_path: Path, cache_dir: Path) -> None:
    """`Runner().run(first)`, `runner.run(second)` on an instance held in a name, `self.run(f)`
    and `cls.boot(f)` inside the class: the method's parameter holds what those calls of the same
    module pass, so the call through it reaches each function (only module-level functions and
    constructors were bound within a module before). An edit that passes something else moves
    the edge. A loop over a generator yielding instances calls their methods."""
    root = tmp_path / "proj"
    root.mkdir()
    main = root / "main.py"
    source = textwrap.dedent(
        """
        def first():
            pass


        def second():
            pass


        def third():
            pass


        class Runner:
            def run(self, job):
                job()

            def again(self):
                self.run(first)

            @classmethod
            def boot(cls, hook):
                hook()

            @classmethod
            def setup(cls):
                cls.boot(third)


        def runners():
            yield Runner()


        Runner().run(first)
        runner = Runner()
        runner.run(second)
        for each in runners():
            each.again()
        """
    ).lstrip()
    main.write_text(source)
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.Runner.run")) == {"main.first": "flow", "main.second": "flow"}
        assert callees(await a.get_symbol("main.Runner.boot")) == {"main.third": "flow"}
        # a loop over a generator yielding instances calls their class's methods
        assert python_edges((await a.get_symbol("main.Runner.again"))["callers"]).get("main.(top level)") == "flow"
        main.write_text(source.replace("runner.run(second)", "runner.run(third)"))
        await ws.refresh(["main.py"])
        assert callees(await a.get_symbol("main.Runner.run")) == {"main.first": "flow", "main.third": "flow"}
    finally:
        await ws.close()


async def test_a_comprehension_held_in_a_name_and_next_of_a_generator_are_followed(
    tmp_path: Path, cache_dir: Path
) -> None:
    """`funcs = (f for f in (first, second))` then `for f in funcs: f()` calls each; `f = next(g)`
    with g a generator yielding one function calls it; a comprehension that transforms its items
    says nothing (no guess)."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            def first():
                pass


            def second():
                pass


            def third():
                pass


            def gen():
                yield third


            def loops():
                funcs = (f for f in (first, second))
                for f in funcs:
                    f()
                made = [f() for f in (first,)]
                for m in made:
                    m()


            def steps():
                g = gen()
                step = next(g)
                step()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.loops")) == {"main.first": "flow", "main.second": "flow"}
        assert callees(await a.get_symbol("main.steps")) == {"main.gen": "exact", "main.third": "flow"}
    finally:
        await ws.close()


async def test_a_decorator_returning_another_function_and_a_class_held_then_made(
    tmp_path: Path, cache_dir: Path
) -> None:
    """`@swap def original` with `def swap(f): return other`: calling original calls other, not
    original. `kind = make()` with make returning a class: `kind().go()` and `made = kind();
    made.go()` call the class's method."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            class Order:
                def pay(self):
                    pass


            def other():
                pass


            def swap(f):
                return other


            def make():
                return Order


            @swap
            def original():
                pass


            def run():
                original()
                kind = make()
                kind().pay()
                made = kind()
                made.pay()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        got = callees(await a.get_symbol("main.run"))
        assert got["main.other"] == "flow" and "main.original" not in got, got
        assert got["main.Order.pay"] == "flow", got
        assert python_edges((await a.get_symbol("main.Order.pay"))["callers"]) == {"main.run": "flow"}
    finally:
        await ws.close()


async def test_filtered_comprehensions_slices_and_an_instances_own_attribute(tmp_path: Path, cache_dir: Path) -> None:
    """A loop over a filtered comprehension may call each value; over `funcs[1:-1]` only the
    items in the slice's range; `box.handler = second` on an instance wins over the class's
    `handler = first` for `box.handler()` after it."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            def first():
                pass


            def second():
                pass


            def third():
                pass


            class Box:
                handler = first


            def filtered():
                for f in [g for g in (first, second) if g is not None]:
                    f()


            def sliced():
                funcs = [first, second, third]
                for f in funcs[1:-1]:
                    f()


            def own():
                box = Box()
                box.handler = third
                box.handler()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.filtered")) == {"main.first": "flow", "main.second": "flow"}
        assert callees(await a.get_symbol("main.sliced")) == {"main.second": "flow"}
        assert callees(await a.get_symbol("main.own")) == {"main.Box": "exact", "main.third": "flow"}
    finally:
        await ws.close()


async def test_a_name_given_either_of_two_functions_calls_each_until_it_is_given_another(
    tmp_path: Path, cache_dir: Path
) -> None:
    """`f = first if fast else second` and `g = custom or fallback`: a call through the name may
    reach either (an edge to each); after `f = third` only third; `h = flag and second` gives
    second (a function is never false)."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            def first():
                pass


            def second():
                pass


            def third():
                pass


            def either(fast):
                f = first if fast else second
                f()


            def fallback(flag):
                g = (flag and third) or first
                g()
                h = flag and second
                h()


            def replaced(fast):
                f = first if fast else second
                f = third
                f()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.either")) == {"main.first": "flow", "main.second": "flow"}
        assert callees(await a.get_symbol("main.fallback")) == {
            "main.first": "flow",
            "main.second": "flow",
            "main.third": "flow",
        }
        assert callees(await a.get_symbol("main.replaced")) == {"main.third": "flow"}
    finally:
        await ws.close()


async def test_containers_typed_by_their_annotations_give_their_items_class(tmp_path: Path, cache_dir: Path) -> None:
    """`items: list[Item]`: a loop over items, `enumerate(items)` and `items[0]` give Items;
    `table: Dict[str, "Item"]`: its values(), items() and `table["a"]` do; the container's own
    methods are the built-in type's (`builtins.dict.values`). A mapping's keys say nothing. A
    property's return annotation types `self.item`."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            from typing import Dict


            class Item:
                def run(self):
                    pass


            def run_all(items: list[Item]):
                for item in items:
                    item.run()


            def run_first(items: "list[Item]"):
                items[0].run()


            def run_map(table: Dict[str, "Item"]):
                for key, value in table.items():
                    value.run()


            def run_keys(table: dict[Item, str]):
                for key in table:
                    key.run()


            class Holder:
                items: list[Item]

                @property
                def item(self) -> Item:
                    return Item()

                def use(self):
                    self.item.run()

                def each(self):
                    for item in self.items:
                        item.run()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        callers = python_edges((await a.get_symbol("main.Item.run"))["callers"])
        assert callers == {
            "main.run_all": "flow",
            "main.run_first": "flow",
            "main.run_map": "flow",
            "main.Holder.use": "exact",  # a property's annotated return: what `self.item` holds
            "main.Holder.each": "flow",  # a field annotated `list[Item]`
        }, callers
        assert (await a.get_symbol("main.run_map"))["callees"]["external"] == ["builtins.dict.items"]
    finally:
        await ws.close()


async def test_isinstance_narrows_a_name_inside_its_if_block_only(tmp_path: Path, cache_dir: Path) -> None:
    """`if isinstance(shape, Square): shape.side()` calls Square.side; after the block the name
    holds what it held before (`shape: Circle`), unless the block gave it a value of its own."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            class Circle:
                def area(self):
                    pass


            class Square:
                def side(self):
                    pass

                def area(self):
                    pass


            def measure(shape: Circle):
                if isinstance(shape, Square):
                    shape.side()
                shape.area()


            def convert(shape):
                if isinstance(shape, Circle):
                    shape = Square()
                shape.area()


            def chain(shape):
                if isinstance(shape, Circle):
                    pass
                elif isinstance(shape, Square):
                    shape.side()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        got = callees(await a.get_symbol("main.measure"))
        assert got == {"main.Square.side": "exact", "main.Circle.area": "exact"}, got
        assert callees(await a.get_symbol("main.convert")) == {"main.Square": "exact", "main.Square.area": "exact"}
        assert callees(await a.get_symbol("main.chain")) == {"main.Square.side": "exact"}  # an elif narrows too
    finally:
        await ws.close()


async def test_guards_and_tuples_of_classes_narrow_a_name(tmp_path: Path, cache_dir: Path) -> None:
    """`if not isinstance(shape, Circle): raise ...` narrows shape below the guard (to the end of
    its block); `isinstance(shape, (Circle, Square))` makes a call on it a call of each one's
    method; a guard whose block does not always leave narrows nothing."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            class Circle:
                def draw(self):
                    pass


            class Square:
                def draw(self):
                    pass


            def guarded(shape):
                if not isinstance(shape, Circle):
                    raise TypeError("a circle")
                shape.draw()


            def either(shape):
                if isinstance(shape, (Circle, Square)):
                    shape.draw()
                shape.draw()


            def loose(shape):
                if not isinstance(shape, Circle):
                    print("not a circle")
                shape.draw()


            def looped(shapes):
                for shape in shapes:
                    if not isinstance(shape, Square):
                        continue
                    shape.draw()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.guarded")) == {"main.Circle.draw": "exact"}
        # the call inside the block reaches both; the one after it (shape unknown) neither
        assert callees(await a.get_symbol("main.either")) == {"main.Circle.draw": "flow", "main.Square.draw": "flow"}
        assert callees(await a.get_symbol("main.loose")) == {}
        assert callees(await a.get_symbol("main.looped")) == {"main.Square.draw": "exact"}
    finally:
        await ws.close()


async def test_chained_returns_yielded_locals_bound_methods_and_handed_on_values(
    tmp_path: Path, cache_dir: Path
) -> None:
    """`outer()()()` through two returned functions; `t = Task(); yield t` yields a Task; a bound
    method passed to a function of the module (`apply(self.handle)`) is what its parameter calls;
    `d = c` holds what c held there (`c = second` after it changes nothing; `a, b = b, a` swaps)."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            def first():
                pass


            def second():
                pass


            def middle():
                return first


            def outer():
                return middle


            def chained():
                outer()()()


            class Task:
                def run(self):
                    pass


            def tasks():
                t = Task()
                yield t


            def drive():
                for task in tasks():
                    task.run()


            def apply(f):
                f()


            class Box:
                def handle(self):
                    pass

                def go(self):
                    apply(self.handle)


            def handed_on():
                c = first
                d = c
                c = second
                d()


            def swapped():
                a, b = first, second
                a, b = b, a
                a()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.chained")) == {
            "main.outer": "exact",
            "main.middle": "flow",
            "main.first": "flow",
        }
        assert callees(await a.get_symbol("main.drive")) == {"main.tasks": "exact", "main.Task.run": "flow"}
        assert callees(await a.get_symbol("main.apply")) == {"main.Box.handle": "flow"}
        assert callees(await a.get_symbol("main.handed_on")) == {"main.first": "flow"}
        assert callees(await a.get_symbol("main.swapped")) == {"main.second": "flow"}
    finally:
        await ws.close()


async def test_members_of_a_supertype_outside_the_index_are_external_calls(tmp_path: Path, cache_dir: Path) -> None:
    """`self.values()` in `class Table(dict)` and `t.items()` on a Table go to `builtins.dict`'s
    methods (external); so do a library base's (`self.send_response()` in a `BaseHTTPRequestHandler`).
    Not when the index's own classes have the name (an attribute holding what is called), nor when
    two bases outside could give it, nor when a built-in type lacks the member (`self.items()` in
    `class Rows(list)`, `x = []; x.keys()`). Edited to `class Table(list)`, a subclass's call
    elsewhere follows; the extends edges name the bases outside too."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "tables.py").write_text(
        textwrap.dedent(
            """
            import threading
            from http.server import BaseHTTPRequestHandler


            class Table(dict):
                def total(self):
                    return sum(self.values())


            class Handler(BaseHTTPRequestHandler):
                def do_GET(self):
                    self.send_response(200)


            class Held(dict):
                def __init__(self, callback):
                    self.callback = callback

                def fire(self):
                    self.callback()


            class Both(dict, threading.Thread):
                def go(self):
                    self.copy()


            def use():
                t = Table()
                t.items()


            class Rows(list):
                def pairs(self):
                    return self.items()


            def literal():
                x = []
                x.append(1)
                x.keys()
                str.joins(",", [])
            """
        ).lstrip()
    )
    (root / "sub.py").write_text(
        "from tables import Table\n\n\nclass Sub(Table):\n    def dup(self):\n        self.copy()\n"
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert (await a.get_symbol("tables.Table.total"))["callees"]["external"] == [
            "builtins.dict.values",
            "builtins.sum",
        ]
        assert (await a.get_symbol("tables.use"))["callees"]["external"] == ["builtins.dict.items"]
        handler = await a.get_symbol("tables.Handler.do_GET")
        assert handler["callees"]["external"] == ["http.server.BaseHTTPRequestHandler.send_response"]
        assert (await a.get_symbol("tables.Held.fire"))["callees"].get("external", []) == []
        assert (await a.get_symbol("tables.Both.go"))["callees"].get("external", []) == []
        assert (await a.get_symbol("sub.Sub.dup"))["callees"]["external"] == ["builtins.dict.copy"]
        # A member the built-in type does not have is no call of it: left unresolved.
        rows = (await a.get_symbol("tables.Rows.pairs"))["callees"]
        assert (rows.get("external", []), rows["unresolved"]) == ([], ["items"])
        literal = (await a.get_symbol("tables.literal"))["callees"]
        assert (literal["external"], literal["unresolved"]) == (["builtins.list.append"], ["joins", "keys"])

        (root / "tables.py").write_text((root / "tables.py").read_text().replace("Table(dict)", "Table(list)"))
        await ws.refresh(["tables.py"])
        assert (await a.get_symbol("sub.Sub.dup"))["callees"]["external"] == ["builtins.list.copy"]
    finally:
        await ws.close()
    # After a restart the bases outside come from the store: an edit of the subclass alone still sees them.
    (root / "sub.py").write_text((root / "sub.py").read_text() + "\n    def more(self):\n        self.append(1)\n")
    ws = await Workspace.open(root)
    try:
        await ws.refresh(["sub.py"])
        assert (await answers(ws).get_symbol("sub.Sub.more"))["callees"]["external"] == ["builtins.list.append"]
    finally:
        await ws.close()


async def test_parenthesised_callees_called_lambdas_and_returned_instances(tmp_path: Path, cache_dir: Path) -> None:
    """`(first)()` and `(box.handle)()` call what the parentheses name; `(lambda: second)()()`
    calls what the lambda returns (not when its body names one of its parameters); a function
    returning its parameter hands back the instance passed (`ident(Box()).handle()`)."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            class Box:
                def handle(self):
                    pass


            def first():
                pass


            def second():
                pass


            def ident(x):
                return x


            def bracketed():
                (first)()
                box = Box()
                (box.handle)()


            def lambdas():
                (lambda: second)()()
                (lambda first: first)(second)


            def returned():
                ident(Box()).handle()
                kept = ident(Box())
                kept.handle()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.bracketed")) == {
            "main.first": "exact",
            "main.Box": "exact",
            "main.Box.handle": "exact",
        }
        assert callees(await a.get_symbol("main.lambdas")) == {"main.second": "flow"}
        assert callees(await a.get_symbol("main.returned")) == {
            "main.ident": "exact",
            "main.Box": "exact",
            "main.Box.handle": "flow",
        }
    finally:
        await ws.close()


async def test_a_name_functions_declare_global_holds_each_value_and_a_parameter_shadows_it(
    tmp_path: Path, cache_dir: Path
) -> None:
    """`global handler; handler = second` in one function: a call through handler elsewhere may
    reach either value (first or second; for an instance, each class's method). A parameter of the
    same name is its own: what another module's call passes it, not the module's handler."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            class A:
                def run(self):
                    pass


            class B:
                def run(self):
                    pass


            def first():
                pass


            def second():
                pass


            handler = first
            worker = A()


            def swap():
                global handler, worker
                handler = second
                worker = B()


            def use():
                handler()
                worker.run()


            def own(handler):
                handler()
            """
        ).lstrip()
    )
    (root / "other.py").write_text("from main import own\n\n\ndef third():\n    pass\n\n\nown(third)\n")
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.use")) == {
            "main.first": "flow",
            "main.second": "flow",
            "main.A.run": "flow",
            "main.B.run": "flow",
        }
        assert callees(await a.get_symbol("main.own")) == {"other.third": "flow"}
    finally:
        await ws.close()


async def test_a_dict_comprehension_holds_its_values_under_any_key(tmp_path: Path, cache_dir: Path) -> None:
    """A dict built by a comprehension holds what its value expression takes — the loop's own
    variable, a dict's values, one function or new instance — under keys it computes: an item
    called, a method called on one, `.get(...)` called and a loop over `.values()` reach each."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            def first():
                pass


            def second():
                pass


            class Box:
                def handle(self):
                    pass


            def by_name():
                table = {f.__name__: f for f in (first, second)}
                table["first"]()


            def copied():
                table = {"a": first}
                pairs = {k: v for k, v in table.items()}
                for f in pairs.values():
                    f()


            def instances(keys):
                boxes = {k: Box() for k in keys}
                boxes["a"].handle()
                fixed = {k: second for k in keys}
                fixed.get("b")()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.by_name")) == {"main.first": "flow", "main.second": "flow"}
        assert callees(await a.get_symbol("main.copied")) == {"main.first": "flow"}
        assert callees(await a.get_symbol("main.instances")) == {
            "main.Box": "exact",
            "main.Box.handle": "flow",
            "main.second": "flow",
        }
    finally:
        await ws.close()


async def test_calls_follow_a_base_outside_the_index_that_comes_and_goes(tmp_path: Path, cache_dir: Path) -> None:
    """A class that gains a base outside the index (`class Oops(Exception)`) answers the calls on
    receivers typed by it in other files — under its own name or one it is imported as — and on
    self in its subclasses; when the class goes, so do those answers. A library base (no member
    list) the same way."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "errors.py").write_text("class Oops:\n    pass\n\n\nclass Served:\n    pass\n")
    (root / "use.py").write_text(
        textwrap.dedent(
            """
            from errors import Oops, Served
            from errors import Oops as Renamed


            def typed(e: Oops):
                e.with_traceback(None)


            def aliased(e: Renamed):
                e.with_traceback(None)


            def served(s: Served):
                s.send_response(200)


            class Sub(Oops):
                def again(self):
                    self.with_traceback(None)
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        functions = ("use.typed", "use.aliased", "use.served", "use.Sub.again")

        async def external() -> dict[str, list[str]]:
            return {f: (await a.get_symbol(f))["callees"].get("external", []) for f in functions}

        assert await external() == {f: [] for f in functions}
        (root / "errors.py").write_text(
            "from http.server import BaseHTTPRequestHandler\n\n\nclass Oops(Exception):\n    pass\n\n\n"
            "class Served(BaseHTTPRequestHandler):\n    pass\n"
        )
        await ws.refresh(["errors.py"])
        assert await external() == {
            "use.typed": ["builtins.Exception.with_traceback"],
            "use.aliased": ["builtins.Exception.with_traceback"],
            "use.served": ["http.server.BaseHTTPRequestHandler.send_response"],
            "use.Sub.again": ["builtins.Exception.with_traceback"],
        }
        (root / "errors.py").write_text("class Served:\n    pass\n")  # Oops goes; Served loses its base
        await ws.refresh(["errors.py"])
        assert await external() == {f: [] for f in functions}
    finally:
        await ws.close()


async def test_an_item_taken_from_a_container_into_a_name_keeps_its_class(tmp_path: Path, cache_dir: Path) -> None:
    """`obj = kinds["a"]()` (a class held in a dict, made), `h = handlers[0]` and `box = boxes.pop()`
    (instances held in a list): a method call on the name is the class's method (`flow`); a pop
    from a list of two classes' instances says nothing."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            class A:
                def run(self):
                    pass


            class B:
                def run(self):
                    pass


            def made():
                kinds = {"a": A, "b": B}
                obj = kinds["b"]()
                obj.run()


            def indexed():
                handlers = [A(), B()]
                h = handlers[1]
                h.run()


            def popped():
                boxes = [A()]
                box = boxes.pop()
                box.run()


            def mixed():
                boxes = [A(), B()]
                box = boxes.pop()
                box.run()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.made")) == {"main.B": "flow", "main.B.run": "flow"}
        assert callees(await a.get_symbol("main.indexed")) == {
            "main.A": "exact",
            "main.B": "exact",
            "main.B.run": "flow",
        }
        assert callees(await a.get_symbol("main.popped")) == {"main.A": "exact", "main.A.run": "flow"}
        assert callees(await a.get_symbol("main.mixed")) == {"main.A": "exact", "main.B": "exact"}
    finally:
        await ws.close()


async def test_a_def_sees_the_module_name_as_it_stands_when_the_def_runs(tmp_path: Path, cache_dir: Path) -> None:
    """A function reading a module-level name calls what the module last gave it, even below the
    def (`def main(): handler()` then `handler = first`: the def runs after the module's last line);
    a def that binds the name itself (assigns it, loops into it, imports it) has its own, whatever it
    holds, and is no caller of the module's value. Edited, the answer follows the new value."""
    root = tmp_path / "proj"
    root.mkdir()
    source = textwrap.dedent(
        """
        class Report:
            def render(self):
                pass


        def first():
            pass


        def second():
            pass


        handler = second
        report = None


        def main():
            handler()
            report.render()


        def local_value(make):
            handler = make()
            handler()
            for report in make():
                report.render()


        def keyword_only(make):
            make(
                handler=handler,
            )


        handler = first
        report = Report()
        """
    ).lstrip()
    (root / "main.py").write_text(source)
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.main")) == {"main.first": "flow", "main.Report.render": "exact"}
        # its own handler and report: nothing known of them, no call of the module's
        assert callees(await a.get_symbol("main.local_value")) == {}
        # a keyword argument on a line of its own binds nothing: `handler` is still the module's
        # (passed, not called: no edge, and the call `make(...)` goes through a parameter)
        assert callees(await a.get_symbol("main.keyword_only")) == {}

        (root / "main.py").write_text(source.replace("handler = first\n", "handler = second\n"))
        await ws.index_now()
        assert callees(await answers(ws).get_symbol("main.main")) == {
            "main.second": "flow",
            "main.Report.render": "exact",
        }
    finally:
        await ws.close()


async def test_arguments_pass_what_names_hold_at_the_call_and_dispatch_tables_call_each_value(
    tmp_path: Path, cache_dir: Path
) -> None:
    """`held = first; apply(held)` passes first; `alias = twice; alias(first, choose())` binds
    twice's parameters (choose returning second); `a = b = first` gives both names first; a dict
    keeps the number 1 and the string "1" apart; `actions[name]()` with a key the file cannot
    read calls each function the dict holds; a call through a parameter holding a function binds
    that function's parameters."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            def first():
                pass


            def second():
                pass


            def apply(job):
                job()


            def choose():
                return second


            def twice(job, then):
                job()
                then()


            held = first
            apply(held)
            alias = twice
            alias(first, choose())


            def chained():
                a = b = first
                a()


            by_number = {1: first, "1": second}


            def numbered():
                by_number[1]()


            actions = {"start": first, "stop": second}


            def dispatch(name):
                actions[name]()


            def call_it(f):
                f()


            def hand(g):
                g(second)


            hand(call_it)

            config = {"on": {"save": first}, 2: first}
            config["on"]["save"] = second
            config[2] = second


            def configured():
                config["on"]["save"]()
                config[2]()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.apply")) == {"main.first": "flow"}
        assert callees(await a.get_symbol("main.twice")) == {"main.first": "flow", "main.second": "flow"}
        assert callees(await a.get_symbol("main.chained")) == {"main.first": "flow"}
        assert callees(await a.get_symbol("main.numbered")) == {"main.first": "flow"}
        assert callees(await a.get_symbol("main.dispatch")) == {"main.first": "flow", "main.second": "flow"}
        # hand's g holds call_it, so `g(second)` binds call_it's f: a call through a parameter
        # binds the parameters of the function it holds
        assert callees(await a.get_symbol("main.hand")) == {"main.call_it": "flow"}
        assert callees(await a.get_symbol("main.call_it")) == {"main.second": "flow"}
        # an item assigned replaces what the literal held there, nested or under a number
        assert callees(await a.get_symbol("main.configured")) == {"main.second": "flow"}
    finally:
        await ws.close()


async def test_a_loop_over_an_iterable_of_the_module_calls_its_iter_and_next(tmp_path: Path, cache_dir: Path) -> None:
    """`for n in Countdown(3)` and a loop over a parameter a call gives a Countdown call its
    `__iter__`, and its `__next__` since `__iter__` returns the instance; an `__iter__` that is a
    generator hands out a generator, whose `__next__` is not the class's."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            class Countdown:
                def __init__(self, start):
                    self.left = start

                def __iter__(self):
                    return self

                def __next__(self):
                    if not self.left:
                        raise StopIteration
                    self.left -= 1
                    return self.left


            class Pages:
                def __iter__(self):
                    yield 1

                def __next__(self):
                    return 2


            def total(steps):
                for _ in steps:
                    pass


            def run():
                for n in Countdown(3):
                    pass
                total(Countdown(2))
                for page in Pages():
                    pass
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        nexts = await a.get_symbol("main.Countdown.__next__")
        assert set(python_edges(nexts.get("callers", {}))) == {"main.run", "main.total"}
        assert callees(await a.get_symbol("main.run")) == {
            "main.Countdown.__init__": "exact",
            "main.Countdown.__iter__": "flow",
            "main.Countdown.__next__": "flow",
            "main.total": "exact",
            "main.Pages": "exact",
            "main.Pages.__iter__": "flow",
        }
        assert python_edges((await a.get_symbol("main.Pages.__next__")).get("callers", {})) == {}
    finally:
        await ws.close()


async def test_returns_through_locals_and_calls_containers_passed_by_name_and_slices(
    tmp_path: Path, cache_dir: Path
) -> None:
    """`chosen = first; return chosen` and `return local()` return first (a call of the result
    calls it); `maker()()()` follows two returns; `@deco` with `deco = quiet` is quiet's call;
    `raise error` with `error = Refused` makes a Refused; `run(handlers)` hands run the dict
    (a value `pick()` gives among it); `steps[1:]` is a list of the items after the first."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            class Refused(Exception):
                def __init__(self):
                    pass


            def first():
                pass


            def second():
                pass


            def pick():
                return second


            def local():
                chosen = first
                return chosen


            def relay():
                return local()


            def quiet(f):
                f()
                return f


            def run(table):
                table["a"]()
                table["b"]()


            error = Refused
            deco = quiet
            handlers = {"a": first, "b": pick()}
            steps = [first, second]


            @deco
            def work():
                pass


            def main():
                relay()()
                run(handlers)
                rest = steps[1:]
                rest[0]()
                raise error
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.main")) == {
            "main.relay": "exact",
            "main.first": "flow",
            "main.run": "exact",
            "main.second": "flow",
            "main.Refused.__init__": "flow",
        }
        assert callees(await a.get_symbol("main.run")) == {"main.first": "flow", "main.second": "flow"}
        assert callees(await a.get_symbol("main.quiet")) == {"main.work": "flow"}
        assert set(python_edges((await a.get_symbol("main.quiet")).get("callers", {}))) == {"main.(top level)"}
    finally:
        await ws.close()


async def test_an_attribute_given_a_method_of_its_own_class_calls_that_method(tmp_path: Path, cache_dir: Path) -> None:
    """`self.write = self.write_fast` in `__init__`: `self.write()` in another method and
    `Saver(True).write()` outside call write_fast (the attribute is no function of its own)."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            class Saver:
                def __init__(self, fast):
                    self.write = self.write_fast

                def write_fast(self):
                    pass

                def save(self):
                    self.write()


            def main():
                Saver(True).write()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.Saver.save")) == {"main.Saver.write_fast": "flow"}
        assert callees(await a.get_symbol("main.main")) == {
            "main.Saver.__init__": "exact",
            "main.Saver.write_fast": "flow",
        }
    finally:
        await ws.close()


async def test_a_function_handed_to_a_standard_library_caller_is_called_where_it_is_handed(
    tmp_path: Path, cache_dir: Path
) -> None:
    """`sorted(names, key=order)`, `map(parse, lines)`, `functools.reduce(total, ...)`,
    `rows.sort(key=self.rank)` call the function they are given: its callers list the function
    that hands it over (so a sort key is no dead code); a name the file gives another meaning
    (`def shadowed(map)`) and a lambda say nothing."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            import functools
            from itertools import groupby


            def order(item):
                return item


            def parse(line):
                return line


            def total(a, b):
                return a + b


            class Table:
                def rank(self, row):
                    return row

                def best(self, rows):
                    rows.sort(key=self.rank)


            def report(lines):
                names = sorted(  # a comment among the arguments counts for nothing
                    lines, key=order
                )
                functools.reduce(total, map(parse, lines))
                groupby(names, key=lambda n: n)
                return names


            def shadowed(map):
                map(parse, [])
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.report")) == {
            "main.order": "exact",
            "main.parse": "exact",
            "main.total": "exact",
        }
        assert callees(await a.get_symbol("main.Table.best")) == {"main.Table.rank": "exact"}
        assert set(python_edges((await a.get_symbol("main.parse")).get("callers", {}))) == {"main.report"}
        assert set(python_edges((await a.get_symbol("main.order")).get("callers", {}))) == {"main.report"}
    finally:
        await ws.close()


async def test_an_instance_made_through_self_and_a_base_named_through_an_alias(tmp_path: Path, cache_dir: Path) -> None:
    """`self.__class__(...)` and `type(self)(...)` make an instance of the method's class (its
    __init__ runs); `class Checks(Case)` with `Case = unittest.TestCase` extends unittest's class,
    so `self.assertEqual` is that class's method (external, unittest not indexed) — but a base
    named by a parameter or by a name given two values stays as written."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            import unittest

            Case = unittest.TestCase


            class Point:
                def __init__(self, x):
                    self.x = x

                def moved(self):
                    return self.__class__(self.x + 1)

                def copied(self):
                    return type(self)(self.x)


            class Checks(Case):
                def test_point(self):
                    self.assertEqual(1, 1)


            def make(base):
                class Made(base):
                    def run(self):
                        self.assertEqual(1, 1)

                return Made


            def either(flag):
                if flag:
                    kind = unittest.TestCase
                else:
                    kind = Point

                class Chosen(kind):
                    def run(self):
                        self.assertEqual(1, 1)

                return Chosen
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert callees(await a.get_symbol("main.Point.moved")) == {"main.Point.__init__": "flow"}
        assert "main.Point.__init__" in callees(await a.get_symbol("main.Point.copied"))
        checks = (await a.get_symbol("main.Checks.test_point")).get("callees", {})
        assert checks.get("external") == ["unittest.TestCase.assertEqual"], checks
        for unknown in ("main.make.Made.run", "main.either.Chosen.run"):
            assert (await a.get_symbol(unknown)).get("callees", {}) == {"unresolved": ["assertEqual"]}
    finally:
        await ws.close()


async def test_a_function_handed_over_to_be_called_later_lists_who_handed_it(tmp_path: Path, cache_dir: Path) -> None:
    """A thread's target, an exit handler, the event loop's and unittest's callbacks are called by
    the standard library later, on behalf of the code that hands them over: `get_symbol` of the
    target lists that code as its caller (no dead code; a method inherited from another module
    too), and a method merely named like a threading function on another object
    (`pool.Thread(...)`) says nothing."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "server.py").write_text("class Server:\n    def serve(self):\n        pass\n")
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            import atexit
            import threading

            from server import Server


            def close():
                pass


            def tick():
                pass


            class Worker:
                def start(self, loop):
                    threading.Thread(target=self.run, daemon=True).start()
                    loop.call_later(1.0, tick)

                def run(self):
                    pass


            class Service(Server):
                def start(self):
                    threading.Thread(target=self.serve).start()


            def other(pool):
                pool.Thread(target=close)


            atexit.register(close)
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        assert set(python_edges((await a.get_symbol("main.Worker.run")).get("callers", {}))) == {"main.Worker.start"}
        assert set(python_edges((await a.get_symbol("main.tick")).get("callers", {}))) == {"main.Worker.start"}
        assert set(python_edges((await a.get_symbol("main.close")).get("callers", {}))) == {"main.(top level)"}
        # a method the class inherits from another module, handed over through `self`
        assert set(python_edges((await a.get_symbol("server.Server.serve")).get("callers", {}))) == {
            "main.Service.start"
        }
    finally:
        await ws.close()


async def test_a_tk_program_s_handlers_list_who_hands_them_to_tk(tmp_path: Path, cache_dir: Path) -> None:
    """Tk calls a widget's command when it is used, a menu entry's when it is chosen, a timer's
    handler when its time comes, a window protocol's and a bound event's on their event:
    `get_symbol` of each handler lists the code that handed it over (no handler looks like dead
    code), also through `from tkinter import *`. A `command=` given to a class that is not Tk's,
    or a `bind` whose first argument is no event sequence, says nothing of that kind."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "forms.py").write_text("class Button:\n    def __init__(self, command=None):\n        pass\n")
    (root / "star.py").write_text(
        "from tkinter import *\n\n\nclass Scale:\n    def __init__(self, command=None):\n        pass\n\n\n"
        "def go():\n    pass\n\n\ndef slid():\n    pass\n\n\n"
        "def build(root):\n    Button(root, command=go)\n    Scale(command=slid)\n"
    )
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            import tkinter as tk
            from tkinter import ttk
            from tkinter.ttk import Scale

            import forms
            from inspect import signature


            class App:
                def __init__(self, root):
                    tk.Button(root, text="Quit", command=self.quit)
                    ttk.Checkbutton(root, command=self.toggle)
                    Scale(root, command=self.moved)
                    menu = tk.Menu(root)
                    menu.add_command(label="Save", command=save)
                    root.after(100, self.poll)
                    root.protocol("WM_DELETE_WINDOW", self.quit)
                    root.bind("<Key>", self.pressed)
                    forms.Button(command=unused)
                    signature.bind(1, unused)  # no event sequence: not Tk's bind

                def quit(self):
                    pass

                def toggle(self):
                    pass

                def moved(self, value):
                    pass

                def poll(self):
                    pass

                def pressed(self, event):
                    pass


            def save():
                pass


            def unused():
                pass
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        for handler in ("quit", "toggle", "moved", "poll", "pressed"):
            callers = python_edges((await a.get_symbol(f"main.App.{handler}")).get("callers", {}))
            assert set(callers) == {"main.App.__init__"}, (handler, callers)
        assert set(python_edges((await a.get_symbol("main.save")).get("callers", {}))) == {"main.App.__init__"}
        assert python_edges((await a.get_symbol("main.unused")).get("callers", {})) == {}
        # `from tkinter import *`: Tk's Button; not the module's own Scale
        assert set(python_edges((await a.get_symbol("star.go")).get("callers", {}))) == {"star.build"}
        assert python_edges((await a.get_symbol("star.slid")).get("callers", {})) == {}
    finally:
        await ws.close()


async def test_a_container_a_function_returns_and_what_an_iterator_gives_are_followed(
    tmp_path: Path, cache_dir: Path
) -> None:
    """`t = make(); t["a"]()` and `make()["a"]()` call what the dict make builds and returns holds
    (a container of its own, its items the module's functions), `for f in Steps(): f()` calls what
    Steps' `__next__` returns when `__iter__` returns the instance. Not when the function fills it
    from its parameters, nor when `__next__` returns a name of its own."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            def first():
                pass


            def second():
                pass


            def make():
                table = {"a": first}
                table["b"] = second
                return table


            def listed():
                found = [first]
                found.append(second)
                return found


            def filled(first):
                table = {"a": first}
                return table


            class Steps:
                def __iter__(self):
                    return self

                def __next__(self):
                    return second


            class Own:
                def __iter__(self):
                    return self

                def __next__(self):
                    second = first
                    return second


            def use():
                t = make()
                t["b"]()
                make()["a"]()
                listed()[1]()


            def guessed():
                filled(second)["a"]()
                for f in Own():
                    f()


            def loop():
                for f in Steps():
                    f()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        use = callees(await a.get_symbol("main.use"))
        assert {k: v for k, v in use.items() if k in ("main.first", "main.second")} == {
            "main.first": "flow",
            "main.second": "flow",
        }, use
        assert callees(await a.get_symbol("main.loop")).get("main.second") == "flow"
        guessed = callees(await a.get_symbol("main.guessed"))
        assert "main.first" not in guessed and "main.second" not in guessed, guessed
        callers = python_edges((await a.get_symbol("main.second"))["callers"])
        assert set(callers) == {"main.use", "main.loop"}, callers
    finally:
        await ws.close()


async def test_a_function_returned_then_called_hands_back_what_it_was_passed(tmp_path: Path, cache_dir: Path) -> None:
    """`pick()(first)()`: pick returns ident, ident returns its parameter, so the last call calls
    first (a flow edge). Not so when the returned function gives its parameter another value:
    `other()(pick)()` never calls pick."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            def first():
                pass


            def ident(f):
                return f


            def rebinds(f):
                f = first
                return f


            def pick():
                return ident


            def other():
                return rebinds


            def direct():
                pick()(first)()


            def rebound():
                other()(pick)()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        direct = callees(await a.get_symbol("main.direct"))
        assert direct.get("main.first") == "flow", direct
        rebound = callees(await a.get_symbol("main.rebound"))
        assert "main.pick" not in rebound, rebound
        callers = python_edges((await a.get_symbol("main.first"))["callers"])
        assert "main.direct" in callers, callers
    finally:
        await ws.close()


async def test_a_built_in_exception_raised_bare_is_no_call(tmp_path: Path, cache_dir: Path) -> None:
    """`raise Refused` runs the module's Refused.__init__, as `raise Refused()` does; `raise
    KeyError` (or `error = ValueError; raise error`) is no call of the built-in in the graph,
    `raise OSError()` is (external)."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text(
        textwrap.dedent(
            """
            class Refused(Exception):
                def __init__(self):
                    pass


            def check(table, key):
                if key not in table:
                    raise KeyError
                if not table[key]:
                    raise Refused
                error = ValueError
                if key == "":
                    raise error
                raise OSError()
            """
        ).lstrip()
    )
    ws = await Workspace.open(root)
    try:
        await ws.index_now()
        a = answers(ws)
        check = await a.get_symbol("main.check")
        assert callees(check) == {"main.Refused.__init__": "exact"}, check
        assert check["callees"].get("external") == ["builtins.OSError"], check["callees"]
    finally:
        await ws.close()


async def test_no_guess_reaches_a_function_s_locals_nor_a_test_s_mock_subclass(tmp_path: Path, cache_dir: Path) -> None:
    # django's test runner called a `handler` nested in a test (name-only), and CursorWrapper's
    # self.close() (its __getattr__ gives it) reached a mock subclass inside a test (flow): the
    # library depended on its tests, a cycle that is not there
    files = {
        "pkg/__init__.py": "",
        "pkg/runner.py": "def handle(result, name):\n    handler = getattr(result, name, None)\n    handler(1)\n",
        "pkg/db.py": (
            "class Wrapper:\n    def __getattr__(self, attr):\n        return 1\n\n"
            "    def __exit__(self, *exc):\n        self.close()\n"
        ),
        "tests/test_x.py": (
            "from pkg.db import Wrapper\n\n\ndef test_thing():\n    def handler(x):\n        return x\n"
            "    class Mocked(Wrapper):\n        def close(self):\n            pass\n    assert handler(2)\n"
        ),
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    ws = await Workspace.open(tmp_path)
    try:
        await ws.index_now()
        a = answers(ws)
        handle = await a.get_symbol("pkg.runner.handle")
        exit_ = await a.get_symbol("pkg.db.Wrapper.__exit__")
        arch = await a.call("architecture")
    finally:
        await ws.close()
    assert handle["callees"].get("unresolved") == ["handler"] and "name-only" not in handle["callees"]
    assert exit_["callees"] == {"unresolved": ["close"]}
    assert not arch.get("cycles") and all(d["from"] != "pkg" for d in arch["dependencies"])
