"""The AI worker module, run in CPython exactly as the page's worker runs it: JSON in, JSON out, errors as messages."""

from __future__ import annotations

import json

import pytest

from app import ai_worker
from game2048 import board as B
from game2048.search import best_move

ROWS = [[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]]
LOST_ROWS = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]


def think(**request) -> dict:
    return json.loads(ai_worker.think(json.dumps(request)))


def test_exports_the_three_functions() -> None:
    assert ai_worker.__export__ == ["think", "presets", "ready"]


def test_ready_builds_the_tables_and_says_ok() -> None:
    assert ai_worker.ready() == "ok"


def test_think_answers_with_the_search_result() -> None:
    answer = think(rows=ROWS, depth=3)
    expected = best_move(B.from_rows(ROWS), depth=3)
    assert answer["ok"] is True
    assert answer["move"] == expected.move.value
    assert answer["score"] == expected.score
    assert answer["depth"] == 3 and answer["algorithm"] == "alphabeta" and answer["preset"] == "classic"
    assert set(answer) >= {"nodes", "cutoffs", "elapsed_ms", "think_ms", "nodes_per_second"}


def test_think_with_a_time_limit_and_every_option() -> None:
    answer = think(
        rows=ROWS, think_ms=20, depth=None, algorithm="expectimax", preset="snake", weights={"empty": 5}, id=42
    )
    assert answer["ok"] is True
    assert (answer["algorithm"], answer["preset"], answer["think_ms"], answer["id"]) == (
        "expectimax",
        "snake",
        20.0,
        42,
    )
    assert answer["move"] in [d.value for d in B.legal_moves(B.from_rows(ROWS))]


def test_a_lost_board_answers_no_move() -> None:
    answer = think(rows=LOST_ROWS, depth=2)
    assert answer["ok"] is True and answer["move"] is None and answer["depth"] == 0


@pytest.mark.parametrize(
    "request_json, message",
    [
        ("not json", "the request is not JSON"),
        ("[1, 2]", "the request is a JSON object"),
        ('{"think_ms": 100}', "the request has no 'rows'"),
        ('{"rows": [[2, 3]]}', "a board is 4 rows of 4 tiles"),
        ('{"rows": [[3,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}', "power of two"),
        (json.dumps({"rows": ROWS, "algorithm": "dfs"}), "unknown algorithm 'dfs'"),
        (json.dumps({"rows": ROWS, "preset": "mine"}), "unknown preset 'mine'"),
        (json.dumps({"rows": ROWS, "weights": {"zzz": 1}}), "no weight(s) ['zzz']"),
        (json.dumps({"rows": ROWS, "think_ms": -5}), "think_ms is a positive number"),
        (json.dumps({"rows": ROWS, "thinkms": 5}), "unknown request field(s) ['thinkms']"),
    ],
)
def test_a_bad_request_is_answered_with_a_message(request_json: str, message: str) -> None:
    answer = json.loads(ai_worker.think(request_json))
    assert answer["ok"] is False
    assert message in answer["error"]


def test_an_error_answer_keeps_the_request_id() -> None:
    answer = think(rows=ROWS, algorithm="dfs", id="r7")
    assert answer == {"ok": False, "error": answer["error"], "id": "r7"}


def test_an_unexpected_failure_is_a_message_not_an_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args):
        raise RuntimeError("table missing")

    monkeypatch.setattr(ai_worker, "decide", broken)
    answer = think(rows=ROWS)
    assert answer == {"ok": False, "error": "the AI failed: RuntimeError: table missing"}


def test_presets_lists_every_preset_with_its_weights() -> None:
    listed = json.loads(ai_worker.presets())
    from game2048.evaluation import presets

    assert [p["name"] for p in listed] == list(presets.PRESETS)
    classic = next(p for p in listed if p["name"] == "classic")
    assert classic["default_weights"] == {"smoothness": 0.1, "monotonicity": 1.0, "empty": 2.7, "max": 1.0}
    assert all(p["description"] for p in listed)
