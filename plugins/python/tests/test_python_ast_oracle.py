"""Python's own ``ast`` is the oracle: every def, async def and class in real third-party code
must come out of the extractor at the same line with the same name, and nothing else may.

Runs over the small-tier corpora (rich, requests). Fetch them with
``scripts/test-prerequisites.sh``; the corpora root is
``$CODECAIRN_CORPORA`` (default ``~/.cache/codecairn-corpora``).
"""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import pytest
import tree_sitter_python
from codecairn_python.extractor import extract
from tree_sitter import Language, Parser

PARSER = Parser(Language(tree_sitter_python.language()))
DEFINITION_KINDS = ("class", "function", "method")


def compare_with_ast(root: Path) -> dict:
    """Definitions per (file, line, name): what ast finds vs what the extractor finds."""
    found = missed = extra = unparsable = 0
    examples = []
    for path in sorted(root.rglob("*.py")):
        if not path.is_file():
            continue
        source = path.read_bytes()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # invalid escape sequences in old code
                tree = ast.parse(source)
        except (SyntaxError, ValueError):
            unparsable += 1  # Python 2 files, deliberately broken test data: ast has no answer
            continue
        expected = {
            (node.lineno, node.name)
            for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        }
        facts = extract(source, PARSER.parse(source), path.relative_to(root).as_posix())
        got = {
            (s.start_line, s.name) for s in facts.symbols if s.kind in DEFINITION_KINDS and "lambda" not in s.modifiers
        }
        found += len(expected & got)
        missed += len(expected - got)
        extra += len(got - expected)
        examples += [(path.name, "missed", *d) for d in sorted(expected - got)[:2]]
        examples += [(path.name, "extra", *d) for d in sorted(got - expected)[:2]]
    return {
        "recall": found / max(1, found + missed),
        "precision": found / max(1, found + extra),
        "definitions": found + missed,
        "unparsable": unparsable,
        "examples": examples[:20],
    }


@pytest.mark.parametrize("name", ["py-rich", "py-requests"])
def test_every_definition_ast_sees_is_found_and_nothing_else(corpus, name):
    result = compare_with_ast(corpus(name))
    assert result["definitions"] > 500, result
    assert result["recall"] == 1.0, result["examples"]
    assert result["precision"] == 1.0, result["examples"]
