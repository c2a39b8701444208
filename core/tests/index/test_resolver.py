"""The resolver's rules (docs/architecture.md, "Resolution"), language by language.

Small real projects in each rich language are extracted by the installed plugins, indexed by a real
workspace and asked, through ``get_symbol``, what each function calls and how each call was
resolved: ``exact``, ``import``, ``inherited``, ``name-only``, ``flow``, ``external`` (out of the
project, to a dotted name) — or ``unresolved``, counted and never guessed. Every function below calls what one rule is about; the table says what the rule gives.
"""

from __future__ import annotations

import pytest

PYTHON = {
    "shop/__init__.py": "from .orders import Order\n",
    "shop/money.py": """
        def round_cents(x):
            return x

        class Gateway:
            def charge(self, amount):
                return self.send(amount)

            def send(self, value):
                return value
        """,
    "shop/stars.py": """
        __all__ = ["starred", "_private_star"]

        def starred():
            return 1

        def not_in_all():
            return 1

        def _private_star():
            return 1
        """,
    "shop/orders.py": """
        from .money import Gateway, round_cents as rc
        from . import money
        import shop.money as m
        from shop.stars import *

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
            def pay(self):
                return self.total()

            def via_super(self):
                return super().total()

            def via_alias(self):
                return rc(1)

            def via_module(self):
                return money.round_cents(1)

            def via_module_alias(self):
                return m.round_cents(1)

            def via_wildcard(self):
                return starred()

            def via_wildcard_unlisted(self):
                return not_in_all(), _private_star()

            def typed(self):
                g = Gateway()
                return g.charge(1)

            def builtin(self):
                return sorted([])

            def guess(self):
                return only_elsewhere()

            def ambiguous(self):
                return twice()

            def unknown(self, xs):
                return xs.append(1)

        def helper():
            return 1

        def outer():
            def inner():
                return helper()
            return inner()

        class Failure(Exception):
            pass

        class Guessed(UniqueBase):
            pass
        """,
    "app.py": """
        from shop import Order

        def main():
            return Order()
        """,
    "other.py": """
        def only_elsewhere():
            return 1

        def sorted(x):  # a namesake of the built-in
            return x

        def twice():
            return 1

        class UniqueBase:
            def append(self, x):  # the only `append` in the project
                return x
        """,
    "third.py": """
        def twice():
            return 2

        def guesses():
            return only_elsewhere()
        """,
}

JAVA = {
    "src/com/shop/money/Gateway.java": """
        package com.shop.money;
        public class Gateway {
            public int charge(int amount) { return send(amount); }
            int send(int v) { return v; }
        }
        """,
    "src/com/shop/money/Ledger.java": """
        package com.shop.money;
        public class Ledger {
            public static int record(int v) { return v; }
            public static int elsewhere() { return 0; }
        }
        """,
    "src/com/shop/orders/Base.java": """
        package com.shop.orders;
        public class Base {
            protected int total() { return 0; }
            protected int fee() { return 1; }
        }
        """,
    "src/com/shop/orders/Helper.java": """
        package com.shop.orders;
        class Helper { static int help() { return 0; } }
        """,
    "src/com/shop/orders/Order.java": """
        package com.shop.orders;
        import com.shop.money.Gateway;
        import com.shop.money.*;
        import java.util.List;
        public class Order extends Base {
            private Gateway gateway = new Gateway();
            int implicitInherited() { return total(); }
            int implicitSibling() { return implicitInherited(); }
            int viaThis() { return this.fee(); }
            int viaSuper() { return super.total(); }
            int viaField() { return this.gateway.charge(1); }
            int samePackage() { return Helper.help(); }
            int wildcard() { return Ledger.record(1); }
            int typed() { Gateway g = new Gateway(); return g.charge(2); }
            void untyped(List<String> xs) { xs.add("a"); }
            int otherPackage() { return elsewhere(); }
        }
        """,
}

