"""What an agent learns about a Python file: each construct, parsed with the real grammar."""

from __future__ import annotations

import pickle
import textwrap

import pytest
import tree_sitter_python
from codecairn_python.extractor import extract, module_path, resolve_relative
from tree_sitter import Language, Parser

PARSER = Parser(Language(tree_sitter_python.language()))


def facts(code: str, path: str = "shop/orders.py"):
    source = textwrap.dedent(code).encode()
    return extract(source, PARSER.parse(source), path)


def symbol(result, qualified_name: str):
    found = [s for s in result.symbols if s.qualified_name == qualified_name]
    assert len(found) == 1, f"{qualified_name}: {[s.qualified_name for s in result.symbols]}"
    return found[0]


def calls(result):
    return [(r.target, r.receiver, r.line) for r in result.relations if r.kind == "calls"]


# ---- where a file sits: module paths ------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "module"),
    [
        ("pkg/sub/mod.py", "pkg.sub.mod"),
        ("pkg/__init__.py", "pkg"),
        ("pkg/stubs.pyi", "pkg.stubs"),
        ("src/requests/api.py", "requests.api"),  # src layout
        ("Lib/json/decoder.py", "json.decoder"),  # CPython's own tree
        ("setup.py", "setup"),
        ("my-project/pkg/m.py", "pkg.m"),  # a directory no import can name is a sys.path root
        ("venv/lib/python3.11/site-packages/rich/text.py", "rich.text"),
        ("pkg\\win\\mod.py", "pkg.win.mod"),
        ("__init__.py", "__init__"),
    ],
)
def test_module_path_comes_from_the_file_path_alone(path, module):
    assert module_path(path) == module


def test_relative_imports_resolve_against_the_importing_module():
    assert resolve_relative("pkg.sub.mod", False, "..a") == "pkg.a"
    assert resolve_relative("pkg.sub.mod", False, ".") == "pkg.sub"
    assert resolve_relative("pkg.sub", True, ".mod") == "pkg.sub.mod"  # pkg/sub/__init__.py
    assert resolve_relative("pkg.sub.mod", False, "....x") == "x"  # more dots than packages


def test_each_file_has_one_module_symbol_named_after_its_path():
    result = facts(
        '''\
        #!/usr/bin/env python
        """Orders and how they are paid.

        Long description.
        """
        ''',
        path="src/shop/orders.py",
    )

    module = result.symbols[0]
    assert (module.kind, module.name, module.qualified_name) == ("module", "orders", "shop.orders")
    assert module.doc == "Orders and how they are paid."
    assert module.parent == -1
    assert result.module == "shop.orders"
    assert [s.kind for s in result.symbols].count("module") == 1


@pytest.mark.parametrize(
    ("source", "lines"), [(b"", 1), (b"x = 1", 1), (b"x = 1\n", 1), (b"x = 1\n\n", 2), (b"a = 1\r\nb = 2\r\n", 2)]
)
def test_a_module_spans_the_file_s_lines_and_no_more(source: bytes, lines: int):
    """As many lines as the file has (`wc -l`, or one more when its last line has no break): the
    empty place after the last line break is no line of it."""
    module = extract(source, PARSER.parse(source), "m.py").symbols[0]
    assert (module.start_line, module.end_line) == (1, lines)


def test_a_package_init_is_the_package_itself():
    result = facts("VERSION = '1.0'\n", path="shop/__init__.py")
    assert result.module == "shop"
    assert symbol(result, "shop.VERSION").kind == "constant"


# ---- definitions --------------------------------------------------------------------------------


def test_a_signature_over_several_lines_keeps_its_parameters_past_their_comments():
    result = facts("""\
        def connect(host,  # where to
                    port=5432,  # the default port
                    *, ssl=None) -> "Connection":
            return None
        """)
    # joined on one line, the first comment swallowed the rest: `def connect(host, # where to port=...`
    assert (
        symbol(result, "shop.orders.connect").signature == 'def connect(host, port=5432, *, ssl=None) -> "Connection"'
    )


