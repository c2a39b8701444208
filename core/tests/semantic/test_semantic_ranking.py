"""One query against the semantic index: vectors, words and priors together, over a small
hand-made index whose vectors point where a model would put them."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from codecairn.semantic import ranking
from codecairn.semantic.catalog import Entry, SemanticIndex
from codecairn.semantic.priors import Traits
from codecairn.semantic.vectors import quantize


def unit(*components: float) -> np.ndarray:
    v = np.array(components, dtype=np.float32)
    return v / np.linalg.norm(v)


def entry(symbol_id: int, words: str = "", **traits) -> Entry:
    return Entry(symbol_id, f"h{symbol_id}", Counter(words.split()), Traits(**traits))


def index_of(*items: tuple[Entry, np.ndarray]) -> SemanticIndex:
    index = SemanticIndex(3)
    index.add([e for e, _ in items], *quantize(np.stack([v for _, v in items])))
    return index


def ids(hits: list[ranking.Hit]) -> list[int]:
    return [h.symbol_id for h in hits]


def test_the_public_function_beats_a_slightly_closer_private_helper_and_a_test():
    index = index_of(
        (entry(1, "split url", private=True), unit(1, 0.05, 0)),  # urllib.parse._splitquery
        (entry(2, "test split url", test=True), unit(1, 0.04, 0)),  # test_urlsplit
        (entry(3, "url split", used_by_files=30, exported=True), unit(1, 0.15, 0)),  # urlsplit
    )

    hits = ranking.search(index, unit(1, 0, 0), ["split", "url"], 3)

    assert ids(hits) == [3, 1, 2]
    assert hits[0].cosine == pytest.approx(float(unit(1, 0.15, 0) @ unit(1, 0, 0)), abs=0.01)


def test_a_class_comes_before_its_method_that_reads_a_little_closer():
    index = index_of(
        (entry(1, "pool", member=True), unit(1, 0.05, 0)),  # ThreadPoolExecutor.submit (no doc of its own)
        (entry(2, "pool"), unit(1, 0.2, 0)),  # ThreadPoolExecutor
    )

    assert ids(ranking.search(index, unit(1, 0, 0), ["pool"], 2)) == [2, 1]


def test_tests_come_back_when_the_query_asks_for_them():
    index = index_of((entry(1, "url"), unit(1, 0.2, 0)), (entry(2, "url", test=True), unit(1, 0, 0)))

    assert ids(ranking.search(index, unit(1, 0, 0), ["url"], 2)) == [1, 2]
    assert ids(ranking.search(index, unit(1, 0, 0), ["url"], 2, wants_tests=True)) == [2, 1]


def test_a_word_the_query_shares_lifts_a_symbol_the_vectors_alone_would_miss():
    index = index_of(
        (entry(1, "read config"), unit(0.9, 0.44, 0)),
        (entry(2, "netrc credential"), unit(0.3, 0.95, 0)),  # far by vector, but named in the query
        (entry(3, "write config"), unit(0.2, 0.98, 0)),
    )

    hits = ranking.search(index, unit(1, 0, 0), ["netrc"], 3)

    assert 2 in ids(hits) and 3 not in ids(hits)  # 3 is below the floor and shares no word
    assert [h.lexical > 0 for h in hits] == [False, True]


def test_search_stays_within_the_rows_asked_for_and_forgets_removed_symbols():
    index = index_of(*[(entry(i, "w"), unit(1, i / 10, 0)) for i in range(1, 6)])

    assert ids(ranking.search(index, unit(1, 0, 0), ["w"], 5, within=index.rows_of({4, 5, 99}))) == [4, 5]
    index.remove([1, 2])
    assert ids(ranking.search(index, unit(1, 0, 0), ["w"], 5)) == [3, 4, 5]
    assert len(index) == 3 and index.hashes() == {"h3", "h4", "h5"}


def test_many_removals_compact_the_rows_and_nothing_is_lost():
    index = index_of(*[(entry(i, f"w{i}"), unit(1, i / 100, 0)) for i in range(100)])
    index.remove(range(0, 60))
    index.add([entry(500, "w500")], *quantize(unit(1, 0, 0)[None, :]))

    assert index.vectors.size == 41  # compacted: 40 kept, then one added
    assert ids(ranking.search(index, unit(1, 0, 0), ["w75"], 3))[:2] == [500, 75]
    assert set(index.row_of) == {500, *range(60, 100)}