TYPESCRIPT = {
    "src/lib/format.ts": """
        export function format(x: number): string { return String(x); }
        export function pad(x: string): string { return x; }
        """,
    "src/lib/units.ts": """
        export function toCents(x: number): number { return x * 100; }
        """,
    "src/lib/index.ts": """
        export { format } from "./format";
        export * from "./units";
        """,
    "src/base.ts": """
        export class Base {
            total(): number { return 0; }
            fee(): number { return 1; }
        }
        """,
    "src/gateway.ts": """
        export class Gateway { charge(x: number): number { return x; } }
        """,
    "src/order.ts": """
        import { Base } from "./base";
        import { format, toCents } from "./lib";
        import * as fmt from "./lib/format";
        import { Gateway } from "./gateway";

        export class Order extends Base {
            gateway: Gateway = new Gateway();
            inherited(): number { return this.total(); }
            sibling(): number { return this.inherited(); }
            viaSuper(): number { return super.fee(); }
            reexported(): string { return format(1); }
            barrelStar(): number { return toCents(1); }
            namespaced(): string { return fmt.pad("a"); }
            typed(): number { const g: Gateway = new Gateway(); return g.charge(1); }
            viaField(): number { return this.gateway.charge(2); }
            builtin(): number { return parseInt("1"); }
            guess(): number { return onlyHere(); }
            unknown(xs: any): void { xs.push(1); }
        }
        function local(): number { return 1; }
        export function useLocal(): number { return local(); }
        """,
    "src/elsewhere.ts": """
        export function onlyHere(): number { return 1; }
        export function parseInt(s: string): number { return 0; }  // a namesake of the built-in
        export class Stack { push(x: number): void {} }  // the only `push` in the project
        """,
    "src/legacy/foo.js": """
        class Foo { static make() { return new Foo(); } }
        module.exports = Foo;
        """,
    "src/legacy/use.js": """
        const Foo = require('./foo');
        function build() { return Foo.make(); }
        module.exports = { build };
        """,
}

GO = {
    "util/util.go": """
        package util

        func Compute(x int) int { return x }
        """,
    "server/base.go": """
        package server

        type Base struct{}

        func (b *Base) Close() error { return nil }
        """,
    "server/extra.go": """
        package server

        func helper() int { return 1 }

        func (s *Server) Extra() int { return helper() }
        """,
    "server/server.go": """
        package server

        import (
            "fmt"
            "example.com/proj/util"
        )

        type Server struct {
            Base
            name string
        }

        func (s *Server) Start() int { return s.Extra() }

        func (s *Server) Stop() error { return s.Close() }

        func run() int {
            s := &Server{}
            return s.Start()
        }

        func samePackage() int { return helper() }

        func imported() int { return util.Compute(1) }

        func otherPackage() int { return Compute(1) }

        func printed() { fmt.Println("x") }
        """,
}

RUST = {
    "Cargo.toml": "[package]\nname = 'shop'\n",
    "src/lib.rs": """
        pub mod util;
        pub mod orders;
        pub fn top() -> u32 { 1 }
        """,
    "src/util.rs": """
        pub fn compute(x: u32) -> u32 { x }
        """,
    "src/orders/mod.rs": """
        pub mod line;
        use crate::util::compute;

        pub trait Describe {
            fn name(&self) -> String;
            fn describe(&self) -> String { self.name() }
        }

        pub struct Order { total: u32 }

        impl Order {
            pub fn new() -> Order { Order { total: 0 } }
            pub fn pay(&self) -> u32 { compute(self.total) }
            pub fn via_crate(&self) -> u32 { crate::util::compute(1) }
            pub fn sibling(&self) -> u32 { self.pay() }
            pub fn inherited(&self) -> String { self.describe() }
            pub fn assoc() -> Order { Order::new() }
            pub fn unknown(&self, v: Vec<u32>) { v.push(1); }
        }

        impl Describe for Order {
            fn name(&self) -> String { String::new() }
        }

        fn local() -> u32 { 2 }
        pub fn via_self() -> u32 { self::local() }
        """,
    "src/orders/line.rs": """
        pub fn line_total() -> u32 { super::local() + crate::top() }
        """,
}

PROJECTS = {"python": PYTHON, "java": JAVA, "typescript": TYPESCRIPT, "go": GO, "rust": RUST}


@pytest.fixture(scope="module")
def project(source_trees):
    """project(language) -> the language's project, indexed once for the module's tests."""
    indexed = {}

    def get(language: str):
        if language not in indexed:
            tree = source_trees(language).write(PROJECTS[language])
            indexed[language] = tree.index()
            assert not indexed[language].summary.failed, indexed[language].summary
        return indexed[language]

    return get


