"""TypeScript/JavaScript on the large corpora (not in the default test run: needs the large tier,
``bash /work/shared/corpora/get-corpora.sh --tier large``). Prints figures to compare runs:

* agreement with universal-ctags on ts-typescript (the TypeScript 4.8 compiler), ts-effect
  (effect 4, modern TypeScript) and js-three (three.js) — same rules as the plugin's own test;
* what the pre-parse repairs (``codecairn_typescript.repair``) recover on ts-effect: exported
  declarations found (counted with a regex, independent of the grammar) and partial files, with
  the repairs and without;
* speed: parse only vs parse + extract, one process, CPU seconds (best of 3), on ts-rxjs and
  ts-typescript; and the whole ts-typescript cold extraction through a 2-process pool.

Run: PYTHONPATH=core/src:plugins/typescript/src pytest -s benchmarks/test_typescript_ctags_agreement.py
"""

from __future__ import annotations

import importlib.util
import os
import re
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

import codecairn_typescript.extractor as extractor_module


def _helper():
    name = "codecairn_typescript_tests_corpus"
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[1] / "plugins/typescript/tests/typescript_corpus.py"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


helper = _helper()


@pytest.mark.parametrize("name", ["ts-typescript", "ts-effect", "js-three"])
def test_large_corpus_agreement_with_ctags(name):
    root = helper.corpus(name, tier="large")
    indexed = helper.index(root)
    agreement = helper.agreement(root, indexed)
    partial = sum(facts.partial for facts, _, _ in indexed.values())
    print(f"\n{agreement.report(name)}\n  files {len(indexed)}, partial {partial}")
    assert agreement.recall >= 0.97


_EXPORTED_DECLARATION = re.compile(
    rb"^export\s+(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:async\s+)?"
    rb"(?:const|let|var|function\*?|class|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)",
    re.M,
)


def _exported_declarations_found(root: Path) -> tuple[int, int, int]:
    """(found, total, partial files): `export <keyword> Name` lines that are codecairn symbols
    (on that line, or inside one overload-merged symbol of that name)."""
    found = total = partial = 0
    for rel, (facts, source, _) in helper.index(root).items():
        partial += facts.partial
        at = {(s.start_line, s.name) for s in facts.symbols}
        spans = {}
        for s in facts.symbols:
            spans.setdefault(s.name, []).append((s.start_line, s.end_line))
        for m in _EXPORTED_DECLARATION.finditer(source):
            line = source.count(b"\n", 0, m.start()) + 1
            name = m.group(1).decode()
            total += 1
            found += (line, name) in at or any(a <= line <= b for a, b in spans.get(name, ()))
    return found, total, partial


def test_what_the_repairs_recover_on_effect(monkeypatch):
    root = helper.corpus("ts-effect", tier="large")
    with_repairs = _exported_declarations_found(root)
    monkeypatch.setattr(extractor_module, "repair", lambda source: None)
    without = _exported_declarations_found(root)
    for label, (found, total, partial) in (("without repairs", without), ("with repairs", with_repairs)):
        print(f"\nts-effect {label}: exported declarations found {found}/{total} ({100 * found / total:.1f}%), "
              f"lost {total - found}; partial files {partial}")
    assert with_repairs[0] > without[0]


def _files(root: Path):
    out = []
    for rel in helper.source_files(root):
        out.append((rel, (root / rel).read_bytes()))
    return out


def _parse_and_extract_cpu(root: Path, rounds: int = 3) -> tuple[float, float, int]:
    files = _files(root)
    best_parse = best_both = float("inf")
    for _ in range(rounds):
        t0 = time.process_time()
        trees = [helper.parse(rel, source) for rel, source in files]
        t1 = time.process_time()
        for (rel, source), tree in zip(files, trees):
            helper.language_for(rel).extractor(source, tree, rel)
        t2 = time.process_time()
        best_parse, best_both = min(best_parse, t1 - t0), min(best_both, t2 - t0)
    return best_parse, best_both, sum(len(source) for _, source in files)


@pytest.mark.parametrize("name", ["ts-rxjs", "ts-typescript"])
def test_parse_only_vs_parse_and_extract(name):
    root = helper.corpus(name, tier="small" if name == "ts-rxjs" else "large")
    parse, both, size = _parse_and_extract_cpu(root)
    print(f"\n{name} ({size / 1e6:.1f} MB): parse only {parse:.2f} s, parse + extract {both:.2f} s CPU "
          f"(extraction {both - parse:.2f} s = {(both - parse) / parse:.2f}x parsing), one process, best of 3")


def _work(args):
    root, rel = args
    source = (Path(root) / rel).read_bytes()
    return helper.language_for(rel).extractor(source, helper.parse(rel, source), rel)


def test_cold_extraction_of_the_typescript_compiler_on_two_processes():
    root = helper.corpus("ts-typescript", tier="large")
    rels = sorted(helper.source_files(root), key=lambda rel: -os.path.getsize(root / rel))  # big first
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with ProcessPoolExecutor(2) as pool:
        facts = list(pool.map(_work, [(str(root), rel) for rel in rels], chunksize=4))
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    symbols = sum(len(f.symbols) for f in facts)
    relations = sum(len(f.relations) for f in facts)
    print(f"\nts-typescript cold read+parse+extract+pickle, 2 processes: {wall:.2f} s wall, {cpu:.2f} s worker CPU "
          f"({cpu / 2:.2f} s per core if the cores were free); {symbols} symbols, {relations} relations")
