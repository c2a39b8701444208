"""What an agent learns about a Rust file: each construct on a small, realistic snippet."""

from __future__ import annotations

import pickle

import pytest
from codecairn_rust.extractor import module_of


def by_name(facts, qualified_name):
    matches = [s for s in facts.symbols if s.qualified_name == qualified_name]
    assert len(matches) == 1, f"{qualified_name}: {[s.qualified_name for s in facts.symbols]}"
    return matches[0]


def index_of(facts, qualified_name):
    return facts.symbols.index(by_name(facts, qualified_name))


def calls(facts):
    return [r for r in facts.relations if r.kind == "calls"]


def test_rust_is_registered_with_rust_naming_rules(rust_language):
    assert rust_language.name == "rust"
    assert rust_language.extensions == (".rs",)
    assert rust_language.resolution.separator == "::"
    assert rust_language.resolution.implicit_members is False
    assert rust_language.resolution.self_names == ("self", "Self")
    assert rust_language.resolution.super_names == ()
    assert rust_language.resolution.directory_scope is False
    assert pickle.loads(pickle.dumps(rust_language.extractor)) == rust_language.extractor


@pytest.mark.parametrize(
    "path, module",
    [
        ("src/lib.rs", "crate"),
        ("src/main.rs", "crate"),
        ("src/runtime/mod.rs", "crate::runtime"),
        ("src/runtime/task/join.rs", "crate::runtime::task::join"),
        ("tokio/src/io/util/mod.rs", "crate::io::util"),  # a workspace member: below its own src
        ("tests/fs_file.rs", "crate::tests::fs_file"),  # no src ancestor: from the root
        ("build.rs", "crate::build"),
        ("lib.rs", "crate"),
    ],
)
def test_module_path_follows_the_file_path(path, module):
    assert module_of(path) == module


def test_items_get_module_qualified_names_kinds_and_signatures(extract_rust):
    facts = extract_rust(
        """
        /// An order placed by a customer.
        #[derive(Debug, Clone)]
        pub struct Order<T> {
            /// Who placed it.
            pub customer: String,
            lines: Vec<T>,
        }

        pub struct Id(u64);

        pub enum Status { Open, Paid(u64), Shipped { carrier: String } }

        pub union Raw { bits: u64, float: f64 }

        pub type Result<T> = std::result::Result<T, Error>;

        pub const MAX_LINES: usize = 100;

        static mut COUNTER: u32 = 0;

        pub(crate) fn total(order: &Order<u8>) -> u64 { 0 }

        macro_rules! line { ($x:expr) => { $x } }
        """,
        path="src/shop/order.rs",
    )
    assert facts.module == "crate::shop::order"
    kinds = {s.qualified_name: s.kind for s in facts.symbols}
    assert kinds == {
        "crate::shop::order::Order": "struct",
        "crate::shop::order::Order::customer": "field",
        "crate::shop::order::Order::lines": "field",
        "crate::shop::order::Id": "struct",
        "crate::shop::order::Status": "enum",
        "crate::shop::order::Status::Open": "variant",
        "crate::shop::order::Status::Paid": "variant",
        "crate::shop::order::Status::Shipped": "variant",
        "crate::shop::order::Status::Shipped::carrier": "field",
        "crate::shop::order::Raw": "union",
        "crate::shop::order::Raw::bits": "field",
        "crate::shop::order::Raw::float": "field",
        "crate::shop::order::Result": "type",
        "crate::shop::order::MAX_LINES": "constant",
        "crate::shop::order::COUNTER": "variable",
        "crate::shop::order::total": "function",
        "crate::shop::order::line": "macro",
    }
    order = by_name(facts, "crate::shop::order::Order")
    assert (order.signature, order.doc, order.start_line, order.end_line) == (
        "pub struct Order<T>",
        "An order placed by a customer.",
        3,
        7,
    )
    assert by_name(facts, "crate::shop::order::Order::customer").doc == "Who placed it."
    assert by_name(facts, "crate::shop::order::Order::customer").parent == facts.symbols.index(order)
    assert by_name(facts, "crate::shop::order::total").signature == "pub(crate) fn total(order: &Order<u8>) -> u64"
    assert by_name(facts, "crate::shop::order::total").modifiers == ("pub(crate)",)
    assert by_name(facts, "crate::shop::order::COUNTER").modifiers == ("static", "mut")
    assert by_name(facts, "crate::shop::order::MAX_LINES").signature == "pub const MAX_LINES: usize"
    # `#[derive(...)]` says which traits the type implements.
    derived = [(r.source, r.target) for r in facts.relations if r.kind == "implements"]
    assert derived == [(facts.symbols.index(order), "Debug"), (facts.symbols.index(order), "Clone")]


