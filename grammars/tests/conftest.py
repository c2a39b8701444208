"""Shared setup for the grammar-pack tests: load a pack the way the host does (call its
``codecairn_languages`` hook), parse real code with its grammar, run its extractor."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from functools import cache
from pathlib import Path

import pytest
from tree_sitter import Language as TSLanguage
from tree_sitter import Parser

GRAMMARS = Path(__file__).resolve().parent.parent
PACKS = ("c", "cpp", "csharp", "ruby", "php")

# The packs are meant to be pip-installed; in the source tree, make them importable anyway.
for _pack in PACKS:
    if importlib.util.find_spec(f"codecairn_grammar_{_pack}") is None:
        sys.path.insert(0, str(GRAMMARS / _pack / "src"))


@cache
def _language(pack: str):
    (lang,) = importlib.import_module(f"codecairn_grammar_{pack}").codecairn_languages()
    return lang


@cache
def _parser(pack: str) -> Parser:
    return Parser(TSLanguage(_language(pack).grammar()))


class Packs:
    """What the tests do with grammar packs, as the host and a worker process would."""

    @staticmethod
    def language(pack: str):
        """The Language a grammar pack contributes, from its hook, as the host gets it."""
        return _language(pack)

    @staticmethod
    def parser(pack: str) -> Parser:
        return _parser(pack)

    def extract(self, pack: str, code: str | bytes, path: str = "example"):
        source = code.encode() if isinstance(code, str) else code
        return self.language(pack).extractor(source, self.parser(pack).parse(source), path)

    @staticmethod
    def symbols(facts) -> dict:
        """qualified name -> Symbol (the tests use names that occur once)."""
        return {s.qualified_name: s for s in facts.symbols}

    @staticmethod
    def calls(facts) -> set[tuple[str, str, str]]:
        """(caller's qualified name, target, receiver) for every call edge."""
        names = [s.qualified_name for s in facts.symbols]
        return {
            (names[r.source] if r.source >= 0 else "", r.target, r.receiver)
            for r in facts.relations
            if r.kind == "calls"
        }

    @staticmethod
    def bases(facts) -> set[tuple[str, str, str]]:
        """(kind, class's qualified name, base) for every extends/implements edge."""
        names = [s.qualified_name for s in facts.symbols]
        return {(r.kind, names[r.source], r.target) for r in facts.relations if r.kind in ("extends", "implements")}

    @staticmethod
    def imports(facts) -> set[tuple[str, str, str, str]]:
        """(module, name, alias, target) for every import."""
        return {(i.module, i.name, i.alias, i.target) for i in facts.imports}


@pytest.fixture(scope="session")
def packs() -> Packs:
    return Packs()


@pytest.fixture
def tmp_scm(tmp_path):
    def write(text: str) -> Path:
        path = tmp_path / "broken.scm"
        path.write_text(text)
        return path

    return write
