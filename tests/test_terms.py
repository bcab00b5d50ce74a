"""The evaluation's terms add up to the evaluation, each its weight times what it reads from the board."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from strategies import boards

from game2048.evaluation import presets
from game2048.evaluation.terms import term_name, weighted_terms

PRESETS = sorted(presets.PRESETS)


@pytest.mark.parametrize("name", PRESETS)
@settings(max_examples=60, deadline=None)
@given(board=boards())
def test_the_terms_sum_to_the_presets_evaluation(name, board):
    terms = weighted_terms(name, board)
    assert terms and all(isinstance(term, str) and term_name(term) for term, _ in terms)
    value = presets.get(name).make()(board)
    assert sum(v for _, v in terms) == pytest.approx(value, rel=1e-9, abs=1e-6)


def test_changed_weights_change_the_terms_as_they_change_the_evaluation():
    weights = {"monotonicity": 3.0, "empty": 0.5}
    board = 0x0000_0001_0012_1234
    terms = dict(weighted_terms("classic", board, weights))
    assert sum(terms.values()) == pytest.approx(presets.get("classic").make(weights)(board))


def test_an_unknown_preset_is_refused():
    with pytest.raises(ValueError):
        weighted_terms("nope", 0)


@pytest.mark.parametrize("name", [p for p in PRESETS if p != "learned"])
@settings(max_examples=60, deadline=None)
@given(board=boards())
def test_each_term_is_its_weight_times_what_it_reads_from_the_board(name, board):
    """value = weight × raw value (or × ln of it), every raw value a number the board itself gives."""
    from game2048.board import count_empty, max_rank
    from game2048.evaluation.terms import explained_terms

    terms = explained_terms(name, board)
    assert [(t.name, t.value) for t in terms] == weighted_terms(name, board)
    empty = count_empty(board)
    for term in terms:
        factor = (math.log(term.raw) if term.raw else math.log(0.5)) if term.form == "ln" else term.raw
        assert term.multiplied() == pytest.approx(factor) and term.unit
        assert term.value == pytest.approx(term.weight * factor, rel=1e-12, abs=1e-9)
        if term.name == "empty":  # the count of the board's empty cells (rows counts each in its row and column)
            assert term.raw == (2 * empty if name == "rows" else empty)
        if term.name == "max":
            assert term.raw == max_rank(board)
        if term.name == "lost_penalty":
            assert term.raw == 8


def test_the_classic_terms_of_a_board_rebuilt_by_hand():
    """The issue's example: 7 empty cells give 2.7 × ln 7; smoothness 0.1 × its rank steps."""
    from game2048.board import from_rows
    from game2048.evaluation.terms import explained_terms

    board = from_rows([[0, 0, 2, 2], [0, 4, 8, 16], [0, 8, 32, 64], [4, 16, 128, 256]])
    terms = {t.name: t for t in explained_terms("classic", board)}
    assert (terms["empty"].weight, terms["empty"].raw, terms["empty"].form) == (2.7, 4.0, "ln")
    assert terms["empty"].value == pytest.approx(2.7 * math.log(4))
    assert terms["empty"].unit == "empty cells"
    assert terms["max"].raw == 8 and terms["smoothness"].weight == 0.1
    assert terms["smoothness"].value == pytest.approx(0.1 * terms["smoothness"].raw)


def test_the_learned_terms_are_the_network_share_times_each_pattern_s_weights():
    from test_ntuple import NETWORK

    from game2048.evaluation import learned
    from game2048.evaluation.ntuple_shapes import score_of_tiles
    from game2048.evaluation.terms import explained_terms

    board = 0x0000_0001_0012_1234
    learned.install(NETWORK)
    try:
        terms = explained_terms("learned", board, {"network": 0.5})
    finally:
        learned.install(None)
    *patterns, tiles = terms
    assert all(t.weight == 0.5 and t.value == pytest.approx(0.5 * t.raw) for t in patterns)
    assert tiles.raw == tiles.value == score_of_tiles(board) and tiles.weight == 1.0
