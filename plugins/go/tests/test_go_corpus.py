"""Facts about golang.org/x/tools that anyone can check by reading its source."""

from __future__ import annotations

import pytest

ASTUTIL = "golang.org/x/tools/go/ast/astutil"


@pytest.fixture(scope="module")
def rewrite(xtools, extract_go):
    path = f"{ASTUTIL}/rewrite.go"
    return extract_go((xtools / path).read_bytes(), path)


def symbol(facts, qualified_name):
    (found,) = [s for s in facts.symbols if s.qualified_name == qualified_name]
    return found


def test_astutil_apply_is_a_documented_exported_function(rewrite):
    assert rewrite.module == ASTUTIL
    apply = symbol(rewrite, f"{ASTUTIL}.Apply")
    assert apply.kind == "function"
    assert apply.start_line == 44
    assert apply.signature == "func Apply(root ast.Node, pre, post ApplyFunc) (result ast.Node)"
    assert apply.doc.startswith("Apply traverses a syntax tree recursively")
    assert "Apply" in {e.name for e in rewrite.exports}


def test_cursor_methods_hang_off_cursor_and_know_their_receiver(rewrite):
    cursor = rewrite.symbols.index(symbol(rewrite, f"{ASTUTIL}.Cursor"))
    methods = {s.name for s in rewrite.symbols if s.kind == "method" and s.parent == cursor}
    assert {"Node", "Parent", "Name", "Index", "Replace", "Delete", "InsertAfter", "InsertBefore"} <= methods
    replace = rewrite.symbols.index(symbol(rewrite, f"{ASTUTIL}.Cursor.Replace"))
    inside = {(r.receiver, r.target, r.receiver_type) for r in rewrite.relations if r.source == replace}
    assert ("c", "field", "Cursor") in inside
    assert ("c", "Index", "Cursor") in inside
    assert ("reflect", "ValueOf", "") in inside
    assert symbol(rewrite, f"{ASTUTIL}.ApplyFunc").kind == "type"


def test_rewrite_imports_and_who_imports_astutil(xtools, extract_go, rewrite):
    imports = {i.alias: i.target for i in rewrite.imports}
    assert imports["ast"] == "go/ast"
    assert imports["typeparams"] == "golang.org/x/tools/internal/typeparams"
    # An importer's target is the import path; with this root it equals the package's module.
    path = "golang.org/x/tools/go/types/typeutil/callee.go"
    importer = extract_go((xtools / path).read_bytes(), path)
    (astutil,) = [i for i in importer.imports if i.alias == "astutil"]
    assert astutil.target == rewrite.module
    assert ("astutil", "Unparen") in {(r.receiver, r.target) for r in importer.relations if r.kind == "calls"}


def test_the_whole_module_extracts_and_only_testdata_is_broken(xtools_facts):
    assert len(xtools_facts) > 1000
    symbols = calls = 0
    for facts in xtools_facts.values():
        symbols += len(facts.symbols)
        calls += sum(r.kind == "calls" for r in facts.relations)
        assert all(s.start_line <= s.end_line for s in facts.symbols)
        assert all(-1 <= s.parent < len(facts.symbols) for s in facts.symbols)
    assert symbols > 14_000 and calls > 40_000
    broken = [path for path, facts in xtools_facts.items() if facts.partial]
    assert broken and all("/testdata/" in path for path in broken)