def test_exports_are_pub_items_and_pub_use_re_exports(extract_rust):
    facts = extract_rust(
        """
        pub use crate::net::{TcpStream, UdpSocket as Udp};
        pub use self::driver::*;
        use std::fmt;
        pub struct Shown { pub a: u8, hidden: u8 }
        struct Hidden;
        pub enum Kind { A }
        pub trait Spawn { fn spawn(&self); }
        pub(crate) fn internal() {}
        #[macro_export]
        macro_rules! ready { () => {} }
        """,
        path="src/lib.rs",
    )
    assert [(e.name, e.kind, e.source, e.alias) for e in facts.exports if e.kind == "re-export"] == [
        ("TcpStream", "re-export", "crate::net", ""),
        ("UdpSocket", "re-export", "crate::net", "Udp"),
        ("*", "re-export", "crate::driver", ""),
    ]
    assert [e.name for e in facts.exports if e.kind == ""] == [
        "Shown",
        "Shown::a",
        "Kind",
        "Kind::A",
        "Spawn",
        "Spawn::spawn",
        "ready",
    ]
    # An exported macro lives at the crate root, wherever it is written.
    assert by_name(facts, "crate::ready").modifiers == ("public",)


def test_impl_methods_attach_to_their_type(extract_rust):
    facts = extract_rust(
        """
        use crate::runtime::Handle;

        pub struct Runtime { handle: Handle }

        impl Runtime {
            /// Runs a future to completion.
            pub fn block_on<F: Future>(&self, future: F) -> F::Output { self.handle.enter() }
            pub fn new() -> std::io::Result<Runtime> { todo!() }
            const FLAVOR: u8 = 1;
        }

        impl Handle {
            pub fn current() -> Self { todo!() }
        }

        impl<T> Wrapper<T> {
            fn get(&self) -> &T { &self.0 }
        }

        impl [u8] {
            fn is_ascii(&self) -> bool { true }
        }
        """,
        path="src/runtime/runtime.rs",
    )
    runtime = index_of(facts, "crate::runtime::runtime::Runtime")
    block_on = by_name(facts, "crate::runtime::runtime::Runtime::block_on")
    assert (block_on.kind, block_on.parent, block_on.doc) == ("method", runtime, "Runs a future to completion.")
    assert block_on.modifiers == ("public",)
    assert by_name(facts, "crate::runtime::runtime::Runtime::new").modifiers == ("public", "static")
    assert by_name(facts, "crate::runtime::runtime::Runtime::FLAVOR").parent == runtime
    # Handle is imported: its method is named where Handle lives, and has no parent in this file.
    current = by_name(facts, "crate::runtime::Handle::current")
    assert current.parent == -1
    assert by_name(facts, "crate::runtime::runtime::Wrapper::get").parent == -1
    assert by_name(facts, "crate::runtime::runtime::[u8]::is_ascii").kind == "method"
    assert all(s.kind != "impl" for s in facts.symbols)  # an impl block is not a symbol


