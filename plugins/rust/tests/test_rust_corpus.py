"""Facts about tokio 1.24.2 that anyone can check by reading its source."""

from __future__ import annotations

RUNTIME = "crate::runtime::runtime"


def symbol(facts, qualified_name):
    (found,) = [s for s in facts.symbols if s.qualified_name == qualified_name]
    return found


def test_runtime_is_a_struct_with_block_on(tokio_facts):
    facts = tokio_facts["src/runtime/runtime.rs"]
    assert facts.module == RUNTIME
    runtime = symbol(facts, f"{RUNTIME}::Runtime")
    assert (runtime.kind, runtime.start_line, runtime.doc) == ("struct", 53, "The Tokio runtime.")
    block_on = symbol(facts, f"{RUNTIME}::Runtime::block_on")
    assert (block_on.kind, block_on.start_line) == ("method", 270)
    assert block_on.parent == facts.symbols.index(runtime)
    assert block_on.signature == "pub fn block_on<F: Future>(&self, future: F) -> F::Output"
    assert block_on.doc == "Runs a future to completion on the Tokio runtime. This is the"
    # `new` is written inside `cfg_not_wasi! { ... }`: a macro body, parsed again as items.
    new = symbol(facts, f"{RUNTIME}::Runtime::new")
    assert (new.start_line, new.parent, new.modifiers) == (131, facts.symbols.index(runtime), ("public", "static"))


def test_block_on_calls_and_runtime_traits(tokio_facts):
    facts = tokio_facts["src/runtime/runtime.rs"]
    runtime = facts.symbols.index(symbol(facts, f"{RUNTIME}::Runtime"))
    block_on = facts.symbols.index(symbol(facts, f"{RUNTIME}::Runtime::block_on"))
    inside = [(r.receiver, r.target, r.receiver_type, r.line) for r in facts.relations if r.source == block_on]
    assert ("self", "enter", "Runtime", 279) in inside
    assert ("exec", "block_on", "", 282) in inside
    implements = {(r.source, r.target) for r in facts.relations if r.kind == "implements"}
    assert (runtime, "Drop") in implements


def test_the_runtime_module_re_exports_runtime(tokio_facts):
    lib = tokio_facts["src/lib.rs"]
    assert lib.module == "crate"
    # `pub mod runtime;` inside `cfg_rt! {}`, `pub(crate) mod runtime;` inside `cfg_not_rt! {}`.
    declared = [(s.kind, s.start_line, s.modifiers) for s in lib.symbols if s.qualified_name == "crate::runtime"]
    assert declared == [("module", 496, ("public",)), ("module", 499, ("pub(crate)",))]
    facts = tokio_facts["src/runtime/mod.rs"]
    assert facts.module == "crate::runtime"
    re_exports = {(e.name, e.source) for e in facts.exports if e.kind == "re-export"}
    assert ("Runtime", RUNTIME) in re_exports
    assert ("Builder", "crate::runtime::builder") in re_exports
    imports = {i.alias: i.target for i in facts.imports}
    assert imports["Runtime"] == f"{RUNTIME}::Runtime"


def test_integration_tests_name_the_crate_by_its_package_name(tokio_facts):
    facts = tokio_facts["tests/sync_mpsc.rs"]
    assert facts.module == "crate::tests::sync_mpsc"
    runtime_new = [r for r in facts.relations if r.kind == "calls" and r.target == "new" and r.line == 463]
    assert [r.receiver for r in runtime_new] == ["tokio::runtime::Runtime"]


def test_the_whole_crate_extracts_cleanly(tokio_facts):
    assert len(tokio_facts) > 400
    assert not [path for path, facts in tokio_facts.items() if facts.partial]
    symbols = sum(len(f.symbols) for f in tokio_facts.values())
    calls = sum(r.kind == "calls" for f in tokio_facts.values() for r in f.relations)
    assert symbols > 6_500 and calls > 19_000
    for facts in tokio_facts.values():
        assert all(s.start_line <= s.end_line for s in facts.symbols)
        assert all(-1 <= s.parent < len(facts.symbols) for s in facts.symbols)
        assert all(-1 <= r.source < len(facts.symbols) for r in facts.relations)
