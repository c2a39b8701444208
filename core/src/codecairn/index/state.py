"""The index as queries see it, in memory: every symbol (a SymbolIndex), every indexed file by path
and by id, and the generation they describe.

A leaf: the indexer mirrors each committed batch into it (``apply_batch``), and query, semantic and
memory code read it directly — none of them needs the workspace. It knows the store only to load
itself (``load_files``, ``ensure_symbols``) and the root only to tell whether a file changed since it
was indexed (read confined, like every file read).
"""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from collections.abc import Iterable

from codecairn.index.collector import collector_paused
from codecairn.index.parse_pool import content_hash
from codecairn.index.passed import decoded
from codecairn.index.symbol_index import SymbolIndex
from codecairn.model import HARMLESS_BASES, INSTANCE, FileInfo, IndexedFile, IndexedSymbol, external_name
from codecairn.paths import read_confined
from codecairn.store.store import FileRow, ParsedFile, Store


class IndexState:
    def __init__(self, root_real: str) -> None:
        self.root_real = root_real
        self._root_prefix = os.path.join(root_real, "")
        self.symbols = SymbolIndex()
        self.files_by_path: dict[str, IndexedFile] = {}
        self.files_by_id: dict[int, IndexedFile] = {}
        self.generation = 0
        # Loaded at open for a server; `codecairn index` defers it until something changed (an
        # unchanged re-index then never reads the symbols table).
        self.symbols_loaded = False
        self._symbols_lock = asyncio.Lock()
        # The ids of symbols that were re-parsed and kept their id (store/carried.py):
        # whatever holds something computed from a symbol's old text by its id (the semantic
        # index's vectors) lets it go (take_renewed). None: nobody asked, nothing is gathered.
        self.renewed: set[int] | None = None

    # ---- loading --------------------------------------------------------------------------------

    async def load_files(self, store: Store) -> None:
        self.generation = int(await store.get_meta("generation", "0") or 0)
        for row in (await store.files()).values():
            self._set_file(row)

    async def ensure_symbols(self, store: Store) -> None:
        """Load the symbol index and the inheritance graph from the store, once."""
        async with self._symbols_lock:
            if self.symbols_loaded:
                return
            with collector_paused():  # loading is hundreds of thousands of tuples, none garbage
                async for rows in store.all_symbols():
                    self.symbols.add(rows)
                by_qn = self.symbols.by_qn
                self.symbols.set_bases(
                    (owner, target)
                    for source, target, owner_qn in await store.resolved_supertypes()
                    for owner in ([source] if source is not None else by_qn.get(owner_qn, ()))
                )
                self.symbols.returns.update(
                    (function, (target, receiver_type == INSTANCE))
                    for function, target, receiver_type in await store.resolved_returns()
                )
                passed = self.symbols.passed
                for eid, file_id, function, key, resolution in await store.resolved_passes():
                    if (value := decoded(resolution or "")) is not None:
                        passed.put(eid, (file_id, function, key, *value))
                for eid, source, owner_qn, how in await store.unresolved_supertypes(HARMLESS_BASES):
                    owners = [source] if source is not None else list(by_qn.get(owner_qn, ()))
                    self.symbols.open_types.update(owners)
                    self.symbols.set_external_base(owners, eid, external_name(how) or "")
                self.symbols.take_external_base_changes()  # (the same: changes start from here)
                self.symbols.take_hierarchy_changes()  # what the store holds is where changes start from
            self.symbols_loaded = True

    def _set_file(self, row: FileRow) -> None:
        state = IndexedFile(
            row.id, row.path, row.language, row.module, row.size, row.mtime_ns, row.hash, row.lines, row.partial,
            row.extractor,
        )  # fmt: skip
        self.files_by_path[row.path] = state
        self.files_by_id[row.id] = state

    # ---- following the indexer ----------------------------------------------------------------

    def apply_batch(
        self,
        parsed: list[ParsedFile],
        deleted: list[int],
        known: dict[str, FileRow],
        rows: list[tuple],
        file_ids: dict[str, int],
    ) -> set[str]:
        """Mirror one committed batch; returns the names of the symbols that went away (edges
        naming them may resolve differently now)."""
        gone = [file_ids[p.path] for p in parsed if p.path in known] + list(deleted)
        rows_before = self.symbols.rows
        removed_names = {rows_before[i].name for fid in gone for i in self.symbols.by_file.get(fid, ())}
        removed = self.symbols.remove_files(gone)
        if self.renewed is not None and removed:
            self.renewed.update(r[0] for r in rows if r[0] in removed)
        for fid in deleted:
            state = self.files_by_id.pop(fid, None)
            if state is not None:
                self.files_by_path.pop(state.path, None)
        self.symbols.add(rows)
        for p in parsed:
            state = IndexedFile(
                file_ids[p.path], p.path, p.language, p.facts.module, p.size, p.mtime_ns, p.hash, p.lines,
                p.facts.partial, p.facts.extractor,
            )  # fmt: skip
            self.files_by_path[p.path] = state
            self.files_by_id[state.id] = state
        return removed_names

    def take_renewed(self) -> set[int]:
        """The symbols renewed since the last call (see ``renewed``); from the first call on they are gathered."""
        renewed, self.renewed = self.renewed or set(), set()
        return renewed

    def touch(self, touched: Iterable[tuple[int, int]]) -> None:
        """Files whose mtime changed but whose content did not: (file id, mtime_ns)."""
        for fid, mtime in touched:
            state = self.files_by_id.get(fid)
            if state is not None:
                state.mtime_ns = mtime

    def forget_all(self) -> None:
        self.symbols = SymbolIndex()
        self.symbols_loaded = True  # the store was cleared: empty is the truth
        self.files_by_path.clear()
        self.files_by_id.clear()

    # ---- reading ------------------------------------------------------------------------------

    def path_of(self, sym: IndexedSymbol) -> str:
        state = self.files_by_id.get(sym.file_id)
        return state.path if state else ""

    def language_counts(self) -> dict[str, int]:
        """Indexed files per language, by name."""
        return dict(sorted(Counter(f.language for f in self.files_by_id.values()).items()))

    def file_infos(self) -> dict[int, FileInfo]:
        return {f.id: FileInfo(f.path, f.language, f.module) for f in self.files_by_id.values()}

    def changed_since_indexed(self, path: str) -> bool:
        """Has the file's content changed since it was indexed? (stat first, hash only if needed)"""
        state = self.files_by_path.get(path)
        if state is None:
            return True
        try:
            st = os.stat(f"{self._root_prefix}{path}")  # every answer stats its paths: no Path objects
        except OSError:
            return True
        if st.st_size == state.size and st.st_mtime_ns == state.mtime_ns:
            return False
        try:
            return content_hash(read_confined(self.root_real, path)) != state.hash
        except OSError:  # gone, unreadable, or now a link out of the root: not what was indexed
            return True

    def stale_paths(self, paths: Iterable[str]) -> list[str]:
        return sorted({p for p in paths if self.changed_since_indexed(p)})
