"""Semantic search at query time: embed the question, rank the semantic index.

In the first moments of a session the stored vectors may still be loading (CPython's 73,000 take
about a second): a query waits for them, at most ``LOAD_WAIT``, rather than answer empty, and
says ``loading`` if it had to answer before they were all in.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from codecairn.errors import UNAVAILABLE, ToolError
from codecairn.numeric import load_numpy
from codecairn.semantic import priors
from codecairn.semantic.texts import query_terms

if TYPE_CHECKING:
    from codecairn.hookspecs import Embedder
    from codecairn.semantic.job import EmbeddingJob
    from codecairn.semantic.ranking import Hit

LOAD_WAIT = 2.0  # seconds a query waits for stored vectors to load


class SearchAnswer(NamedTuple):
    hits: list[Hit]
    loading: bool  # stored vectors were still loading when it answered


class SemanticSearch:
    def __init__(self, job: EmbeddingJob, embedder: Callable[[], Embedder | None]) -> None:
        self.job = job
        self.embedder = embedder  # loads the model on first call: call it in a thread

    async def search(
        self, text: str, k: int, candidates: set[int] | None = None, path_filter: str | None = None
    ) -> SearchAnswer:
        """The ``k`` best symbols for ``text`` (only among ``candidates`` when given)."""
        job = self.job
        if job.off:
            raise ToolError(UNAVAILABLE, job.off)
        if not job.loaded.is_set():
            job.notify()  # the background job loads first; make sure it is on its way
        load_numpy()  # here, not in the loading thread (codecairn.numeric)
        embedder = await asyncio.to_thread(self.embedder)
        if embedder is None:
            from codecairn.semantic.minilm import unavailable_reason

            raise ToolError(
                UNAVAILABLE, unavailable_reason() or "no embedder is installed: pip install 'codecairn[semantic]'"
            )
        query = asyncio.ensure_future(asyncio.to_thread(embedder.embed, [text]))
        if not job.loaded.is_set():
            try:
                await asyncio.wait_for(job.loaded.wait(), LOAD_WAIT)
            except TimeoutError:
                pass
        vector = (await query)[0]
        job.let_go(departed=False)  # (a symbol an edit changed is not found by its old text)
        catalog = job.catalog
        if catalog is None or not len(catalog):
            return SearchAnswer([], not job.loaded.is_set())
        from codecairn.semantic import ranking

        within = catalog.rows_of(candidates) if candidates is not None else None
        hits = ranking.search(
            catalog,
            vector,
            query_terms(text),
            k,
            within=within,
            wants_tests=priors.wants_tests(text, path_filter),
        )
        return SearchAnswer(hits, not job.loaded.is_set())
