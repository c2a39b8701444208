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
from bisect import bisect_left
from collections.abc import Iterable, Mapping

import numpy as np

K1 = 1.2
B = 0.5  # length normalisation: symbol texts are short and similar in length, so only half of it
# A query word and an indexed word of one family ("comparison" and "compar" from "compares",
# "equaliti" and "equal"): one is the other plus an ending, the shared stem at least this long.
# Such a related word counts this share of an exact match.
RELATED_STEM = 5
RELATED_WEIGHT = 0.5
_TF_BITS = 4
_TF_MAX = (1 << _TF_BITS) - 1


class LexicalIndex:
    def __init__(self) -> None:
        self.postings: dict[str, array] = {}
        self.lengths = np.zeros(1024, dtype=np.float32)
        self.size = 0
        self._total_length = 0.0
        self._live = 0
        self._sorted_terms: list[str] | None = None  # built on first use after new terms came

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
                self._sorted_terms = None
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
        self._sorted_terms = None

    def related(self, term: str) -> list[str]:
        """Indexed words of the same family as ``term``: it plus an ending, or it less one
        (at least ``RELATED_STEM`` letters in common)."""
        if len(term) < RELATED_STEM or not term.isalpha():
            return []
        terms = self._sorted_terms
        if terms is None:
            terms = self._sorted_terms = sorted(self.postings)
        out = []
        at = bisect_left(terms, term)
        while at < len(terms) and terms[at].startswith(term):
            if terms[at] != term:
                out.append(terms[at])
            at += 1
        postings = self.postings
        out.extend(term[:end] for end in range(RELATED_STEM, len(term)) if term[:end] in postings)
        return out

    def search(
        self, terms: list[str], alive: np.ndarray, within: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """BM25 scores of the live rows (of ``within``, when given) that match a term: (rows, scores)."""
        found_rows, found_scores = [], []
        if self._live:
            average = self._total_length / self._live
            for term in terms:
                best: tuple[np.ndarray, np.ndarray] | None = None
                for variant, weight in ((term, 1.0), *((r, RELATED_WEIGHT) for r in self.related(term))):
                    scored = self._scores(variant, alive, within, average)
                    if scored is None:
                        continue
                    rows, scores = scored[0], scored[1] * weight
                    if best is None:
                        best = rows, scores
                    else:  # a row matching several words of the family counts its best one
                        both = np.concatenate([best[0], rows])
                        order = np.lexsort((-np.concatenate([best[1], scores]), both))
                        both, merged = both[order], np.concatenate([best[1], scores])[order]
                        first = np.ones(len(both), dtype=bool)
                        first[1:] = both[1:] != both[:-1]
                        best = both[first], merged[first]
                if best is not None:
                    found_rows.append(best[0])
                    found_scores.append(best[1])
        if not found_rows:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        rows, where = np.unique(np.concatenate(found_rows), return_inverse=True)
        return rows, np.bincount(where, weights=np.concatenate(found_scores)).astype(np.float32)

    def _scores(
        self, term: str, alive: np.ndarray, within: np.ndarray | None, average: float
    ) -> tuple[np.ndarray, np.ndarray] | None:
        """BM25 of one word over the live rows (of ``within``) that hold it."""
        entries = self.postings.get(term)
        if entries is None:
            return None
        packed = np.frombuffer(entries, dtype=np.uint32)
        rows = (packed >> _TF_BITS).astype(np.int64)
        live = alive[rows]
        if within is not None:
            live &= np.isin(rows, within)
        rows = rows[live]
        if not len(rows):
            return None
        tf = (packed[live] & _TF_MAX).astype(np.float32)
        idf = math.log(1 + (self._live - len(rows) + 0.5) / (len(rows) + 0.5))
        norm = K1 * (1 - B + B * self.lengths[rows] / average)
        return rows, idf * tf * (K1 + 1) / (tf + norm)
