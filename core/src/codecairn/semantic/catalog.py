"""The in-memory side of semantic search: every embedded symbol as one row holding its vector,
its BM25 terms, its prior and whether it is a test.

Rows are appended as symbols get vectors and let go when their symbols leave the index (a file
re-indexed gives its symbols new ids); when a quarter of the rows are dead the table is compacted.
Everything per row is a numpy array or a compact posting list, so CPython's 73,000 embedded
symbols hold about 45 MB here, not the 700 MB of a dict of float32 vectors and BLOBs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

import numpy as np

from codecairn.semantic import priors
from codecairn.semantic.lexical import LexicalIndex
from codecairn.semantic.vectors import VectorRows

_COMPACT_SHARE = 4  # compact when more than one row in this many is dead
_HASH_BYTES = 16  # a vector hash (semantic.job.vector_hash: a 16-byte digest in hex)


def _digest(text: str) -> bytes | None:
    """A vector hash (hex, as semantic.job.vector_hash makes it) as its 16 bytes; None for any
    other text (the semantic index keeps those as they are)."""
    if len(text) != 2 * _HASH_BYTES:
        return None
    try:
        return bytes.fromhex(text)
    except ValueError:
        return None


class LiveHashes(NamedTuple):
    """The vector hashes live symbols use: digests as sorted 16-byte values, other texts as a set."""

    digests: np.ndarray
    others: frozenset[str]


def priors_of(table: TraitTable, size: int, wants_tests: bool) -> np.ndarray:
    """``prior`` of rows 0..size-1 of a trait table at once (float32)."""
    # A test helper that many tests call is still a test: centrality counts for code only.
    used = np.where(table.test[:size], 0, table.used_by_files[:size])
    score = priors.CENTRALITY_WEIGHT * np.minimum(np.log1p(used), priors.CENTRALITY_CAP).astype(np.float32)
    score -= priors.PRIVATE_PENALTY * table.private[:size]
    score -= priors.DEPRECATED_PENALTY * table.deprecated[:size]
    score -= priors.UNDOCUMENTED_PENALTY * ~table.documented[:size]
    score -= priors.MODULE_PENALTY * table.module[:size]
    score -= priors.MEMBER_PENALTY * table.member[:size]
    score += priors.EXPORTED_BONUS * table.exported[:size]
    if not wants_tests:
        score -= priors.TEST_PENALTY * table.test[:size]
    return score


class TraitTable:
    """Traits of many rows, as arrays (about 8 bytes a row)."""

    def __init__(self, capacity: int = 1024) -> None:
        self.private = np.zeros(capacity, dtype=bool)
        self.test = np.zeros(capacity, dtype=bool)
        self.deprecated = np.zeros(capacity, dtype=bool)
        self.documented = np.zeros(capacity, dtype=bool)
        self.used_by_files = np.zeros(capacity, dtype=np.int32)
        self.module = np.zeros(capacity, dtype=bool)
        self.exported = np.zeros(capacity, dtype=bool)
        self.member = np.zeros(capacity, dtype=bool)

    _FIELDS = ("private", "test", "deprecated", "documented", "used_by_files", "module", "exported", "member")

    @property
    def nbytes(self) -> int:
        return sum(getattr(self, f).nbytes for f in self._FIELDS)

    def resize(self, capacity: int) -> None:
        for field in self._FIELDS:
            old = getattr(self, field)
            new = np.zeros(capacity, dtype=old.dtype)
            count = min(len(old), capacity)
            new[:count] = old[:count]
            setattr(self, field, new)

    def set(self, row: int, traits: priors.Traits) -> None:
        self.private[row] = traits.private
        self.test[row] = traits.test
        self.deprecated[row] = traits.deprecated
        self.documented[row] = traits.documented
        self.used_by_files[row] = traits.used_by_files
        self.module[row] = traits.module
        self.exported[row] = traits.exported
        self.member[row] = traits.member

    def take(self, rows: np.ndarray) -> TraitTable:
        """A new table holding ``rows`` in order (then some room to grow)."""
        out = TraitTable(max(1024, len(rows) + len(rows) // 4))
        for field in self._FIELDS:
            getattr(out, field)[: len(rows)] = getattr(self, field)[rows]
        return out


class RowsBySymbol:
    """symbol id -> row, as one int32 array indexed by symbol id (-1: no row). Symbol ids are the
    store's row ids, dense from 1: CPython's 73,000 embedded symbols take 0.4 MB here, where a dict
    took 6.7 (an entry and two int objects each). Only the mapping methods the index uses."""

    def __init__(self) -> None:
        self._rows = np.full(0, -1, dtype=np.int32)
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def __contains__(self, symbol_id: object) -> bool:
        if not isinstance(symbol_id, (int, np.integer)):
            return False
        at = int(symbol_id)
        return 0 <= at < len(self._rows) and bool(self._rows[at] >= 0)

    def __getitem__(self, symbol_id: int) -> int:
        if symbol_id not in self:
            raise KeyError(symbol_id)
        return int(self._rows[symbol_id])

    def get(self, symbol_id: int, default: int | None = None) -> int | None:
        return int(self._rows[symbol_id]) if symbol_id in self else default

    def __setitem__(self, symbol_id: int, row: int) -> None:
        if symbol_id < 0:
            raise KeyError(symbol_id)
        if symbol_id >= len(self._rows):  # half as large again: ids only grow as files are re-indexed
            grown = np.full(max(1024, symbol_id + 1 + (symbol_id + 1) // 2), -1, dtype=np.int32)
            grown[: len(self._rows)] = self._rows
            self._rows = grown
        self._count += int(self._rows[symbol_id] < 0)
        self._rows[symbol_id] = row

    def pop(self, symbol_id: int) -> int:
        row = self[symbol_id]
        self._rows[symbol_id] = -1
        self._count -= 1
        return row

    @property
    def nbytes(self) -> int:
        return self._rows.nbytes

    def ids(self) -> np.ndarray:
        return np.flatnonzero(self._rows >= 0)

    def rows(self) -> np.ndarray:
        """The rows, in symbol id order (int64)."""
        return self._rows[self._rows >= 0].astype(np.int64)

    def __iter__(self):
        return iter(self.ids().tolist())

    def keys(self) -> list[int]:
        return self.ids().tolist()

    def values(self) -> list[int]:
        return self.rows().tolist()

    def items(self) -> list[tuple[int, int]]:
        ids = self.ids()
        return list(zip(ids.tolist(), self._rows[ids].tolist(), strict=True))

    @classmethod
    def of(cls, symbol_ids: np.ndarray) -> RowsBySymbol:
        """Row i for symbol_ids[i]."""
        out = cls()
        if len(symbol_ids):
            out._rows = np.full(int(symbol_ids.max()) + 1, -1, dtype=np.int32)
            out._rows[symbol_ids] = np.arange(len(symbol_ids), dtype=np.int32)
            out._count = len(symbol_ids)
        return out


class Entry(NamedTuple):
    """One symbol as the embedding job hands it over."""

    symbol_id: int
    hash: str  # what its stored vector is keyed by
    terms: Mapping[str, int]  # BM25 term frequencies
    traits: priors.Traits


class SemanticIndex:
    def __init__(self, dimensions: int) -> None:
        self.dimensions = dimensions
        self.vectors = VectorRows(dimensions)
        self.lexical = LexicalIndex()
        self.row_of = RowsBySymbol()
        self.symbol = np.full(1024, -1, dtype=np.int64)  # row -> symbol id
        self.traits = TraitTable()
        # row -> vector hash, as 16 bytes a row (the hex strings cost 88 bytes a row: 6 MB on CPython's Lib)
        self._hashes = bytearray()
        self._others: dict[int, str] = {}  # row -> a hash that is no 16-byte hex digest, as it is
        self.version = 0  # bumps whenever rows change

    def __len__(self) -> int:
        return len(self.row_of)

    def __contains__(self, symbol_id: int) -> bool:
        return symbol_id in self.row_of

    @property
    def nbytes(self) -> int:
        return (
            self.vectors.nbytes
            + self.lexical.nbytes
            + self.symbol.nbytes
            + self.traits.nbytes
            + len(self._hashes)
            + self.row_of.nbytes
        )

    def live_hashes(self) -> LiveHashes:
        """What ``unused`` compares with: 1.2 MB for CPython's 73,000 hashes, where the set of hex
        strings hashes() makes takes 10."""
        rows = self.row_of.rows()
        if self._others:
            rows = rows[~np.isin(rows, np.fromiter(self._others, dtype=np.int64, count=len(self._others)))]
        table = np.frombuffer(bytes(self._hashes), dtype=f"S{_HASH_BYTES}")
        others = frozenset(self._others[row] for row in self.row_of.values() if row in self._others)
        return LiveHashes(np.sort(table[rows]), others)

    @staticmethod
    def unused(live: LiveHashes, hashes: list[str]) -> list[str]:
        """Those of ``hashes`` that no live symbol uses (``live``: from live_hashes)."""
        digests = [_digest(h) for h in hashes]
        known = live.digests
        found = [False] * len(hashes)
        if len(known):
            at = [i for i, d in enumerate(digests) if d is not None]
            if at:
                keys = np.array([digests[i] for i in at], dtype=f"S{_HASH_BYTES}")
                where = np.minimum(np.searchsorted(known, keys), len(known) - 1)
                for i, hit in zip(at, (known[where] == keys).tolist(), strict=True):
                    found[i] = hit
        return [
            h
            for h, d, hit in zip(hashes, digests, found, strict=True)
            if not hit and (d is not None or h not in live.others)
        ]

    def hashes(self) -> set[str]:
        """The vector hashes live symbols use."""
        hashes, others = self._hashes, self._others
        return {
            others[row] if row in others else hashes[row * _HASH_BYTES : (row + 1) * _HASH_BYTES].hex()
            for row in self.row_of.values()
        }

    def reserve(self, count: int) -> None:
        """Room for ``count`` more rows (see VectorRows.reserve)."""
        self.vectors.reserve(count)
        self._fit()

    def _fit(self) -> None:
        capacity = len(self.vectors.scales)
        if capacity > len(self.symbol):
            self.symbol = np.concatenate([self.symbol, np.full(capacity - len(self.symbol), -1, dtype=np.int64)])
            self.traits.resize(capacity)

    def add(self, entries: list[Entry], rows: np.ndarray, scales: np.ndarray) -> None:
        """Add symbols with their int8 vectors; a symbol already present is replaced."""
        if not entries:
            return
        self.remove([e.symbol_id for e in entries if e.symbol_id in self.row_of])
        numbers = self.vectors.append(rows, scales)
        self._fit()
        for row, entry in zip(numbers.tolist(), entries, strict=True):
            self.row_of[entry.symbol_id] = row
            self.symbol[row] = entry.symbol_id
            self.traits.set(row, entry.traits)
            digest = _digest(entry.hash)
            if digest is None:
                self._others[row] = entry.hash
                digest = bytes(_HASH_BYTES)
            self._hashes += digest
            self.lexical.add(row, entry.terms)
        self.version += 1

    def remove(self, symbol_ids: Iterable[int]) -> int:
        """Let symbols go; returns how many were here."""
        rows = [self.row_of.pop(sid) for sid in symbol_ids if sid in self.row_of]
        if not rows:
            return 0
        self.vectors.drop(rows)
        self.lexical.drop(rows)
        self.symbol[rows] = -1
        self.version += 1
        if (self.vectors.size - self.vectors.live) * _COMPACT_SHARE > self.vectors.size:
            self._compact()
        return len(rows)

    def retain(self, alive: Mapping[int, object]) -> int:
        """Let go of every symbol not in ``alive`` (a symbol index's rows); returns how many."""
        return self.remove([sid for sid in self.row_of if sid not in alive])

    def _compact(self) -> None:
        remap = self.vectors.compact()
        self.lexical.compact(remap)
        kept = np.flatnonzero(remap >= 0)
        capacity = len(self.vectors.scales)
        symbol = np.full(capacity, -1, dtype=np.int64)
        symbol[: len(kept)] = self.symbol[kept]
        self.symbol = symbol
        self.traits = self.traits.take(kept)
        self.traits.resize(capacity)
        hashes, kept_rows = self._hashes, kept.tolist()
        self._hashes = bytearray().join(hashes[row * _HASH_BYTES : (row + 1) * _HASH_BYTES] for row in kept_rows)
        self._others = {new: self._others[old] for new, old in enumerate(kept_rows) if old in self._others}
        self.row_of = RowsBySymbol.of(symbol[: len(kept)])

    def rows_of(self, symbol_ids: Iterable[int]) -> np.ndarray:
        row_of = self.row_of
        return np.array(sorted(row_of[s] for s in symbol_ids if s in row_of), dtype=np.int64)