def test_trait_impls_say_which_type_implements_which_trait(extract_rust):
    facts = extract_rust(
        """
        use std::fmt;
        use super::task::Task;

        pub struct Runtime;

        impl Drop for Runtime {
            fn drop(&mut self) {}
        }

        impl<'a> fmt::Debug for &'a Runtime {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { Ok(()) }
        }

        impl Iterator<Item = u8> for super::Blocking {
            fn next(&mut self) -> Option<u8> { None }
        }

        impl Schedule for Task {}

        impl<T: Send> Spawn for T {}

        unsafe impl Send for Runtime {}
        """,
        path="src/runtime/mod.rs",
    )
    runtime = index_of(facts, "crate::runtime::Runtime")
    implements = [(r.source, r.target, r.receiver, r.receiver_type) for r in facts.relations if r.kind == "implements"]
    assert implements == [
        (runtime, "Drop", "Runtime", "crate::runtime::Runtime"),
        (runtime, "fmt::Debug", "Runtime", "crate::runtime::Runtime"),
        # Types declared elsewhere: no source symbol here; receiver_type names the type absolutely.
        (-1, "Iterator", "super::Blocking", "crate::Blocking"),
        (-1, "Schedule", "Task", "crate::task::Task"),
        # `impl<T: Send> Spawn for T` is a blanket impl: no one type to record.
        (runtime, "Send", "Runtime", "crate::runtime::Runtime"),
    ]
    drop = by_name(facts, "crate::runtime::Runtime::drop")
    assert drop.parent == runtime
    assert by_name(facts, "crate::Blocking::next").parent == -1


def test_traits_list_their_methods_and_supertraits(extract_rust):
    facts = extract_rust(
        """
        /// Something that can be scheduled.
        pub trait Schedule: Sync + fmt::Debug + Sized + 'static {
            type Output;
            const PRIORITY: u8;
            /// Schedule the task.
            fn schedule(&self, task: Notified<Self>);
            fn yield_now(&self) { self.schedule(task()) }
        }
        """,
        path="src/runtime/task/mod.rs",
    )
    trait = index_of(facts, "crate::runtime::task::Schedule")
    assert by_name(facts, "crate::runtime::task::Schedule").kind == "trait"
    schedule = by_name(facts, "crate::runtime::task::Schedule::schedule")
    assert (schedule.kind, schedule.parent, schedule.doc) == ("method", trait, "Schedule the task.")
    assert "abstract" in schedule.modifiers
    assert "abstract" not in by_name(facts, "crate::runtime::task::Schedule::yield_now").modifiers
    assert by_name(facts, "crate::runtime::task::Schedule::Output").kind == "type"
    assert by_name(facts, "crate::runtime::task::Schedule::PRIORITY").kind == "constant"
    extends = [(r.source, r.target) for r in facts.relations if r.kind == "extends"]
    assert extends == [(trait, "Sync"), (trait, "fmt::Debug"), (trait, "Sized")]
    (call,) = [r for r in calls(facts) if r.target == "schedule"]
    assert (call.receiver, call.receiver_type) == ("self", "Schedule")


def test_modules_inline_and_declared(extract_rust):
    facts = extract_rust(
        """
        mod driver;
        pub mod net {
            //! Networking primitives.
            pub struct TcpStream;
            mod tcp { pub fn connect() {} }
        }
        #[cfg(test)]
        mod tests {
            use super::*;
            #[test]
            fn connects() { net::tcp::connect(); }
        }
        """,
        path="src/lib.rs",
    )
    assert by_name(facts, "crate::driver").kind == "module"
    net = by_name(facts, "crate::net")
    assert (net.kind, net.doc) == ("module", "Networking primitives.")
    assert by_name(facts, "crate::net::TcpStream").parent == facts.symbols.index(net)
    assert by_name(facts, "crate::net::tcp::connect").kind == "function"
    assert "test" in by_name(facts, "crate::tests::connects").modifiers
    (glob,) = [i for i in facts.imports if i.name == "*"]
    assert (glob.module, glob.target) == ("super", "crate")


