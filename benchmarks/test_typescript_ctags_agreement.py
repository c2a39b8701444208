"""TypeScript and JavaScript: figures to compare runs (printed, loosely asserted).

CODECAIRN_BENCH_TIER=large (the figures): ts-typescript (the TypeScript 4.8 compiler), ts-effect
(effect 4, modern TypeScript) and js-three (three.js); small (CI): ts-zod, ts-rxjs, js-eslint.

* agreement with universal-ctags — recall of its definitions (path, line, name), same rules as the
  tests' (``tests/ctags_typescript.py``);
* what the pre-parse repairs (``codecairn_typescript.repair``) recover on effect (zod in CI):
  exported declarations found — counted with a regex, independent of the grammar — and partial
  files, with the repairs and without;
* speed: parse only vs parse + extract, one process, CPU seconds (best of 3), on ts-rxjs and
  ts-typescript; and the whole cold extraction of the TypeScript compiler through a 2-process pool
  (read + parse + extract + pickle, worker CPU and wall).

Run: CODECAIRN_BENCH_TIER=large PYTHONPATH=core/src:plugins/typescript/src pytest -s benchmarks/test_typescript_ctags_agreement.py
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

import codecairn_typescript.extractor as extractor_module
import ctags_typescript
import pytest
from measure import corpus, report


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


@pytest.mark.parametrize(
    "small,large", [("ts-zod", "ts-typescript"), ("ts-rxjs", "ts-effect"), ("js-eslint", "js-three")]
)
def test_agreement_with_ctags(small, large, ctags_agreement):
    root = corpus(small, large)
    facts = {rel: file_facts for rel, (file_facts, _, _) in helper.index(root).items()}
    agreement = ctags_agreement(root, facts, ctags_typescript.RULES)
    partial = sum(f.partial for f in facts.values())
    print(f"\n{agreement.report(root.name)}\n  files {len(facts)}, partial {partial}")
    assert agreement.recall >= 0.97


_EXPORTED_DECLARATION = re.compile(
    rb"^export\s+(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:async\s+)?"
    rb"(?:const|let|var|function\*?|class|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)",
    re.M,
)


def _exported_declarations_found(root: Path) -> tuple[int, int, int]:
    """(found, total, partial files): `export <keyword> Name` lines that are codecairn symbols
    (on that line, or inside the one symbol an overloaded function's signatures merge into)."""
    found = total = partial = 0
    for facts, source, _ in helper.index(root).values():
        partial += facts.partial
        at = {(s.start_line, s.name) for s in facts.symbols}
        spans: dict[str, list[tuple[int, int]]] = {}
        for s in facts.symbols:
            spans.setdefault(s.name, []).append((s.start_line, s.end_line))
        for m in _EXPORTED_DECLARATION.finditer(source):
            line = source.count(b"\n", 0, m.start()) + 1
            name = m.group(1).decode()
            total += 1
            found += (line, name) in at or any(a <= line <= b for a, b in spans.get(name, ()))
    return found, total, partial


def test_what_the_repairs_recover(monkeypatch):
    root = corpus("ts-zod", "ts-effect")
    with_repairs = _exported_declarations_found(root)
    monkeypatch.setattr(extractor_module, "repair", lambda source: None)
    without = _exported_declarations_found(root)
    for label, (found, total, partial) in (("without repairs", without), ("with repairs", with_repairs)):
        report(
            f"{root.name} {label}",
            {
                "exported_declarations": total,
                "found": found,
                "lost": total - found,
                "found_percent": 100 * found / total,
                "partial_files": partial,
            },
        )
    assert with_repairs[0] >= without[0] and with_repairs[2] < without[2]


def _parse_and_extract_cpu(root: Path, rounds: int = 3) -> tuple[float, float, int]:
    files = [(rel, (root / rel).read_bytes()) for rel in helper.source_files(root)]
    best_parse = best_both = float("inf")
    for _ in range(rounds):
        t0 = time.process_time()
        trees = [helper.parse(rel, source) for rel, source in files]
        t1 = time.process_time()
        for (rel, source), tree in zip(files, trees, strict=True):
            helper.language_for(rel).extractor(source, tree, rel)
        t2 = time.process_time()
        best_parse, best_both = min(best_parse, t1 - t0), min(best_both, t2 - t0)
    return best_parse, best_both, sum(len(source) for _, source in files)


@pytest.mark.parametrize("small,large", [("ts-rxjs", None), ("ts-rxjs", "ts-typescript")])
def test_parse_only_vs_parse_and_extract(small, large):
    root = corpus(small, large)
    parse, both, size = _parse_and_extract_cpu(root)
    report(
        f"{root.name} parse vs extract (one process, CPU, best of 3)",
        {
            "megabytes": size / 1e6,
            "parse_seconds": parse,
            "parse_and_extract_seconds": both,
            "extract_over_parse": (both - parse) / parse,
        },
    )


def _work(args):
    root, rel = args
    source = (Path(root) / rel).read_bytes()
    return helper.language_for(rel).extractor(source, helper.parse(rel, source), rel)


def test_cold_extraction_on_two_processes():
    root = corpus("ts-zod", "ts-typescript")
    rels = sorted(helper.source_files(root), key=lambda rel: -os.path.getsize(root / rel))  # big first
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with ProcessPoolExecutor(2) as pool:
        facts = list(pool.map(_work, [(str(root), rel) for rel in rels], chunksize=4))
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    report(
        f"{root.name} read+parse+extract+pickle, 2 processes",
        {
            "wall_seconds": wall,
            "worker_cpu_seconds": cpu,
            "per_core_if_idle": cpu / 2,
            "symbols": sum(len(f.symbols) for f in facts),
            "relations": sum(len(f.relations) for f in facts),
            "load_average": os.getloadavg()[0],
        },
    )
