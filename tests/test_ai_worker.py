"""The AI worker module, run in CPython exactly as the page's worker runs it: JSON in, JSON out, errors as messages."""

from __future__ import annotations

import json

import pytest

from app.ai import worker as ai_worker
from game2048 import board as B
from game2048.search import best_move

ROWS = [[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]]
LOST_ROWS = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]


def think(**request) -> dict:
    return json.loads(ai_worker.think(json.dumps(request)))


def test_exports_the_page_functions() -> None:
    assert ai_worker.__export__ == [
        "think",
        "think_part",
        "explain",
        "compare",
        "trace",
        "review",
        "presets",
        "ready",
        "prepare_other_presets",
        "load_network",
        "network_progress",
        "evaluation_speed",
        "heap_bytes",
    ]


def test_ready_builds_the_default_presets_and_the_rest_come_after() -> None:
    from game2048.evaluation import snake

    snake._tables = None  # as in a worker that has just started
    assert ai_worker.ready() == "ok"
    assert snake._tables is None  # not a default preset: left for later
    assert ai_worker.prepare_other_presets() == "ok"
    assert snake._tables is not None


def test_think_answers_with_the_search_result() -> None:
    answer = think(rows=ROWS, depth=3)
    expected = best_move(B.from_rows(ROWS), depth=3)
    assert answer["ok"] is True
    assert answer["move"] == expected.move
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
    assert answer["move"] in [d for d in B.legal_moves(B.from_rows(ROWS))]


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
    assert classic["weight_names"] == ["smoothness", "monotonicity", "empty", "max"]  # the order of the sliders
    assert all(p["description"] for p in listed)


def trace(**request) -> dict:
    return json.loads(ai_worker.trace(json.dumps(request)))


def test_trace_answers_the_asked_walk_and_the_counts_of_all_four() -> None:
    from game2048.search import stepwise

    answer = trace(rows=ROWS, depth=2, algorithm="expectimax", ordering=False, pruning=True, id=9)
    board = B.from_rows(ROWS)
    expected = stepwise.variants(board, 2, stepwise.evaluator(), ordering=False, pruning=True)
    assert answer == {**json.loads(json.dumps(expected)), "preset": "classic", "ok": True, "id": 9}
    assert (answer["trace"]["ordering"], answer["trace"]["pruning"]) == (False, True)
    leaves = {(v["ordering"], v["pruning"]): v["leaves"] for v in answer["variants"]}
    assert leaves[True, True] <= leaves[True, False] and leaves[False, True] <= leaves[False, False]


def test_trace_defaults_to_depth_2_with_ordering_and_pruning_and_reads_preset_and_weights() -> None:
    answer = trace(rows=ROWS, preset="snake", weights={"empty": 5})
    assert answer["ok"] is True and answer["preset"] == "snake"
    walk = answer["trace"]
    assert (walk["depth"], walk["ordering"], walk["pruning"]) == (2, True, True)
    assert walk["steps"][0]["event"] == "enter" and walk["steps"][-1]["event"] == "return"


@pytest.mark.parametrize(
    "request_json, message",
    [
        ("not json", "the request is not JSON"),
        ('{"depth": 2}', "the request has no 'rows'"),
        (json.dumps({"rows": ROWS, "depth": 4}), "depth 2 or 3"),
        (json.dumps({"rows": ROWS, "pruning": "no"}), "pruning is true or false"),
        (json.dumps({"rows": ROWS, "preset": "mine"}), "unknown preset 'mine'"),
        (json.dumps({"rows": ROWS, "think_ms": 5}), "unknown request field(s) ['think_ms']"),
    ],
)
def test_a_bad_trace_request_is_answered_with_a_message(request_json: str, message: str) -> None:
    answer = json.loads(ai_worker.trace(request_json))
    assert answer["ok"] is False and message in answer["error"]


def test_a_failing_trace_is_a_message_not_an_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args, **_kwargs):
        raise RuntimeError("no tree")

    monkeypatch.setattr(ai_worker.stepwise, "variants", broken)
    assert trace(rows=ROWS, id="t") == {"ok": False, "error": "the AI failed: RuntimeError: no tree", "id": "t"}


