"""The trigram index behind substring search: lists of names, kept current as files change, and
built anew once edits have listed names again more than it holds."""

from __future__ import annotations

from codecairn.index import symbol_index
from codecairn.index.symbol_index import SymbolIndex


def rows(file_id: int, first_id: int, names: list[str]) -> list[tuple]:
    return [(first_id + i, file_id, None, "function", n, f"m{file_id}.{n}", i + 1, i + 1) for i, n in enumerate(names)]


def test_substrings_stay_right_while_a_file_is_edited_again_and_again(monkeypatch) -> None:
    monkeypatch.setattr(symbol_index, "GRAM_SLACK", 50)
    index = SymbolIndex()
    index.add(rows(1, 1, ["parse_url", "urlparse", "UrlSplit", "quote"]))
    index.add(rows(2, 100, ["reparse", "split_url"]))
    assert sorted(index.substring_matches("url")) == ["parse_url", "split_url"]  # not the prefix matches
    assert index.grams_ready()

    next_id = 1000
    dropped = False
    for edit in range(40):  # file 2 rewritten: its names leave and come back (and one new each time)
        index.remove_files([2])
        index.add(rows(2, next_id, ["reparse", "split_url", f"url_v{edit}_sparse"]))
        next_id += 10
        dropped = dropped or not index.grams_ready()
        # the names of earlier edits are gone from the answers, whatever the index still lists
        assert sorted(index.substring_matches("parse")) == sorted(["reparse", "urlparse", f"url_v{edit}_sparse"])
        assert sorted(index.substring_matches("url")) == ["parse_url", "split_url"]
    assert dropped, "past its slack the index was built anew"
    assert sum(map(len, index._grams.values())) < 200  # not every edit's names listed again
