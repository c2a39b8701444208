"""What an agent learns about a Java file: each construct on a small, realistic snippet."""

from __future__ import annotations

import pickle

import pytest


def by_name(facts, qualified_name):
    matches = [s for s in facts.symbols if s.qualified_name == qualified_name]
    assert len(matches) == 1, f"{qualified_name}: {[s.qualified_name for s in facts.symbols]}"
    return matches[0]


def calls(facts):
    return [r for r in facts.relations if r.kind == "calls"]


def call_to(facts, target, receiver=None):
    found = [r for r in calls(facts) if r.target == target and (receiver is None or r.receiver == receiver)]
    assert len(found) == 1, f"{target}/{receiver}: {calls(facts)}"
    return found[0]


def source_of(facts, relation):
    return facts.symbols[relation.source].qualified_name if relation.source >= 0 else None


ORDER_SERVICE = """
    package com.shop.orders;

    import java.util.ArrayList;
    import java.util.List;
    import java.util.Map.Entry;
    import static java.util.Objects.requireNonNull;
    import com.shop.payments.*;
    import static com.shop.util.Checks.*;

    /**
     * Places orders and charges customers. Thread-safe.
     *
     * @author shop
     */
    @Service
    @Deprecated(since = "2")
    public final class OrderService extends BaseService<Order> implements Placing, java.io.Closeable {
        /** How many orders may wait. */
        public static final int MAX_PENDING = 64, MIN_PENDING = 1;
        private final List<Order> pending = new ArrayList<>();
        protected PaymentGateway gateway;

        public OrderService(PaymentGateway gateway) {
            this(gateway, MAX_PENDING);
        }

        OrderService(PaymentGateway gateway, int limit) {
            super(limit);
            this.gateway = requireNonNull(gateway);
        }

        /** Adds an order. */
        public void add(Order order) { pending.add(order); }

        /** Adds several orders. */
        public void add(Order order, int copies) { }

        @Override
        public void close() { }

        private static Receipt charge(Order order, Customer customer) {
            Invoice invoice = new Invoice(order);
            return invoice.settle(customer);
        }

        public static class Receipt { public String number() { return ""; } }

        interface Placing extends Runnable, Comparable<Placing> { }
    }
"""


def test_java_is_registered_with_java_naming_rules(java_language):
    assert java_language.name == "java"
    assert java_language.extensions == (".java",)
    assert java_language.resolution.separator == "."
    assert java_language.resolution.implicit_members is True
    assert java_language.resolution.self_names == ("this",)
    assert java_language.resolution.super_names == ("super",)
    assert java_language.resolution.directory_scope is True
    # The parse pool ships the extractor to worker processes, and the facts back.
    assert pickle.loads(pickle.dumps(java_language.extractor)) == java_language.extractor


def test_the_package_is_the_module_and_a_symbol(extract_java):
    facts = extract_java(ORDER_SERVICE)
    assert facts.module == "com.shop.orders"
    package = facts.symbols[0]
    assert (package.kind, package.name, package.qualified_name, package.start_line) == (
        "package",
        "com.shop.orders",
        "com.shop.orders",
        1,
    )
    assert facts.extractor == "java"
    assert facts.partial is False
    assert pickle.loads(pickle.dumps(facts)) == facts


def test_a_class_in_the_default_package_has_a_bare_name(extract_java):
    facts = extract_java("class Main { static void main(String[] args) { } }")
    assert facts.module == ""
    assert [s.qualified_name for s in facts.symbols] == ["Main", "Main.main"]


def test_types_members_and_their_qualified_names(extract_java):
    facts = extract_java(ORDER_SERVICE)
    service = by_name(facts, "com.shop.orders.OrderService")
    assert service.kind == "class"
    assert service.parent == -1
    assert (service.start_line, service.end_line) == (15, 49)  # annotations included, javadoc not
    assert service.signature == ("class OrderService extends BaseService<Order> implements Placing, java.io.Closeable")
    assert service.modifiers == ("@Service", "@Deprecated", "public", "final")

    close = by_name(facts, "com.shop.orders.OrderService.close")
    assert close.kind == "method"
    assert close.modifiers == ("@Override", "public")
    assert facts.symbols[close.parent] == service

    receipt = by_name(facts, "com.shop.orders.OrderService.Receipt")
    assert receipt.kind == "class"
    assert receipt.modifiers == ("public", "static")
    assert by_name(facts, "com.shop.orders.OrderService.Receipt.number").parent == facts.symbols.index(receipt)

    placing = by_name(facts, "com.shop.orders.OrderService.Placing")
    assert placing.kind == "interface"


