"""Reciprocal-rank fusion of a lexical (name) ranking and a semantic ranking.

RRF scores a candidate by Σ weight / (k + rank) over the lists it appears in. It needs no score
calibration between a name match and a cosine similarity, which live on unrelated scales, and a
symbol found both ways rises above one found only one way. Each result says why it matched.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import NamedTuple

NAME = "name"
SEMANTIC = "semantic"
RRF_K = 60  # the constant of Cormack et al. (2009); damps the difference between ranks 1 and 2

# When the lexical list is not a name the agent typed but the words of a natural-language query
# matched against symbol names, it is mostly noise (name-only MRR@10 ≈ 0.24 on the evaluation
# set). Fused with these settings it only lifts symbols the semantic ranking also found: a name
# match at rank 1 adds about what separates semantic ranks 2 and 3, and a symbol matched by name
# alone lands after the semantic top ~25. Chosen on benchmarks/semantic (see its README).
QUERY_WORDS_K = 5
QUERY_WORDS_NAME_WEIGHT = 0.2


class FusedResult(NamedTuple):
    id: Hashable
    score: float  # the fused RRF score (only meaningful for ordering)
    matched: tuple[str, ...]  # ("name",), ("semantic",) or ("name", "semantic")
    semantic_score: float | None  # cosine similarity, when the semantic list had it
    name_rank: int | None = None  # 1-based rank in each input list, None when absent
    semantic_rank: int | None = None


def reciprocal_rank_fusion(
    lexical: Iterable[Hashable],
    semantic: Iterable[tuple[Hashable, float]],
    *,
    k: int = RRF_K,
    name_weight: float = 1.0,
    semantic_weight: float = 1.0,
    limit: int | None = None,
) -> list[FusedResult]:
    """Fuse ``lexical`` (ids, best first) with ``semantic`` ((id, cosine), best first).

    Duplicate ids inside one list keep their first (best) rank. Ties in the fused score go to the
    candidate matched both ways, then to the better single rank, then to input order.
    """
    name_rank: dict[Hashable, int] = {}
    for rank, item in enumerate(lexical, 1):
        name_rank.setdefault(item, rank)
    semantic_rank: dict[Hashable, int] = {}
    cosine: dict[Hashable, float] = {}
    for rank, (item, similarity) in enumerate(semantic, 1):
        if item not in semantic_rank:
            semantic_rank[item] = rank
            cosine[item] = float(similarity)

    results = []
    for order, item in enumerate(dict.fromkeys([*name_rank, *semantic_rank])):
        n_rank, s_rank = name_rank.get(item), semantic_rank.get(item)
        fused = (name_weight / (k + n_rank) if n_rank else 0.0) + (semantic_weight / (k + s_rank) if s_rank else 0.0)
        matched = tuple(m for m, r in ((NAME, n_rank), (SEMANTIC, s_rank)) if r)
        best = min(r for r in (n_rank, s_rank) if r)
        results.append(
            (-fused, -len(matched), best, order, FusedResult(item, fused, matched, cosine.get(item), n_rank, s_rank))
        )
    results.sort(key=lambda r: r[:4])
    fused_results = [r[-1] for r in results]
    return fused_results[:limit] if limit is not None else fused_results