def test_classes_methods_and_functions_with_signatures_docs_and_parents():
    result = facts('''\
        class Order(Base, metaclass=Meta):
            """An order a customer placed."""

            def __init__(self, items, *, discount: float = 0.0) -> None:
                self.items = items

            async def pay(self, card) -> "Receipt":
                """Charge the card.

                Raises PaymentError.
                """

            class Line:
                def total(self): ...

        def checkout(order: Order, retries=3) -> bool:
            return True

        async def notify(user): ...
        ''')

    order = symbol(result, "shop.orders.Order")
    assert order.kind == "class"
    assert order.signature == "class Order(Base, metaclass=Meta)"
    assert order.doc == "An order a customer placed."
    assert (order.start_line, order.start_col, order.end_line) == (1, 0, 14)
    assert order.parent == -1

    init = symbol(result, "shop.orders.Order.__init__")
    assert init.kind == "method"
    assert init.signature == "def __init__(self, items, *, discount: float = 0.0) -> None"
    assert result.symbols[init.parent] == order

    pay = symbol(result, "shop.orders.Order.pay")
    assert pay.modifiers == ("async",)
    assert pay.signature == 'async def pay(self, card) -> "Receipt"'
    assert pay.doc == "Charge the card."

    line = symbol(result, "shop.orders.Order.Line")
    assert line.kind == "class" and result.symbols[line.parent] == order
    assert symbol(result, "shop.orders.Order.Line.total").kind == "method"

    checkout = symbol(result, "shop.orders.checkout")
    assert (checkout.kind, checkout.parent) == ("function", -1)
    assert checkout.signature == "def checkout(order: Order, retries=3) -> bool"
    assert symbol(result, "shop.orders.notify").modifiers == ("async",)


def test_a_docstring_is_summarised_by_its_first_line_as_written():
    result = facts('''\
        def pdb_help():
            """q(uit)\\nexit

            Quit from the debugger."""

        def raw():
            r"""Match \\d+ digits."""

        def blank_first():
            """

            Summary after blank lines.
            """

        def not_a_docstring():
            f"""{name} is not a docstring"""

        def commented():
            # a comment first
            "Still the docstring."
        ''')
    docs = {s.name: s.doc for s in result.symbols}
    assert docs["pdb_help"] == "q(uit)"  # an \\n escape ends the line, as in the evaluated string
    assert docs["raw"] == "Match \\d+ digits."
    assert docs["blank_first"] == "Summary after blank lines."
    assert docs["not_a_docstring"] == ""
    assert docs["commented"] == "Still the docstring."


def test_a_summary_runs_on_to_the_end_of_its_sentence_and_skips_a_repeated_signature():
    result = facts('''\
        def urlsplit(url):
            """Parse a URL into 5 components:
            <scheme>://<netloc>/<path>?<query>#<fragment>

            The result is a named 5-tuple.
            """

        def cleanups():
            """Execute all class cleanup functions. Normally called for you after
            tearDownClass. More detail here.
            """

        def renames(old, new):
            """renames(old, new)

            Super-rename; create directories as necessary and delete any left
            empty.  Works like rename.
            """

        def index(value):
            """S.index(value, [start, [stop]]) -> integer -- return first index of value.
            Raises ValueError if the value is not present.
            """

        def example():
            """Run this:
            >>> example()
            """
        ''')
    docs = {s.name: s.doc for s in result.symbols}
    assert docs["urlsplit"] == "Parse a URL into 5 components: <scheme>://<netloc>/<path>?<query>#<fragment>"
    assert docs["cleanups"] == "Execute all class cleanup functions. Normally called for you after tearDownClass."
    assert docs["renames"] == "Super-rename; create directories as necessary and delete any left empty."
    assert docs["index"] == "S.index(value, [start, [stop]]) -> integer -- return first index of value."
    assert docs["example"] == "Run this:"


def test_a_multiline_header_becomes_a_one_line_signature():
    result = facts("""\
        def resize(
            image,
            size: tuple[int, int],  # width, height
        ) -> "Image":
            pass
        """)
    assert (
        symbol(result, "shop.orders.resize").signature
        == 'def resize( image, size: tuple[int, int], ) -> "Image"'  # the comment would read as code
    )


def test_every_def_counts_wherever_it_is_written():
    result = facts("""\
        import sys

        if sys.platform == "win32":
            def default_shell(): return "cmd"
        else:
            def default_shell(): return "sh"

        try:
            from fast import parse
        except ImportError:
            def parse(text): ...

        with lock:
            class Registry: ...

        for name in NAMES:
            def handler(): ...

        def outer():
            def inner():
                class Local:
                    def method(self): ...
            return inner
        """)

    names = {(s.qualified_name, s.kind, s.start_line) for s in result.symbols if s.kind != "module"}
    assert ("shop.orders.default_shell", "function", 4) in names
    assert ("shop.orders.default_shell", "function", 6) in names
    assert ("shop.orders.parse", "function", 11) in names
    assert ("shop.orders.Registry", "class", 14) in names
    assert ("shop.orders.handler", "function", 17) in names
    assert ("shop.orders.outer.inner", "function", 20) in names
    assert ("shop.orders.outer.inner.Local", "class", 21) in names
    assert ("shop.orders.outer.inner.Local.method", "method", 22) in names