def test_use_trees_resolve_to_absolute_paths(extract_rust):
    facts = extract_rust(
        """
        use std::collections::{HashMap, hash_map::{self, Entry as MapEntry}};
        use crate::runtime::{self, Handle};
        use super::task::*;
        use self::driver::Driver;
        use super::super::util::Slab;
        use io::Read;
        use ::bytes::Buf;
        use futures::Stream as _;
        extern crate alloc as core_alloc;

        mod driver;
        mod io;
        """,
        path="src/runtime/scheduler/mod.rs",
    )
    got = [(i.module, i.name, i.alias, i.target) for i in facts.imports]
    assert got == [
        ("std::collections", "HashMap", "HashMap", "std::collections::HashMap"),
        ("std::collections", "hash_map", "hash_map", "std::collections::hash_map"),
        ("std::collections::hash_map", "Entry", "MapEntry", "std::collections::hash_map::Entry"),
        ("crate", "runtime", "runtime", "crate::runtime"),
        ("crate::runtime", "Handle", "Handle", "crate::runtime::Handle"),
        ("super::task", "*", "", "crate::runtime::task"),
        ("self::driver", "Driver", "Driver", "crate::runtime::scheduler::driver::Driver"),
        ("super::super::util", "Slab", "Slab", "crate::util::Slab"),
        # `io` is a module declared right here (2018 paths): it is ours, not an extern crate.
        ("io", "Read", "Read", "crate::runtime::scheduler::io::Read"),
        ("::bytes", "Buf", "Buf", "bytes::Buf"),
        ("futures", "Stream", "", "futures::Stream"),  # `as _`: in scope for methods, binds no name
        ("alloc", "", "core_alloc", "alloc"),
    ]
    assert [i.line for i in facts.imports][:3] == [1, 1, 1]


def test_calls_name_the_target_and_the_receiver_as_written(extract_rust):
    facts = extract_rust(
        """
        impl Runtime {
            pub fn block_on(&self) {
                let handle = Self::current();
                helper();
                io::driver::park();
                self.scheduler.run();
                self.enter();
                let v = Vec::<u8>::with_capacity(4);
                items.iter().map(|x| x.len()).collect::<Vec<_>>();
                <T as Default>::default();
                builder
                    .enable_all()
                    .build();
                println!("{}", format_size(v.len()));
            }
        }
        const LIMIT: usize = compute_limit();
        """,
        path="src/runtime.rs",
    )
    block_on = index_of(facts, "crate::runtime::Runtime::block_on")
    got = [(r.source, r.target, r.receiver) for r in calls(facts)]
    assert got == [
        (block_on, "current", "Self"),
        (block_on, "helper", ""),
        (block_on, "park", "io::driver"),
        (block_on, "run", "self.scheduler"),
        (block_on, "enter", "self"),
        (block_on, "with_capacity", "Vec"),
        (block_on, "iter", "items"),
        (block_on, "map", "items.iter()"),
        (block_on, "len", "x"),
        (block_on, "collect", "items.iter().map(|x| x.len())"),
        (block_on, "default", "<T as Default>"),
        (block_on, "enable_all", "builder"),
        (block_on, "build", "builder.enable_all()"),
        # Calls inside macro arguments count too; the macro itself is a reference.
        (block_on, "format_size", ""),
        (block_on, "len", "v"),
        (-1, "compute_limit", ""),
    ]
    assert [r.line for r in calls(facts)][-5:] == [12, 13, 14, 14, 17]  # a chained call: its name's line
    assert [(r.source, r.target, r.receiver) for r in facts.relations if r.kind == "references"] == [
        (block_on, "println", ""),
    ]


def test_receiver_types_read_off_the_syntax(extract_rust):
    facts = extract_rust(
        """
        pub struct Pool { queue: Inject, workers: Vec<Worker> }

        impl Pool {
            fn submit(&self, task: &Task, opts: Options) {
                self.queue.push(task);
                self.spawn();
                task.run();
                opts.validate();
                let timer: time::Sleep = make();
                timer.reset();
                let handle = Handle::new();
                handle.wake();
                let config = Config { size: 1 };
                config.apply();
                let unknown = build();
                unknown.start();
                tokio::spawn(async move { task.poll(); });
            }
        }
        """,
        path="src/pool.rs",
    )
    types = {(r.receiver, r.target): r.receiver_type for r in calls(facts)}
    assert types == {
        ("self.queue", "push"): "Inject",
        ("self", "spawn"): "Pool",
        ("task", "run"): "Task",
        ("opts", "validate"): "Options",
        ("", "make"): "",
        ("timer", "reset"): "time::Sleep",
        ("Handle", "new"): "",
        ("handle", "wake"): "Handle",
        ("config", "apply"): "Config",
        ("", "build"): "",
        ("unknown", "start"): "",
        ("tokio", "spawn"): "",
        ("task", "poll"): "Task",
    }


