"""JUnit 4.13.2, extracted file by file: facts anyone who knows JUnit can check."""

from __future__ import annotations

import collections


def symbols_named(facts, qualified_name):
    return [s for s in facts.symbols if s.qualified_name == qualified_name]


def test_every_junit_file_extracts_completely(junit4_facts):
    assert len(junit4_facts) >= 470
    assert not [path for path, facts in junit4_facts.items() if facts.partial]
    kinds = collections.Counter(s.kind for facts in junit4_facts.values() for s in facts.symbols)
    assert kinds["package"] == len(junit4_facts)
    assert kinds["method"] > 3000
    assert kinds["class"] > 1000


def test_assert_equals_overloads_are_one_name_with_many_signatures(junit4_facts):
    facts = junit4_facts["src/main/java/org/junit/Assert.java"]
    assert facts.module == "org.junit"
    overloads = symbols_named(facts, "org.junit.Assert.assertEquals")
    signatures = {s.signature for s in overloads}
    assert len(overloads) == len(signatures) >= 10
    assert "void assertEquals(long expected, long actual)" in signatures
    assert "void assertEquals(String message, Object expected, Object actual)" in signatures
    assert all({"public", "static"} <= set(s.modifiers) for s in overloads)
    assert any("@Deprecated" in s.modifiers for s in overloads)  # assertEquals(double, double)
    (assert_class,) = symbols_named(facts, "org.junit.Assert")
    assert assert_class.doc == "A set of assertion methods useful for writing tests."
    assert "assertEquals" in {e.name for e in facts.exports}


def test_block_runner_extends_parent_runner_without_its_type_argument(junit4_facts):
    facts = junit4_facts["src/main/java/org/junit/runners/BlockJUnit4ClassRunner.java"]
    (runner,) = symbols_named(facts, "org.junit.runners.BlockJUnit4ClassRunner")
    bases = [(r.kind, r.target) for r in facts.relations if facts.symbols[r.source] == runner and r.kind != "calls"]
    assert bases == [("extends", "ParentRunner")]  # written `extends ParentRunner<FrameworkMethod>`
    # ParentRunner is in the same package: no import needed, the package scope finds it.
    assert facts.module == junit4_facts["src/main/java/org/junit/runners/ParentRunner.java"].module


def test_run_notifier_anonymous_listeners_are_named_inside_their_methods(junit4_facts):
    facts = junit4_facts["src/main/java/org/junit/runner/notification/RunNotifier.java"]
    (anonymous,) = symbols_named(facts, "org.junit.runner.notification.RunNotifier.fireTestStarted.$1")
    assert (anonymous.kind, anonymous.signature) == ("class", "new SafeNotifier()")
    (notify,) = symbols_named(facts, "org.junit.runner.notification.RunNotifier.fireTestStarted.$1.notifyListener")
    assert notify.signature == "void notifyListener(RunListener each) throws Exception"
    supertypes = [r.target for r in facts.relations if r.kind == "extends" and facts.symbols[r.source] == anonymous]
    assert supertypes == ["SafeNotifier"]
    # Inside it, `each.testStarted(description)` is a call on a RunListener parameter.
    (started,) = [r for r in facts.relations if r.kind == "calls" and facts.symbols[r.source] == notify]
    assert (started.target, started.receiver, started.receiver_type) == ("testStarted", "each", "RunListener")


def test_the_test_annotation_and_its_elements(junit4_facts):
    facts = junit4_facts["src/main/java/org/junit/Test.java"]
    (test,) = symbols_named(facts, "org.junit.Test")
    assert test.kind == "annotation"
    elements = {
        s.name: s.signature for s in facts.symbols if s.parent == facts.symbols.index(test) and s.kind == "method"
    }
    assert elements == {
        "expected": "Class<? extends Throwable> expected() default None.class",
        "timeout": "long timeout() default 0L",
    }


def test_static_imports_of_assert_methods_target_their_qualified_names(junit4_facts):
    targets = {
        i.target for facts in junit4_facts.values() for i in facts.imports if i.kind == "static" and i.name != "*"
    }
    assert "org.junit.Assert.assertEquals" in targets
    # ... and that qualified name is exactly what Assert.java defines.
    assert symbols_named(junit4_facts["src/main/java/org/junit/Assert.java"], "org.junit.Assert.assertEquals")


def test_many_call_receivers_get_a_type_from_their_declaration(junit4_facts):
    calls = [r for facts in junit4_facts.values() for r in facts.relations if r.kind == "calls"]
    typed = [r for r in calls if r.receiver_type]
    assert len(calls) > 10_000
    # Bare calls and this/super calls need no type; of calls on a plain variable, most get one.
    on_variables = [
        r
        for r in calls
        if r.receiver.isidentifier() and r.receiver[0].islower() and r.receiver not in ("this", "super")
    ]
    assert len(typed) / len(on_variables) > 0.9