def test_decorators_are_recorded_as_written_and_known_ones_become_modifiers():
    result = facts("""\
        import abc, functools

        @dataclass(frozen=True)
        class Money:
            @property
            def cents(self): ...

            @cents.setter
            def cents(self, value): ...

            @staticmethod
            def zero(): ...

            @classmethod
            def parse(cls, text): ...

            @abc.abstractmethod
            def convert(self, currency): ...

            @functools.cached_property
            def rate(self): ...

        @app.route("/orders/<id>", methods=["GET"])
        @login_required
        async def show(id): ...
        """)

    assert symbol(result, "shop.orders.Money").modifiers == ("@dataclass",)
    by_line = {s.start_line: s.modifiers for s in result.symbols}
    assert by_line[6] == ("@property", "property")
    assert by_line[9] == ("@cents.setter", "property")
    assert by_line[12] == ("@staticmethod", "staticmethod")
    assert by_line[15] == ("@classmethod", "classmethod")
    assert by_line[18] == ("@abc.abstractmethod", "abstract")
    assert by_line[21] == ("@functools.cached_property", "property")
    assert symbol(result, "shop.orders.show").modifiers == ("async", "@app.route", "@login_required")


def test_a_decorated_definition_starts_at_def_like_pythons_own_ast():
    result = facts("""\
        @decorator
        def f(): ...
        """)
    assert symbol(result, "shop.orders.f").start_line == 2


def test_code_that_always_warns_deprecation_is_marked_deprecated():
    result = facts(
        """
        import warnings
        from warnings import warn
        warnings.warn("the kit package is deprecated", DeprecationWarning, 2)

        def old_api():
            'Use new_api.'
            warn("old_api() is deprecated", PendingDeprecationWarning, stacklevel=2)

        def sometimes(legacy=False):
            if legacy:
                warnings.warn("legacy=True is deprecated", DeprecationWarning)

        def noisy():
            warnings.warn("careful", RuntimeWarning)

        class Kit:
            @deprecated("use Kit.go")
            def run(self): ...
        """,
        path="kit/__init__.py",
    )
    deprecated = {s.qualified_name for s in result.symbols if "deprecated" in s.modifiers}

    # only what warns whenever it is used: not a warning under a condition, not another warning
    assert deprecated == {"kit", "kit.old_api", "kit.Kit.run"}


def test_a_dead_battery_module_is_deprecated():
    result = facts("import warnings\nwarnings._deprecated(__name__, remove=(3, 13))\n", path="telnetlib.py")
    imported = facts("from warnings import _deprecated\n_deprecated(__name__, remove=(3, 12))\n", path="smtpd.py")
    unrelated = facts("from mylib import _deprecated\n_deprecated(__name__)\n", path="mine.py")

    assert "deprecated" in symbol(result, "telnetlib").modifiers
    assert "deprecated" in symbol(imported, "smtpd").modifiers
    assert "deprecated" not in symbol(unrelated, "mine").modifiers


def test_abstract_base_classes_are_marked_abstract():
    result = facts("""\
        class Store(ABC): ...
        class Cache(metaclass=abc.ABCMeta): ...
        class Plain: ...
        """)
    assert "abstract" in symbol(result, "shop.orders.Store").modifiers
    assert "abstract" in symbol(result, "shop.orders.Cache").modifiers
    assert symbol(result, "shop.orders.Plain").modifiers == ()


# ---- variables ----------------------------------------------------------------------------------


