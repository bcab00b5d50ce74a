"""Alpha-beta: always a legal move, the forced moves found, wins and losses scored, fixed depth reproducible."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from strategies import boards

from game2048 import board as B
from game2048.search import best_move
from game2048.search.alphabeta import has_win_tile
from game2048.values import WIN_SCORE

LOST = B.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])


@settings(max_examples=150)
@given(boards(min_tiles=2))
def test_a_legal_move_is_returned_while_one_exists(board: int) -> None:
    legal = B.legal_moves(board)
    result = best_move(board, depth=2)
    if legal:
        assert result.move in legal
        assert result.depth == 2
    else:
        assert result.move is None and result.depth == 0


@settings(max_examples=40)
@given(boards(min_tiles=2))
def test_a_timed_search_returns_a_legal_move(board: int) -> None:
    legal = B.legal_moves(board)
    result = best_move(board, think_ms=5)
    assert (result.move in legal) if legal else result.move is None
    assert result.depth >= (1 if legal else 0)


def test_lost_board_has_no_move() -> None:
    for kwargs in ({"depth": 3}, {"think_ms": 20}):
        result = best_move(LOST, **kwargs)
        assert result.move is None
        assert result.depth == 0
        assert result.score == -WIN_SCORE


def test_the_only_move_that_survives_is_chosen() -> None:
    # Up or down leaves one empty cell in column 3 where one of the computer's tiles (a 4 after up,
    # a 2 after down) matches no neighbour: a full board with no merge, lost.  Right moves the row's
    # 2 under the 2 of row 0, a merge no placement can take away.
    board = B.from_rows([[8, 2, 16, 4], [2, 4, 2, 0], [32, 8, 4, 64], [8, 4, 32, 2]])
    assert set(B.legal_moves(board)) == {B.UP, B.RIGHT, B.DOWN}
    for depth in (2, 3, 4):
        result = best_move(board, depth=depth)
        assert result.move == B.RIGHT
        assert result.score > -WIN_SCORE


def test_a_move_into_a_lost_board_scores_as_a_loss() -> None:
    board = B.from_rows([[8, 2, 16, 4], [2, 4, 2, 0], [32, 8, 4, 64], [8, 4, 32, 2]])
    up, _ = B.move(board, B.UP)
    # After up the computer fills (3,3); with a 4 nothing merges and the player is lost.
    lost = B.place(up, 15, 2)
    assert B.is_game_over(lost)
    assert best_move(lost, depth=2).move is None


def test_making_2048_is_a_win_and_the_earliest_win_scores_highest() -> None:
    board = B.from_rows([[1024, 1024, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]])
    for depth in (1, 2, 3):
        result = best_move(board, depth=depth)
        assert result.move in (B.LEFT, B.RIGHT)
        assert result.score == WIN_SCORE + depth  # the win at the first move, with every later move to spare


def test_a_win_two_moves_away_scores_below_an_immediate_one() -> None:
    # Left or right merges the 512s into a 1024 beside the 1024; the next move makes 2048: a win at move 2.
    board = B.from_rows([[1024, 512, 512, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]])
    result = best_move(board, depth=3)
    assert result.move in (B.LEFT, B.RIGHT)
    assert result.score == WIN_SCORE + 2


def test_after_2048_is_on_the_board_moves_are_judged_by_the_evaluation() -> None:
    board = B.from_rows([[2048, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 2, 2]])
    result = best_move(board, depth=2)
    assert result.score < WIN_SCORE / 2
    assert result.move in B.legal_moves(board)


@pytest.mark.parametrize(
    "value, expected",
    [(0, False), (1024, False), (2048, True), (4096, True), (8192, True), (32768, True), (512, False)],
)
def test_win_tile_detection(value: int, expected: bool) -> None:
    for cell in (0, 7, 15):
        board = B.place(0, (cell + 1) % 16, 1)
        if value:
            board = B.place(board, cell, B.rank_of(value))
        assert has_win_tile(board) is expected


@given(boards(min_tiles=3))
def test_has_win_tile_matches_max_rank(board: int) -> None:
    assert has_win_tile(board) is (B.max_rank(board) >= 11)


def test_fixed_depth_is_deterministic() -> None:
    board = B.from_rows([[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]])
    first = best_move(board, depth=5)
    for _ in range(2):
        again = best_move(board, depth=5)
        assert (again.move, again.score, again.nodes, again.cutoffs, again.depth) == (
            first.move,
            first.score,
            first.nodes,
            first.cutoffs,
            5,
        )
    assert first.think_ms is None


def test_result_reports_the_work_done() -> None:
    board = B.from_rows([[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]])
    result = best_move(board, depth=4)
    assert result.algorithm == "alphabeta" and result.preset == "classic"
    assert result.nodes > 100 and result.cutoffs > 0
    assert result.elapsed_ms > 0
    data = result.to_dict()
    assert data["move"] == result.move and data["depth"] == 4
