"""Vectors in memory and on disk: int8 rows with one scale each, searched by cosine.

A vector is stored as a 4-byte float32 scale followed by one int8 per dimension (388 bytes for
384 dimensions, half of float16): component ≈ int8 × scale, the scale chosen so the largest
component is ±127. On the question sets the rankings are those of float32 (top-10 overlap 0.99,
see ``benchmarks/semantic``). The same bytes are the in-memory form, so loading stored vectors is
a copy, and 100 k vectors take 39 MB instead of the 154 MB of a float32 matrix.

Search converts a few thousand rows at a time to float32 and takes their product with the query
(numpy has no fast int8 arithmetic, and float16 is slower still). Up to ``EXACT_LIMIT`` rows
every row is scored. Beyond that, reading every row takes longer than a query may, so the rows
also keep one sign bit per dimension of their mean-centred vector (48 bytes a row): a query ranks
all rows by Hamming distance of those bits, then scores the best ``RERANK`` (at least 5 %) exactly.

``VectorRows`` is addressed by row number (the semantic index keeps symbol ids beside it);
``VectorIndex`` is the same search addressed by ids, built in one go.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

import numpy as np

EXACT_LIMIT = 20_000
RERANK = 2_000
RERANK_SHARE = 20  # rescore at least one row in this many
_SCALE = np.dtype("<f4")
_BLOCK = 4096  # rows converted to float32 at a time: bounded scratch memory per query

_BYTE_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint16)


def _popcount(words: np.ndarray) -> np.ndarray:
    """Set bits of each uint64."""
    if hasattr(np, "bitwise_count"):  # numpy >= 2.0
        return np.bitwise_count(words)
    return _BYTE_POPCOUNT[words.view(np.uint8)].reshape(len(words), 8).sum(axis=1, dtype=np.uint16)


def quantize(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """float vectors (n, d) -> (int8 rows (n, d), float32 scales (n,))."""
    vectors = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
    peak = np.abs(vectors).max(axis=1)
    scales = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float32)
    rows = np.clip(np.rint(vectors / scales[:, None]), -127, 127).astype(np.int8)
    return rows, scales


def encode_vector(vector: np.ndarray) -> bytes:
    """One vector as it is stored: float32 scale, then int8 components."""
    rows, scales = quantize(vector)
    return scales[:1].astype(_SCALE).tobytes() + rows[0].tobytes()


def blob_dimensions(width: int) -> int:
    """The dimensions a stored BLOB of ``width`` bytes holds: int8 rows (dimensions + 4 bytes,
    dimensions a multiple of 16, as every embedding model's are) or the float16 rows earlier
    versions wrote."""
    return width - 4 if (width - 4) % 16 == 0 else width // 2


def decode_vectors(blobs: list[bytes], dimensions: int) -> tuple[np.ndarray, np.ndarray]:
    """Stored BLOBs -> (int8 rows, scales). Also reads the float16 and float32 BLOBs earlier
    versions stored (told apart by length; a table may hold both while it is re-embedded)."""
    rows = np.zeros((len(blobs), dimensions), dtype=np.int8)
    scales = np.zeros(len(blobs), dtype=np.float32)
    by_width: dict[int, list[int]] = {}
    for i, blob in enumerate(blobs):
        by_width.setdefault(len(blob), []).append(i)
    for width, where in by_width.items():
        joined = b"".join(blobs[i] for i in where)
        if width == dimensions + 4:
            raw = np.frombuffer(joined, dtype=np.uint8).reshape(len(where), width)
            rows[where] = raw[:, 4:].view(np.int8)
            scales[where] = raw[:, :4].copy().view(_SCALE).reshape(-1)
            continue
        dtype = {2 * dimensions: "<f2", 4 * dimensions: "<f4"}.get(width)
        if dtype is None:
            raise ValueError(f"a {width}-byte vector BLOB does not hold {dimensions} int8, float16 or float32 values")
        rows[where], scales[where] = quantize(np.frombuffer(joined, dtype=dtype).reshape(len(where), dimensions))
    return rows, scales


def decode_vector(blob: bytes, dimensions: int) -> np.ndarray:
    """One stored BLOB back to float32."""
    rows, scales = decode_vectors([blob], dimensions)
    return rows[0].astype(np.float32) * scales[0]


class VectorRows:
    """A growable table of int8 vectors addressed by row number. Rows are appended; a row that is
    let go (``drop``) is never returned by a search again and its number is not reused until
    ``compact`` renumbers the live rows."""

    def __init__(
        self, dimensions: int, capacity: int = 1024, *, exact_limit: int = EXACT_LIMIT, rerank: int = RERANK
    ) -> None:
        self.dimensions = dimensions
        self.exact_limit = exact_limit
        self.rerank = rerank
        self.size = 0  # rows appended so far (live or dropped)
        self._rows = np.zeros((capacity, dimensions), dtype=np.int8)
        self.scales = np.zeros(capacity, dtype=np.float32)
        self.alive = np.zeros(capacity, dtype=bool)
        self.live = 0
        self._mean: np.ndarray | None = None  # centre of the sign bits, fixed when first needed
        self._bits: np.ndarray | None = None  # (words, capacity) uint64, for rows < _bits_size
        self._bits_size = 0

    def __len__(self) -> int:
        return self.live

    @property
    def nbytes(self) -> int:
        bits = self._bits.nbytes if self._bits is not None else 0
        return self._rows.nbytes + self.scales.nbytes + self.alive.nbytes + bits

    def _grow(self, wanted: int) -> None:
        capacity = len(self.scales)
        if wanted <= capacity:
            return
        capacity = max(wanted, capacity + capacity // 2)
        rows = np.zeros((capacity, self.dimensions), dtype=np.int8)
        rows[: self.size] = self._rows[: self.size]
        self._rows = rows
        self.scales = np.resize(self.scales, capacity)
        alive = np.zeros(capacity, dtype=bool)
        alive[: self.size] = self.alive[: self.size]
        self.alive = alive
        if self._bits is not None:
            bits = np.zeros((self._bits.shape[0], capacity), dtype=np.uint64)
            bits[:, : self._bits_size] = self._bits[:, : self._bits_size]
            self._bits = bits

    def reserve(self, count: int) -> None:
        """Room for ``count`` more rows, made now: growing copies every row into a table half as
        large again, so the old and the new table were held at once (23 MB more at CPython's 60,000th
        row). Unwritten rows cost nothing (numpy's zeros are untouched pages)."""
        self._grow(self.size + count)

    def append(self, rows: np.ndarray, scales: np.ndarray) -> np.ndarray:
        """Add int8 rows with their scales; returns their row numbers."""
        count = len(rows)
        start = self.size
        self._grow(start + count)
        self._rows[start : start + count] = rows
        self.scales[start : start + count] = scales
        self.alive[start : start + count] = True
        self.size += count
        self.live += count
        return np.arange(start, start + count)

    def drop(self, rows: Iterable[int]) -> None:
        rows = np.fromiter(rows, dtype=np.int64)
        rows = rows[self.alive[rows]]
        self.alive[rows] = False
        self.live -= len(rows)

    def compact(self) -> np.ndarray:
        """Renumber the live rows 0..live-1 in order; returns old row -> new row (-1: dropped)."""
        keep = np.flatnonzero(self.alive[: self.size])
        remap = np.full(self.size, -1, dtype=np.int64)
        remap[keep] = np.arange(len(keep))
        capacity = max(1024, len(keep) + len(keep) // 4)
        rows = np.zeros((capacity, self.dimensions), dtype=np.int8)
        rows[: len(keep)] = self._rows[keep]
        scales = np.zeros(capacity, dtype=np.float32)
        scales[: len(keep)] = self.scales[keep]
        alive = np.zeros(capacity, dtype=bool)
        alive[: len(keep)] = True
        self._rows, self.scales, self.alive = rows, scales, alive
        self.size = self.live = len(keep)
        self._mean = self._bits = None
        self._bits_size = 0
        return remap

    def float_rows(self, rows: np.ndarray) -> np.ndarray:
        return self._rows[rows].astype(np.float32) * self.scales[rows, None]

    def similarity(self, rows: np.ndarray, query: np.ndarray) -> np.ndarray:
        """Cosine of ``query`` (float32, normalised) to the given rows."""
        out = np.empty(len(rows), dtype=np.float32)
        for start in range(0, len(rows), _BLOCK):
            part = rows[start : start + _BLOCK]
            # einsum, not the BLAS "@": OpenBLAS wakes its thread pool for each product, and on
            # cores busy with indexing that wake-up cost more than the product.
            out[start : start + len(part)] = np.einsum("ij,j->i", self._rows[part].astype(np.float32), query)
        return out * self.scales[rows]

    def candidates(self, query: np.ndarray, within: np.ndarray | None = None) -> np.ndarray:
        """The rows worth scoring exactly: all live ones (or all of ``within``) when few, else
        the nearest by sign bits."""
        rows = np.flatnonzero(self.alive[: self.size]) if within is None else within[self.alive[within]]
        if len(rows) <= self.exact_limit:
            return rows
        count = max(self.rerank, len(rows) // RERANK_SHARE)
        if count >= len(rows):
            return rows
        bits = self._ensure_bits()
        query_bits = self._sign_bits(query[None, :])[:, 0]
        distance = np.zeros(len(rows), dtype=np.uint16)
        for word, query_word in zip(bits, query_bits, strict=True):
            distance += _popcount(word[rows] ^ query_word)
        return np.sort(rows[np.argpartition(distance, count - 1)[:count]])

    def _ensure_bits(self) -> np.ndarray:
        """The sign bits of every row, computed for the rows appended since the last call."""
        if self._bits is not None and self._bits_size == self.size:
            return self._bits
        if self._mean is None:
            live = np.flatnonzero(self.alive[: self.size])
            self._mean = (
                self.float_rows(live).mean(axis=0) if len(live) else np.zeros(self.dimensions, dtype=np.float32)
            )
        words = (self.dimensions + 63) // 64
        if self._bits is None:
            self._bits = np.zeros((words, len(self.scales)), dtype=np.uint64)
            self._bits_size = 0
        for start in range(self._bits_size, self.size, _BLOCK):
            end = min(start + _BLOCK, self.size)
            self._bits[:, start:end] = self._sign_bits(self.float_rows(np.arange(start, end)))
        self._bits_size = self.size
        return self._bits

    def _sign_bits(self, rows: np.ndarray) -> np.ndarray:
        """Sign bits of mean-centred float rows, one uint64 row per 64 dimensions (words × rows):
        scanning a few long contiguous rows is what numpy does fastest."""
        packed = np.packbits(rows - self._mean > 0, axis=1)
        pad = (-packed.shape[1]) % 8
        if pad:
            packed = np.concatenate([packed, np.zeros((len(packed), pad), dtype=np.uint8)], axis=1)
        return np.ascontiguousarray(packed.view(np.uint64).T)

    def search(
        self, query: np.ndarray, k: int, *, within: np.ndarray | None = None, bonus: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` best rows by cosine (+ ``bonus[row]`` when given), best first: (rows, cosines)."""
        query = np.asarray(query, dtype=np.float32).reshape(-1)
        rows = self.candidates(query, within)
        if k <= 0 or not len(rows):
            return rows[:0], np.zeros(0, dtype=np.float32)
        cosine = self.similarity(rows, query)
        score = cosine + bonus[rows] if bonus is not None else cosine
        if len(score) > k:
            top = np.argpartition(-score, k - 1)[:k]
        else:
            top = np.arange(len(score))
        top = top[np.lexsort((rows[top], -score[top]))]  # best first; ties by row
        return rows[top], cosine[top]


class VectorIndex:
    """``ids`` (ints) and their L2-normalised vectors, searched by cosine similarity."""

    def __init__(self, ids, vectors, *, exact_limit: int = EXACT_LIMIT, rerank: int = RERANK) -> None:
        ids = np.asarray(ids, dtype=np.int64).reshape(-1)
        matrix = np.asarray(vectors, dtype=np.float32)
        if matrix.ndim != 2 or len(ids) != len(matrix):
            raise ValueError(f"{len(ids)} ids for vectors of shape {matrix.shape}")
        self.ids = ids
        self.rows = VectorRows(matrix.shape[1], max(1, len(ids)), exact_limit=exact_limit, rerank=rerank)
        if len(ids):
            self.rows.append(*quantize(matrix))
        self._row_of = {int(i): r for r, i in enumerate(ids)}

    def __len__(self) -> int:
        return len(self.ids)

    def search(
        self,
        query: np.ndarray,
        k: int = 10,
        *,
        threshold: float | None = None,
        candidates: Collection[int] | None = None,
    ) -> list[tuple[int, float]]:
        """The ``k`` most similar (id, cosine) pairs, best first, with cosine ≥ ``threshold``;
        when ``candidates`` is given, only among those ids."""
        within = None
        if candidates is not None:
            within = np.array(sorted({self._row_of[i] for i in candidates if i in self._row_of}), dtype=np.int64)
        rows, cosine = self.rows.search(query, k, within=within)
        out = [(int(self.ids[r]), float(c)) for r, c in zip(rows, cosine, strict=True)]
        return [p for p in out if p[1] >= threshold] if threshold is not None else out