def test_module_and_class_level_variables_constants_and_fields():
    result = facts("""\
        MAX_ITEMS = 100
        default_currency: str = "EUR"
        width, height = 80, 24
        first = second = None
        to_cents = lambda amount: int(amount * 100)
        __all__ = ["Order"]

        if DEBUG:
            LOG_LEVEL = "debug"

        class Order:
            TAX_RATE = 0.2
            status: str = "new"
            notes: list[str]
            label = lambda self: self.status

            def __init__(self, customer):
                self.customer = customer
                self.status = "draft"
                self.lines, self.total = [], 0
                if customer.vip:
                    self.discount = 0.1
                self.customer = None

            def pay(self):
                self.paid = True
                local = 1
        """)

    kinds = {s.qualified_name: s.kind for s in result.symbols}
    assert kinds["shop.orders.MAX_ITEMS"] == "constant"
    assert kinds["shop.orders.default_currency"] == "variable"
    assert kinds["shop.orders.width"] == kinds["shop.orders.height"] == "variable"
    assert kinds["shop.orders.first"] == kinds["shop.orders.second"] == "variable"
    assert kinds["shop.orders.to_cents"] == "function"
    assert kinds["shop.orders.LOG_LEVEL"] == "constant"
    assert kinds["shop.orders.Order.TAX_RATE"] == "constant"
    assert kinds["shop.orders.Order.status"] == "field"
    assert kinds["shop.orders.Order.notes"] == "field"
    assert kinds["shop.orders.Order.label"] == "function"
    assert kinds["shop.orders.Order.customer"] == "field"
    assert kinds["shop.orders.Order.lines"] == kinds["shop.orders.Order.total"] == "field"
    assert kinds["shop.orders.Order.discount"] == "field"
    # self.x outside __init__ and locals of methods are not fields
    assert "shop.orders.Order.paid" not in kinds and "shop.orders.Order.pay.local" not in kinds
    assert "shop.orders.__all__" not in kinds

    # once per name: the class-level "status" and the first "self.customer" win
    assert [s.qualified_name for s in result.symbols].count("shop.orders.Order.customer") == 1
    status = symbol(result, "shop.orders.Order.status")
    assert (status.start_line, status.signature) == (13, 'status: str = "new"')
    order = symbol(result, "shop.orders.Order")
    assert result.symbols[symbol(result, "shop.orders.Order.customer").parent] == order

    to_cents = symbol(result, "shop.orders.to_cents")
    assert to_cents.modifiers == ("lambda",)
    assert to_cents.signature == "to_cents = lambda amount"
    assert symbol(result, "shop.orders.MAX_ITEMS").signature == "MAX_ITEMS = 100"


def test_a_rebinding_of_a_def_is_not_a_second_symbol():
    result = facts("""\
        def helper(): ...
        helper = staticmethod(helper)
        """)
    assert [s.kind for s in result.symbols if s.name == "helper"] == ["function"]


def test_long_values_are_cut_in_the_signature():
    result = facts("TABLE = {" + ", ".join(f"'k{i}': {i}" for i in range(200)) + "}\n")
    table = symbol(result, "shop.orders.TABLE")
    assert len(table.signature) <= 240 and table.signature.endswith("…")


# ---- inheritance --------------------------------------------------------------------------------


def test_bases_are_extends_relations_as_written():
    result = facts("""\
        class Repo(Generic[T], base.Store, *mixins, metaclass=Meta, frozen=True):
            pass
        """)
    repo = result.symbols.index(symbol(result, "shop.orders.Repo"))
    extends = [(r.source, r.target, r.line) for r in result.relations if r.kind == "extends"]
    assert extends == [(repo, "Generic", 1), (repo, "base.Store", 1)]


# ---- calls --------------------------------------------------------------------------------------


def test_calls_name_their_target_receiver_line_and_enclosing_symbol():
    result = facts("""\
        import os

        setup_logging()

        class Cart(Base):
            def total(self):
                items = self.items()
                path = os.path.join(root, "cart")
                super().total()
                Price(1).round()
                return sum(i.price for i in items)

            def chain(self):
                return (self.query()
                        .filter(x)
                        .all())
        """)

    cart = result.symbols.index(symbol(result, "shop.orders.Cart"))
    total = result.symbols.index(symbol(result, "shop.orders.Cart.total"))
    chain = result.symbols.index(symbol(result, "shop.orders.Cart.chain"))
    by_target = {r.target: r for r in result.relations if r.kind == "calls"}

    assert (by_target["setup_logging"].source, by_target["setup_logging"].receiver) == (-1, "")
    assert (by_target["items"].receiver, by_target["items"].source, by_target["items"].line) == ("self", total, 7)
    assert by_target["join"].receiver == "os.path"
    assert by_target["total"].receiver == "super()"
    assert by_target["Price"].receiver == ""  # a constructor is just a call to the class
    assert by_target["round"].receiver == "Price(1)"
    assert by_target["sum"].receiver == ""
    assert (by_target["filter"].receiver, by_target["filter"].line) == ("self.query()", 15)
    assert (by_target["all"].receiver, by_target["all"].line, by_target["all"].source) == (
        "self.query().filter(x)",
        16,
        chain,
    )
    assert cart not in {r.source for r in result.relations if r.kind == "calls"}

    # call sites come in the order they start in the file (a chain starts where its receiver does)
    assert [r.target for r in result.relations if r.kind == "calls"][-3:] == ["all", "filter", "query"]


