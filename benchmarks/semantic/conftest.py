"""Fixtures of the semantic benchmarks: the real model, and each question set's corpus indexed
and embedded by the real pipeline (CPython's whole Lib and the JDK's java.base on the large tier,
the interpreter's own standard library, cut to the modules that hold answers, on the small one)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import evaluation  # noqa: E402
from codecairn.semantic import minilm  # noqa: E402
from measure import TIER, corpus  # noqa: E402

# question set -> the corpus it was written for (the small tier has only the Python one)
QUESTION_SETS = ["py-cpython-lib", "java-jdk17-base"] if TIER == "large" else ["py-cpython-lib"]


class Corpus(NamedTuple):
    name: str
    root: Path
    questions: list[evaluation.Question]


def corpus_for(name: str) -> Corpus:
    questions = evaluation.load_questions(name)
    if TIER == "large":
        return Corpus(name, corpus(name, name), questions)
    part = evaluation.stdlib_part(
        evaluation.CACHE / "stdlib-part" / f"py{sys.version_info[0]}{sys.version_info[1]}", questions
    )
    return Corpus(f"{name} (small tier: {part.name})", part, questions)


@pytest.fixture(scope="session")
def embedder() -> minilm.MiniLMEmbedder:
    return minilm.shared_embedder()


@pytest.fixture(scope="session")
def embedded_corpora():
    """Question set -> (corpus, its workspace indexed and embedded), opened once per session."""
    loop = asyncio.new_event_loop()
    opened: dict[str, tuple[Corpus, object]] = {}

    def get(name: str):
        if name not in opened:
            c = corpus_for(name)
            opened[name] = (c, loop.run_until_complete(evaluation.open_embedded(c.root)))
        return opened[name]

    get.loop = loop  # type: ignore[attr-defined]
    yield get
    for _, ws in opened.values():
        loop.run_until_complete(ws.close())
    loop.close()
