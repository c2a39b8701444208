"""Shared setup for the grammar-pack tests: the packs as the host loads them (through their
``codecairn_languages`` hooks), real code parsed with their grammars and run through their
extractors — by the fixtures of codecairn's pytest plugin (``codecairn.testing``)."""

from __future__ import annotations

from pathlib import Path

import pytest


class Packs:
    """What the tests do with grammar packs, as the host and a worker process would."""

    def __init__(self, extract_source) -> None:
        self._extract = extract_source

    def language(self, pack: str):
        """The Language a grammar pack contributes, from its hook, as the host gets it."""
        return self._extract.language("", pack)

    def extract(self, pack: str, code: str | bytes, path: str = "example"):
        source = code.encode() if isinstance(code, str) else code  # as written: no dedent
        return self._extract(source, path, pack)

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
def packs(extract_source) -> Packs:
    return Packs(extract_source)


@pytest.fixture
def tmp_scm(tmp_path):
    def write(text: str) -> Path:
        path = tmp_path / "broken.scm"
        path.write_text(text)
        return path

    return write
