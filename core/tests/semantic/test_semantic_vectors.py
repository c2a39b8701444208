"""The in-memory vectors (int8 rows with a scale each), their search and their BLOB encoding."""

from __future__ import annotations

import numpy as np
import pytest
from codecairn.semantic.vectors import VectorIndex, VectorRows, decode_vector, decode_vectors, encode_vector, quantize


def unit(*components: float) -> np.ndarray:
    v = np.array(components, dtype=np.float32)
    return v / np.linalg.norm(v)


@pytest.fixture
def compass() -> VectorIndex:
    # ids deliberately unsorted and sparse, as symbol ids from a store are
    return VectorIndex(
        [40, 7, 12, 99],
        [unit(1, 0, 0), unit(1, 1, 0), unit(0, 1, 0), unit(-1, 0, 0)],
    )


def test_search_returns_the_nearest_ids_best_first_with_their_cosine(compass):
    found = compass.search(unit(1, 0.1, 0), k=3)

    assert [i for i, _ in found] == [40, 7, 12]
    assert found[0][1] == pytest.approx(float(unit(1, 0.1, 0) @ unit(1, 0, 0)), abs=0.01)
    assert found[0][1] > found[1][1] > found[2][1]


def test_a_threshold_drops_weak_matches(compass):
    found = compass.search(unit(1, 0.1, 0), k=4, threshold=0.5)

    assert [i for i, _ in found] == [40, 7]


def test_search_can_be_limited_to_candidate_ids(compass):
    assert [i for i, _ in compass.search(unit(1, 0, 0), k=2, candidates={12, 99, 12345})] == [12, 99]
    assert compass.search(unit(1, 0, 0), k=2, candidates=set()) == []


def test_an_empty_index_finds_nothing():
    assert VectorIndex([], np.zeros((0, 3), dtype=np.float32)).search(unit(1, 0, 0)) == []


def test_large_indexes_prefilter_by_sign_bits_and_still_find_the_nearest_vectors():
    # 30 topics of 100 symbols each: neighbours share a topic, as real code embeddings do
    rng = np.random.default_rng(7)
    topics = rng.standard_normal((30, 64)).astype(np.float32)
    vectors = np.repeat(topics, 100, axis=0) + 0.5 * rng.standard_normal((3000, 64)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    ids = np.arange(3000) * 2
    exact = VectorIndex(ids, vectors)
    prefiltered = VectorIndex(ids, vectors, exact_limit=1000, rerank=100)
    query_rows = (0, 1234, 2999)
    assert len(prefiltered.rows.candidates(vectors[0])) < 3000 == len(exact.rows.candidates(vectors[0]))

    for row in query_rows:
        query = vectors[row] + 0.02 * rng.standard_normal(64).astype(np.float32)
        query /= np.linalg.norm(query)
        found = prefiltered.search(query, k=5)
        assert found[0][0] == ids[row]
        assert found == exact.search(query, k=5)


def test_a_vector_is_stored_as_a_scale_and_one_signed_byte_per_dimension():
    vector = unit(*np.linspace(-1, 1, 384))

    blob = encode_vector(vector)

    assert len(blob) == 4 + 384
    assert np.allclose(decode_vector(blob, 384), vector, atol=0.01)
    assert float(decode_vector(blob, 384) @ vector) > 0.999


def test_float16_vectors_stored_by_earlier_versions_are_still_read():
    old, new = unit(*range(1, 17)), unit(*range(16, 0, -1))
    blobs = [old.astype("<f2").tobytes(), encode_vector(new), old.astype("<f4").tobytes()]

    rows, scales = decode_vectors(blobs, 16)

    for i, expected in enumerate((old, new, old)):
        assert np.allclose(rows[i] * scales[i], expected, atol=0.01)
    with pytest.raises(ValueError, match="1000-byte"):
        decode_vectors([b"\0" * 1000], 384)


def test_rows_let_go_are_never_found_and_compaction_renumbers_the_rest():
    table = VectorRows(3, capacity=2)
    first = table.append(*quantize(np.stack([unit(1, 0, 0), unit(0, 1, 0), unit(0, 0, 1)])))
    assert first.tolist() == [0, 1, 2] and len(table) == 3  # grew past its first capacity

    table.drop([0])
    rows, _ = table.search(unit(1, 0.1, 0), k=3)
    assert 0 not in rows.tolist() and len(table) == 2

    remap = table.compact()
    assert remap.tolist() == [-1, 0, 1]
    rows, cosine = table.search(unit(0, 1, 0), k=1)
    assert rows.tolist() == [0] and cosine[0] == pytest.approx(1, abs=0.01)


def test_a_bonus_per_row_reorders_near_ties():
    table = VectorRows(2)
    table.append(*quantize(np.stack([unit(1, 0.05), unit(1, 0.1)])))

    assert table.search(unit(1, 0), k=2)[0].tolist() == [0, 1]
    assert table.search(unit(1, 0), k=2, bonus=np.array([0.0, 0.1], dtype=np.float32))[0].tolist() == [1, 0]
