"""Real code nobody here wrote (the small corpora: rxjs 7.8, zod 4, eslint's lib): the facts an
agent would ask for are there, every file parses, and imports point at symbols that exist."""

import pytest


def _symbols(indexed, path):
    facts = indexed[path][0]
    return facts, {s.qualified_name: s for s in facts.symbols}


def test_rxjs_observable_and_subject(corpus_index):
    root, indexed = corpus_index("ts-rxjs")
    facts, symbols = _symbols(indexed, "internal/Observable.ts")
    observable = symbols["internal/Observable.Observable"]
    assert observable.kind == "class" and observable.doc.startswith("A representation of any set of values")
    for method in ("pipe", "subscribe", "forEach", "lift"):
        assert symbols[f"internal/Observable.Observable.{method}"].kind == "method"
    # subscribe has overloads: one symbol from the first signature to the implementation
    assert sum(1 for s in facts.symbols if s.qualified_name == "internal/Observable.Observable.subscribe") == 1

    facts, symbols = _symbols(indexed, "internal/Subject.ts")
    subject = facts.symbols.index(symbols["internal/Subject.Subject"])
    bases = {(r.kind, r.target) for r in facts.relations if r.source == subject and r.kind != "calls"}
    assert bases == {("extends", "Observable"), ("implements", "SubscriptionLike")}
    imported = {i.alias: i.target for i in facts.imports}
    assert imported["Observable"] == "internal/Observable.Observable"  # the class's own qualified name


def test_rxjs_barrel_file_re_exports_operators(corpus_index):
    root, indexed = corpus_index("ts-rxjs")
    exports = {e.alias or e.name: e for e in indexed["operators/index.ts"][0].exports}
    assert exports["map"].kind == "re-export" and exports["map"].source == "internal/operators/map"
    _, symbols = _symbols(indexed, "internal/operators/map.ts")
    assert symbols["internal/operators/map.map"].kind == "function"


def test_every_import_target_of_rxjs_resolves_to_a_symbol_or_module(corpus_index):
    """Relative imports in rxjs name files in the corpus; their targets must exist as qualified
    names (or modules), which is what lets the core resolver follow them."""
    root, indexed = corpus_index("ts-rxjs")
    modules = {facts.module for facts, _, _ in indexed.values()}
    names = {s.qualified_name for facts, _, _ in indexed.values() for s in facts.symbols}
    reexported = {f"{facts.module}.{e.alias or e.name}" for facts, _, _ in indexed.values() for e in facts.exports}
    relative = [i for facts, _, _ in indexed.values() for i in facts.imports if i.module.startswith(".")]
    assert len(relative) > 1000
    unresolved = [i for i in relative if i.target not in names | modules | reexported]
    assert len(unresolved) / len(relative) < 0.01, unresolved[:10]


def test_zod_schema_classes_and_interfaces(corpus_index):
    root, indexed = corpus_index("ts-zod")
    facts, symbols = _symbols(indexed, "v3/types.ts")
    zod_string = symbols["v3/types.ZodString"]
    assert zod_string.kind == "class"
    index = facts.symbols.index(zod_string)
    assert [r.target for r in facts.relations if r.source == index and r.kind == "extends"] == ["ZodType"]
    assert "abstract" in symbols["v3/types.ZodType"].modifiers
    assert symbols["v3/types.ZodString.email"].kind == "method"
    # zod 4 declares interface and constant of the same name (the interface types the constructor)
    _, classic = _symbols(indexed, "v4/classic/schemas.ts")
    assert classic["v4/classic/schemas.ZodString"].kind in ("interface", "constant")
    kinds = {s.kind for s in indexed["v4/classic/schemas.ts"][0].symbols if s.name == "ZodString"}
    assert kinds == {"interface", "constant"}


def test_eslint_commonjs_rules_and_classes(corpus_index):
    root, indexed = corpus_index("js-eslint")
    facts, symbols = _symbols(indexed, "rules/no-console.js")
    create = symbols["rules/no-console.create"]
    assert create.kind == "function" and create.parent == -1
    assert symbols["rules/no-console.create.isConsole"].doc.startswith("Checks whether the given reference")
    assert {e.name for e in facts.exports} == {"meta", "create"}
    assert facts.imports[0].target == "rules/utils/ast-utils"

    facts, symbols = _symbols(indexed, "linter/linter.js")
    assert symbols["linter/linter.Linter"].kind == "class"
    assert symbols["linter/linter.Linter.verify"].kind == "method"
    _, tester = _symbols(indexed, "rule-tester/rule-tester.js")
    assert tester["rule-tester/rule-tester.RuleTester.run"].kind == "method"
    exports = indexed["rule-tester/rule-tester.js"][0].exports
    assert [(e.name, e.kind) for e in exports] == [("RuleTester", "default")]


@pytest.mark.parametrize("name", ["ts-rxjs", "ts-zod", "js-eslint"])
def test_every_file_of_the_small_corpora_parses_completely(corpus_index, name):
    root, indexed = corpus_index(name)
    partial = [path for path, (facts, _, _) in indexed.items() if facts.partial]
    assert partial == []
    assert sum(len(facts.symbols) for facts, _, _ in indexed.values()) > 1000
