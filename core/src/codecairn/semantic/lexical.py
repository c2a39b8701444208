"""BM25 over the words of symbols: the lexical half of semantic search.

A query that names a concept the doc summary spells out ("robots.txt", "PBKDF2", "netrc") is not
left to the vectors alone. Each symbol is a row (the same row numbers as its vector); its terms
are the words of its name, its module and class, and its doc summary (``texts.lexical_terms``).

Postings are compact: one ``array('I')`` per term holding ``row << 4 | tf`` (term frequency
capped at 15), about 4 bytes per (symbol, term). A row let go stays in the postings until
``compact`` renumbers rows; searches skip rows that are no longer alive.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable, Mapping

import numpy as np

K1 = 1.2
B = 0.5  # length normalisation: symbol texts are short and similar in length, so only half of it
_TF_BITS = 4
_TF_MAX = (1 << _TF_BITS) - 1


class LexicalIndex:
    def __init__(self) -> None:
        self.postings: dict[str, array] = {}
        self.lengths = np.zeros(1024, dtype=np.float32)
        self.size = 0
        self._total_length = 0.0
        self._live = 0

    def __len__(self) -> int:
        return self._live

    @property
    def nbytes(self) -> int:
        return self.lengths.nbytes + sum(p.itemsize * len(p) + 64 for p in self.postings.values())

    def add(self, row: int, terms: Mapping[str, int]) -> None:
        """Index a row's term frequencies (rows are added in increasing order)."""
        if row >= len(self.lengths):
            self.lengths = np.resize(self.lengths, max(row + 1, len(self.lengths) * 3 // 2))
        length = 0
        postings = self.postings
        for term, tf in terms.items():
            tf = min(tf, _TF_MAX)
            length += tf
            entries = postings.get(term)
            if entries is None:
                postings[term] = entries = array("I")
            entries.append(row << _TF_BITS | tf)
        self.lengths[row] = length
        self.size = max(self.size, row + 1)
        self._total_length += length
        self._live += 1

    def drop(self, rows: Iterable[int]) -> None:
        """Rows that went away: forget their lengths (their postings are skipped, then compacted)."""
        for row in rows:
            if row < self.size and self.lengths[row] > 0:
                self._total_length -= float(self.lengths[row])
                self.lengths[row] = 0
                self._live -= 1

    def compact(self, remap: np.ndarray) -> None:
        """Renumber rows after the vectors were compacted (``remap``: old row -> new row or -1)."""
        kept = np.flatnonzero(remap >= 0)
        lengths = np.zeros(max(1024, len(kept) + len(kept) // 4), dtype=np.float32)
        lengths[remap[kept]] = self.lengths[kept]
        postings: dict[str, array] = {}
        for term, entries in self.postings.items():
            packed = np.frombuffer(entries, dtype=np.uint32)
            new = remap[(packed >> _TF_BITS).astype(np.int64)]
            keep = new >= 0
            if keep.any():
                postings[term] = array("I", ((new[keep] << _TF_BITS) | (packed[keep] & _TF_MAX)).astype(np.uint32))
        self.postings, self.lengths, self.size = postings, lengths, len(kept)

    def search(
        self, terms: list[str], alive: np.ndarray, within: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """BM25 scores of the live rows (of ``within``, when given) that match a term: (rows, scores)."""
        found_rows, found_scores = [], []
        if self._live:
            average = self._total_length / self._live
            for term in terms:
                entries = self.postings.get(term)
                if entries is None:
                    continue
                packed = np.frombuffer(entries, dtype=np.uint32)
                rows = (packed >> _TF_BITS).astype(np.int64)
                live = alive[rows]
                if within is not None:
                    live &= np.isin(rows, within)
                rows = rows[live]
                if not len(rows):
                    continue
                tf = (packed[live] & _TF_MAX).astype(np.float32)
                idf = math.log(1 + (self._live - len(rows) + 0.5) / (len(rows) + 0.5))
                norm = K1 * (1 - B + B * self.lengths[rows] / average)
                found_rows.append(rows)
                found_scores.append(idf * tf * (K1 + 1) / (tf + norm))
        if not found_rows:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        rows, where = np.unique(np.concatenate(found_rows), return_inverse=True)
        return rows, np.bincount(where, weights=np.concatenate(found_scores)).astype(np.float32)
