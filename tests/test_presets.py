"""The evaluation presets: the registry, and each preset's features on boards worked out by hand."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from strategies import boards, ranks

from game2048 import board as B
from game2048.evaluation import corner, presets, rows, snake

# ---------------------------------------------------------------- registry


def test_all_four_presets_are_registered_with_descriptions_and_weights():
    assert {"classic", "rows", "snake", "corner-weights"} <= set(presets.PRESETS)
    for preset in presets.PRESETS.values():
        assert len(preset.description) > 40
        assert preset.default_weights and all(isinstance(v, float) for v in preset.default_weights.values())


def test_classic_is_untouched():
    assert dict(presets.get("classic").default_weights) == {
        "smoothness": 0.1,
        "monotonicity": 1.0,
        "empty": 2.7,
        "max": 1.0,
    }


@pytest.mark.parametrize(
    "module",
    [rows, snake, corner],
)
def test_feature_weights_are_weights_of_the_preset(module):
    assert set(module.FEATURE_WEIGHTS) <= set(module.DEFAULT_WEIGHTS)


def test_unknown_weight_is_refused_with_the_known_names():
    with pytest.raises(ValueError, match="monotonicity_weight"):
        presets.get("rows").make({"monotonicty_weight": 1.0})


@pytest.mark.parametrize("name", ["rows", "snake", "corner-weights"])
def test_weights_change_the_evaluation(name):
    preset = presets.get(name)
    board = B.from_rows([[1024, 512, 8, 2], [4, 8, 16, 0], [2, 0, 0, 0], [0, 0, 2, 0]])
    base = preset.make()(board)
    changed = {k: v * 3 + 1 for k, v in preset.default_weights.items()}
    assert preset.make(changed)(board) != base
    assert preset.make()(board) == base  # and the defaults come back (cached tables are per weight set)


# ---------------------------------------------------------------- rows


def test_rows_line_features_by_hand():
    # Line 2 2 4 _ (ranks 1 1 2 0): one empty; the run of two equal tiles is 2 merges;
    # rank^4 steps: 1→1 up 0, 1→2 up 15, 2→0 down 16, so min(16, 15) = 15; Σ rank^3.5 = 2 + 2^3.5.
    f = rows.line_features((1, 1, 2, 0))
    assert f == {"empty": 1.0, "merges": 2.0, "monotonicity": 15.0, "sum": pytest.approx(2 + 2**3.5)}
    # Three equal tiles are one run: 1 + 2 = 3 merges; an empty cell between equal tiles does not break the run.
    assert rows.line_features((3, 3, 3, 0))["merges"] == 3.0
    assert rows.line_features((3, 0, 3, 1))["merges"] == 2.0


def test_rows_board_score_by_hand():
    board = B.from_rows([[2, 2, 4, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    s = 2**3.5
    row0 = 200000 + 270 * 1 + 700 * 2 - 47 * 15 - 11 * (2 + s)
    empty_line = 200000 + 270 * 4
    col_of_2 = 200000 + 270 * 3 - 11 * 1  # 1 0 0 0: decreases 1, increases 0 → monotonicity 0
    col_of_4 = 200000 + 270 * 3 - 11 * s
    expected = row0 + 3 * empty_line + 2 * col_of_2 + col_of_4 + empty_line
    assert rows.make_evaluator()(board) == pytest.approx(expected, rel=1e-12)
    assert presets.get("rows").make()(board) == pytest.approx(expected, rel=1e-12)


def test_rows_weights_are_the_constants():
    board = B.from_rows([[2, 2, 4, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    only_empty = {k: 0.0 for k in rows.DEFAULT_WEIGHTS} | {
        "empty_weight": 1.0,
        "monotonicity_power": 4.0,
        "sum_power": 3.5,
    }
    # Empty cells counted in rows and in columns: 13 each.
    assert rows.make_evaluator(only_empty)(board) == 26.0
    assert rows.features(board)["empty"] == 26.0
    assert rows.make_evaluator()(board) > 0 and rows.make_evaluator().lost_value == 0.0


@given(boards())
def test_rows_table_matches_the_line_definition(board):
    w = rows.DEFAULT_WEIGHTS
    f = rows.features(board)
    expected = (
        8 * w["lost_penalty"]
        + w["empty_weight"] * f["empty"]
        + w["merges_weight"] * f["merges"]
        - w["monotonicity_weight"] * f["monotonicity"]
        - w["sum_weight"] * f["sum"]
    )
    assert rows.make_evaluator()(board) == pytest.approx(expected, rel=1e-9)


# ---------------------------------------------------------------- snake

SNAKE_BOARD = B.from_rows([[8, 4, 2, 0], [0, 0, 2, 16], [0, 0, 0, 0], [0, 0, 0, 2]])
"""Path (rows 1 and 3 reversed): 3 2 1 0 | 4 1 0 0 | 0 0 0 0 | 1 0 0 0."""


def test_snake_path_reverses_every_other_row():
    assert snake.path_ranks(SNAKE_BOARD) == [3, 2, 1, 0, 4, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0]


def test_snake_features_by_hand():
    # steps 1 1 1 4 3 1 0 0 0 0 0 1 1 0 0 = 13;
    # inversions: 3, 2, 1 each before the 4 (3); the 0 at index 3 before 4, 1, 1 (3);
    # the six 0s at indices 6..11 before the 1 at index 12 (6): 12 in all;
    # 6 tiles, 10 empty, max rank 4, values {2, 4, 8, 16}: 2 repeats; mean rank (3+2+1+1+4+1)/6 = 2.
    assert snake.features(SNAKE_BOARD) == {
        "smoothness": -13.0,
        "monotonicity": -12.0,
        "empty": 10.0,
        "max": 4.0,
        "repeats": -2.0,
        "mean": 2.0,
    }
    assert snake.make_evaluator()(SNAKE_BOARD) == -13 - 2 * 12 + 3 * 10 + 4


def test_snake_perfect_line_has_no_inversions_and_smoothness_of_its_head():
    board = B.from_rows([[2048, 1024, 512, 256], [16, 32, 64, 128], [8, 4, 0, 0], [0, 0, 0, 0]])
    f = snake.features(board)
    assert f["monotonicity"] == 0.0 and f["smoothness"] == -11.0 and f["repeats"] == 0.0


def test_snake_empty_board():
    assert snake.features(0) == {
        "smoothness": 0.0,
        "monotonicity": 0.0,
        "empty": 16.0,
        "max": 0.0,
        "repeats": 0.0,
        "mean": 0.0,
    }


def test_snake_tables_match_the_definition_on_random_boards():
    rng = random.Random(5)
    for _ in range(500):
        board = 0
        for i in range(16):
            board |= rng.choice([0, 0, 0, 1, 2, 5, 9, 12, 15]) << (4 * i)
        expected = snake.features_of_line(snake.path_ranks(board))
        assert snake.features(board) == pytest.approx(expected)


@pytest.mark.parametrize("name", list(snake.DEFAULT_WEIGHTS))
def test_snake_single_feature_evaluation_is_that_feature(name):
    only = {k: 0.0 for k in snake.DEFAULT_WEIGHTS} | {name: 1.0}
    assert snake.make_evaluator(only)(SNAKE_BOARD) == pytest.approx(snake.features(SNAKE_BOARD)[name])


# ---------------------------------------------------------------- corner-weights


def test_corner_matrices_are_paths_through_all_cells():
    for name, m in corner.MATRICES.items():
        steps = [s for row in m for s in row]
        assert sorted(steps) == list(range(16))
        where = {s: divmod(i, 4) for i, s in enumerate(steps)}
        assert where[0] == (0, 0)
        for k in range(15):  # each step goes to a neighbour (the zigzag also diagonally, along an anti-diagonal)
            (r1, c1), (r2, c2) = where[k], where[k + 1]
            near = abs(r1 - r2) + abs(c1 - c2) == 1
            diagonal = name == "zigzag" and r1 - r2 == c2 - c1 and abs(r1 - r2) == 1
            assert near or diagonal, (name, k)


def test_corner_weights_by_hand():
    # 1024 in a corner with 512 beside it: step 0 and step 1 on every path, 1024 + 512 × 0.5.
    side = B.from_rows([[1024, 512, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    assert corner.make_evaluator()(side) == 1280.0
    # 512 diagonal to the corner: row snake puts (1, 1) at step 6, spiral at 12, zigzag at 4.
    diagonal = B.from_rows([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 512, 0], [0, 0, 0, 1024]])
    assert corner.features(diagonal) == {
        "row_snake": 1024 + 512 / 2**6,
        "spiral": 1024 + 512 / 2**12,
        "zigzag": 1024 + 512 / 2**4,
    }
    assert corner.make_evaluator()(diagonal) == 1056.0
    assert corner.make_evaluator({"zigzag": 0.0})(diagonal) == 1032.0
    assert corner.make_evaluator({"row_snake": 3.0, "zigzag": 0.0})(diagonal) == 3 * 1032.0


@given(boards(rank_strategy=ranks))
def test_corner_tables_match_the_cell_by_cell_definition(board):
    for weights in ({}, {"spiral": 0.0, "zigzag": 2.0, "decay": 0.3}):
        assert corner.make_evaluator(weights)(board) == pytest.approx(corner.reference_score(board, weights), rel=1e-12)


@given(boards())
def test_corner_score_is_the_same_on_all_eight_symmetries(board):
    evaluate = corner.make_evaluator()
    scores = {evaluate(image) for image in B.symmetries(board)}
    assert max(scores) - min(scores) <= 1e-9 * max(1.0, max(scores))


def test_corner_lost_value_is_below_every_live_board():
    evaluate = corner.make_evaluator()
    assert evaluate.lost_value == 0.0 and evaluate(B.from_rows([[0, 0, 0, 0]] * 3 + [[0, 0, 0, 2]])) > 0
    assert corner.make_evaluator({"spiral": -1.0}).lost_value < -1e9