# (rule, language, caller, what it calls -> how each call was resolved)
CALLS = [
    # A bare name: the enclosing scopes, then the file's top level -> exact.
    ("enclosing scope", "python", "shop.orders.outer", {"shop.orders.outer.inner": "exact"}),
    ("file top level", "python", "shop.orders.outer.inner", {"shop.orders.helper": "exact"}),
    ("file top level", "typescript", "useLocal", {"src/order.local": "exact"}),
    # ... members of the enclosing type, where the language calls them without `this`.
    ("enclosing type", "java", "Order.implicitSibling", {"com.shop.orders.Order.implicitInherited": "exact"}),
    ("enclosing type", "java", "Order.implicitInherited", {"com.shop.orders.Base.total": "inherited"}),
    # ... import bindings -> import.
    ("import", "python", "Order.via_alias", {"shop.money.round_cents": "import"}),
    ("import", "java", "Order.typed", {"com.shop.money.Gateway": "import", "com.shop.money.Gateway.charge": "import"}),
    ("import", "rust", "Order::pay", {"crate::util::compute": "import"}),  # `use crate::util::compute`
    # ... following re-exports: a package's __init__, an index.ts.
    ("re-export", "python", "app.main", {"shop.orders.Order": "import"}),
    ("re-export", "typescript", "Order.reexported", {"src/lib/format.format": "import"}),
    # ... same-package files (Java, Go) -> exact.
    ("same package", "java", "Order.samePackage", {"com.shop.orders.Helper.help": "exact"}),
    ("same package", "go", "server.samePackage", {"server.helper": "exact"}),
    # ... wildcard imports -> import.
    ("wildcard import", "python", "Order.via_wildcard", {"shop.stars.starred": "import"}),
    # ... only what the module's __all__ lists (a name it leaves out is not imported, even public).
    (
        "wildcard import",
        "python",
        "Order.via_wildcard_unlisted",
        {"not_in_all": "unresolved", "shop.stars._private_star": "import"},
    ),
    ("wildcard import", "java", "Order.wildcard", {"com.shop.money.Ledger.record": "import"}),
    ("wildcard import", "typescript", "Order.barrelStar", {"src/lib/units.toCents": "import"}),
    # self / this / cls: members of the enclosing type -> exact, then its supertypes -> inherited.
    ("self", "python", "Gateway.charge", {"shop.money.Gateway.send": "exact"}),
    ("self", "python", "Base.make", {"shop.orders.Base.build": "exact"}),
    ("self", "typescript", "Order.sibling", {"src/order.Order.inherited": "exact"}),
    ("self", "rust", "Order::sibling", {"crate::orders::Order::pay": "exact"}),
    ("self", "python", "Order.pay", {"shop.orders.Base.total": "inherited"}),
    ("self", "java", "Order.viaThis", {"com.shop.orders.Base.fee": "inherited"}),
    ("self", "typescript", "Order.inherited", {"src/base.Base.total": "inherited"}),
    ("self", "rust", "Order::inherited", {"crate::orders::Describe::describe": "inherited"}),  # a trait's default
    ("self", "go", "Server.Stop", {"server.Base.Close": "inherited"}),  # an embedded struct's method
    # super: the supertypes only -> inherited (`super()` itself is a call of a built-in).
    ("super", "python", "Order.via_super", {"shop.orders.Base.total": "inherited", "builtins.super": "external"}),
    ("super", "java", "Order.viaSuper", {"com.shop.orders.Base.total": "inherited"}),
    ("super", "typescript", "Order.viaSuper", {"src/base.Base.fee": "inherited"}),
    # A receiver whose type the syntax shows -> that type's member, labelled as the type was found.
    (
        "typed receiver",
        "python",
        "Order.typed",
        {"shop.money.Gateway": "import", "shop.money.Gateway.charge": "import"},
    ),
    ("typed receiver", "java", "Order.viaField", {"com.shop.money.Gateway.charge": "import"}),
    ("typed receiver", "typescript", "Order.viaField", {"src/gateway.Gateway.charge": "import"}),
    (
        "typed receiver",
        "typescript",
        "Order.typed",
        {"src/gateway.Gateway": "import", "src/gateway.Gateway.charge": "import"},
    ),
    ("typed receiver", "go", "server.run", {"server.Server.Start": "exact"}),
    ("typed receiver", "go", "Server.Start", {"server.Server.Extra": "exact"}),  # declared in another file
    # A dotted path naming a module, a type or an import -> that member.
    ("path", "python", "Order.via_module", {"shop.money.round_cents": "import"}),
    ("path", "python", "Order.via_module_alias", {"shop.money.round_cents": "import"}),
    ("path", "typescript", "Order.namespaced", {"src/lib/format.pad": "import"}),
    ("path", "typescript", "build", {"src/legacy/foo.Foo.make": "import"}),  # require()'s default export
    ("path", "go", "server.imported", {"util.Compute": "import"}),
    ("path", "rust", "Order::assoc", {"crate::orders::Order::new": "exact"}),
    # Rust's path roots: crate::, self:: and super::.
    ("path", "rust", "Order::via_crate", {"crate::util::compute": "exact"}),
    ("path", "rust", "line_total", {"crate::orders::local": "exact", "crate::top": "exact"}),
    ("path", "rust", "via_self", {"crate::orders::local": "exact"}),
    # Otherwise exactly one symbol of a fitting kind with that name anywhere -> name-only ...
    ("name-only", "python", "third.guesses", {"other.only_elsewhere": "name-only"}),
    # ... but not in a file whose `import *`s are all indexed and give no such name: nowhere to come from.
    ("unresolved", "python", "Order.guess", {"only_elsewhere": "unresolved"}),
    ("name-only", "typescript", "Order.guess", {"src/elsewhere.onlyHere": "name-only"}),
    # ... except a built-in, never guessed to be a namesake in another file.
    ("built-in", "python", "Order.builtin", {"builtins.sorted": "external"}),  # leaves the project, named
    ("built-in", "typescript", "Order.builtin", {"parseInt": "unresolved"}),
    # Otherwise unresolved: two candidates are no answer; a receiver of unknown type is not guessed
    # (even with one method of that name in the project); in Java and Go a bare name does not reach
    # another package; code that is not indexed (fmt) cannot be reached.
    ("unresolved", "python", "Order.ambiguous", {"twice": "unresolved"}),
    ("unresolved", "python", "Order.unknown", {"append": "unresolved"}),
    ("unresolved", "typescript", "Order.unknown", {"push": "unresolved"}),
    ("unresolved", "java", "Order.untyped", {"add": "unresolved"}),
    ("unresolved", "rust", "Order::unknown", {"push": "unresolved"}),
    ("unresolved", "java", "Order.otherPackage", {"elsewhere": "unresolved"}),
    ("unresolved", "go", "server.otherPackage", {"Compute": "unresolved"}),
    ("external", "go", "server.printed", {"fmt.Println": "external"}),  # a package outside the index
]


