"""The worker's ``review``: a batch of moves graded by ``search.review``, and a bad request answered, never raised."""

from __future__ import annotations

import json

import pytest

from app.ai import worker
from game2048.board import from_rows
from game2048.evaluation import presets
from game2048.search.review import GRADE_BOUNDS, GRADES, grade_move

BOARD = from_rows([[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]])


def test_review_grades_each_move_as_the_engine_does():
    request = {"boards": [f"{BOARD:016x}"] * 2, "played": ["up", "left"], "by_ai": [False, True], "first": 7}
    answer = json.loads(worker.review(json.dumps(dict(request, preset="rows", id=3))))
    assert answer["ok"] and answer["id"] == 3 and answer["preset"] == "rows" and answer["points"] is False
    assert answer["grades"] == list(GRADES) and answer["bounds"] == list(GRADE_BOUNDS)
    evaluate = presets.get("rows").make()
    expected = [
        grade_move(7, BOARD, "up", evaluate).to_dict(),
        grade_move(8, BOARD, "left", evaluate, by_ai=True).to_dict(),
    ]
    assert answer["moves"] == json.loads(json.dumps(expected))


@pytest.mark.parametrize(
    ("request_fields", "said"),
    [
        ({"boards": ["12"], "played": ["up"]}, "16 hex digits"),
        ({"boards": ["-000000000000001"], "played": ["up"]}, "16 hex digits"),
        ({"boards": [" 00000000000001f"], "played": ["up"]}, "16 hex digits"),
        ({"boards": [f"{BOARD:016x}"], "played": ["up", "down"]}, "the same length"),
        ({"boards": [f"{BOARD:016x}"] * 201, "played": ["up"] * 201}, "at most 200"),
        ({"boards": [f"{BOARD:016x}"], "played": ["up"], "depth": 9}, "depth a whole number from 1 to 4"),
        ({"boards": [f"{BOARD:016x}"], "played": ["sideways"]}, "not a legal move"),
        ({"boards": "x", "played": []}, "are lists"),
    ],
)
def test_a_bad_review_request_is_answered_with_why(request_fields, said):
    answer = json.loads(worker.review(json.dumps(request_fields)))
    assert answer["ok"] is False and said in answer["error"]
