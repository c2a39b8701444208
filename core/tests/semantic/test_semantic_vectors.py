"""The in-memory vector index and the BLOB encoding of vectors."""

from __future__ import annotations

import numpy as np
import pytest
from codecairn.semantic.vectors import VectorIndex, decode_vector, encode_vector


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
    assert found[0][1] == pytest.approx(float(unit(1, 0.1, 0) @ unit(1, 0, 0)))
    assert found[0][1] > found[1][1] > found[2][1]


def test_a_threshold_drops_weak_matches(compass):
    found = compass.search(unit(1, 0.1, 0), k=4, threshold=0.5)

    assert [i for i, _ in found] == [40, 7]


def test_search_can_be_limited_to_candidate_ids(compass):
    assert [i for i, _ in compass.search(unit(1, 0, 0), k=2, candidates={12, 99, 12345})] == [12, 99]
    assert compass.search(unit(1, 0, 0), k=2, candidates=set()) == []


def test_an_empty_index_finds_nothing():
    assert VectorIndex([], np.zeros((0, 3), dtype=np.float32)).search(unit(1, 0, 0)) == []
    assert len(VectorIndex.from_blobs([], dimensions=3)) == 0


def test_large_indexes_prefilter_by_sign_bits_and_still_find_the_nearest_vectors():
    # 30 topics of 100 symbols each: neighbours share a topic, as real code embeddings do
    rng = np.random.default_rng(7)
    topics = rng.standard_normal((30, 64)).astype(np.float32)
    vectors = np.repeat(topics, 100, axis=0) + 0.5 * rng.standard_normal((3000, 64)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    ids = np.arange(3000) * 2
    exact = VectorIndex(ids, vectors)
    prefiltered = VectorIndex(ids, vectors, exact_limit=1000, rerank=300)
    assert exact.exact and not prefiltered.exact

    for row in (0, 1234, 2999):
        query = vectors[row] + 0.02 * rng.standard_normal(64).astype(np.float32)
        query /= np.linalg.norm(query)
        found = prefiltered.search(query, k=5)
        assert found[0][0] == ids[row]
        assert found == exact.search(query, k=5)


def test_vectors_round_trip_through_float16_and_float32_blobs():
    vector = unit(*np.linspace(-1, 1, 384))

    half, full = encode_vector(vector), encode_vector(vector, "float32")

    assert len(half) == 768 and len(full) == 1536
    assert np.allclose(decode_vector(half, 384), vector, atol=1e-3)
    assert np.array_equal(decode_vector(full, 384), vector)
    with pytest.raises(ValueError, match="1000-byte"):
        decode_vector(b"\0" * 1000, 384)


def test_an_index_is_built_from_stored_blobs():
    rows = [(3, encode_vector(unit(0, 1))), (1, encode_vector(unit(1, 0))), (2, encode_vector(unit(1, 1)))]

    index = VectorIndex.from_blobs(rows, dimensions=2)

    assert len(index) == 3
    assert [i for i, _ in index.search(unit(1, 0.2), k=3)] == [1, 2, 3]
    with pytest.raises(ValueError, match="different sizes"):
        VectorIndex.from_blobs([*rows, (4, encode_vector(unit(1, 0), "float32"))], dimensions=2)
