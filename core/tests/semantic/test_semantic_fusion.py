"""Reciprocal-rank fusion of name matches and semantic matches."""

from __future__ import annotations

from codecairn.semantic.fusion import reciprocal_rank_fusion


def test_a_symbol_found_both_by_name_and_by_meaning_ranks_first_and_says_so():
    fused = reciprocal_rank_fusion(["parse_url", "parse_header"], [("urlsplit", 0.71), ("parse_header", 0.64)])

    assert [r.id for r in fused] == ["parse_header", "parse_url", "urlsplit"]
    assert fused[0].matched == ("name", "semantic")
    assert fused[0].semantic_score == 0.64
    assert (fused[0].name_rank, fused[0].semantic_rank) == (2, 2)


def test_each_result_says_why_it_matched():
    fused = {r.id: r for r in reciprocal_rank_fusion(["a"], [("b", 0.5)])}

    assert fused["a"].matched == ("name",) and fused["a"].semantic_score is None
    assert fused["b"].matched == ("semantic",) and fused["b"].semantic_score == 0.5


def test_equal_ranks_tie_in_input_order_and_weights_break_ties():
    assert [r.id for r in reciprocal_rank_fusion(["a"], [("b", 0.9)])] == ["a", "b"]
    assert [r.id for r in reciprocal_rank_fusion(["a"], [("b", 0.9)], semantic_weight=1.5)] == ["b", "a"]


def test_repeated_ids_keep_their_best_rank_and_limit_cuts_the_answer():
    fused = reciprocal_rank_fusion(["a", "b", "a", "c"], [("c", 0.3), ("c", 0.2)], limit=2)

    assert [r.id for r in fused] == ["c", "a"]
    assert fused[0].semantic_score == 0.3 and fused[0].name_rank == 4


def test_one_empty_list_leaves_the_other_in_order():
    assert [r.id for r in reciprocal_rank_fusion([], [("x", 0.4), ("y", 0.3)])] == ["x", "y"]
    assert [r.id for r in reciprocal_rank_fusion(["p", "q"], [])] == ["p", "q"]
    assert reciprocal_rank_fusion([], []) == []