def test_explain_answers_the_decision_and_its_explanation() -> None:
    rows = [[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]]
    request = {"rows": rows, "depth": 3, "exact_root": True, "analysis_ms": 5000, "id": 9}
    answer = json.loads(ai_worker.explain(json.dumps(request)))
    assert answer["ok"] and answer["id"] == 9
    thought = json.loads(ai_worker.think(json.dumps({"rows": rows, "depth": 3})))
    assert (answer["move"], answer["score"], answer["depth"]) == (thought["move"], thought["score"], thought["depth"])
    explanation = answer["explanation"]
    assert explanation["rows"] == rows
    assert all(entry["exact"] for entry in explanation["root"] if entry["legal"])
    assert [ply["kind"] for ply in explanation["pv"]["plies"]][:3] == ["move", "place", "move"]


def test_compare_answers_both_searches_with_the_explained_decision_s_preset() -> None:
    rows = [[0, 0, 2, 2], [0, 4, 8, 16], [2, 8, 32, 64], [4, 16, 128, 256]]
    request = {"rows": rows, "algorithm": "expectimax", "preset": None, "depth": 3, "analysis_ms": 2000, "id": 4}
    answer = json.loads(ai_worker.compare(json.dumps(request)))
    assert answer["ok"] and answer["id"] == 4 and answer["preset"] == "rows"  # expectimax's own, for both
    assert (answer["alphabeta"]["move"], answer["expectimax"]["move"]) == ("up", "right")
    assert answer["sentence"].startswith("They part over right")
    classic = json.loads(ai_worker.compare(json.dumps({"rows": rows, "preset": "classic"})))
    assert classic["ok"] and classic["depth"] == 3 and classic["preset"] == "classic"
    bad = json.loads(ai_worker.compare(json.dumps({"rows": rows, "depth": 0})))
    assert bad["ok"] is False and "depth" in bad["error"]


@pytest.mark.parametrize(
    ("request_fields", "message"),
    [
        ({"exact_root": "yes"}, "exact_root is true or false"),
        ({"analysis_ms": -5}, "analysis_ms"),
        ({"rows": [[2, 4]]}, "row"),
        ({"depth": 0}, "depth"),
        ({"verbose": True}, "unknown request field"),
    ],
)
def test_explain_refuses_a_bad_request_with_a_message(request_fields: dict, message: str) -> None:
    request = {"rows": [[0, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 2, 0]], **request_fields}
    answer = json.loads(ai_worker.explain(json.dumps(request)))
    assert answer["ok"] is False and message in answer["error"]


def test_evaluation_speed_counts_a_presets_evaluations_per_second() -> None:
    request = {"preset": "rows", "boards": [B.from_rows(ROWS)], "seconds": 0.05}
    answer = json.loads(ai_worker.evaluation_speed(json.dumps(request)))
    assert answer["ok"] and answer["preset"] == "rows" and answer["evaluations"] > 0 and answer["per_second"] > 0
    bad = json.loads(ai_worker.evaluation_speed(json.dumps({"preset": "nope", "boards": [1]})))
    assert bad["ok"] is False and "unknown preset" in bad["error"]
    empty = json.loads(ai_worker.evaluation_speed(json.dumps({"preset": "rows", "boards": []})))
    assert empty["ok"] is False and "boards" in empty["error"]
    for outside in (-1, 1 << 64, True):
        wrong = json.loads(ai_worker.evaluation_speed(json.dumps({"preset": "rows", "boards": [outside]})))
        assert wrong["ok"] is False and "64-bit ints" in wrong["error"]


def test_heap_bytes_answers_a_size() -> None:
    answer = json.loads(ai_worker.heap_bytes("{}"))
    assert answer["ok"] and answer["bytes"] > 1_000_000


def test_think_part_answers_a_share_of_the_decision_or_says_what_was_wrong() -> None:
    answer = json.loads(
        ai_worker.think_part(json.dumps({"rows": ROWS, "depth": 3, "algorithm": "expectimax", "part": 1, "parts": 2}))
    )
    assert answer["ok"] and [depth for depth, _ in answer["iterations"]] == [3]
    assert answer["nodes"] > 0 and answer["exhausted"] is False
    for bad, words in (
        ({"algorithm": "alphabeta"}, "only expectimax"),
        ({"algorithm": "expectimax", "part": 2, "parts": 2}, "part is 0 to 1"),
        ({"algorithm": "expectimax", "parts": "2"}, "whole number"),
    ):
        refused = json.loads(ai_worker.think_part(json.dumps({"rows": ROWS, "depth": 2, **bad})))
        assert refused["ok"] is False and words in refused["error"]
