"""The evaluation's terms add up to the evaluation, for every preset, on any board."""

from __future__ import annotations

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
