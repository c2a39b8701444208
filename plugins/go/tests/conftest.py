"""Shared fixtures for the Go plugin's tests: the installed language, snippets, real corpora.

The fixtures they build on (``codecairn_host``, ``extract_source``, ``corpus``, ``corpus_facts``) come
from codecairn's pytest plugin, ``codecairn.testing``, loaded by the repository's root conftest.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def go_language(codecairn_host):
    return codecairn_host.languages["go"]


@pytest.fixture(scope="session")
def extract_go(extract_source):
    """Extract facts from a Go snippet as the indexer would, from a root-relative path."""

    def extract(source: str | bytes, path: str = "app/server/server.go"):
        return extract_source(source, path, "go")

    return extract


@pytest.fixture(scope="session")
def xtools(corpus) -> Path:
    """golang.org/x/tools 0.5.0, rooted at the GOPATH `src` directory (holds golang.org/x/tools/...)."""
    return corpus("go-xtools")


@pytest.fixture(scope="session")
def xtools_facts(corpus_facts) -> dict:
    """Every .go file of the corpus extracted once per session: root-relative path -> FileFacts."""
    return corpus_facts("go-xtools", {".go": "go"})