def test_overloads_share_a_qualified_name_and_differ_by_signature(extract_java):
    facts = extract_java(ORDER_SERVICE)
    adds = [s for s in facts.symbols if s.qualified_name == "com.shop.orders.OrderService.add"]
    assert [s.signature for s in adds] == ["void add(Order order)", "void add(Order order, int copies)"]
    assert [s.doc for s in adds] == ["Adds an order.", "Adds several orders."]

    constructors = [s for s in facts.symbols if s.kind == "constructor"]
    assert [(s.qualified_name, s.signature) for s in constructors] == [
        ("com.shop.orders.OrderService.OrderService", "OrderService(PaymentGateway gateway)"),
        ("com.shop.orders.OrderService.OrderService", "OrderService(PaymentGateway gateway, int limit)"),
    ]
    charge = by_name(facts, "com.shop.orders.OrderService.charge")
    assert charge.signature == "Receipt charge(Order order, Customer customer)"
    assert charge.modifiers == ("private", "static")


def test_one_field_symbol_per_declarator(extract_java):
    facts = extract_java(ORDER_SERVICE)
    fields = [s for s in facts.symbols if s.kind == "field"]
    assert [s.name for s in fields] == ["MAX_PENDING", "MIN_PENDING", "pending", "gateway"]
    max_pending, min_pending = fields[:2]
    assert max_pending.signature == "int MAX_PENDING = 64"
    assert max_pending.modifiers == min_pending.modifiers == ("public", "static", "final")
    assert max_pending.doc == min_pending.doc == "How many orders may wait."
    assert fields[2].signature == "List<Order> pending = new ArrayList<>()"


def test_javadoc_first_sentence_is_the_doc_even_across_annotations(extract_java):
    facts = extract_java(ORDER_SERVICE)
    assert by_name(facts, "com.shop.orders.OrderService").doc == "Places orders and charges customers."
    assert by_name(facts, "com.shop.orders.OrderService.gateway").doc == ""  # no comment at all
    facts = extract_java(
        """
        class Docs {
            /** Starts with a tag only.
             * @deprecated */
            void a() {}

            /**
             * @return nothing: a tag first means no summary
             */
            void b() {}

            /* not javadoc */
            void c() {}

            /** Javadoc, then a line comment: not attached. */
            // TODO
            void d() {}

            /** Summary spans
             *  two lines. Second sentence. */
            void e() {}

            /**
             * <p>Opens with a paragraph tag,
             * as LinkedHashMap's does.
             * <p>Second paragraph.
             */
            void f() {}
        }
        """
    )
    docs = {s.name: s.doc for s in facts.symbols if s.kind == "method"}
    assert docs == {
        "a": "Starts with a tag only.",
        "b": "",
        "c": "",
        "d": "",
        "e": "Summary spans two lines.",
        "f": "Opens with a paragraph tag, as LinkedHashMap's does.",
    }


