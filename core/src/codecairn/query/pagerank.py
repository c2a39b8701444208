"""Personalised PageRank by power iteration over a weighted edge list (numpy, no graph library).

The random surfer follows an out-edge with probability ``damping`` in proportion to its weight,
and otherwise jumps to a node drawn from ``personalization`` (uniform when none is given): with
the files or symbols a caller names as the personalization, the rank says what matters *from
there*. A node with no out-edges jumps the same way, so rank is never lost.
"""

from __future__ import annotations

import numpy as np

DAMPING = 0.85
ITERATIONS = 100
TOLERANCE = 1e-10


def pagerank(
    n: int,
    src: np.ndarray,
    dst: np.ndarray,
    weight: np.ndarray,
    personalization: np.ndarray | None = None,
    damping: float = DAMPING,
    iterations: int = ITERATIONS,
    tolerance: float = TOLERANCE,
) -> np.ndarray:
    """Ranks of nodes ``0..n-1`` (summing to 1) over edges ``src[i] -> dst[i]`` of ``weight[i]``."""
    if n == 0:
        return np.zeros(0)
    if personalization is None or not personalization.any():
        jump = np.full(n, 1.0 / n)
    else:
        jump = personalization.astype(float) / personalization.sum()
    out_weight = np.bincount(src, weights=weight, minlength=n)
    share = np.divide(weight, out_weight[src], out=np.zeros_like(weight, dtype=float), where=out_weight[src] > 0)
    dangling = out_weight == 0
    rank = jump.copy()
    for _ in range(iterations):
        flowed = np.bincount(dst, weights=rank[src] * share, minlength=n)
        nxt = damping * (flowed + rank[dangling].sum() * jump) + (1 - damping) * jump
        if np.abs(nxt - rank).sum() < tolerance:
            return nxt
        rank = nxt
    return rank
