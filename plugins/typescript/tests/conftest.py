"""Fixtures for the TypeScript plugin's tests: facts of a snippet, and the real corpora."""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path

import pytest


def _corpus_helper():
    name = "codecairn_typescript_tests_corpus"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("typescript_corpus.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


helper = _corpus_helper()


class Extracted:
    """What the plugin extracted from one file, with lookups a test reads naturally."""

    def __init__(self, facts, grammar_failed: bool = False):
        self.facts = facts
        self.symbols = facts.symbols
        self.grammar_failed = grammar_failed  # did the grammar alone (before repairs) report errors?

    def symbol(self, qualified_name: str):
        found = [s for s in self.symbols if s.qualified_name == qualified_name]
        assert len(found) == 1, (
            f"{qualified_name}: {len(found)} symbols; have {[s.qualified_name for s in self.symbols]}"
        )
        return found[0]

    def names(self, kind: str | None = None) -> list[str]:
        return [s.qualified_name for s in self.symbols if kind is None or s.kind == kind]

    def parent_of(self, qualified_name: str) -> str:
        parent = self.symbol(qualified_name).parent
        return self.symbols[parent].qualified_name if parent >= 0 else ""

    def calls(self) -> list[tuple[str, str, str]]:
        """(caller qualified name or "", receiver, target) per call site."""
        return [
            (self.symbols[r.source].qualified_name if r.source >= 0 else "", r.receiver, r.target)
            for r in self.facts.relations
            if r.kind == "calls"
        ]

    def relation(self, kind: str, target: str):
        found = [r for r in self.facts.relations if r.kind == kind and r.target == target]
        assert found, f"no {kind} {target}; have {self.facts.relations}"
        return found[0]

    def bases(self, qualified_name: str) -> list[tuple[str, str]]:
        index = self.symbols.index(self.symbol(qualified_name))
        return [
            (r.kind, r.target)
            for r in self.facts.relations
            if r.source == index and r.kind in ("extends", "implements")
        ]

    def imports(self) -> dict[str, object]:
        """Local binding -> Import (side-effect / re-export imports under their module)."""
        return {i.alias or f"{i.kind}:{i.module}:{i.name}": i for i in self.facts.imports}


@pytest.fixture
def extract():
    """extract(code, path) -> Extracted: the plugin's facts for ``code`` saved at ``path``."""

    def run(code: str, path: str = "src/app/main.ts") -> Extracted:
        source = textwrap.dedent(code).lstrip("\n").encode()
        tree = helper.parse(path, source)
        return Extracted(helper.language_for(path).extractor(source, tree, path), tree.root_node.has_error)

    return run


@pytest.fixture(scope="session")
def corpus_index(corpus):
    """corpus_index(name) -> {path: (facts, source, tree)}, built once per corpus per session."""
    built = {}

    def get(name: str):
        if name not in built:
            root = corpus(name)
            built[name] = (root, helper.index(root))
        return built[name]

    return get
