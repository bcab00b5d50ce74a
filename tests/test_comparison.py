"""``search.comparison``: alpha-beta beside expectimax on one board, one preset, one depth, and where they part.

The issue's board (``?rows=0,0,2,2/0,4,8,16/2,8,32,64/4,16,128,256``): alpha-beta plays up, expectimax right,
with classic for both as with each one's own preset.  Each claim of the sentence is held against
``game2048.reference`` (alpha-beta's values and its minimiser's reply) and an uncached expectimax.
"""

from __future__ import annotations

import json

import pytest

from game2048 import board as B
from game2048 import reference
from game2048.evaluation import presets
from game2048.search import best_move, expectimax
from game2048.search.comparison import compare

ISSUE_ROWS = [[0, 0, 2, 2], [0, 4, 8, 16], [2, 8, 32, 64], [4, 16, 128, 256]]


@pytest.mark.parametrize("preset", ["classic", "rows"])
def test_on_the_issue_s_board_they_part_over_right_and_the_sentence_says_why(preset: str) -> None:
    board = B.from_rows(ISSUE_ROWS)
    depth = 3
    out = compare(board, preset, depth)
    ab, ex = out["alphabeta"], out["expectimax"]
    assert (ab["move"], ex["move"], out["same"]) == ("up", "right", False)
    assert ab["move"] == best_move(board, depth=depth, preset=preset, rescue=False).move
    assert ex["move"] == best_move(board, depth=depth, algorithm="expectimax", preset=preset).move
    assert ab["depth"] == ex["depth"] == depth and out["preset"] == preset
    evaluate = presets.get(preset).make()
    # Alpha-beta's values are the plain minimax values, and the reply it assumed after right is its minimiser's.
    minimax = reference.root_values(board, depth, evaluate)
    assert {m["move"]: m["value"] for m in ab["moves"] if m["legal"]} == minimax
    parting = out["parting"]
    assert (parting["move"], parting["other"]) == ("right", "up")
    reply = parting["reply"]
    after = B.move(board, "right")[0]
    placed = after | ((1 if reply["tile"] == 2 else 2) << (4 * reply["cell"]))
    assert placed in reference.placements(after)  # one of the most annoying placements
    assert max(reference.root_values(placed, depth - 1, evaluate).values()) == minimax["right"]
    # Expectimax gives that tile its probability among every 2 and 4 of every empty cell.
    empties = B.count_empty(after)
    weighed = parting["weighed"]
    assert weighed["tiles"] == 2 * empties
    assert weighed["probability"] == pytest.approx((0.9 if reply["tile"] == 2 else 0.1) / empties)
    exact = expectimax._Searcher(evaluate, None, expectimax.PROBABILITY_THRESHOLD, 0.0, use_cache=False)
    assert weighed["value"] == pytest.approx(exact.player(placed, depth - 1, weighed["probability"]), rel=1e-9)
    # The sentence names both moves, the tile, and each search's values of the two moves.
    sentence = out["sentence"]
    assert sentence.startswith("They part over right: alpha-beta assumes the computer answers it with its worst")
    assert reply["label"] in sentence and "up's" in sentence and f"{weighed['probability']:.3f}" in sentence
    assert parting["alphabeta"]["move"] < parting["alphabeta"]["other"]
    assert parting["expectimax"]["move"] > parting["expectimax"]["other"]
    json.dumps(out, allow_nan=False)


def test_when_they_agree_the_sentence_says_so_with_both_values() -> None:
    board = B.from_rows(ISSUE_ROWS)
    out = compare(board, "snake", 2)
    assert out["same"] and out["alphabeta"]["move"] == out["expectimax"]["move"]
    assert out["sentence"].startswith(f"They agree on {out['alphabeta']['move']}")
    assert out["parting"]["reply"]["label"] in out["sentence"]


def test_a_lost_board_and_bad_requests() -> None:
    lost = B.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    out = compare(lost, "classic", 2)
    assert out["parting"] is None and "No move is legal" in out["sentence"]
    with pytest.raises(ValueError):
        compare(B.from_rows(ISSUE_ROWS), "nope", 2)
    with pytest.raises(ValueError):
        compare(B.from_rows(ISSUE_ROWS), "classic", 0)