@pytest.mark.parametrize(
    ("rule", "language", "caller", "expected"),
    CALLS,
    ids=[f"{rule}-{language}-{caller}" for rule, language, caller, _ in CALLS],
)
def test_each_call_is_resolved_by_its_rule(project, rule, language, caller, expected):
    assert project(language).callees(caller) == expected


# Base classes follow the same rules; a built-in base is never a namesake elsewhere.
BASES = [
    ("python", "Order", {"shop.orders.Base": "exact"}),
    ("python", "Failure", {"builtins.Exception": "external"}),  # outside the index, named where it is
    ("python", "Guessed", {"other.UniqueBase": "name-only"}),
    ("java", "Order", {"com.shop.orders.Base": "exact"}),
    ("typescript", "Order", {"src/base.Base": "import"}),
    ("go", "Server", {"server.Base": "exact"}),
    ("rust", "crate::orders::Order", {"crate::orders::Describe": "exact"}),
]


@pytest.mark.parametrize(("language", "name", "expected"), BASES, ids=[f"{b[0]}-{b[1]}" for b in BASES])
def test_bases_are_resolved_by_the_same_rules(project, language, name, expected):
    assert project(language).bases(name) == expected


def test_what_stays_unresolved_is_counted_not_reported_as_no_callers(project):
    python = project("python")
    for twice in ("other.twice", "third.twice"):
        answer = python.symbol(twice)
        assert "callers" not in answer  # neither namesake is picked ...
        assert answer["unresolved_call_sites"] == 1  # ... and the call that may be theirs is counted
    # cls() in a classmethod makes the class it is called on: the enclosing one, or a subclass.
    assert python.callees("Base.build") == {"shop.orders.Base": "flow"}
    # twice(), xs.append(1), only_elsewhere() and not_in_all() where no import gives them:
    # the project's unresolved calls, each counted (super(), sorted([]) and the two @classmethod
    # decorations call the built-ins: external).
    assert python.call("stats")["unresolved_calls"] == 4
    assert python.call("stats")["call_resolution"]["external"] == 4
