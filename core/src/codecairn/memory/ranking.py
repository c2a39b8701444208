"""Ranking memories against a recall query: the query's meaningful words found in a memory's
reason and tags, plus — when an embedder is installed — the cosine of the query against them."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from typing import Any

from codecairn.errors import BAD_ARGUMENT, ToolError
from codecairn.hookspecs import Embedder
from codecairn.limits import MAX_REASON_CHARS
from codecairn.model import MemoryRow
from codecairn.numeric import load_numpy

log = logging.getLogger("codecairn.memory")

QUERY_MAX_WORDS = 16  # words of a recall query that are scored: each costs a pass over every memory
RANK_SLICE = 1000  # memories scored between two looks at the event loop
SEMANTIC_MIN_COSINE = 0.3
_WORD = re.compile(r"\w+")
_STOPWORDS = frozenset(
    "a an and are as at be by for from how in is it of on or that the this to was what where which why with".split()
)


def check_query(query: Any) -> None:
    if not isinstance(query, str) or not query.strip() or "\0" in query or len(query) > MAX_REASON_CHARS:
        raise ToolError(BAD_ARGUMENT, f"query must be non-empty text of at most {MAX_REASON_CHARS} characters")


class RecallRanking:
    def __init__(self, embedder: Callable[[], Embedder | None]) -> None:
        self.embedder = embedder
        self._vectors: dict[int, tuple[str, Any]] = {}  # memory id -> (text embedded, vector)

    def forget(self, ids: list[int]) -> None:
        for i in ids:
            self._vectors.pop(i, None)

    async def rank(self, rows: list[MemoryRow], query: str) -> tuple[list[tuple[float, MemoryRow]], bool]:
        """The memories that match, best first, and whether semantic ranking took part."""
        words = list(dict.fromkeys(_WORD.findall(query.lower())))  # each word once
        meaningful = ([w for w in words if w not in _STOPWORDS] or words)[:QUERY_MAX_WORDS]
        scores: dict[int, float] = {}
        for n, m in enumerate(rows):
            if n % RANK_SLICE == RANK_SLICE - 1:
                await asyncio.sleep(0)  # thousands of memories: let other calls in, and a time limit stop this
            text_words = set(_WORD.findall(f"{m.reason}\n{m.tags}".lower()))
            hits = sum(1 for w in meaningful if any(t == w or (len(w) >= 3 and t.startswith(w)) for t in text_words))
            if meaningful and hits:
                scores[m.id] = hits / len(meaningful)
        cosines = await self._cosines(rows, query)
        semantic = cosines is not None
        ranked = []
        for m in rows:
            words_score = scores.get(m.id, 0.0)
            cosine = cosines.get(m.id, 0.0) if cosines else 0.0
            if words_score > 0 or cosine >= SEMANTIC_MIN_COSINE:
                ranked.append((words_score + max(cosine, 0.0), m))
        ranked.sort(key=lambda sm: (-sm[0], -sm[1].id))
        return ranked, semantic

    async def _cosines(self, rows: list[MemoryRow], query: str) -> dict[int, float] | None:
        """Cosine of the query against each reason, when an embedder is installed; else None."""
        if not rows:
            return None
        try:
            load_numpy()  # here, not in the loading thread (codecairn.numeric)
            embedder = await asyncio.to_thread(self.embedder)
        except Exception:
            return None
        if embedder is None:
            return None
        try:
            import numpy as np

            texts = {m.id: f"{m.reason} {' '.join(m.tag_list)}".strip() for m in rows}
            todo = [i for i, t in texts.items() if self._vectors.get(i, ("",))[0] != t]
            batch = [query] + [texts[i] for i in todo]
            vectors = await asyncio.to_thread(embedder.embed, batch)
            q = np.asarray(vectors[0], dtype=np.float32)
            for i, v in zip(todo, vectors[1:], strict=True):
                self._vectors[i] = (texts[i], np.asarray(v, dtype=np.float32))
            return {i: float(np.dot(q, self._vectors[i][1])) for i in texts}
        except Exception as exc:  # the embedder failing costs semantic ranking, not the recall
            log.warning("semantic recall unavailable: %s: %s", type(exc).__name__, exc)
            return None
