"""BM25 over symbol words: a rare word the query shares counts more than a common one, and rows
that went away are never found again."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from codecairn.semantic.lexical import LexicalIndex


def indexed(*docs: str) -> LexicalIndex:
    index = LexicalIndex()
    for row, words in enumerate(docs):
        index.add(row, Counter(words.split()))
    return index


def alive(size: int, dead: tuple[int, ...] = ()) -> np.ndarray:
    mask = np.ones(size, dtype=bool)
    mask[list(dead)] = False
    return mask


def test_a_rare_shared_word_outweighs_a_common_one():
    index = indexed("pars url", "pars header", "pars date", "netrc file", "pars file")

    rows, scores = index.search(["netrc", "pars"], alive(5))
    best = dict(zip(rows.tolist(), scores.tolist()))

    assert max(best, key=best.get) == 3
    assert set(best) == {0, 1, 2, 3, 4}


def test_a_word_repeated_in_a_name_counts_more_but_saturates():
    index = indexed("split split split url", "split url", "url url url url url url url url url url")

    rows, scores = index.search(["split"], alive(3))
    best = dict(zip(rows.tolist(), scores.tolist()))

    assert best[0] > best[1] and best[0] < 3 * best[1]
    assert 2 not in best


def test_only_live_rows_and_rows_asked_for_are_scored():
    index = indexed("pars url", "pars header", "pars date")

    assert index.search(["pars"], alive(3, dead=(1,)))[0].tolist() == [0, 2]
    assert index.search(["pars"], alive(3), within=np.array([2]))[0].tolist() == [2]
    assert index.search(["nothing"], alive(3))[0].tolist() == []


def test_compaction_renumbers_rows_and_forgets_dropped_ones():
    index = indexed("pars url", "pars header", "pars date")
    index.drop([0])
    index.compact(np.array([-1, 0, 1]))

    rows, _ = index.search(["pars"], alive(2))
    assert rows.tolist() == [0, 1]
    assert index.search(["url"], alive(2))[0].tolist() == []
    assert len(index) == 2


def test_a_word_of_the_same_family_counts_for_half_of_the_same_word():
    # "comparison" and "compar" (from "compares"): one is the other plus an ending.
    index = indexed("comparison order", "compar order", "order key")

    rows, scores = index.search(["comparison"], alive(3))
    best = dict(zip(rows.tolist(), scores.tolist()))
    assert set(best) == {0, 1}
    assert best[1] == pytest.approx(best[0] / 2, rel=0.05)

    rows, scores = index.search(["compar"], alive(3))
    assert set(rows.tolist()) == {0, 1}


def test_short_words_have_no_family():
    index = indexed("read reader", "readline")

    assert index.search(["read"], alive(2))[0].tolist() == [0]
