"""Game review: each move's values read from expectimax's own root, the points lost, the grades and a player's
figures (the AI's moves apart)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from strategies import boards, game_positions

from game2048.board import DIRECTIONS
from game2048.game import Game
from game2048.game_record import GameRecord, decision, positions
from game2048.move_tables import afterstates
from game2048.search import SearchOptions, expectimax
from game2048.search.clock import Deadline
from game2048.search.review import (
    GRADE_BOUNDS,
    GRADES,
    grade_move,
    grade_of,
    move_values,
    review_game,
    summarize,
)

EVALUATE = SearchOptions("expectimax", depth=1, preset="classic").evaluator()


def test_grades_follow_their_bounds_in_order() -> None:
    assert grade_of(0.0) == "best" and grade_of(GRADE_BOUNDS[0]) == "best"
    for name, bound, after in zip(GRADES, GRADE_BOUNDS, GRADES[1:]):
        assert grade_of(bound) == name and grade_of(bound + 0.01) == after
    assert grade_of(1e9) == "blunder"


@settings(max_examples=40, deadline=None)
@given(boards(min_tiles=6))
def test_depth_1_values_are_the_evaluation_of_each_legal_afterstate(board: int) -> None:
    values = move_values(board, EVALUATE, depth=1)
    legal = {d: after for d, after in zip(DIRECTIONS, afterstates(board)) if after != board}
    assert set(values) == set(legal)
    assert all(values[d] == pytest.approx(EVALUATE(after)) for d, after in legal.items())


@settings(max_examples=25, deadline=None)
@given(boards(min_tiles=8))
def test_the_best_move_is_the_searchs_own_move_and_no_move_loses_less_than_nothing(board: int) -> None:
    values = move_values(board, EVALUATE, depth=2)
    if not values:
        return
    chosen = expectimax.search(board, EVALUATE, Deadline(None), depth=2).move
    for played in values:
        move = grade_move(7, board, played, EVALUATE, depth=2)
        assert move.best == chosen and move.lost >= 0.0 and move.grade == grade_of(move.lost)
        assert move.lost == pytest.approx(values[chosen] - values[played])
    assert grade_move(7, board, chosen, EVALUATE, depth=2).grade == "best"


def test_a_move_that_is_not_legal_is_refused_with_its_number() -> None:
    board = game_positions()[3]
    illegal = next((d for d, after in zip(DIRECTIONS, afterstates(board)) if after == board), None)
    if illegal is None:
        board = 0x1  # a lone 2 in the top-left corner: up and left change nothing
        illegal = "up"
    with pytest.raises(ValueError, match="move 12 .* is not a legal move"):
        grade_move(12, board, illegal, EVALUATE, depth=1)


def _short_game(seed: int = 5, length: int = 30) -> GameRecord:
    """A seeded game of ``length`` moves, every third chosen by the AI, the rest the first legal move."""
    game = Game.new(seed)
    record = GameRecord(seed)
    for number in range(length):
        legal = [d for d, after in zip(DIRECTIONS, afterstates(game.board)) if after != game.board]
        move = legal[0] if number % 3 else expectimax.search(game.board, EVALUATE, Deadline(None), depth=1).move
        game.play(move)
        record.append(move, decision("expectimax", "classic", 1, 0.0) if number % 3 == 0 else None)
    return record


def test_a_game_is_reviewed_move_by_move_and_the_ais_moves_are_marked_and_left_out_of_the_figures() -> None:
    record = _short_game()
    heard = []
    moves = review_game(record, EVALUATE, depth=1, on_move=heard.append)
    assert heard == moves and [m.number for m in moves] == list(range(1, 31))
    assert [m.board for m in moves] == [board for board, _ in positions(record)[:-1]]
    assert [m.played for m in moves] == record.moves
    assert [m.by_ai for m in moves] == [n % 3 == 0 for n in range(30)]
    assert all(m.grade == "best" for m in moves if m.by_ai)  # the AI's depth-1 move is the depth-1 review's best
    summary = summarize(moves, worst=3)
    assert summary.ai_moves == 10 and summary.yours == 20 and sum(summary.counts.values()) == 20
    assert summary.lost == pytest.approx(sum(m.lost for m in moves if not m.by_ai))
    assert summary.accuracy == pytest.approx(100 * (summary.counts["best"] + summary.counts["good"]) / 20)
    costly = sorted((m.lost for m in moves if not m.by_ai and m.lost > GRADE_BOUNDS[0]), reverse=True)[:3]
    assert [m.lost for m in summary.worst] == costly and all(not m.by_ai for m in summary.worst)
    assert moves[0].to_dict()["board"] == f"{moves[0].board:016x}"


def test_a_game_the_ai_played_alone_has_no_accuracy() -> None:
    record = _short_game(length=1)
    assert summarize(review_game(record, EVALUATE, depth=1)).accuracy is None


def test_what_is_not_a_board_is_refused() -> None:
    for bad in (-1, 1 << 64, True, "0"):
        with pytest.raises(ValueError, match="a board is a 64-bit int"):
            grade_move(1, bad, "up", EVALUATE, depth=1)  # type: ignore[arg-type]