def test_a_call_split_over_lines_is_reported_on_the_line_of_its_name():
    result = facts("""\
        ok = (set(available).
              issubset(wanted))
        text = template \\
            .format(x=1)
        """)
    assert ("issubset", "set(available)", 2) in calls(result)
    assert ("format", "template", 4) in calls(result)
    assert result.partial is False


def test_super_with_arguments_is_reported_as_super():
    result = facts("""\
        class A(B):
            def f(self):
                super(A, self).f()
        """)
    assert ("f", "super()", 3) in calls(result)


def test_decorator_and_default_argument_calls():
    result = facts("""\
        @app.route("/")
        def index(limit=config.get("limit")):
            pass
        """)
    index = result.symbols.index(symbol(result, "shop.orders.index"))
    sources = {r.target: r.source for r in result.relations if r.kind == "calls"}
    assert sources == {"route": -1, "get": index}  # decorators run in the enclosing scope


def test_receiver_types_read_off_the_syntax():
    result = facts("""\
        import requests

        session = Session()

        class Checkout:
            gateway: "Gateway"
            audit: AuditLog

            def __init__(self):
                self.repo = OrderRepo()
                self.cache = make_cache()

            def run(self, user: User, count: int = 1):
                cart = Cart()
                cart.add(1)
                self.repo.save(cart)
                self.cache.clear()
                self.audit.write()
                user.notify()
                session.get("/")
                requests.get("/")
                fresh = factory.build()
                fresh.go()

                def later():
                    cart.empty()

            def other(self):
                cart.add(2)
        """)

    typed = {(r.target, r.line): r.receiver_type for r in result.relations if r.kind == "calls"}
    assert typed[("add", 15)] == "Cart"
    assert typed[("save", 16)] == "OrderRepo"
    assert typed[("clear", 17)] == ""  # make_cache() says nothing about a type
    assert typed[("write", 18)] == "AuditLog"
    assert typed[("notify", 19)] == "User"
    assert typed[("get", 20)] == "Session"  # a module-level variable seen from a method
    assert typed[("get", 21)] == ""
    assert typed[("go", 23)] == "~factory.build()"  # what build returns: followed through its returns edge
    assert typed[("empty", 26)] == "Cart"  # closures see the enclosing function's locals
    assert typed[("add", 29)] == ""  # another method's local is not visible


def test_receiver_types_from_forward_references_optionals_and_unions_with_none():
    """The annotations typed code writes (rich's ``console: "Console"``) name one receiver type; a
    union of a few classes names each; a generic names no class of its items as the receiver —
    no guess — but a built-in container is that container (``many: list[Row]``: a list)."""
    result = facts("""\
        from typing import Optional, Union

        def render(console: "Console", options: Optional[Options] = None, live: "Live | None" = None,
                   pair: Union[Segment, None] = None, either: Foo | Bar = None, many: list[Row] = (),
                   style: t.Optional["rich.style.Style"] = None):
            console.print(1)
            options.update()
            live.refresh()
            pair.split()
            either.go()
            many.append(1)
            style.combine()
            table: "Table | None" = None
            table.add_row()
        """)

    typed = {r.target: r.receiver_type for r in result.relations if r.kind == "calls"}
    assert typed["print"] == "Console"
    assert typed["update"] == "Options"
    assert typed["refresh"] == "Live"
    assert typed["split"] == "Segment"
    # Two classes: either may be the receiver, so the call is one relation for each (resolved as
    # flow), as a loop variable's over instances of both is.
    assert sorted(r.receiver_type for r in result.relations if r.target == "go") == ["~Bar", "~Foo"]
    assert typed["append"] == "list"  # a list of rows is not a row: the list's own method
    assert typed["combine"] == "rich.style.Style"
    assert typed["add_row"] == "Table"


# ---- imports ------------------------------------------------------------------------------------


