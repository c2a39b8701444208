"""An agent finds its way around Java code nobody here wrote: JUnit 4.13.2 (the small java-junit4
corpus, Debian's source: ~475 files, main and test sources), indexed whole by `codecairn serve` and
questioned over MCP with the official client, once for the whole module. A known class, its
members, its base class and its subclasses; callers and callees of a known method with how each
was resolved; an overloaded method (`Assert.assertEquals`, a dozen signatures under one name);
a file's imports (static and wildcard ones too) and its exports.

Qualified names are Java's own: `org.junit.runners.BlockJUnit4ClassRunner.methodBlock`, nested
types `org.junit.Test.None`, anonymous classes `<enclosing member>.$1`.
"""

from __future__ import annotations

import anyio
import pytest
from realcode import ask_questions, qualified

pytestmark = pytest.mark.slow

RUNNERS = "org.junit.runners"
BLOCK = f"{RUNNERS}.BlockJUnit4ClassRunner"
PARENT = f"{RUNNERS}.ParentRunner"
MAIN = "src/main/java"


QUESTIONS = {
    "found": ("find_symbols", {"name": "BlockJUnit4ClassRunner", "kinds": ["class"]}),
    "block": ("get_symbol", {"name": BLOCK}),
    "parent": ("get_symbol", {"name": PARENT}),
    "method_block": ("get_symbol", {"name": "BlockJUnit4ClassRunner.methodBlock"}),  # a partial name is enough
    "class_block": ("get_symbol", {"name": "ParentRunner.classBlock"}),
    "get_test_class": ("get_symbol", {"name": f"{PARENT}.getTestClass"}),
    "assert_equals": ("get_symbol", {"name": "org.junit.Assert.assertEquals"}),
    "assert_equals_at_145": ("get_symbol", {"name": "org.junit.Assert.assertEquals", "line": 145}),
    "assert_equals_long": (
        "get_symbol",
        {"name": "Assert.assertEquals", "path": f"{MAIN}/org/junit/Assert.java", "line": 633},
    ),  # inside its body
    "test_case": ("get_symbol", {"name": "junit.framework.TestCase"}),
    "none": ("get_symbol", {"name": "org.junit.Test.None"}),
    "annotations": ("find_symbols", {"name": "Test", "kinds": ["annotation"]}),
    "outline": ("file_outline", {"path": f"{MAIN}/org/junit/runners/BlockJUnit4ClassRunner.java"}),
    "wildcard_user": (
        "file_outline",
        {"path": "src/test/java/org/junit/tests/experimental/theories/PotentialAssignmentTest.java"},
    ),
    "quoted": ("get_symbol", {"name": "PotentialAssignmentTest.shouldUseQuotedValueInDescription"}),
    "stats": ("stats", {}),
}


