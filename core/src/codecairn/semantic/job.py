"""The embedding job: turns new or changed symbols into vectors, in the background.

Structural indexing never waits for it: symbols are queryable by name as soon as they are stored,
and answers say how many are not embedded yet (``embeddings_pending``). The job runs ONNX in a
worker thread, one batch at a time, so a cancellation stops it within one batch and keeps every
vector already stored; the next run picks up what is left.

Vectors live in the ``embeddings`` table keyed by a hash of (model id, embedded text), so a
symbol whose text is unchanged keeps its vector when its file is re-indexed, a model change
re-embeds everything, and vectors nobody refers to any more are deleted.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import anyio

from codecairn.errors import DamagedStore
from codecairn.model import DATA_KINDS
from codecairn.store.vectors import VectorTable

if TYPE_CHECKING:
    from codecairn.hookspecs import Embedder
    from codecairn.index.state import IndexState
    from codecairn.store.store import Store

log = logging.getLogger("codecairn.embeddings")

BATCH = 256
Progress = Callable[[int, int, str], Awaitable[None]]


def _hash(model_id: str, text: str) -> str:
    return hashlib.blake2b(f"{model_id}\0{text}".encode(), digest_size=16).hexdigest()


class EmbeddingJob:
    def __init__(self, state: IndexState, store: Store, embedder: Callable[[], Embedder | None]) -> None:
        self.state = state
        self.store = store
        self.embedder = embedder
        self.hash_of: dict[int, str] = {}  # symbol id -> embedding hash (embedded symbols only)
        self.blobs: dict[str, bytes] = {}  # embedding hash -> float16 vector
        self.version = 0  # bumps when the set of vectors changes
        self.model_id: str | None = None
        self.wakeup = asyncio.Event()
        self.running = False
        self._lock = asyncio.Lock()

    # ---- what needs doing ---------------------------------------------------------------------

    @staticmethod
    def wanted(kind: str) -> bool:
        # Fields, variables and constants are found by name; embedding them doubles the work and
        # crowds semantic answers with assignments (measured on the evaluation set).
        return kind not in DATA_KINDS

    def pending_ids(self) -> list[int]:
        rows = self.state.symbols.rows
        return [sid for sid, sym in rows.items() if sid not in self.hash_of and self.wanted(sym.kind)]

    def pending_count(self) -> int:
        rows = self.state.symbols.rows
        gone = [sid for sid in self.hash_of if sid not in rows]
        for sid in gone:
            del self.hash_of[sid]
        if gone:
            self.version += 1
        return sum(1 for sid, sym in rows.items() if sid not in self.hash_of and self.wanted(sym.kind))

    # ---- running ----------------------------------------------------------------------------

    async def run_once(self, progress: Progress | None = None) -> int:
        """Give every pending symbol a vector; returns how many vectors had to be computed
        (a symbol whose embedded text is unchanged reuses its stored vector)."""
        if self.store.damage is not None:  # before loading a model for nothing
            raise self.store.damage
        embedder = await asyncio.to_thread(self.embedder)  # the first call loads the model
        if embedder is None:
            return 0
        await self.state.ensure_symbols(self.store)
        async with self._lock:
            self.running = True
            try:
                return await self._run(embedder, progress)
            except sqlite3.DatabaseError as exc:  # its own connection's: said like the store's
                raise (self.store.explain(exc) or exc) from exc
            finally:
                self.running = False

    async def _run(self, embedder, progress: Progress | None) -> int:
        from codecairn.semantic.texts import embedding_text
        from codecairn.semantic.vectors import encode_vector

        store = self.store
        # A read-only index keeps its stored vectors; new ones live in memory only.
        writes = store.read_only is None
        db = await VectorTable.open(store.path, writes)
        try:
            stored_model = await store.get_meta("embedding_model")
            if stored_model != embedder.model_id and (writes or self.model_id != embedder.model_id):
                if stored_model is not None:
                    log.info("embedding model changed (%s -> %s): re-embedding", stored_model, embedder.model_id)
                if writes:
                    await db.start_over(embedder.model_id)
                self.hash_of.clear()
                self.blobs.clear()
                self.version += 1
            self.model_id = embedder.model_id
            self.pending_count()  # drops vectors of symbols that are gone
            pending = self.pending_ids()
            total, done, embedded = len(pending), 0, 0
            started = time.perf_counter()
            rows = self.state.symbols.rows
            for i in range(0, total, BATCH):
                ids = [sid for sid in pending[i : i + BATCH] if sid in rows]
                facts = await store.embedding_facts(ids)
                texts: dict[int, tuple[str, str]] = {}
                for sid, kind, name, qn, sig, doc, parent in facts:
                    parent_name = rows[parent].name if parent in rows else ""
                    text = embedding_text(kind, name, qn, sig, doc, parent_name)
                    texts[sid] = (_hash(embedder.model_id, text), text)
                hashes = list({h for h, _ in texts.values() if h not in self.blobs})
                if hashes and stored_model == embedder.model_id:
                    self.blobs.update(await db.stored(hashes))
                todo = {h: t for h, t in texts.values() if h not in self.blobs}
                if todo:
                    order = list(todo)
                    vectors = await asyncio.to_thread(embedder.embed, [todo[h] for h in order])
                    new = [(h, embedder.model_id, encode_vector(v)) for h, v in zip(order, vectors)]
                    if writes:
                        with anyio.CancelScope(shield=True):
                            await db.insert(new)
                    self.blobs.update((h, b) for h, _, b in new)
                    embedded += len(new)
                for sid, (h, _) in texts.items():
                    self.hash_of[sid] = h
                self.version += 1
                done += len(ids)
                if progress:
                    await progress(done, total, "embedding")
            if total:
                log.info(
                    "embedded %d symbols (%d new vectors) in %.1fs", total, embedded, time.perf_counter() - started
                )
                if writes:
                    await self._collect_garbage(db)
            return embedded
        finally:
            await db.close()

    async def _collect_garbage(self, db: VectorTable) -> None:
        live = set(self.hash_of.values())
        dead = [h for h in self.blobs if h not in live]
        if not dead:
            return
        for h in dead:
            del self.blobs[h]
        await db.delete(dead)

    async def run_forever(self) -> None:
        """The server's background task: embed whenever the index changed."""
        while True:
            await self.wakeup.wait()
            self.wakeup.clear()
            try:
                await self.run_once()
            except DamagedStore as exc:  # nothing more to embed from: said once
                log.warning("not embedding: %s", exc)
                return
            except Exception:
                log.exception("embedding failed; will retry after the next index run")

    def status(self) -> dict[str, Any]:
        """For `stats`: vectors held, still pending, the model — or why semantic search is off."""
        if self.model_id is None and not self.hash_of:
            from codecairn.semantic.minilm import unavailable_reason

            reason = unavailable_reason()
            if reason:
                return {"semantic": reason}
        return {
            "embeddings": len(self.hash_of),
            "embeddings_pending": self.pending_count(),
            **({"embedding_model": self.model_id} if self.model_id else {}),
        }

    def notify(self) -> None:
        self.wakeup.set()
