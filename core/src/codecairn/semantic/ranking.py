"""One natural-language query against the semantic index: vectors, BM25 and priors together.

Candidates come from both rankings — the rows nearest the query's vector (priors included, so a
public function slightly further away is still in) and the rows BM25 scores best — and each is
scored as

    cosine + prior (- the test penalty, unless tests are wanted) + LEXICAL_WEIGHT × BM25 / best BM25

Scores on one scale, not reciprocal ranks: a cosine of 0.62 against 0.61 is a near tie, which
ranks cannot tell from 0.62 against 0.35. BM25 is divided by the query's best BM25 score so that
its weight means the same for a two-word and a six-word query. Weights chosen on the tuning
questions of ``benchmarks/semantic``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from codecairn.semantic.catalog import SemanticIndex, priors_of

LEXICAL_WEIGHT = 0.15
VECTOR_CANDIDATES = 200
LEXICAL_CANDIDATES = 200
# Accepted answers in the top 10 had cosine ≥ 0.36; the best match of a nonsense query ("purple
# elephant banana symphony") 0.24–0.34 (benchmarks/semantic). Below this floor, a symbol needs
# words in common with the query to be an answer at all.
SCORE_THRESHOLD = 0.3


class Hit(NamedTuple):
    symbol_id: int
    score: float  # the combined score (only meaningful for ordering)
    cosine: float
    lexical: float  # BM25 / the query's best BM25, 0 when no word matched


def search(
    index: SemanticIndex,
    query_vector: np.ndarray,
    terms: list[str],
    k: int,
    *,
    within: np.ndarray | None = None,
    wants_tests: bool = False,
) -> list[Hit]:
    """The ``k`` best symbols for a query (``within``: only these rows)."""
    if not len(index) or k <= 0:
        return []
    size = index.vectors.size
    bonus = priors_of(index.traits, size, wants_tests)
    near, _ = index.vectors.search(query_vector, VECTOR_CANDIDATES, within=within, bonus=bonus)
    lexical_rows, lexical_scores = index.lexical.search(terms, index.vectors.alive, within)
    lexical = np.zeros(size, dtype=np.float32)
    if len(lexical_rows):
        lexical[lexical_rows] = lexical_scores / lexical_scores.max()
        if len(lexical_rows) > LEXICAL_CANDIDATES:
            best = lexical_rows[np.argpartition(-lexical_scores, LEXICAL_CANDIDATES - 1)[:LEXICAL_CANDIDATES]]
        else:
            best = lexical_rows
        rows = np.union1d(near, best)
    else:
        rows = np.sort(near)
    if not len(rows):
        return []
    cosine = index.vectors.similarity(rows, np.asarray(query_vector, dtype=np.float32).reshape(-1))
    score = cosine + bonus[rows] + LEXICAL_WEIGHT * lexical[rows]
    keep = (cosine >= SCORE_THRESHOLD) | (lexical[rows] > 0)
    rows, cosine, score = rows[keep], cosine[keep], score[keep]
    order = np.lexsort((rows, -score))[:k]
    return [
        Hit(int(index.symbol[r]), float(score[i]), float(cosine[i]), float(lexical[r]))
        for i, r in zip(order.tolist(), rows[order].tolist(), strict=True)
    ]
