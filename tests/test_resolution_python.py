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
        assert got["shop.orders.Order"] == "import"  # through the package's re-export
        assert got["shop.orders.helper"] == "import"  # import shop.orders; shop.orders.helper()
        assert got["shop.orders.Order.pay"] == "import"  # o = Order(); o.pay(), Order imported

        helper = await a.get_symbol("shop.orders.helper")
        assert set(python_edges(helper["callers"])) == {"shop.orders.Order.pay", "app.main"}
        assert helper["callees"]["unresolved"] == ["mystery_function"]

        stats = await a.stats()
        assert stats["unresolved_calls"] >= 1  # mystery_function, round(), ... stay countable
        assert set(stats["call_resolution"]) <= {"exact", "import", "inherited", "name-only"}
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
        assert main["callees"]["unresolved"] == ["len", "sorted", "str"]
        assert callees(await a.get_symbol("fmt.local_use")) == {"fmt.str": "exact"}  # its own str
        assert callees(await a.get_symbol("use.run")) == {"fmt.str": "import", "app.unique_helper": "name-only"}
        failure = await a.get_symbol("app.Failure")
        assert not failure.get("bases") or set(failure["bases"]) == {"unresolved"}
    finally:
        await ws.close()
