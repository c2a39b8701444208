"""The semantic index's bookkeeping: which row holds which symbol's vector, through additions,
removals, re-embeddings and the compaction that follows many removals. A wrong row is a query that
answers with another symbol's name."""

from __future__ import annotations

import numpy as np
from codecairn.semantic.catalog import Entry, SemanticIndex
from codecairn.semantic.priors import Traits
from codecairn.semantic.vectors import quantize

DIMENSIONS = 16


def _vector(symbol_id: int) -> np.ndarray:
    vector = np.random.default_rng(symbol_id).standard_normal(DIMENSIONS).astype(np.float32)
    return vector / np.linalg.norm(vector)


def _add(index: SemanticIndex, symbol_ids: list[int]) -> None:
    entries = [Entry(sid, f"{sid:032x}", {f"word{sid}": 1}, Traits()) for sid in symbol_ids]
    rows, scales = quantize(np.stack([_vector(sid) for sid in symbol_ids]))
    index.add(entries, rows, scales)


def _nearest(index: SemanticIndex, symbol_id: int) -> int:
    rows = index.row_of.rows()
    scores = index.vectors.similarity(rows, _vector(symbol_id))
    return int(index.symbol[rows[int(np.argmax(scores))]])


def test_each_symbol_keeps_its_own_vector_through_removals_and_compaction() -> None:
    index = SemanticIndex(DIMENSIONS)
    _add(index, list(range(1, 401)))
    _add(index, [7, 5000])  # 7 embedded again (its row moves), 5000 far beyond the others' ids

    removed = index.remove([sid for sid in range(1, 401) if sid % 3 == 0])  # a third: compacted
    index.retain({sid: None for sid in range(1, 401)})  # 5000 left the symbol index

    kept = [sid for sid in range(1, 401) if sid % 3]
    assert removed == 133
    assert len(index) == len(kept) and sorted(index.row_of) == kept
    assert 3 not in index and 5000 not in index and 7 in index and -1 not in index
    for sid in (1, 7, 200, 400):
        assert index.symbol[index.row_of[sid]] == sid
        assert _nearest(index, sid) == sid  # its row holds its vector
    assert index.hashes() == {f"{sid:032x}" for sid in kept}
    assert index.rows_of([400, 2, 3]).tolist() == sorted([index.row_of[400], index.row_of[2]])
