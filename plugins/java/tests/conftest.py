"""Shared fixtures for the Java plugin's tests: the registered language, parsing, the JUnit 4 corpus."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from codecairn_java.plugin import codecairn_languages
from tree_sitter import Language as TSLanguage
from tree_sitter import Parser


@pytest.fixture(scope="session")
def java_language():
    (language,) = codecairn_languages()
    return language


@pytest.fixture(scope="session")
def java_parser(java_language):
    return Parser(TSLanguage(java_language.grammar()))


@pytest.fixture(scope="session")
def extract_java(java_language, java_parser):
    """Extract facts from a Java snippet as the indexer would, from a root-relative path."""

    def extract(source: str | bytes, path: str = "src/main/java/com/shop/Example.java"):
        data = source if isinstance(source, bytes) else textwrap.dedent(source).lstrip("\n").encode()
        return java_language.extractor(data, java_parser.parse(data), path)

    return extract


from codecairn.testing import corpus  # noqa: E402  (one way to find real code)


@pytest.fixture(scope="session")
def junit4() -> Path:
    """JUnit 4.13.2 (Debian source): 474 Java files."""
    return corpus("java-junit4")


@pytest.fixture(scope="session")
def junit4_facts(junit4, extract_java) -> dict:
    """Every .java file of JUnit 4 extracted once per session: root-relative path -> FileFacts."""
    return {
        file.relative_to(junit4).as_posix(): extract_java(file.read_bytes(), file.relative_to(junit4).as_posix())
        for file in sorted(junit4.rglob("*.java"))
        if file.is_file()
    }
