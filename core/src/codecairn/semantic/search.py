"""Semantic search at query time: embed the question, rank stored vectors by cosine, fuse with
the name ranking. Vectors are held as one matrix, rebuilt only when the embedding job changed them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from codecairn.errors import UNAVAILABLE, ToolError

if TYPE_CHECKING:
    from codecairn.hookspecs import Embedder
    from codecairn.semantic.job import EmbeddingJob
    from codecairn.semantic.vectors import VectorIndex

SCORE_THRESHOLD = 0.3  # accepted answers scored ≥ 0.36, nonsense 0.24–0.34 (benchmarks/semantic)


class SemanticSearch:
    def __init__(self, job: EmbeddingJob, embedder: Callable[[], Embedder | None]) -> None:
        self.job = job
        self.embedder = embedder
        self._index: VectorIndex | None = None
        self._version = -1

    def _vector_index(self, dimensions: int):
        if self._index is None or self._version != self.job.version:
            from codecairn.semantic.vectors import VectorIndex

            blobs = self.job.blobs
            rows = [(sid, blobs[h]) for sid, h in self.job.hash_of.items() if h in blobs]
            self._index = VectorIndex.from_blobs(rows, dimensions)
            self._version = self.job.version
        return self._index

    async def search(self, text: str, k: int, candidates: set[int] | None = None) -> list[tuple[int, float]]:
        embedder = await asyncio.to_thread(self.embedder)
        if embedder is None:
            from codecairn.semantic.minilm import unavailable_reason

            raise ToolError(
                UNAVAILABLE, unavailable_reason() or "no embedder is installed: pip install 'codecairn[semantic]'"
            )
        if not self.job.hash_of and not self.job.running:
            self.job.notify()  # nothing embedded yet: make sure the job is on its way
        query = (await asyncio.to_thread(embedder.embed, [text]))[0]
        index = self._vector_index(embedder.dimensions)
        return index.search(query, k, threshold=SCORE_THRESHOLD, candidates=candidates)
