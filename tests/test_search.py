"""``best_move``: the one entry point: defaults, dispatch by algorithm, clear refusals of bad arguments."""

from __future__ import annotations

import pytest

from game2048 import board as B
from game2048.search import ALGORITHMS, DEFAULT_PRESETS, best_move

BOARD = B.from_rows([[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]])


def test_defaults_are_alphabeta_with_the_classic_evaluation() -> None:
    result = best_move(BOARD, think_ms=20)
    assert (result.algorithm, result.preset, result.think_ms) == ("alphabeta", "classic", 20.0)
    assert result.move in B.legal_moves(BOARD)


def test_expectimax_is_dispatched_with_its_own_default_preset() -> None:
    result = best_move(BOARD, depth=2, algorithm="expectimax")
    assert (result.algorithm, result.preset, result.depth) == ("expectimax", DEFAULT_PRESETS["expectimax"], 2)
    assert result.move in B.legal_moves(BOARD)


def test_any_preset_drives_alphabeta() -> None:
    from game2048.evaluation import presets

    for name in presets.PRESETS:
        result = best_move(BOARD, depth=2, preset=name)
        assert result.preset == name and result.move in B.legal_moves(BOARD)


def test_weights_reach_the_evaluation() -> None:
    plain = best_move(BOARD, depth=2)
    weighted = best_move(BOARD, depth=2, weights={"max": 100.0})
    assert weighted.score != plain.score


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"algorithm": "minimax"}, "unknown algorithm 'minimax'"),
        ({"preset": "nope"}, "unknown preset 'nope'"),
        ({"weights": {"speed": 1.0}}, "no weight(s) ['speed']"),
        ({"weights": {"max": "high"}}, "weight 'max' must be a finite number"),
        ({"weights": {"max": float("nan")}}, "weight 'max' must be a finite number"),
        ({"weights": [1, 2]}, "weights are a mapping"),
        ({"depth": 0}, "depth is a whole number"),
        ({"depth": 2.5}, "depth is a whole number"),
        ({"depth": 61}, "at most 60 player moves deep"),
        ({"think_ms": 0}, "think_ms is a positive number"),
        ({"think_ms": "fast"}, "think_ms is a positive number"),
        ({"reductions": "no"}, "reductions is True or False"),
        ({"algorithm": "expectimax", "reductions": True}, "an alpha-beta option"),
    ],
)
def test_bad_arguments_are_refused_with_a_clear_message(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError) as excinfo:
        best_move(BOARD, **kwargs)
    assert message in str(excinfo.value)


@pytest.mark.parametrize("board", [-1, 1 << 64, "0x12", 1.5, True])
def test_a_board_that_is_not_a_board_is_refused(board: object) -> None:
    with pytest.raises(ValueError, match="64-bit int"):
        best_move(board)  # type: ignore[arg-type]


def test_the_known_algorithms_are_listed() -> None:
    assert ALGORITHMS == ("alphabeta", "expectimax")
    assert set(DEFAULT_PRESETS) == set(ALGORITHMS)


def test_the_clock_starts_after_the_algorithms_module_is_loaded(monkeypatch) -> None:
    """A first decision's import is set-up, not thinking: the clock is first read once the module is in."""
    import sys
    import time

    from game2048.search import SearchOptions, decide

    monkeypatch.delitem(sys.modules, "game2048.search.expectimax", raising=False)
    monkeypatch.delattr("game2048.search.expectimax", raising=False)
    reads = []

    def clock() -> float:
        reads.append("game2048.search.expectimax" in sys.modules)
        return time.perf_counter()

    decide(0x1, SearchOptions("expectimax", think_ms=50, preset="rows"), clock)
    assert reads and reads[0]
