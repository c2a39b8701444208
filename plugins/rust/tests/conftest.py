"""Shared fixtures for the Rust plugin's tests: the installed language, snippets, real corpora.

The fixtures they build on (``codecairn_host``, ``extract_source``, ``corpus``, ``corpus_facts``) come
from codecairn's pytest plugin, ``codecairn.testing``, loaded by the repository's root conftest.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def rust_language(codecairn_host):
    return codecairn_host.languages["rust"]


@pytest.fixture(scope="session")
def extract_rust(extract_source):
    """Extract facts from a Rust snippet as the indexer would, from a root-relative path."""

    def extract(source: str | bytes, path: str = "src/shop/order.rs"):
        return extract_source(source, path, "rust")

    return extract


@pytest.fixture(scope="session")
def tokio(corpus) -> Path:
    """tokio 1.24.2 as published on crates.io (Cargo.toml, src/, tests/ at the root)."""
    return corpus("rust-tokio")


@pytest.fixture(scope="session")
def tokio_facts(corpus_facts) -> dict:
    """Every .rs file of the corpus extracted once per session: root-relative path -> FileFacts."""
    return corpus_facts("rust-tokio", {".rs": "rust"})
