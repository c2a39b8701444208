"""The Python extractor against Python's own ``ast``, and what extraction costs next to parsing.

Correctness: every ``def``, ``async def`` and ``class`` anywhere in every file, matched by
(file, line, name) — recall and precision, target ≥ 99.5 % each. Files ``ast`` cannot parse
(Python 2 test data, lib2to3 fixtures, deliberately bad encodings) are left out and counted.

Cost: parse only vs parse + extract, single process, best of three interleaved rounds.

Large tier: the CPython 3.11 standard library (py-cpython-lib); small tier: rich.
"""

from __future__ import annotations

import ast
import time
import warnings
from pathlib import Path

import tree_sitter_python
from codecairn_python.extractor import extract
from measure import corpus, report
from tree_sitter import Language, Parser

ROOT = corpus("py-rich", "py-cpython-lib")
DEFINITION_KINDS = ("class", "function", "method")


def sources(root: Path) -> list[tuple[str, bytes]]:
    return [(p.relative_to(root).as_posix(), p.read_bytes()) for p in sorted(root.rglob("*.py")) if p.is_file()]


def test_definitions_agree_with_ast() -> None:
    parser = Parser(Language(tree_sitter_python.language()))
    found = missed = extra = unparsable = 0
    examples: list[tuple] = []
    for path, source in sources(ROOT):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(source)
        except (SyntaxError, ValueError):
            unparsable += 1
            continue
        expected = {
            (node.lineno, node.name)
            for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        }
        facts = extract(source, parser.parse(source), path)
        got = {
            (s.start_line, s.name) for s in facts.symbols if s.kind in DEFINITION_KINDS and "lambda" not in s.modifiers
        }
        found += len(expected & got)
        missed += len(expected - got)
        extra += len(got - expected)
        examples += [(path, "missed", *d) for d in sorted(expected - got)[:2]]
        examples += [(path, "extra", *d) for d in sorted(got - expected)[:2]]
    figures = {
        "corpus": ROOT.name,
        "definitions": found + missed,
        "recall": found / max(1, found + missed),
        "precision": found / max(1, found + extra),
        "missed": missed,
        "extra": extra,
        "files_ast_cannot_parse": unparsable,
        "examples": examples[:10],
    }
    report("python definitions vs ast", figures)
    assert figures["recall"] >= 0.995, figures
    assert figures["precision"] >= 0.995, figures


def test_extraction_cost_next_to_parsing(benchmark) -> None:
    files = sources(ROOT)
    parser = Parser(Language(tree_sitter_python.language()))

    def parse_only() -> None:
        for _path, source in files:
            parser.parse(source)

    def parse_and_extract() -> None:
        for path, source in files:
            extract(source, parser.parse(source), path)

    parse_and_extract()  # compiles the query once, as every worker process does
    parse_times, extract_times = [], []
    for _ in range(3):
        for fn, times in ((parse_only, parse_times), (parse_and_extract, extract_times)):
            started = time.process_time()
            fn()
            times.append(time.process_time() - started)
    benchmark.pedantic(parse_and_extract, rounds=1, iterations=1)
    parse, both = min(parse_times), min(extract_times)
    figures = {
        "corpus": ROOT.name,
        "files": len(files),
        "megabytes": sum(len(s) for _, s in files) / 1e6,
        "parse_seconds": parse,
        "parse_and_extract_seconds": both,
        "extraction_over_parse": (both - parse) / parse,
    }
    benchmark.extra_info.update(figures)
    report("python extraction cost", figures)
    assert both > parse
