"""Do we find the definitions universal-ctags finds? One real corpus per language, every file
extracted by the installed language, ctags run on the same tree.

ctags is the tool a user would otherwise reach for, so every definition it reports that we miss is
a question an agent cannot answer. How tags and symbols match, and which misses are by design, are
each language's rules (ctags_rules.py, ctags_typescript.py); the floors are here. Figures are
printed kind by kind (``pytest -s``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import ctags_rules
import ctags_typescript
import pytest
from codecairn.testing import CtagsRules


@dataclass(frozen=True)
class Case:
    corpus: str
    rules: CtagsRules
    files: Mapping[str, str]  # extension -> the language the corpus's files are extracted as
    min_compared: int = 0  # more ctags definitions than this must be compared
    recall: float = 0.0  # of all of them, found at least this share
    recall_per_kind: float = 0.0  # ... and of each ctags kind (a whole kind must not go missing)


CASES = [
    # golang.org/x/tools 0.5.0
    Case("go-xtools", ctags_rules.GO, {".go": "go"}, min_compared=14_000, recall=0.97),
    # tokio 1.24.2
    Case("rust-tokio", ctags_rules.RUST, {".rs": "rust"}, min_compared=5_000, recall=0.97),
    # JUnit 4.13.2: kind by kind too, so a whole kind going missing cannot hide behind the methods.
    Case("java-junit4", ctags_rules.JAVA, {".java": "java"}, min_compared=6_000, recall=0.97, recall_per_kind=0.97),
    # rxjs 7.8 (TypeScript) and eslint 10 (CommonJS JavaScript)
    Case("ts-rxjs", ctags_typescript.RULES, ctags_typescript.FILES, min_compared=800, recall=0.97),
    Case("js-eslint", ctags_typescript.RULES, ctags_typescript.FILES, min_compared=800, recall=0.97),
    # The grammar packs: each ctags kind they also produce, at least 90% found.
    Case("c-zlib", ctags_rules.C, {".c": "c", ".h": "c"}, recall_per_kind=0.90),
    # fmt's headers are .h: parsed with the C++ pack here, as a C++ project configures it (by
    # default .h belongs to the C pack; ctags maps .h to C++).
    Case("cpp-fmt", ctags_rules.CPP, {".cc": "cpp", ".cpp": "cpp", ".h": "cpp"}, recall_per_kind=0.90),
    Case("ruby-rack", ctags_rules.RUBY, {".rb": "ruby"}, recall_per_kind=0.90),
    Case("php-monolog", ctags_rules.PHP, {".php": "php"}, recall_per_kind=0.90),
]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.corpus)
def test_we_find_the_definitions_ctags_finds(case, corpus, corpus_facts, ctags_agreement):
    agreement = ctags_agreement(corpus(case.corpus), corpus_facts(case.corpus, case.files), case.rules)
    report = agreement.report(case.corpus)
    print(f"\n{report}")
    misses = [f"{t.path}:{t.line} {t.kind} {t.name}" for t in agreement.misses[:20]]
    assert sum(agreement.total.values()) > case.min_compared, report
    assert agreement.recall >= case.recall, f"{report}\nfirst misses: {misses}"
    low = {
        kind: agreement.recall_of(kind) for kind in agreement.total if agreement.recall_of(kind) < case.recall_per_kind
    }
    assert not low, f"{report}\nkinds below {case.recall_per_kind}: {low}\nfirst misses: {misses}"
