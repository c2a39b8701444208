"""Retrieval quality of semantic search, measured exactly as an agent meets it: the corpus is
indexed by the real pipeline, embedded by the real job, and every question goes through
``find_symbols(query=...)``.

The question sets (``questions/*.json``) hold natural-language questions, each with the qualified
names a developer would accept. Scores: MRR@10, hit@10 (any accepted answer in the top 10) and
recall@10 (share of the accepted answers in the top 10, capped at 10), for the tuning questions
and the held-out ones separately. Duplicate qualified names (overloads) count once.

The index and its vectors live in a cache directory of their own (``~/.cache/codecairn-bench``,
or ``$CODECAIRN_BENCH_CACHE``): a re-run re-indexes nothing and embeds only texts it has not seen.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sysconfig
from pathlib import Path
from typing import NamedTuple

from codecairn.context import ServedContext
from codecairn.workspace import Workspace

HERE = Path(__file__).parent
CACHE = Path(os.environ.get("CODECAIRN_BENCH_CACHE", Path.home() / ".cache" / "codecairn-bench")) / "semantic"
DEPTH = 10  # MRR@10, hit@10, recall@10


class Question(NamedTuple):
    query: str
    accept: frozenset[str]
    held_out: bool


def load_questions(corpus: str) -> list[Question]:
    data = json.loads((HERE / "questions" / f"{corpus}.json").read_text())
    return [Question(q["query"], frozenset(q["accept"]), bool(q.get("held_out"))) for q in data["queries"]]


def stdlib_part(dest: Path, questions: list[Question]) -> Path:
    """The small tier (CI): the running interpreter's own standard library, only the modules and
    packages that hold an accepted answer — the same code, fewer distractors, a minute to embed
    instead of several. Copied, so that the index sees a tree of its own."""
    source = Path(sysconfig.get_paths()["stdlib"])
    tops = sorted({name.split(".")[0] for q in questions for name in q.accept})
    if dest.exists():
        return dest
    work = dest.with_name(dest.name + ".partial")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    for top in tops:
        if (source / top).is_dir():
            shutil.copytree(source / top, work / top, ignore=shutil.ignore_patterns("__pycache__", "test", "tests"))
        elif (source / f"{top}.py").is_file():
            shutil.copy2(source / f"{top}.py", work / f"{top}.py")
    work.rename(dest)
    return dest


def extractors_fingerprint() -> str:
    """A hash of the installed extractors' code: an index made by other extractors is not reused
    (a re-index keeps the facts of unchanged files, whatever the extractor would say now)."""
    import importlib.util

    digest = hashlib.sha256()
    for module in ("codecairn_python.extractor", "codecairn_java.extractor", "codecairn.extractors.common"):
        spec = importlib.util.find_spec(module)
        if spec is not None and spec.origin:
            digest.update(Path(spec.origin).read_bytes())
    return digest.hexdigest()[:12]


async def _seed_vectors(ws: Workspace, cache: Path) -> None:
    """A fresh index of a corpus takes the vectors an index by earlier extractors computed: they
    are keyed by text, so whatever text did not change needs no model run."""
    from codecairn.store import Store
    from codecairn.store.vectors import VectorStore

    if await ws.embeddings.vectors.model() is not None:
        return
    name = ws.store.path.name
    earlier = sorted(cache.parent.glob(f"*/workspaces/{name}"), key=lambda p: p.stat().st_mtime)
    for path in reversed([p for p in earlier if p != ws.store.path]):
        old = await Store.open(path)
        try:
            source = VectorStore(old)
            model = await source.model()
            if model is None:
                continue
            await ws.embeddings.vectors.reset(model)
            await ws.embeddings.vectors.put_vectors(model, await source.all_vectors())
            return
        finally:
            await old.close()


async def open_embedded(root: Path, cache: Path | None = None) -> Workspace:
    """The corpus indexed and embedded (incrementally: only what a previous run did not do)."""
    cache = cache or CACHE / extractors_fingerprint()
    ws = await Workspace.open(root, cache_dir=cache)
    try:
        await ws.index_now()
        await _seed_vectors(ws, cache)
        await ws.embeddings.run_once()
    except BaseException:
        await ws.close()
        raise
    return ws


async def answers(ws: Workspace, questions: list[Question], limit: int = DEPTH) -> list[list[str]]:
    """What find_symbols answers each question: distinct qualified names, best first."""
    out = []
    for q in questions:
        found = await ServedContext(ws).find_symbols(query=q.query, limit=limit * 2)
        out.append(list(dict.fromkeys(m.symbol.qualified_name for m in found.matches))[:limit])
    return out


async def reference_answers(ws: Workspace, questions: list[Question], limit: int = DEPTH) -> list[list[str]]:
    """The reference of issue 18, asked over the same stored vectors: a plain MiniLM ranking (cosine
    only, every row scored exactly) over the symbols that are not tests — no priors, no BM25, no
    fusion with names. What the ranking of find_symbols must beat."""
    import asyncio

    import numpy as np

    catalog = ws.embeddings.catalog
    embedder = ws.host.embedder()
    assert catalog is not None and embedder is not None
    size = catalog.vectors.size
    rows = np.flatnonzero(catalog.vectors.alive[:size] & ~catalog.traits.test[:size])
    symbols = ws.state.symbols.rows
    vectors = await asyncio.to_thread(embedder.embed, [q.query for q in questions])
    out = []
    for vector in vectors:
        cosine = catalog.vectors.similarity(rows, np.asarray(vector, dtype=np.float32))
        best = rows[np.argsort(-cosine, kind="stable")[: limit * 3]]
        names = (symbols[int(catalog.symbol[r])].qualified_name for r in best if int(catalog.symbol[r]) in symbols)
        out.append(list(dict.fromkeys(names))[:limit])
    return out


class Scores(NamedTuple):
    questions: int
    mrr: float
    hit: float
    recall: float

    def line(self, label: str) -> str:
        return (
            f"  {label:<22} {self.questions:>3} questions   MRR@10 {self.mrr:.3f}   hit@10 {self.hit:.3f}"
            f"   recall@10 {self.recall:.3f}"
        )


def first_accepted(ranked: list[str], accept: frozenset[str]) -> int | None:
    return next((pos for pos, name in enumerate(ranked[:DEPTH], 1) if name in accept), None)


def score(rankings: list[list[str]], questions: list[Question]) -> Scores:
    mrr = hit = recall = 0.0
    for ranked, q in zip(rankings, questions, strict=True):
        first = first_accepted(ranked, q.accept)
        mrr += 1 / first if first else 0
        hit += 1 if first else 0
        recall += len(q.accept & set(ranked[:DEPTH])) / min(len(q.accept), DEPTH)
    n = max(1, len(questions))
    return Scores(len(questions), mrr / n, hit / n, recall / n)


class Evaluation(NamedTuple):
    tuning: Scores
    held_out: Scores
    misses: list[tuple[str, list[str]]]  # tuning questions without an accepted answer in the top 10


async def evaluate(ws: Workspace, questions: list[Question], reference: bool = False) -> Evaluation:
    """Scores of find_symbols' answers; with ``reference``, of the plain MiniLM ranking instead."""
    rankings = await (reference_answers if reference else answers)(ws, questions)
    tuning = [(r, q) for r, q in zip(rankings, questions, strict=True) if not q.held_out]
    held = [(r, q) for r, q in zip(rankings, questions, strict=True) if q.held_out]
    misses = [(q.query, r[:3]) for r, q in tuning if first_accepted(r, q.accept) is None]
    return Evaluation(
        score([r for r, _ in tuning], [q for _, q in tuning]),
        score([r for r, _ in held], [q for _, q in held]),
        misses,
    )