def test_every_import_form_with_absolute_targets():
    result = facts(
        """\
        from __future__ import annotations
        import os
        import os.path
        import xml.etree.ElementTree as ET, json
        from collections import OrderedDict as OD, deque
        from . import models
        from .models import (
            Order,
            Line as OrderLine,
        )
        from ..billing import *
        from ..billing.cards import Card

        def lazy():
            import decimal
        """,
        path="shop/checkout/flow.py",
    )

    got = [(i.module, i.name, i.alias, i.target, i.line) for i in result.imports]
    assert got == [
        ("os", "", "os", "os", 2),
        ("os.path", "", "os", "os", 3),
        ("xml.etree.ElementTree", "", "ET", "xml.etree.ElementTree", 4),
        ("json", "", "json", "json", 4),
        ("collections", "OrderedDict", "OD", "collections.OrderedDict", 5),
        ("collections", "deque", "deque", "collections.deque", 5),
        (".", "models", "models", "shop.checkout.models", 6),
        (".models", "Order", "Order", "shop.checkout.models.Order", 8),
        (".models", "Line", "OrderLine", "shop.checkout.models.Line", 9),
        ("..billing", "*", "", "shop.billing", 11),
        ("..billing.cards", "Card", "Card", "shop.billing.cards.Card", 12),
        ("decimal", "", "decimal", "decimal", 15),
    ]


def test_relative_imports_in_a_package_init():
    result = facts("from .core import Engine\nfrom . import util\n", path="engine/__init__.py")
    assert [i.target for i in result.imports] == ["engine.core.Engine", "engine.util"]


# ---- exports ------------------------------------------------------------------------------------


def test_all_lists_the_exports_when_present():
    result = facts(
        """\
        from .models import Order
        __all__ = ["Order", 'checkout']
        __all__ += ("Cart",)
        __all__.extend(["refund"])

        def checkout(): ...
        def _helper(): ...
        """,
        path="shop/api.py",
    )
    assert [(e.name, e.kind, e.line, e.source) for e in result.exports] == [
        ("Order", "all", 2, "shop.models"),
        ("checkout", "all", 2, ""),
        ("Cart", "all", 2, ""),
        ("refund", "all", 2, ""),
    ]


def test_without_all_every_public_top_level_name_defined_here_is_exported():
    result = facts("""\
        import os
        from typing import Any
        try:
            import simplejson as json
        except ImportError:
            json = None

        VERSION = "1"
        _cache = {}

        class Order:
            def pay(self): ...

        def checkout(): ...
        def _internal(): ...

        if os.name == "nt":
            def windows_only(): ...
        """)
    assert [e.name for e in result.exports] == ["Order", "checkout", "windows_only", "VERSION"]
    assert {e.kind for e in result.exports} == {""}


# ---- imperfect files ----------------------------------------------------------------------------


def test_a_file_with_a_syntax_error_still_yields_what_is_outside_the_error():
    result = facts("""\
        import os

        class Good:
            def ok(self):
                return os.getcwd()

        def broken(:
            pass

        def after():
            return 1
        """)
    assert result.partial is True
    names = {s.qualified_name for s in result.symbols}
    assert {"shop.orders.Good", "shop.orders.Good.ok", "shop.orders.after"} <= names
    assert ("getcwd", "os", 5) in calls(result)
    assert facts("def fine(): pass\n").partial is False


def test_non_ascii_names_and_docstrings_come_out_as_text():
    result = facts(
        '''\
        """Modul für Bestellungen — mit Umlauten."""
        def grüße(name="Zoë"):
            """Begrüßt jemanden."""
            return naïve.größe()
        ''',
        path="läden/bestellung.py",
    )

    assert result.module == "läden.bestellung"
    assert result.symbols[0].doc == "Modul für Bestellungen — mit Umlauten."
    greet = symbol(result, "läden.bestellung.grüße")
    assert greet.signature == 'def grüße(name="Zoë")'
    assert greet.doc == "Begrüßt jemanden."
    assert ("größe", "naïve", 4) in calls(result)


def test_an_empty_file_is_just_its_module():
    result = facts("", path="pkg/empty.py")
    assert [(s.kind, s.qualified_name) for s in result.symbols] == [("module", "pkg.empty")]
    assert (result.relations, result.imports, result.exports, result.partial) == ([], [], [], False)


def test_the_extractor_and_its_facts_cross_process_boundaries():
    result = facts("class A:\n    def f(self): g()\n")
    assert pickle.loads(pickle.dumps(extract))(b"x = 1\n", PARSER.parse(b"x = 1\n"), "m.py").module == "m"
    assert pickle.loads(pickle.dumps(result)) == result