def test_interfaces_enums_records_and_annotation_types(extract_java):
    facts = extract_java(
        """
        package com.shop.model;

        public interface Priced extends Comparable<Priced>, java.io.Serializable {
            int CENTS = 100;
            long price();
            default boolean free() { return price() == 0; }
        }

        public enum Status implements Labelled {
            NEW("new"),
            PAID("paid") {
                @Override String label() { return "done"; }
            };

            private final String text;
            Status(String text) { this.text = text; }
            String label() { return text; }
        }

        public record Money(long cents, java.util.Currency currency) implements Priced {
            public Money {
                if (cents < 0) throw new IllegalArgumentException();
            }
            public long price() { return cents; }
        }

        public @interface Audited {
            String value() default "";
            int level() default 1;
        }
        """
    )
    kinds = {s.qualified_name: s.kind for s in facts.symbols}
    assert kinds["com.shop.model.Priced"] == "interface"
    assert kinds["com.shop.model.Priced.CENTS"] == "field"
    assert kinds["com.shop.model.Priced.price"] == "method"
    assert by_name(facts, "com.shop.model.Priced.free").modifiers == ("default",)

    assert kinds["com.shop.model.Status"] == "enum"
    assert kinds["com.shop.model.Status.NEW"] == "enum_member"
    assert kinds["com.shop.model.Status.PAID"] == "enum_member"
    assert by_name(facts, "com.shop.model.Status.NEW").signature == 'NEW("new")'
    assert kinds["com.shop.model.Status.PAID.label"] == "method"  # the constant's own body
    assert kinds["com.shop.model.Status.Status"] == "constructor"

    assert kinds["com.shop.model.Money"] == "record"
    assert by_name(facts, "com.shop.model.Money").signature == (
        "record Money(long cents, java.util.Currency currency) implements Priced"
    )
    assert kinds["com.shop.model.Money.cents"] == "field"  # record components are its fields
    assert kinds["com.shop.model.Money.currency"] == "field"
    assert kinds["com.shop.model.Money.Money"] == "constructor"  # the compact constructor

    assert kinds["com.shop.model.Audited"] == "annotation"
    assert kinds["com.shop.model.Audited.value"] == "method"
    assert by_name(facts, "com.shop.model.Audited.level").signature == "int level() default 1"

    bases = {(facts.symbols[r.source].name, r.kind, r.target) for r in facts.relations if r.kind != "calls"}
    assert bases == {
        ("Priced", "extends", "Comparable"),  # an interface extends interfaces
        ("Priced", "extends", "java.io.Serializable"),
        ("Status", "implements", "Labelled"),
        ("Money", "implements", "Priced"),
    }


def test_extends_and_implements_without_generic_arguments(extract_java):
    facts = extract_java(ORDER_SERVICE)
    bases = [(r.kind, r.target, r.line, source_of(facts, r)) for r in facts.relations if r.kind != "calls"]
    assert bases == [
        ("extends", "BaseService", 17, "com.shop.orders.OrderService"),
        ("implements", "Placing", 17, "com.shop.orders.OrderService"),
        ("implements", "java.io.Closeable", 17, "com.shop.orders.OrderService"),
        ("extends", "Runnable", 48, "com.shop.orders.OrderService.Placing"),
        ("extends", "Comparable", 48, "com.shop.orders.OrderService.Placing"),
    ]


def test_local_and_anonymous_classes_are_named_inside_their_method(extract_java):
    facts = extract_java(
        """
        package app;

        class Scheduler {
            private final Runnable onIdle = new Runnable() { public void run() { idle(); } };

            void start(Executor pool) {
                class Job implements Runnable { public void run() { work(); } }
                pool.execute(new Job());
                pool.execute(new Runnable() {
                    @Override public void run() { tick(); }
                });
                pool.execute(new java.util.TimerTask() { public void run() { } });
            }
        }
        """
    )
    names = [s.qualified_name for s in facts.symbols]
    assert names == [
        "app",
        "app.Scheduler",
        "app.Scheduler.onIdle",
        "app.Scheduler.onIdle.$1",
        "app.Scheduler.onIdle.$1.run",
        "app.Scheduler.start",
        "app.Scheduler.start.Job",
        "app.Scheduler.start.Job.run",
        "app.Scheduler.start.$1",
        "app.Scheduler.start.$1.run",
        "app.Scheduler.start.$2",
        "app.Scheduler.start.$2.run",
    ]
    anonymous = by_name(facts, "app.Scheduler.start.$1")
    assert (anonymous.kind, anonymous.signature) == ("class", "new Runnable()")
    supertypes = {(source_of(facts, r), r.kind, r.target) for r in facts.relations if r.kind != "calls"}
    assert supertypes == {
        ("app.Scheduler.onIdle.$1", "extends", "Runnable"),  # class or interface: syntax can't tell
        ("app.Scheduler.start.Job", "implements", "Runnable"),
        ("app.Scheduler.start.$1", "extends", "Runnable"),
        ("app.Scheduler.start.$2", "extends", "java.util.TimerTask"),
    }
    # Calls inside an anonymous class belong to its method; its creation to the enclosing method.
    assert source_of(facts, call_to(facts, "tick")) == "app.Scheduler.start.$1.run"
    assert source_of(facts, call_to(facts, "idle")) == "app.Scheduler.onIdle.$1.run"
    assert [source_of(facts, r) for r in calls(facts) if r.target == "Runnable"] == [
        "app.Scheduler",
        "app.Scheduler.start",
    ]


