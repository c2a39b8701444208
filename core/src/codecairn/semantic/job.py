"""The embedding job: keeps the semantic index in step with the symbol index, in the background.

It does two things, in this order:

1. **Load** what is stored. Every symbol's text is rebuilt from its facts and hashed; every
   stored vector whose hash is still wanted goes into the semantic index as it is. Semantic
   queries wait for this (bounded, ``SemanticSearch.LOAD_WAIT``) rather than answer empty, and
   until it is done nothing is counted as pending: a stored vector is not work to do.
2. **Embed** what is missing: symbols whose text has no stored vector (new or changed code, a new
   model), in batches, the model running in a worker thread. A cancellation stops it within one
   batch and keeps every vector already stored; the next run picks up what is left.

Structural indexing never waits for it. After each index run ``notify`` wakes it: symbols that
left the symbol index leave the semantic index, new ones get vectors (a re-indexed file's
unchanged symbols find theirs stored under the same hash), vectors nobody refers to any more are
deleted.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

import anyio

from codecairn.errors import DamagedStore
from codecairn.index.heap import give_back_free_memory
from codecairn.model import DATA_KINDS
from codecairn.numeric import load_numpy
from codecairn.semantic import priors
from codecairn.semantic.texts import embedding_text, lexical_terms
from codecairn.store.vectors import ExportFacts, SymbolFacts, VectorStore

if TYPE_CHECKING:
    from codecairn.hookspecs import Embedder
    from codecairn.index.state import IndexState
    from codecairn.semantic.catalog import Entry, SemanticIndex
    from codecairn.store.store import Store

log = logging.getLogger("codecairn.embeddings")

BATCH = 256  # symbols per round trip: texts in, vectors out, one transaction
LOAD_CHUNK = 8192  # stored vectors put into the index at a time (queries run in between)
Progress = Callable[[int, int, str], Awaitable[None]]


_MODULE_KINDS = frozenset({"module", "package", "namespace"})
_CALLABLE_KINDS = frozenset({"function", "method", "constructor"})
_SCOPE_KINDS = ("module", "package", "class", "interface")


def wanted(kind: str) -> bool:
    # Fields, variables and constants are found by name; embedding them doubles the work and
    # crowds semantic answers with assignments (measured on the evaluation set).
    return kind not in DATA_KINDS


def vector_hash(model_id: str, text: str) -> str:
    return hashlib.blake2b(f"{model_id}\0{text}".encode(), digest_size=16).hexdigest()


class _WholeIndex:
    """What judging a symbol needs from the whole index, gathered once a run: each module's
    ``__all__``, what packages re-export, the packages Java modules export, what is deprecated as
    a whole. Only these sets are kept, not the rows they come from (CPython's 14,800 exports and
    14,700 modules and classes with their docs: 10 MB held while embedding, measured)."""

    def __init__(self, exports: Iterable[ExportFacts], scopes: Iterable[SymbolFacts]) -> None:
        self.all_names: dict[int, set[str]] = {}
        self.reexported: set[str] = set()
        self.exported_packages: set[str] = set()  # Java module-info's `exports p;`
        for e in exports:
            if e.kind == "package":
                self.exported_packages.add(e.name)
            elif e.kind == "all":
                self.all_names.setdefault(e.file_id, set()).add(e.name)
                if e.source and not e.source.startswith("."):
                    self.reexported.add(f"{e.source}.{e.name}")
        # Deprecation is inherited by qualified name (``distutils`` deprecates every module inside
        # it): the scopes of the whole index, not only those of the symbols judged.
        self.deprecated_scopes = {
            f.qualified_name for f in scopes if f.kind in _SCOPE_KINDS and priors.deprecated(f.modifiers.split(), f.doc)
        }


class _Context:
    """What judging a symbol needs beyond its own facts: its file, its ancestors, its module's
    ``__all__``, what packages re-export, what is deprecated as a whole, who uses it."""

    def __init__(
        self,
        files: dict[int, Any],
        facts: dict[int, SymbolFacts],
        whole: _WholeIndex,
        used_by: dict[int, int],
    ) -> None:
        self.files = files
        self.facts = facts
        self.used_by = used_by
        self.all_names = whole.all_names
        self.reexported = whole.reexported
        self.exported_packages = whole.exported_packages
        self.deprecated_scopes = whole.deprecated_scopes
        self._private: dict[int, bool] = {}

    def entry(self, f: SymbolFacts, model_id: str) -> tuple[Entry, str]:
        from codecairn.semantic.catalog import Entry

        parent = self.facts.get(f.parent_id) if f.parent_id is not None else None
        text = embedding_text(
            f.kind,
            f.name,
            f.qualified_name,
            f.signature,
            f.doc,
            parent.name if parent else "",
            parent.doc if parent else "",
        )
        file = self.files.get(f.file_id)
        traits = priors.Traits(
            private=self.private(f),
            test=bool(file is not None and priors.is_test_path(file.path)),
            deprecated=self.deprecated(f),
            documented=bool(f.doc),
            used_by_files=self.used_by.get(f.id, 0),
            module=f.kind in _MODULE_KINDS,
            exported=self.exported(f),
            member=parent is not None and parent.kind not in _MODULE_KINDS,
        )
        entry = Entry(
            f.id,
            vector_hash(model_id, text),
            lexical_terms(f.qualified_name, f.name, f.doc),
            traits,
        )
        return entry, text

    def private(self, f: SymbolFacts) -> bool:
        known = self._private.get(f.id)
        if known is not None:
            return known
        if f.qualified_name in self.reexported:
            result = False
        else:
            file = self.files.get(f.file_id)
            language = file.language if file is not None else ""
            parent = self.facts.get(f.parent_id) if f.parent_id is not None else None
            declared = priors.declared_private(f.modifiers.split(), language, f.name, parent.kind if parent else None)
            packages = self.exported_packages
            if packages and file is not None and language == "java" and file.module not in packages:
                declared = True  # a package its module does not export: internal, whatever it declares
            if declared is None:
                declared = priors.private_name(f.qualified_name)
                all_names = self.all_names.get(f.file_id)
                if not declared and all_names is not None and f.parent_id is None and f.kind != "module":
                    declared = f.name not in all_names
            # A function defined inside a function cannot be called from outside it.
            local = parent is not None and parent.kind in _CALLABLE_KINDS
            result = declared or local or (parent is not None and parent.kind != "module" and self.private(parent))
        self._private[f.id] = result
        return result

    def exported(self, f: SymbolFacts) -> bool:
        """Listed in an ``__all__`` (its own module's, or a package's that re-exports it), or
        inside a class that is."""
        if f.qualified_name in self.reexported:
            return True
        if f.parent_id is None:
            names = self.all_names.get(f.file_id)
            return names is not None and f.name in names
        parent = self.facts.get(f.parent_id)
        return parent is not None and parent.kind not in _MODULE_KINDS and self.exported(parent)

    def deprecated(self, f: SymbolFacts) -> bool:
        if priors.deprecated(f.modifiers.split(), f.doc):
            return True
        scopes = self.deprecated_scopes
        if scopes:
            qualified = f.qualified_name
            for at in range(len(qualified) - 1, 0, -1):
                if qualified[at] in ".:#/" and qualified[:at] in scopes:
                    return True
        parent = self.facts.get(f.parent_id) if f.parent_id is not None else None
        return parent is not None and self.deprecated(parent)


class EmbeddingJob:
    def __init__(
        self,
        state: IndexState,
        store: Store,
        embedder: Callable[[], Embedder | None],
    ) -> None:
        self.state = state
        state.take_renewed()  # from now on the index says which symbols were re-parsed under their id
        self.store = store
        self.vectors = VectorStore(store)
        self.embedder = embedder  # loads the model on first call: call it in a thread
        self.catalog: SemanticIndex | None = None
        self.model_id: str | None = None
        self.loaded = asyncio.Event()  # stored vectors are in the semantic index
        self.wakeup = asyncio.Event()
        self.running = False
        self.computed = 0  # vectors computed (not loaded) by this process
        # Why this process embeds nothing and loads nothing (a server started with --no-embed): said
        # to a semantic query instead of "loading" forever. "" when it is on.
        self.off = ""
        self._lock = asyncio.Lock()

    # ---- what needs doing ---------------------------------------------------------------------

    def pending_ids(self) -> list[int]:
        catalog = self.catalog
        rows = self.state.symbols.rows
        if catalog is None:
            return [sid for sid, sym in rows.items() if wanted(sym.kind)]
        return [sid for sid, sym in rows.items() if sid not in catalog and wanted(sym.kind)]

    def let_go(self, departed: bool = True) -> None:
        """Symbols re-parsed under the id they had (their text may have changed:
        IndexState.renewed) leave the semantic index, and with ``departed`` those that left the
        index (a pass over every vector: not for each query, whose hits are looked up in the index
        anyway); the next run embeds the former again (from the stored vectors when their text is
        unchanged)."""
        renewed = self.state.take_renewed()
        catalog = self.catalog
        if catalog is not None and len(catalog):
            if departed:
                catalog.retain(self.state.symbols.rows)
            if renewed:
                catalog.remove(renewed)

    def pending_count(self) -> int | None:
        """Symbols whose vectors must still be computed; None while stored vectors are loading
        (until then it is not known which those are)."""
        if not self.loaded.is_set():
            return None
        self.let_go()
        catalog = self.catalog
        rows = self.state.symbols.rows
        return sum(1 for sid, sym in rows.items() if (catalog is None or sid not in catalog) and wanted(sym.kind))

    async def up_to_date(self) -> bool:
        """Did a run finish with every symbol embedded, and has the index not changed since?
        (Answered from the store alone: nothing is loaded.)"""
        return await self.vectors.complete_generation() == self.state.generation

    @property
    def embedded(self) -> int:
        return len(self.catalog) if self.catalog is not None else 0

    # ---- running ----------------------------------------------------------------------------

    async def run_once(self, progress: Progress | None = None) -> int:
        """Load what is stored, then give every pending symbol a vector; returns how many
        vectors had to be computed."""
        if self.store.damage is not None:  # before loading a model for nothing
            raise self.store.damage
        await self.state.ensure_symbols(self.store)
        async with self._lock:
            self.running = True
            try:
                if not self.loaded.is_set():
                    await self._load()
                if self.model_id is None and self.catalog is None and not self.pending_ids():
                    # Nothing stored, nothing to embed: a server starting on a new index, whose first
                    # run has stored no symbols yet. The model (75 MB with onnxruntime) is loaded when
                    # that run announces them, not to sit beside the run's own peak.
                    return 0
                load_numpy()  # here, not in the loading thread (codecairn.numeric)
                embedder = await asyncio.to_thread(self.embedder)  # the first call loads the model
                if embedder is None:
                    return 0
                return await self._embed(embedder, progress)
            except sqlite3.DatabaseError as exc:  # its own connection's too: said like the store's
                raise (self.store.explain(exc) or exc) from exc
            finally:
                self.running = False

    async def run_forever(self) -> None:
        """The server's background task: load at once, then embed whenever the index changed."""
        self.wakeup.set()
        while True:
            await self.wakeup.wait()
            self.wakeup.clear()
            try:
                await self.run_once()
            except DamagedStore as exc:  # nothing more to embed from: said once
                log.warning("not embedding: %s", exc)
                self.loaded.set()
                return
            except Exception:
                log.exception("embedding failed; will retry after the next index run")
                self.loaded.set()  # queries must not wait for a load that failed

    def notify(self) -> None:
        self.wakeup.set()

    async def close(self) -> None:
        await self.vectors.close()

    def status(self) -> dict[str, Any]:
        """For `stats`: vectors held, still pending (or still loading), the model — or why
        semantic search is off."""
        if self.off:
            return {"semantic": self.off}
        if self.model_id is None and not self.embedded:
            from codecairn.semantic.minilm import unavailable_reason

            reason = unavailable_reason()
            if reason:
                return {"semantic": reason}
        pending = self.pending_count()
        return {
            "embeddings": self.embedded,
            **({"embeddings_pending": pending} if pending is not None else {"embeddings_loading": True}),
            **({"embedding_model": self.model_id} if self.model_id else {}),
        }

    async def _context(self, facts: dict[int, SymbolFacts], ids: list[int] | None, whole: _WholeIndex) -> _Context:
        used_by = await self.vectors.referencing_files(ids)
        return _Context(self.state.files_by_id, facts, whole, used_by)

    async def _load(self) -> None:
        """Put every stored vector that a symbol still wants into the semantic index."""
        started = time.perf_counter()
        model_id = await self.vectors.model()
        if model_id is None:
            self.loaded.set()  # nothing was ever stored
            return
        from codecairn.semantic.catalog import SemanticIndex
        from codecairn.semantic.vectors import blob_dimensions, decode_vectors

        facts = {f.id: f for f in await self.vectors.symbol_facts()}
        context = await self._context(facts, None, _WholeIndex(await self.vectors.exports(), facts.values()))
        ids = [f.id for f in facts.values() if wanted(f.kind)]
        # A chunk at a time: the texts, terms and BLOBs of 73,000 symbols at once cost 160 MB
        # that the allocator keeps; and queries see what is loaded so far in between.
        for start in range(0, len(ids), LOAD_CHUNK):
            chunk = [facts[i] for i in ids[start : start + LOAD_CHUNK]]
            entries, _ = await asyncio.to_thread(_entries, context, chunk, model_id)
            stored = await self.vectors.vectors({e.hash for e in entries})
            entries = [e for e in entries if e.hash in stored]
            if entries:
                if self.catalog is None:
                    self.catalog = SemanticIndex(blob_dimensions(len(stored[entries[0].hash])))
                    self.catalog.reserve(len(ids))
                rows, scales = decode_vectors([stored[e.hash] for e in entries], self.catalog.dimensions)
                self.catalog.add(entries, rows, scales)
            del chunk, entries, stored
            await asyncio.sleep(0)
        del facts, context
        self.model_id = model_id
        loaded = len(self.catalog) if self.catalog is not None else 0
        give_back_free_memory()
        self.loaded.set()
        log.info("loaded %d stored vectors in %.2fs", loaded, time.perf_counter() - started)

    async def _embed(self, embedder: Embedder, progress: Progress | None) -> int:
        from codecairn.semantic.catalog import SemanticIndex
        from codecairn.semantic.vectors import decode_vectors, encode_vector

        if self.model_id != embedder.model_id:
            stored_model = await self.vectors.model()
            if stored_model != embedder.model_id:
                if stored_model is not None:
                    log.info("embedding model changed (%s -> %s): re-embedding", stored_model, embedder.model_id)
                await self.vectors.reset(embedder.model_id)
                self.catalog = None
            self.model_id = embedder.model_id
        if self.catalog is None:
            self.catalog = SemanticIndex(embedder.dimensions)
        catalog = self.catalog
        generation = self.state.generation
        self.let_go()
        pending = self.pending_ids()
        total, done, computed = len(pending), 0, 0
        catalog.reserve(total)
        started = time.perf_counter()
        exports, scopes = (
            (await self.vectors.exports(), await self.vectors.scope_facts(_SCOPE_KINDS)) if total else ([], [])
        )
        whole = _WholeIndex(exports, scopes)
        del exports, scopes
        for i in range(0, total, BATCH):
            rows = self.state.symbols.rows
            ids = [sid for sid in pending[i : i + BATCH] if sid in rows]
            facts = {f.id: f for f in await self.vectors.symbol_facts(ids)} if ids else {}
            # Every ancestor, not only the parent: privacy, deprecation and __all__ are inherited
            # (a method of a class inside a private class), and a symbol embedded now must be
            # judged as it will be when the stored vectors are loaded next time.
            missing = {f.parent_id for f in facts.values() if f.parent_id is not None} - facts.keys()
            while missing:
                ancestors = await self.vectors.symbol_facts(missing)
                facts.update((f.id, f) for f in ancestors)
                missing = {f.parent_id for f in ancestors if f.parent_id is not None} - facts.keys()
            context = await self._context(facts, ids, whole)
            entries, texts = _entries(context, [facts[sid] for sid in ids if sid in facts], embedder.model_id)
            stored = await self.vectors.vectors({e.hash for e in entries})
            todo = list(dict.fromkeys(e.hash for e in entries if e.hash not in stored))
            if todo:
                text_of = {e.hash: t for e, t in zip(entries, texts, strict=True)}
                vectors = await asyncio.to_thread(embedder.embed, [text_of[h] for h in todo])
                new = [(h, encode_vector(v)) for h, v in zip(todo, vectors, strict=True)]
                with anyio.CancelScope(shield=True):  # a batch is stored whole or not at all
                    await self.vectors.put_vectors(embedder.model_id, new)
                stored.update(new)
                computed += len(new)
            if entries:
                int8_rows, scales = decode_vectors([stored[e.hash] for e in entries], catalog.dimensions)
                catalog.add(entries, int8_rows, scales)
            del facts, entries, texts, stored
            give_back_free_memory()  # the model's buffers of this batch, the facts and BLOBs
            done += len(ids)
            if progress:
                await progress(done, total, "embedding")
        self.computed += computed
        if generation == self.state.generation and not self.pending_ids():
            await self.vectors.set_complete_generation(generation)
        if total:
            log.info("embedded %d symbols (%d new vectors) in %.1fs", total, computed, time.perf_counter() - started)
            await self._collect_garbage()
            give_back_free_memory()
        return computed

    async def _collect_garbage(self) -> None:
        """Delete stored vectors no live symbol uses."""
        if self.catalog is None:
            return
        live = self.catalog.live_hashes()
        stored = [h async for chunk in self.vectors.hash_chunks() for h in self.catalog.unused(live, chunk)]
        if stored:
            await self.vectors.delete_vectors(stored)


def _entries(context: _Context, facts: list[SymbolFacts], model_id: str) -> tuple[list[Entry], list[str]]:
    """Entries and embedded texts of the given symbols."""
    pairs = [context.entry(f, model_id) for f in facts]
    return [e for e, _ in pairs], [t for _, t in pairs]
