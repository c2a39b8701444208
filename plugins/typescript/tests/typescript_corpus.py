"""Shared by the TypeScript plugin's corpus tests and benchmarks: index a corpus with the plugin's
own languages, keeping each file's source and the syntax tree its facts came from.

Not a test module itself: tests and benchmarks load it by path and register it in ``sys.modules``
(pytest runs with ``--import-mode=importlib``, where sibling modules are not importable).
"""

from __future__ import annotations

import os
from pathlib import Path

from codecairn_typescript.extractor import repaired_tree
from codecairn_typescript.plugin import codecairn_languages
from tree_sitter import Language as TSLanguage
from tree_sitter import Parser

_LANGUAGES = {ext: lang for lang in codecairn_languages() for ext in lang.extensions}
_PARSERS: dict[str, Parser] = {}


def language_for(path: str):
    return _LANGUAGES.get(os.path.splitext(path)[1])


def parse(path: str, source: bytes):
    lang = language_for(path)
    parser = _PARSERS.get(lang.name)
    if parser is None:
        parser = _PARSERS[lang.name] = Parser(TSLanguage(lang.grammar()))
    return parser.parse(source)


def source_files(root: Path) -> list[str]:
    """Root-relative paths of every file one of the plugin's languages claims, sorted."""
    found = []
    for directory, dirs, files in os.walk(root, followlinks=True):
        dirs.sort()
        for name in sorted(files):
            if language_for(name) is not None:
                found.append(os.path.relpath(os.path.join(directory, name), root).replace(os.sep, "/"))
    return found


def index(root: Path) -> dict[str, tuple]:
    """rel path -> (facts, source, tree the facts came from) for every file of the corpus."""
    out = {}
    for rel in source_files(root):
        source = (root / rel).read_bytes()
        tree = parse(rel, source)
        out[rel] = (language_for(rel).extractor(source, tree, rel), source, repaired_tree(source, tree, rel))
    return out
