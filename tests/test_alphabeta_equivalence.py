"""Pruning and caching never change the answer: alpha-beta equals plain minimax over the same reduced tree.

``reference.best_moves`` shares nothing with ``alphabeta`` but the rules of the
tree (what depth counts, win and loss values): it moves with ``board.move``
and scores placements from scratch.  At depths 1–3 the root value must be
equal (exactly: the same float from the same evaluation of the same leaf) and
the chosen move one of the moves reaching it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import boards, game_positions

from game2048 import board as B
from game2048 import reference
from game2048.evaluation import presets
from game2048.search import alphabeta, best_move
from game2048.search.clock import Deadline

DEPTHS = (1, 2, 3)


def assert_same_answer(board: int, depth: int, preset: str = "classic") -> None:
    value, moves = reference.best_moves(board, depth, presets.get(preset).make())
    result = best_move(board, depth=depth, preset=preset)
    assert result.score == value, (hex(board), depth)
    if moves:
        assert result.move in moves, (hex(board), depth, result.move, moves)
    else:
        assert result.move is None


def test_there_are_at_least_200_positions_from_early_to_late() -> None:
    positions = game_positions()
    assert len(set(positions)) >= 200
    top = [B.max_rank(b) for b in positions]
    assert min(top) <= 5 and max(top) >= 10  # from a few small tiles to a 1024


@pytest.mark.parametrize("depth", DEPTHS)
def test_alphabeta_equals_minimax_on_game_positions(depth: int) -> None:
    for board in game_positions():
        assert_same_answer(board, depth)


def test_alphabeta_equals_minimax_at_depth_4_on_some_positions() -> None:
    # Deeper trees are where transpositions and cutoffs below cutoffs happen.
    for board in game_positions()[::5]:
        assert_same_answer(board, 4)


@settings(max_examples=120)
@given(boards(min_tiles=6), st.sampled_from((1, 2)))
def test_alphabeta_equals_minimax_on_random_boards(board: int, depth: int) -> None:
    assert_same_answer(board, depth)


@settings(max_examples=40)
@given(boards(rank_strategy=st.integers(8, 11), min_tiles=10), st.sampled_from(DEPTHS))
def test_alphabeta_equals_minimax_near_the_win(board: int, depth: int) -> None:
    # Ranks 8..11 only: merges into 2048 (wins) and boards that already hold it.
    assert_same_answer(board, depth)


@pytest.mark.parametrize("preset", ["snake", "corner-weights", "rows"])
def test_alphabeta_equals_minimax_with_other_presets(preset: str) -> None:
    assert preset in presets.PRESETS  # a lost preset fails here, never skips
    for board in game_positions()[:40]:
        for depth in (1, 2):
            assert_same_answer(board, depth, preset)


def test_alphabeta_equals_minimax_at_depth_5_on_crowded_positions() -> None:
    crowded = [b for b in game_positions() if B.count_empty(b) <= 4][:50]
    assert len(crowded) >= 30
    for board in crowded:
        assert_same_answer(board, 5)


def _search(board: int, depth: int, **switches: bool):
    """The exact search, said explicitly: late-move reductions are the one part that changes the answer."""
    return alphabeta.search(
        board, presets.get("classic").make(), Deadline(None), depth=depth, reductions=False, **switches
    )


@pytest.mark.parametrize("depth", (5, 6))
def test_the_transposition_table_changes_nothing(depth: int) -> None:
    # Same move order with and without the table, so the same move, not only the same value;
    # at these depths the table is hit thousands of times, with every kind of bound.
    for board in game_positions()[::3]:
        with_table = _search(board, depth)
        without = _search(board, depth, transposition=False)
        assert (with_table.move, with_table.score) == (without.move, without.score), hex(board)


def test_move_ordering_changes_no_value() -> None:
    # Without ordering (and table) the moves are tried in a fixed order: the value must not move;
    # the chosen move may, between equally good moves (the depth 1-3 tests check ties against minimax).
    for board in game_positions()[::3]:
        ordered = _search(board, 5)
        plain = _search(board, 5, ordering=False, transposition=False)
        assert ordered.score == plain.score, hex(board)