def test_items_inside_functions_and_cfg_macros_are_found(extract_rust):
    facts = extract_rust(
        """
        cfg_rt! {
            /// Spawns a task.
            pub fn spawn<T>(task: T) -> JoinHandle<T> { spawn_inner(task) }

            impl Runtime {
                pub fn handle(&self) -> &Handle { &self.handle }
            }
        }

        impl_int! { u8 u16 u32 }

        fn outer() {
            use std::mem;
            struct Guard;
            impl Drop for Guard {
                fn drop(&mut self) { mem::forget(1); }
            }
            fn inner() {}
        }
        """,
        path="src/task/spawn.rs",
    )
    spawn = by_name(facts, "crate::task::spawn::spawn")
    assert (spawn.doc, spawn.start_line) == ("Spawns a task.", 3)
    assert by_name(facts, "crate::task::spawn::Runtime::handle").kind == "method"
    spawn_inner = [r for r in calls(facts) if r.target == "spawn_inner"]
    assert [(r.source, r.line) for r in spawn_inner] == [(facts.symbols.index(spawn), 3)]
    outer = index_of(facts, "crate::task::spawn::outer")
    guard = index_of(facts, "crate::task::spawn::outer::Guard")
    assert facts.symbols[guard].parent == outer
    assert by_name(facts, "crate::task::spawn::outer::Guard::drop").parent == guard
    assert by_name(facts, "crate::task::spawn::outer::inner").parent == outer
    assert [(r.source, r.target) for r in facts.relations if r.kind == "implements"] == [(guard, "Drop")]
    assert ("std", "mem", "std::mem") in {(i.module, i.name, i.target) for i in facts.imports}
    # Macro arguments that are not items stay macro arguments.
    assert {r.target for r in facts.relations if r.kind == "references"} == {"cfg_rt", "impl_int"}


def test_a_syntax_error_keeps_everything_outside_it(extract_rust):
    facts = extract_rust(
        """
        struct Before { x: u8 }

        fn broken( {

        /// After survives.
        fn after() { later(); }

        struct Kept;
        """,
        path="src/broken.rs",
    )
    assert facts.partial is True
    names = [s.qualified_name for s in facts.symbols]
    assert names == ["crate::broken::Before", "crate::broken::Before::x", "crate::broken::after", "crate::broken::Kept"]
    assert by_name(facts, "crate::broken::after").doc == "After survives."
    assert [r.target for r in calls(facts)] == ["later"]
    assert extract_rust("fn fine() {}\n").partial is False


def test_items_after_a_long_doc_in_a_macro_body_and_typed_self_receivers(extract_rust):
    doc = "".join(f"    /// Line {n} of a long explanation, with an example or two.\n" for n in range(150))
    facts = extract_rust(
        "cfg_rt! {\n" + doc + "    pub fn spawn() {}\n}\n\n"
        "impl Fut {\n"
        "    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) {}\n"
        "    fn lock_owned(mut self: Arc<Self>) {}\n"
        "    fn new() -> Self { Fut }\n"
        "}\n",
        path="src/task/spawn.rs",
    )
    assert by_name(facts, "crate::task::spawn::spawn").start_line == 152  # tokio's spawn was missing
    assert "static" not in by_name(facts, "crate::task::spawn::Fut::poll").modifiers
    assert "static" not in by_name(facts, "crate::task::spawn::Fut::lock_owned").modifiers
    assert "static" in by_name(facts, "crate::task::spawn::Fut::new").modifiers