@pytest.fixture(scope="module")
def a(corpus, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    cache = tmp_path_factory.mktemp("java-cache")
    return anyio.run(ask_questions, corpus("java-junit4"), cache, QUESTIONS)


def test_the_whole_of_junit_is_indexed(a: dict[str, dict]) -> None:
    assert a["index"]["parsed"] == a["index"]["files"] >= 470 and "failed" not in a["index"]
    assert a["stats"]["languages"]["java"] >= 470
    assert "partial_files" not in a["stats"]
    resolution = a["stats"]["call_resolution"]
    assert resolution["import"] > 0 and resolution["exact"] > 0 and resolution["inherited"] > 0
    assert a["stats"]["unresolved_calls"] > 0  # calls into the JDK (not indexed) stay unresolved


def test_a_known_class_its_members_base_and_subclasses(a: dict[str, dict]) -> None:
    top = a["found"]["results"][0]
    assert top["qualified_name"] == BLOCK
    assert top["path"] == f"{MAIN}/org/junit/runners/BlockJUnit4ClassRunner.java"

    block = a["block"]
    assert block["kind"] == "class" and block["language"] == "java"
    assert block["signature"] == "class BlockJUnit4ClassRunner extends ParentRunner<FrameworkMethod>"
    assert block["doc"].startswith("Implements the JUnit 4 standard test case class model")
    assert block["modifiers"] == ["public"]
    members = {(m["name"], m["kind"]) for m in block["members"]}
    assert {
        ("runChild", "method"),
        ("methodBlock", "method"),
        ("computeTestMethods", "method"),
        ("methodDescriptions", "field"),
        ("RuleCollector", "class"),
    } <= members
    assert [m["line"] for m in block["members"] if m["name"] == "BlockJUnit4ClassRunner"] == [73, 83], (
        "both constructors, each at its own line"
    )
    # `extends ParentRunner<FrameworkMethod>`: the base, found in the same package, without its type argument.
    assert qualified(block["bases"]) == {PARENT}
    assert "resolution" not in block["bases"][0]
    subclasses = qualified(block["subclasses"])
    assert {
        "org.junit.experimental.theories.Theories",
        f"{RUNNERS}.JUnit4",
        f"{RUNNERS}.parameterized.BlockJUnit4ClassRunnerWithParameters",
    } <= subclasses  # other packages
    assert (
        "org.junit.runners.CustomBlockJUnit4ClassRunnerTest.CustomBlockJUnit4ClassRunner" in subclasses
    )  # nested, in a test

    parent = a["parent"]
    assert {"public", "abstract"} <= set(parent["modifiers"])
    bases = {b["qualified_name"]: b for b in parent["bases"]}
    assert set(bases) == {
        "org.junit.runner.Runner",
        "org.junit.runner.manipulation.Filterable",
        "org.junit.runner.manipulation.Orderable",
    }
    assert bases["org.junit.runner.Runner"]["resolution"] == "import"
    assert bases["org.junit.runner.manipulation.Filterable"]["kind"] == "implements"
    assert {BLOCK, f"{RUNNERS}.Suite"} <= qualified(parent["subclasses"])

    # JUnit 3's TestCase: a class extending a class and implementing an interface of its package.
    test_case = a["test_case"]
    assert {(b["qualified_name"], b.get("kind", "extends")) for b in test_case["bases"]} == {
        ("junit.framework.Assert", "extends"),
        ("junit.framework.Test", "implements"),
    }

    # A nested type, and an annotation type.
    assert a["none"]["parent"] == "org.junit.Test" and a["none"]["kind"] == "class"
    assert a["annotations"]["results"][0]["qualified_name"] == "org.junit.Test"


def test_callers_and_callees_of_known_methods_say_how_they_were_resolved(a: dict[str, dict]) -> None:
    method_block = a["method_block"]
    assert method_block["qualified_name"] == f"{BLOCK}.methodBlock"
    assert method_block["signature"] == "Statement methodBlock(final FrameworkMethod method)"
    assert method_block["modifiers"] == ["protected"]
    callees = {c["qualified_name"]: c for c in method_block["callees"] if "qualified_name" in c}
    # Calls of the class's own methods (exact: no label), ...
    for own in (
        "methodInvoker",
        "possiblyExpectingExceptions",
        "withPotentialTimeout",
        "withBefores",
        "withAfters",
        "withRules",
    ):
        assert "resolution" not in callees[f"{BLOCK}.{own}"], own
    assert callees[f"{BLOCK}.withBefores"]["call_line"] == 319
    # ... one it inherits from ParentRunner, ...
    assert callees[f"{PARENT}.withInterruptIsolation"]["resolution"] == "inherited"
    # ... and classes it instantiates (`new Fail(e)`, `new ReflectiveCallable() {...}`) through its imports.
    assert callees["org.junit.internal.runners.statements.Fail"]["resolution"] == "import"
    assert callees["org.junit.internal.runners.model.ReflectiveCallable"]["resolution"] == "import"
    # `new ReflectiveCallable() { ... }.run()`: a call on a call's result stays unresolved, and is shown.
    assert "run" in method_block["unresolved_callee_names"]
    # The anonymous class is a member of the method, named after it.
    assert method_block["members"] == [{"name": "$1", "kind": "class", "line": 306}]
    callers = {c["caller"]: c for c in method_block["callers"]}
    assert callers[f"{BLOCK}.runChild.$1.evaluate"]["line"] == 100  # from inside an anonymous Statement
    # A subclass in the tests calls `super.methodBlock(...)`.
    custom = "org.junit.runners.CustomBlockJUnit4ClassRunnerTest.CustomBlockJUnit4ClassRunner.methodBlock"
    assert callers[custom]["resolution"] == "inherited"

    class_block = a["class_block"]
    assert [c["qualified_name"].rsplit(".", 1)[1] for c in class_block["callees"]] == [
        "childrenInvoker",
        "areAllChildrenIgnored",
        "withBeforeClasses",
        "withAfterClasses",
        "withClassRules",
        "withInterruptIsolation",
    ]  # in the order they are called
    assert [(c["caller"], c["line"]) for c in class_block["callers"]] == [(f"{PARENT}.run", 412)]

    # getTestClass() is called by subclasses in other packages without a receiver: inherited.
    how = {c["caller"]: c.get("resolution") for c in a["get_test_class"]["callers"]}
    assert how["org.junit.experimental.theories.Theories.validateDataPointFields"] == "inherited"
    assert how[f"{BLOCK}.computeTestMethods"] == "inherited"


def test_an_overloaded_method_is_ambiguous_until_a_line_picks_one(a: dict[str, dict]) -> None:
    answer = a["assert_equals"]
    assert answer["ambiguous"] is True and "hint" in answer
    candidates = answer["candidates"]
    assert all(c["qualified_name"] == "org.junit.Assert.assertEquals" for c in candidates)
    signatures = [c["signature"] for c in candidates]
    assert len(signatures) == len(set(signatures)) >= 10, "each overload shows its own parameters"
    assert {
        "void assertEquals(Object expected, Object actual)",
        "void assertEquals(long expected, long actual)",
        "void assertEquals(String message, double expected, double actual, double delta)",
    } <= set(signatures)

    at_145 = a["assert_equals_at_145"]
    assert "ambiguous" not in at_145
    assert at_145["signature"] == "void assertEquals(Object expected, Object actual)"
    assert at_145["start_line"] == 145
    at_632 = a["assert_equals_long"]
    assert at_632["signature"] == "void assertEquals(long expected, long actual)"
    assert at_632["start_line"] == 632


def test_imports_and_exports_of_a_known_file(a: dict[str, dict]) -> None:
    outline = a["outline"]
    assert outline["language"] == "java" and outline["lines"] == 473
    imports = {(i["module"], i["name"]): i for i in outline["imports"]}
    assert ("java.util.concurrent", "ConcurrentHashMap") in imports
    assert ("org.junit.runners.model", "FrameworkMethod") in imports
    assert ("org.junit.Test", "None") in imports  # a nested type
    static = imports[("org.junit.internal.runners.rules.RuleMemberValidator", "RULE_VALIDATOR")]
    assert static["kind"] == "static" and static["line"] == 4
    exported = {e["name"] for e in outline["exports"]}
    # public and protected, never private
    assert {"BlockJUnit4ClassRunner", "runChild", "methodBlock", "createTest", "computeTestMethods"} <= exported
    assert (
        not {"validatePublicConstructor", "hasOneConstructor", "getTimeout", "RuleCollector", "CURRENT_RULE_CONTAINER"}
        & exported
    )
    (cls,) = [s for s in outline["symbols"] if s["kind"] == "class"]
    assert cls["name"] == "BlockJUnit4ClassRunner" and cls["lines"] == "63-473"
    assert {"runChild", "methodBlock"} <= {c["name"] for c in cls["children"]}

    # `import static org.junit.Assert.*;` in a test: a wildcard import, whose calls resolve through it.
    wildcard = {(i["module"], i["name"]): i for i in a["wildcard_user"]["imports"]}
    assert wildcard[("org.junit.Assert", "*")]["kind"] == "static"
    callees = {c["qualified_name"]: c for c in a["quoted"]["callees"] if "qualified_name" in c}
    assert callees["org.junit.Assert.assertEquals"]["resolution"] == "import"
    assert callees["org.junit.experimental.theories.PotentialAssignment.forValue"]["resolution"] == "import"
