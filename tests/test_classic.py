"""The classic evaluation: its table-driven form equals the original's cell-by-cell definition."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from strategies import boards

from game2048 import board as B
from game2048 import reference
from game2048.evaluation import classic


def test_hand_checked_board() -> None:
    board = B.from_rows([[2, 2, 4, 8], [0, 2, 0, 2], [4, 4, 4, 4], [0, 0, 0, 2]])
    f = classic.features(board)
    assert f == {"smoothness": -8, "monotonicity": -3, "empty": pytest.approx(math.log(5)), "max": 3}
    assert classic.make_evaluator()(board) == pytest.approx(0.1 * -8 + 1.0 * -3 + 2.7 * math.log(5) + 3)


def test_perfect_snake_is_monotone() -> None:
    board = B.from_rows([[2, 4, 8, 16], [4, 8, 16, 32], [8, 16, 32, 64], [16, 32, 64, 128]])
    assert classic.features(board)["monotonicity"] == 0


@given(boards(min_tiles=1))
def test_tables_equal_cell_by_cell_definition(board: int) -> None:
    got = classic.features(board)
    want = reference.classic_features(board)
    assert got == pytest.approx(want)
    w = classic.DEFAULT_WEIGHTS
    assert classic.make_evaluator()(board) == pytest.approx(sum(w[k] * want[k] for k in w))


def test_full_board_scores_finite_and_below_one_empty_cell() -> None:
    full = B.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    one_empty = B.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 0]])
    value = classic.make_evaluator()(full)
    assert math.isfinite(value)
    assert classic.features(full)["empty"] == pytest.approx(math.log(0.5))
    assert classic.features(full)["empty"] < classic.features(one_empty)["empty"]


def test_weights_override_defaults() -> None:
    board = B.from_rows([[2, 2, 4, 8], [0, 2, 0, 2], [4, 4, 4, 4], [0, 0, 0, 2]])
    only_max = classic.make_evaluator({"smoothness": 0, "monotonicity": 0, "empty": 0, "max": 1})
    assert only_max(board) == 3