def test_calls_name_the_method_and_the_receiver_as_written(extract_java):
    facts = extract_java(
        """
        package app;

        class Checkout extends Base {
            private Cart cart;

            void pay(Order order) {
                validate(order);
                this.audit();
                super.pay(order);
                order.lines().stream().count();
                this.cart.clear();
                Collections.<String>emptyList();
                com.shop.Util.log("paid");
                Outer.super.hook();
            }
        }
        """
    )
    seen = [(r.receiver, r.target, r.line) for r in calls(facts)]
    assert set(seen) == {
        ("", "validate", 7),
        ("this", "audit", 8),
        ("super", "pay", 9),
        ("order", "lines", 10),
        ("order.lines()", "stream", 10),
        ("order.lines().stream()", "count", 10),
        ("this.cart", "clear", 11),
        ("Collections", "emptyList", 12),
        ("com.shop.Util", "log", 13),
        ("Outer.super", "hook", 14),
    }
    assert {source_of(facts, r) for r in calls(facts)} == {"app.Checkout.pay"}


def test_constructor_calls_and_method_references(extract_java):
    facts = extract_java(
        """
        class Factory extends Base {
            Factory() { super(1); }
            Factory(int n) { this(); }

            void make(Outer outer) {
                new Widget(1);
                new java.util.ArrayList<String>();
                new Outer.Inner();
                outer.new Part();
                items.forEach(System.out::println);
                items.stream().map(Widget::new).map(this::wrap).toArray(String[]::new);
            }
        }
        """
    )
    seen = {(r.receiver, r.target, r.line, source_of(facts, r)) for r in calls(facts)}
    assert {
        ("super", "Base", 2, "Factory.Factory"),  # super(...) calls the superclass constructor
        ("this", "Factory", 3, "Factory.Factory"),  # this(...) another constructor of this class
        ("", "Widget", 6, "Factory.make"),
        ("java.util", "ArrayList", 7, "Factory.make"),
        ("Outer", "Inner", 8, "Factory.make"),
        ("outer", "Part", 9, "Factory.make"),
        ("System.out", "println", 10, "Factory.make"),
        ("", "Widget", 11, "Factory.make"),  # Widget::new
        ("this", "wrap", 11, "Factory.make"),
    } <= seen
    assert not [r for r in calls(facts) if r.target == "String"]  # String[]::new creates an array
    assert call_to(facts, "Part").receiver_type == "Outer"


def test_receiver_types_come_from_visible_declarations(extract_java):
    facts = extract_java(
        """
        class Shop {
            private Inventory inventory;
            private final Map<String, Order> orders = new HashMap<>();

            void restock(Supplier supplier, List<Item> items) {
                Ledger ledger = new Ledger();
                var audit = new AuditLog<Item>();
                supplier.ship(items);
                ledger.record(items);
                audit.append(items);
                inventory.refill();
                this.inventory.count();
                orders.clear();
                for (Item item : items) { item.check(); }
                try (Stream s = open()) { s.close(); } catch (IOException | RuntimeException e) { e.explain(); }
                items.forEach(inventory -> inventory.remove());
                Object o = items;
                if (o instanceof Basket basket) { basket.empty(); }
                unknown.call();
            }
        }
        """
    )
    types = {r.target: r.receiver_type for r in calls(facts)}
    assert types["ship"] == "Supplier"  # a parameter
    assert types["record"] == "Ledger"  # a local variable
    assert types["append"] == "AuditLog"  # var x = new T<>()
    assert types["refill"] == "Inventory"  # a field of the enclosing class
    assert types["count"] == "Inventory"  # this.field
    assert types["clear"] == "Map"  # generic arguments dropped
    assert types["check"] == "Item"  # for-each variable
    assert types["close"] == "Stream"  # try-with-resources
    assert types["explain"] == ""  # a multi-catch variable has no single type
    assert types["remove"] == ""  # an untyped lambda parameter hides the field of that name
    assert types["empty"] == "Basket"  # instanceof pattern
    assert types["call"] == ""  # nothing declares `unknown`: no guess


