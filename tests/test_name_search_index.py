"""The structures behind name search, kept current as files change: the trigram index behind
substring search (lists of names, built anew once edits have listed names again more than it
holds), the names by lower case, and the order a match is listed in."""

from __future__ import annotations

import random

from codecairn.index import name_order, symbol_index
from codecairn.index.symbol_index import SymbolIndex
from codecairn.query.lookup import kind_rank


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


def answer_order(index: SymbolIndex) -> list[int]:
    return sorted(index.rows, key=index.order_keys(kind_rank).__getitem__)


def test_the_listing_order_and_the_names_stay_right_while_files_change(monkeypatch) -> None:
    # Ranks with room for one symbol between two: edits fill the gaps and everyone is numbered again.
    monkeypatch.setattr(name_order, "GAP", 4)
    pick = random.Random(7)
    words = ["Parse", "parse", "url", "Url", "split", "quote", "get", "set", "x", "Handler", "run", "a_b"]

    def file_rows(file_id: int, first_id: int, count: int) -> list[tuple]:
        out = []
        for i in range(count):
            name = "".join(pick.choice(words) for _ in range(pick.randint(1, 3)))
            kind = pick.choice(["class", "function", "method", "variable"])
            out.append((first_id + i, file_id, None, kind, name, f"m{file_id}.{name}", i + 1, i + 1))
        return out

    index = SymbolIndex()
    next_id = 1
    for fid in range(1, 6):
        index.add(file_rows(fid, next_id, 40))
        next_id += 40
    first = answer_order(index)  # built here, then kept current
    top = [index.rows[sid] for sid in first[:3]]
    assert [s.kind for s in top] == ["class"] * 3 and len(top[0].name) <= len(top[1].name) <= len(top[2].name)
    assert index.exact_matches("URL") == ["url"] or "url" not in {s.name.lower() for s in index.rows.values()}

    for edit in range(60):
        fid = pick.randint(1, 6)
        index.remove_files([fid])
        index.add(file_rows(fid, next_id, pick.randint(0, 30)))
        next_id += 100
        fresh = SymbolIndex()
        fresh.add(list(index.rows.values()))
        # what a search lists, in the order a fresh index lists it: kind, name length, qualified name, id
        assert answer_order(index) == sorted(index.rows, key=fresh.order_keys(kind_rank).__getitem__)
        # every name, in any case, still finds its symbols and only them
        for lower in {s.name.lower() for s in fresh.rows.values()}:
            expected = sorted(sid for sid, s in fresh.rows.items() if s.name.lower() == lower)
            assert sorted(index.ids_of(index.exact_matches(lower.upper()))) == expected
        assert sorted(index.prefix_matches("url")) == sorted(fresh.prefix_matches("url"))
        assert sorted(index.substring_matches("par")) == sorted(fresh.substring_matches("par"))
