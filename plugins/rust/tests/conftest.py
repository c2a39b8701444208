"""Shared fixtures for the Rust plugin's tests: the registered language, parsing, real corpora."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from codecairn_rust.plugin import codecairn_languages
from tree_sitter import Language as TSLanguage
from tree_sitter import Parser


@pytest.fixture(scope="session")
def rust_language():
    (language,) = codecairn_languages()
    return language


@pytest.fixture(scope="session")
def rust_parser(rust_language):
    return Parser(TSLanguage(rust_language.grammar()))


@pytest.fixture(scope="session")
def extract_rust(rust_language, rust_parser):
    """Extract facts from a Rust snippet as the indexer would, from a root-relative path."""

    def extract(source: str | bytes, path: str = "src/shop/order.rs"):
        data = source if isinstance(source, bytes) else textwrap.dedent(source).lstrip("\n").encode()
        return rust_language.extractor(data, rust_parser.parse(data), path)

    return extract


from codecairn.testing import corpus  # noqa: E402  (one way to find real code)


@pytest.fixture(scope="session")
def tokio() -> Path:
    """tokio 1.24.2 as published on crates.io (Cargo.toml, src/, tests/ at the root)."""
    return corpus("rust-tokio")


@pytest.fixture(scope="session")
def tokio_facts(tokio, extract_rust) -> dict:
    """Every .rs file of tokio extracted once per session: root-relative path -> FileFacts."""
    facts = {}
    for file in sorted(tokio.rglob("*.rs")):
        if file.is_file():
            path = file.relative_to(tokio).as_posix()
            facts[path] = extract_rust(file.read_bytes(), path)
    return facts
