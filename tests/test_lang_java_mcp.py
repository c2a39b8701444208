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
from realcode import ask_questions, by_name, listed

pytestmark = pytest.mark.slow

RUNNERS = "org.junit.runners"
BLOCK = f"{RUNNERS}.BlockJUnit4ClassRunner"
PARENT = f"{RUNNERS}.ParentRunner"
MAIN = "src/main/java"


def java_name(path: str, name: str) -> str:
    """A Java symbol's qualified name from its place in an answer: its file's package (the
    path under src/main/java or src/test/java), then the name relative to it."""
    package = path.split("/java/", 1)[1].rsplit("/", 1)[0].replace("/", ".")
    return name if name.startswith(package + ".") else f"{package}.{name}"


def java_places(groups: dict) -> dict[str, dict]:
    """Places by qualified name: ``{"group": resolution or kind, "groups", "line", "path"}``."""
    return {java_name(p["path"], name): p for name, p in by_name(groups).items()}


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
    "outline": ("file_outline", {"path": f"{MAIN}/org/junit/runners/BlockJUnit4ClassRunner.java", "detail": "full"}),
    "wildcard_user": (
        "file_outline",
        {"path": "src/test/java/org/junit/tests/experimental/theories/PotentialAssignmentTest.java", "detail": "full"},
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
    top = listed(a["found"]["results"])[0]
    assert java_name(top["path"], top["name"]) == BLOCK
    assert top["path"] == f"{MAIN}/org/junit/runners/BlockJUnit4ClassRunner.java"

    block = a["block"]
    assert block["kind"] == "class" and block["path"].endswith(".java")
    assert block["signature"] == "class BlockJUnit4ClassRunner extends ParentRunner<FrameworkMethod>"
    assert block["doc"].startswith("Implements the JUnit 4 standard test case class model")
    assert block["modifiers"] == ["public"]
    members = {(name, kind) for kind, names in block["members"].items() for name in names}
    assert {
        ("runChild", "method"),
        ("methodBlock", "method"),
        ("computeTestMethods", "method"),
        ("methodDescriptions", "field"),
        ("RuleCollector", "class"),
    } <= members
    constructors = [
        names["BlockJUnit4ClassRunner"] for names in block["members"].values() if "BlockJUnit4ClassRunner" in names
    ]
    assert constructors == [[73, 83]], "both constructors, each at its own line"
    # `extends ParentRunner<FrameworkMethod>`: the base, found in the same package, without its type argument.
    assert set(java_places(block["bases"])) == {PARENT}
    assert java_places(block["bases"])[PARENT]["groups"] == {"extends"}
    subclasses = set(java_places(block["subclasses"]))
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
    bases = java_places(parent["bases"])
    assert set(bases) == {
        "org.junit.runner.Runner",
        "org.junit.runner.manipulation.Filterable",
        "org.junit.runner.manipulation.Orderable",
    }
    assert bases["org.junit.runner.Runner"]["groups"] == {"extends (import)"}
    assert bases["org.junit.runner.manipulation.Filterable"]["kinds"] == {"implements"}
    assert {BLOCK, f"{RUNNERS}.Suite"} <= set(java_places(parent["subclasses"]))

    # JUnit 3's TestCase: a class extending a class and implementing an interface of its package.
    test_case = a["test_case"]
    assert {(name, b["group"]) for name, b in java_places(test_case["bases"]).items()} == {  # same package
        ("junit.framework.Assert", "extends"),
        ("junit.framework.Test", "implements"),
    }

    # A nested type, and an annotation type.
    assert a["none"]["qualified_name"] == "org.junit.Test.None" and a["none"]["kind"] == "class"
    top_annotation = listed(a["annotations"]["results"])[0]
    assert java_name(top_annotation["path"], top_annotation["name"]) == "org.junit.Test"


def test_callers_and_callees_of_known_methods_say_how_they_were_resolved(a: dict[str, dict]) -> None:
    method_block = a["method_block"]
    assert method_block["qualified_name"] == f"{BLOCK}.methodBlock"
    assert method_block["signature"] == "Statement methodBlock(final FrameworkMethod method)"
    assert method_block["modifiers"] == ["protected"]
    callees = java_places(method_block["callees"])
    # Calls of the class's own methods (exact: no label), ...
    for own in (
        "methodInvoker",
        "possiblyExpectingExceptions",
        "withPotentialTimeout",
        "withBefores",
        "withAfters",
        "withRules",
    ):
        assert callees[f"{BLOCK}.{own}"]["groups"] == {"exact"}, own
    assert callees[f"{BLOCK}.withBefores"]["line"] == 319  # the call's line
    # ... one it inherits from ParentRunner, ...
    assert callees[f"{PARENT}.withInterruptIsolation"]["groups"] == {"inherited"}
    # ... and classes it instantiates (`new Fail(e)`, `new ReflectiveCallable() {...}`) through its imports.
    assert callees["org.junit.internal.runners.statements.Fail"]["groups"] == {"import"}
    assert callees["org.junit.internal.runners.model.ReflectiveCallable"]["groups"] == {"import"}
    # `new ReflectiveCallable() { ... }.run()`: a call on a call's result stays unresolved, and is shown.
    assert "run" in method_block["callees"]["unresolved"]
    # The anonymous class is a member of the method, named after it.
    assert method_block["members"] == {"class": {"$1": 306}}
    callers = java_places(method_block["callers"])
    assert callers[f"{BLOCK}.runChild.$1.evaluate"]["line"] == 100  # from inside an anonymous Statement
    # A subclass in the tests calls `super.methodBlock(...)`.
    custom = "org.junit.runners.CustomBlockJUnit4ClassRunnerTest.CustomBlockJUnit4ClassRunner.methodBlock"
    assert callers[custom]["groups"] == {"inherited"}

    class_block = a["class_block"]
    assert [name.rsplit(".", 1)[1] for name in java_places(class_block["callees"])] == [
        "childrenInvoker",
        "areAllChildrenIgnored",
        "withBeforeClasses",
        "withAfterClasses",
        "withClassRules",
        "withInterruptIsolation",
    ]  # in the order they are called
    assert [(name, c["line"]) for name, c in java_places(class_block["callers"]).items()] == [(f"{PARENT}.run", 412)]

    # getTestClass() is called by subclasses in other packages without a receiver: inherited.
    how = java_places(a["get_test_class"]["callers"])
    assert how["org.junit.experimental.theories.Theories.validateDataPointFields"]["groups"] == {"inherited"}
    assert how[f"{BLOCK}.computeTestMethods"]["groups"] == {"inherited"}


def test_an_overloaded_method_is_ambiguous_until_a_line_picks_one(a: dict[str, dict]) -> None:
    answer = a["assert_equals"]
    assert answer["ambiguous"] is True and "hint" in answer
    candidates = listed(answer["candidates"])
    assert all(java_name(c["path"], c["name"]) == "org.junit.Assert.assertEquals" for c in candidates)
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
    assert at_145["lines"].split("-")[0] == "145"
    at_632 = a["assert_equals_long"]
    assert at_632["signature"] == "void assertEquals(long expected, long actual)"
    assert at_632["lines"].split("-")[0] == "632"


def test_imports_and_exports_of_a_known_file(a: dict[str, dict]) -> None:
    outline = a["outline"]
    assert outline["language"] == "java" and outline["lines"] == 473
    imports = {(i["module"], name): i for i in outline["imports"] for name in i.get("names", ())}
    assert ("java.util.concurrent", "ConcurrentHashMap") in imports
    assert ("org.junit.runners.model", "FrameworkMethod") in imports
    assert ("org.junit.Test", "None") in imports  # a nested type
    static = imports[("org.junit.internal.runners.rules.RuleMemberValidator", "RULE_VALIDATOR")]
    assert static["kind"] == "static" and static["line"] == 4
    exported = {name for e in outline["exports"] for name in e["names"]}
    # public and protected, never private
    assert {"BlockJUnit4ClassRunner", "runChild", "methodBlock", "createTest", "computeTestMethods"} <= exported
    assert (
        not {"validatePublicConstructor", "hasOneConstructor", "getTimeout", "RuleCollector", "CURRENT_RULE_CONTAINER"}
        & exported
    )
    (cls,) = outline["symbols"]["class"]
    assert cls["name"] == "BlockJUnit4ClassRunner" and cls["lines"] == "63-473"
    assert {"runChild", "methodBlock"} <= {m["name"] for m in cls["members"]["method"]}

    # `import static org.junit.Assert.*;` in a test: a wildcard import, whose calls resolve through it.
    wildcard = {(i["module"], name): i for i in a["wildcard_user"]["imports"] for name in i.get("names", ())}
    assert wildcard[("org.junit.Assert", "*")]["kind"] == "static"
    callees = java_places(a["quoted"]["callees"])
    assert callees["org.junit.Assert.assertEquals"]["groups"] == {"import"}
    assert callees["org.junit.experimental.theories.PotentialAssignment.forValue"]["groups"] == {"import"}
