"""A review's figures on the page: the worker's batches cut from a record, and their sums equal the engine's."""

from __future__ import annotations

import json

from app.ai import worker
from app.games.review_figures import BATCH_MOVES, GameReview, ReviewFigures, batches, graded_move
from game2048.board import legal_moves
from game2048.evaluation import presets
from game2048.game_record import GameRecord, decision, positions
from game2048.search.review import GRADES, review_game, summarize

AI = decision("expectimax", "rows", 2, 50.0)


def mixed(moves: int, seed: int = 9) -> GameRecord:
    """A game of plain moves, every third the AI's."""
    record = GameRecord(seed)
    while len(record.moves) < moves:
        legal = legal_moves(record._replayed().board)
        record.append(legal[(len(record.moves) * 5) % len(legal)], AI if len(record.moves) % 3 == 2 else None)
    return record


def graded_by_worker(record: GameRecord, preset: str = "rows") -> GameReview:
    moves, answer = [], {}
    for request in batches(record, positions(record)):
        answer = json.loads(worker.review(json.dumps(dict(request, preset=preset))))
        assert answer["ok"], answer
        moves += [graded_move(move) for move in answer["moves"]]
    return GameReview(moves, answer["preset"], answer["points"], answer["grades"])


def test_batches_cover_every_move_once_with_its_board_and_who_chose_it():
    record = mixed(45)
    steps = positions(record)
    cut = batches(record, steps)
    assert [len(b["played"]) for b in cut] == [BATCH_MOVES, BATCH_MOVES, 5]
    assert [b["first"] for b in cut] == [1, 1 + BATCH_MOVES, 1 + 2 * BATCH_MOVES]
    boards = [board for b in cut for board in b["boards"]]
    assert boards == [f"{board:016x}" for board, _score in steps[:-1]]
    assert [m for b in cut for m in b["played"]] == record.moves
    assert [a for b in cut for a in b["by_ai"]] == record.chosen_by_ai()


def test_the_pages_sums_are_the_engines_summary():
    record = mixed(70)
    review = graded_by_worker(record)
    summary = summarize(review_game(record, presets.get("rows").make()))
    figures = review.figures
    assert figures.grades == list(GRADES)
    assert figures.counts == list(summary.counts.values())
    assert (figures.yours, figures.ai_moves) == (summary.yours, summary.ai_moves) == (47, 23)
    assert figures.accuracy is not None and summary.accuracy is not None
    assert abs(figures.accuracy - summary.accuracy) < 1e-9
    assert [m["number"] for m in figures.worst] == [m.number for m in summary.worst]
    assert review.units() == "units of the rows evaluation (not points)" and not review.points


def test_a_game_the_ai_played_alone_has_no_accuracy_and_nothing_to_list():
    moves = [
        {"number": n, "played": "up", "best": "left", "lost": 9.0, "grade": "mistake", "by_ai": True, "value": 1.0}
        for n in (1, 2)
    ]
    figures = ReviewFigures(moves, list(GRADES))
    assert figures.accuracy is None and figures.ai_moves == 2 and figures.worst == []


def test_a_learned_review_is_in_points():
    assert GameReview([], "learned", True, list(GRADES)).units() == "points"
