"""Fixtures of the semantic benchmarks: the real model, standard-library symbols (the whole
py-cpython-lib corpus on the large tier, the interpreter's own standard library on the small
one), the evaluation queries."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import evaluation  # noqa: E402
from codecairn.semantic import minilm  # noqa: E402
from measure import TIER  # noqa: E402


@pytest.fixture(scope="session")
def embedder() -> minilm.MiniLMEmbedder:
    return minilm.shared_embedder()


@pytest.fixture(scope="session")
def stdlib():
    return evaluation.corpus_symbols(TIER)


@pytest.fixture(scope="session")
def queries():
    return evaluation.load_queries()