def test_inner_scopes_see_outer_declarations_and_shadow_them(extract_java):
    facts = extract_java(
        """
        class Outer {
            Engine engine;

            void run(Wheel wheel) {
                new Thread() {
                    public void run() {
                        wheel.spin();
                        engine.start();
                    }
                };
            }

            void stop(Brake engine) {
                engine.start();
            }
        }
        """
    )
    starts = [(source_of(facts, r), r.receiver_type) for r in calls(facts) if r.target == "start"]
    assert starts == [("Outer.run.$1.run", "Engine"), ("Outer.stop", "Brake")]
    assert call_to(facts, "spin").receiver_type == "Wheel"  # a captured parameter of the enclosing method


def test_imports_bind_names_to_qualified_targets(extract_java):
    facts = extract_java(ORDER_SERVICE)
    assert [(i.module, i.name, i.alias, i.kind, i.target, i.line) for i in facts.imports] == [
        ("java.util", "ArrayList", "ArrayList", "", "java.util.ArrayList", 3),
        ("java.util", "List", "List", "", "java.util.List", 4),
        ("java.util.Map", "Entry", "Entry", "", "java.util.Map.Entry", 5),  # a nested class
        ("java.util.Objects", "requireNonNull", "requireNonNull", "static", "java.util.Objects.requireNonNull", 6),
        ("com.shop.payments", "*", "", "", "com.shop.payments", 7),
        ("com.shop.util.Checks", "*", "", "static", "com.shop.util.Checks", 8),
    ]


def test_imports_written_oddly_still_bind(extract_java):
    facts = extract_java(
        """
        import java.util . Set;
        import static java.util.Collections /* all of them */ .*;
        import
            java.util.concurrent.TimeUnit;
        """
    )
    assert [(i.alias, i.kind, i.target) for i in facts.imports] == [
        ("Set", "", "java.util.Set"),
        ("", "static", "java.util.Collections"),
        ("TimeUnit", "", "java.util.concurrent.TimeUnit"),
    ]


def test_exports_are_the_public_api_of_public_top_level_types(extract_java):
    facts = extract_java(ORDER_SERVICE)
    assert [e.name for e in facts.exports] == [
        "OrderService",
        "MAX_PENDING",
        "MIN_PENDING",
        "gateway",
        "add",
        "close",
        "Receipt",
    ]
    assert all(e.kind == "" for e in facts.exports)
    facts = extract_java(
        """
        package api;
        public interface Store { void put(String key); private void helper() {} }
        class Hidden { public void visible() {} }
        """
    )
    assert [e.name for e in facts.exports] == ["Store", "put"]  # interface members are implicitly public


def test_module_info_declares_a_module(extract_java):
    facts = extract_java(
        """
        /** The shop's public API. */
        module com.shop.api {
            requires java.sql;
            exports com.shop.api;
            exports com.shop.internal to com.shop.web;
        }
        """,
        path="src/main/java/module-info.java",
    )
    (module,) = facts.symbols
    assert (module.kind, module.name, module.signature, module.doc) == (
        "module",
        "com.shop.api",
        "module com.shop.api",
        "The shop's public API.",
    )
    # The packages it exports to everyone are its API; one shared with a friend module is not.
    assert [(e.name, e.kind) for e in facts.exports] == [("com.shop.api", "package")]


def test_a_file_with_syntax_errors_keeps_everything_outside_them(extract_java):
    facts = extract_java(
        """
        package app;

        public class Broken {
            /** Before the damage. */
            public void good(String s) {
                s.trim();
            }

            public void bad() {
                int x = ;
                if (x > ) { run(); }
            }

            /** After the damage. */
            public int after(int a) {
                return helper(a);
            }
        }
        """
    )
    assert facts.partial is True
    assert [s.qualified_name for s in facts.symbols] == [
        "app",
        "app.Broken",
        "app.Broken.good",
        "app.Broken.bad",
        "app.Broken.after",
    ]
    assert by_name(facts, "app.Broken.after").doc == "After the damage."
    assert {(source_of(facts, r), r.target) for r in calls(facts)} == {
        ("app.Broken.good", "trim"),
        ("app.Broken.bad", "run"),
        ("app.Broken.after", "helper"),
    }


@pytest.mark.parametrize("source", [b"", b"   \n", b"\xff\xfe not java at all {{{", b"package;"])
def test_empty_or_garbage_input_gives_facts_not_exceptions(extract_java, source):
    facts = extract_java(source)
    assert isinstance(facts.symbols, list)
