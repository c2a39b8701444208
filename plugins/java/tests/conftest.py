"""Shared fixtures for the Java plugin's tests: the installed language, snippets, the JUnit 4 corpus.

The fixtures they build on (``codecairn_host``, ``extract_source``, ``corpus``, ``corpus_facts``) come
from codecairn's pytest plugin, ``codecairn.testing``, loaded by the repository's root conftest.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def java_language(codecairn_host):
    return codecairn_host.languages["java"]


@pytest.fixture(scope="session")
def extract_java(extract_source):
    """Extract facts from a Java snippet as the indexer would, from a root-relative path."""

    def extract(source: str | bytes, path: str = "src/main/java/com/shop/Example.java"):
        return extract_source(source, path, "java")

    return extract


@pytest.fixture(scope="session")
def junit4(corpus) -> Path:
    """JUnit 4.13.2 (Debian source): 474 Java files."""
    return corpus("java-junit4")


@pytest.fixture(scope="session")
def junit4_facts(corpus_facts) -> dict:
    """Every .java file of the corpus extracted once per session: root-relative path -> FileFacts."""
    return corpus_facts("java-junit4", {".java": "java"})
