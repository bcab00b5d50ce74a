"""``search.review_playouts``: a move's loss measured by seeded pairs of greedy playouts, luck alike on both sides."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from strategies import boards

from game2048.board import DIRECTIONS
from game2048.evaluation.ntuple_shapes import score_of_tiles
from game2048.move_tables import afterstates
from game2048.search import SearchOptions
from game2048.search.review import grade_move, move_values
from game2048.search.review_playouts import move_seed, playout_loss, playout_value, spawned

EVALUATE = SearchOptions("expectimax", depth=1, preset="classic").evaluator()


def _legal(board: int) -> list[str]:
    return [d for d, after in zip(DIRECTIONS, afterstates(board)) if after != board]


@settings(max_examples=40, deadline=None)
@given(boards())
def test_a_move_against_itself_loses_nothing_and_a_loss_is_the_same_each_time(board: int) -> None:
    legal = _legal(board)
    if not legal:
        return
    assert playout_loss(board, legal[0], legal[0], EVALUATE, 5, playouts=4, moves=6) == 0.0
    other = legal[-1]
    once = playout_loss(board, legal[0], other, EVALUATE, 5, playouts=4, moves=6)
    assert once == playout_loss(board, legal[0], other, EVALUATE, 5, playouts=4, moves=6)
    assert once == pytest.approx(-playout_loss(board, other, legal[0], EVALUATE, 5, playouts=4, moves=6))


def test_a_playout_of_no_moves_is_the_evaluation_of_the_afterstate() -> None:
    after = afterstates(0x1000_0000_0000_2211)[DIRECTIONS.index("left")]
    assert playout_value(after, EVALUATE, 0, random.Random(1)) == EVALUATE(after)


def test_a_playout_that_is_lost_is_worth_its_tiles() -> None:
    # a checkerboard of 8s and 16s with the top-left cell empty: whatever spawns there, no move is left
    cells = [0] + [3 if (c // 4 + c % 4) % 2 == 0 else 4 for c in range(1, 16)]
    after = sum(rank << (4 * c) for c, rank in enumerate(cells))
    assert playout_value(after, EVALUATE, 10, random.Random(3)) == score_of_tiles(after)


def test_a_spawn_follows_the_games_rule() -> None:
    rng = random.Random(9)
    fours = 0
    for _ in range(2000):
        board, four = spawned(0x0000_0000_0000_0001, rng)
        placed = [(board ^ 0x1) >> (4 * c) & 0xF for c in range(16)]
        assert [rank for rank in placed if rank] == [2 if four else 1]  # one tile, on an empty cell
        fours += four
    assert 140 < fours < 260  # one time in ten


def test_a_graded_loss_by_playouts_is_the_seeded_pair_measure_and_a_best_move_keeps_its_grade() -> None:
    board = 0x0012_0231_1234_2345
    values = move_values(board, EVALUATE, 1)
    best = max(values, key=lambda m: (values[m], -DIRECTIONS.index(m)))
    worst = min(values, key=values.get)
    graded = grade_move(7, board, worst, EVALUATE, 1, playouts=8)
    assert graded.best == best
    assert graded.lost == max(0.0, playout_loss(board, best, worst, EVALUATE, move_seed(board, 7), 8))
    assert grade_move(7, board, best, EVALUATE, 1, playouts=8) == grade_move(7, board, best, EVALUATE, 1)
    assert move_seed(board, 7) != move_seed(board, 8)
