"""Game records: a recorded game replays exactly, and a corrupt record is refused with what is wrong.

Records round-trip through their saved form (JSON text included) and replay
the same boards and scores at every step; anything malformed raises
``RecordError`` with a message, never another exception; and the module runs
the same under MicroPython.
"""

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from micropython_runner import RULES, run_both
from test_micropython_subset import problems

from game2048 import board as B
from game2048 import game as game_module
from game2048.game import MAX_SEED, Game
from game2048.game_record import (
    MAX_MOVES,
    GameRecord,
    RecordError,
    decision,
    decision_from_answer,
    game_result,
    positions,
    record_of,
    replay,
    resume,
    summary_of,
)

ROOT = Path(__file__).resolve().parents[1]
seeds = st.integers(min_value=0, max_value=MAX_SEED)
AI = decision("alphabeta", "classic", 4, 12.34, False)


def play_recorded(seed: int, policy: int, most: int = 400) -> tuple[GameRecord, list[tuple[int, int]]]:
    """A game of random legal moves (``policy`` seeds the choices), recorded, and its (board, score) at each step.

    Every third move is the AI's (a made-up summary), the rest a person's, with an undo now and then.
    """
    choose = random.Random(policy)
    game, record = Game.new(seed), GameRecord(seed)
    steps = [(game.board, game.score)]
    while not game.over and len(record.moves) < most:
        direction = choose.choice(B.legal_moves(game.board))
        if game.paused_at_win:
            game.continue_after_win()
        game.play(direction)
        record.append(direction, AI if len(record.moves) % 3 == 0 else None)
        steps.append((game.board, game.score))
    return record, steps


@settings(max_examples=30, deadline=None)
@given(seeds, st.integers(min_value=0, max_value=2**32))
def test_a_record_replays_the_same_boards_and_scores_after_its_saved_form(seed, policy):
    record, steps = play_recorded(seed, policy)
    back = GameRecord.from_dict(json.loads(json.dumps(record.to_dict())))
    assert back == record and back.to_dict() == record.to_dict()
    assert positions(back) == steps  # read from the replayed game's history
    assert positions(GameRecord(back.seed, back.moves, back.decisions)) == steps  # replayed afresh
    game = replay(back)
    assert (game.board, game.score, game.moves) == steps[-1] + (len(steps) - 1,)
    middle = len(steps) // 2
    assert replay(back, middle).board == steps[middle][0]
    result = back.result()
    assert (result["score"], result["moves"], result["max_tile"]) == (
        steps[-1][1],
        len(record.moves),
        1 << B.max_rank(steps[-1][0]),
    )
    assert result["outcome"] == ("won" if game.won else "lost" if game.over else "unfinished")


def illegal_after(seed: int) -> tuple[list[str], str]:
    """Legal moves from ``seed`` up to a position where some move changes nothing, and that move."""
    game, moves = Game.new(seed), []
    while True:
        illegal = [d for d in B.DIRECTIONS if B.move(game.board, d)[0] == game.board]
        if illegal and moves:
            return moves, illegal[0]
        moves.append(B.legal_moves(game.board)[0])
        game.play(moves[-1])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=20,
)
record_keys = st.sampled_from(
    ["version", "seed", "moves", "undos", "started", "ended", "result", "deciders", "decisions"]
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(json_values, st.dictionaries(record_keys, json_values)))
def test_any_json_is_a_record_or_a_record_error(data):
    try:
        record = GameRecord.from_dict(data)
    except RecordError:
        return
    _assert_true_to(record, data)


def _assert_true_to(record: GameRecord, data: dict) -> None:
    """An accepted record is what its data says: its seed and moves, the result its moves replay to (the stored
    one, when stored), and a saved form that reads back as the same record."""
    assert record.seed == data["seed"] and "".join(m[0] for m in record.moves) == data["moves"]
    if data.get("result") is not None:
        assert data["result"] == record.result() == game_result(replay(record))
    assert GameRecord.from_dict(record.to_dict()) == record


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(["version", "seed", "moves", "undos", "started", "result", "deciders", "decisions"]), json_values
)
def test_a_saved_record_with_one_field_replaced_is_a_record_or_a_record_error(field, value):
    saved = play_recorded(11, 5, most=30)[0].to_dict()
    saved[field] = value
    try:
        record = GameRecord.from_dict(saved)
    except RecordError:
        return
    _assert_true_to(record, saved)


@settings(max_examples=300, deadline=None)
@given(st.one_of(json_values, st.dictionaries(record_keys, json_values)))
def test_any_json_has_a_summary_or_a_record_error(data):
    try:
        summary = summary_of(data)
    except RecordError:
        return
    _assert_summary_of(summary, data)


def _assert_summary_of(summary: dict, data: dict) -> None:
    """An accepted summary says what its data stores: seed, moves, max tile, score, outcome, AI moves, undos."""
    result = data["result"]
    assert (summary["seed"], summary["moves"]) == (data["seed"], len(data["moves"])) == (data["seed"], result["moves"])
    assert (summary["max_tile"], summary["score"], summary["outcome"]) == (
        result["max_tile"],
        result["score"],
        result["outcome"],
    )
    assert summary["undos"] == data.get("undos", 0)
    assert summary["ai_moves"] == sum(d is not None for d in data.get("decisions") or [])


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(["version", "seed", "moves", "undos", "started", "result", "deciders", "decisions"]), json_values
)
def test_a_summary_is_read_or_refused_whatever_one_field_holds(field, value):
    saved = play_recorded(11, 5, most=30)[0].to_dict()
    saved[field] = value
    try:
        summary = summary_of(saved)
    except RecordError:
        return
    _assert_summary_of(summary, saved)


def play_noted(seed: int, policy: int, most: int = 300) -> Game:
    """A seeded game of random legal moves, every third one noted with the AI's summary, some undone and redone."""
    choose = random.Random(policy)
    game = Game.new(seed)
    game.started = 1_700_000_000_000.0
    while not game.over and game.moves < most:
        if game.paused_at_win:
            game.continue_after_win()
        game.play(choose.choice(B.legal_moves(game.board)), AI if game.moves % 3 == 0 else None)
        if choose.random() < 0.1:
            game.undo()
            if choose.random() < 0.5:
                game.redo()
    return game


@settings(max_examples=25, deadline=None)
@given(seeds, st.integers(min_value=0, max_value=2**32))
def test_a_played_game_has_a_record_that_replays_it_and_resumes_it_with_its_history(seed, policy):
    game = play_noted(seed, policy)
    record = record_of(game, ended=1_700_000_100_000.0)
    saved = json.loads(json.dumps(record.to_dict()))
    assert GameRecord.from_dict(saved) == record and record.undos == game.undos
    assert summary_of(saved) == {
        "seed": seed,
        "started": game.started,
        "ended": 1_700_000_100_000.0,
        "moves": game.moves,
        "max_tile": 1 << B.max_rank(game.board),
        "score": game.score,
        "outcome": record.result()["outcome"],
        "ai_moves": sum(1 for entry in game.history if entry[2] is not None),
        "undos": game.undos,
    }
    resumed = resume(saved, Game.from_dict(game.to_dict()))  # as after a reload: the game without its history
    assert resumed.to_dict() == game.to_dict() and resumed.undos == game.undos and resumed.started == game.started
    assert [entry[0] for entry in resumed.history] == [entry[0] for entry in game.history]
    assert [entry[2] for entry in resumed.history] == [entry[2] for entry in game.history]
    for _ in range(min(5, game.moves)):  # undo reaches back past the reload, to the same positions
        game.undo(), resumed.undo()
        assert resumed.to_dict() == game.to_dict()


def test_only_a_game_played_from_its_seed_has_a_record():
    assert record_of(Game.new(None)) is None
    assert record_of(Game.from_position(B.from_rows([[2, 2, 0, 0]] + [[0] * 4] * 3), 5)) is None
    restored = Game.from_dict(play_noted(4, 4, most=10).to_dict())
    assert record_of(restored) is None  # its moves before the reload are not in its history
    assert record_of(Game.new(4)).moves == []


def test_resume_refuses_a_record_of_another_game_or_position():
    game = play_noted(8, 1, most=40)
    saved = record_of(game).to_dict()
    other = play_noted(8, 2, most=40)
    with pytest.raises(RecordError, match="another position"):
        resume(saved, other)
    with pytest.raises(RecordError):
        resume({"version": 1, "seed": 8, "moves": "x"}, game)


def test_resume_keeps_going_after_a_win_chosen_after_the_last_move(monkeypatch):
    monkeypatch.setattr(game_module, "WIN_RANK", 5)  # a win at 32, so that random moves reach it
    game = Game.new(3)
    while not game.won:
        game.play(random.Random(game.moves).choice(B.legal_moves(game.board)))
    saved = record_of(game).to_dict()
    assert not resume(saved, Game.from_dict(game.to_dict())).keep_playing
    game.continue_after_win()
    assert resume(saved, Game.from_dict(game.to_dict())).keep_playing


def _saved(**changes):
    saved = play_recorded(11, 5, most=30)[0].to_dict()
    saved.update(changes)
    return saved


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"version": 2}, r"from another version \(2\)"),
        ({"version": True}, "from another version"),
        ({"seed": -1}, "seed is not a whole number from 0 to 2"),
        ({"seed": None}, "seed is not a whole number"),
        ({"moves": ["up"]}, "moves are not a string of the letters urdl"),
        ({"moves": "uux"}, "move 3 is not a direction: 'x'"),
        ({"decisions": [None]}, "one decision per move: 30 moves, 1 decisions"),
        ({"decisions": [[0, 4, 1.0]] + [None] * 29}, r"decision of move 1 is not \[decider"),
        ({"decisions": [[0, -1, 1.0, False]] + [None] * 29}, "move 1 has a depth that is not"),
        ({"decisions": [[0, 4, 1.0, "yes"]] + [None] * 29}, "rescued flag that is not true/false"),
        ({"deciders": "alphabeta"}, r"deciders are not a list of \[algorithm, preset\]"),
        ({"undos": -1}, "undos is not a non-negative whole number"),
        ({"started": "today"}, "started time is not a number of ms"),
        ({"result": {"max_tile": 2048}}, "result .* disagrees with its moves"),
        ({"moves": "u" * (MAX_MOVES + 1)}, "more than 100000"),
    ],
)
def test_a_malformed_record_is_refused_with_what_is_wrong(changes, message):
    with pytest.raises(RecordError, match=message):
        GameRecord.from_dict(_saved(**changes))


def test_a_move_that_changes_nothing_is_refused_with_its_number():
    moves, illegal = illegal_after(11)
    saved = GameRecord(11, moves).to_dict()
    saved["moves"] += "urdl"[B.DIRECTIONS.index(illegal)]
    del saved["result"]
    with pytest.raises(RecordError, match=f"move {len(moves) + 1} \\({illegal}\\) does not change the board"):
        GameRecord.from_dict(saved)


def test_append_refuses_an_illegal_move_and_undo_takes_back_the_last_move():
    moves, illegal = illegal_after(9)
    record = GameRecord(9, started=1_700_000_000_000)
    for direction in moves:
        record.append(direction, AI)
    with pytest.raises(RecordError, match=f"move {len(moves) + 1} .* does not change the board"):
        record.append(illegal)
    with pytest.raises(RecordError, match="a move is one of up"):
        record.append("sideways")
    with pytest.raises(RecordError, match="the move's decision is not a summary"):
        record.append(moves[0], {"algorithm": "alphabeta"})
    assert record.moves == moves
    taken = record.undo()
    assert taken == (moves[-1], AI) and record.moves == moves[:-1] and record.undos == 1
    assert record.result() == GameRecord(9, moves[:-1]).result() and record.to_dict()["undos"] == 1
    record.append(*taken)  # a redo
    assert record.moves == moves and record.result()["score"] == replay(GameRecord(9, moves)).score
    assert GameRecord.from_dict(record.to_dict()).undos == 1
    empty = GameRecord(1)
    with pytest.raises(RecordError, match="no move to undo"):
        empty.undo()
    assert empty.result()["moves"] == 0 and empty.result()["outcome"] == "unfinished"


def test_a_persons_game_is_saved_without_decisions_and_an_ai_game_names_each_decider_once():
    person = GameRecord(5, ["up"] if B.move(Game.new(5).board, "up")[0] != Game.new(5).board else ["down"])
    assert "decisions" not in person.to_dict() and "deciders" not in person.to_dict()
    ai, _ = play_recorded(4, 4, most=60)
    saved = ai.to_dict()
    assert saved["deciders"] == [["alphabeta", "classic"]]
    assert saved["decisions"][0] == [0, 4, 12.3, False] and saved["decisions"][1] is None
    assert ai.ai_moves() == 20


def test_decisions_are_summaries_of_the_search():
    answer = {"algorithm": "expectimax", "preset": "rows", "depth": 3, "elapsed_ms": 98.765, "rescued": True}
    assert decision_from_answer(dict(answer, nodes=12, think_ms=100)) == {
        "algorithm": "expectimax",
        "preset": "rows",
        "depth": 3,
        "think_ms": 98.8,
        "rescued": True,
    }
    for bad in (
        {},
        [],
        dict(answer, depth="3"),
        dict(answer, elapsed_ms=float("nan")),
        dict(answer, elapsed_ms=10**400),
    ):
        with pytest.raises(RecordError):
            decision_from_answer(bad)


def test_the_module_keeps_to_micropython():
    for module in ("game_record", "record_checks"):
        assert problems((ROOT / f"py/game2048/{module}.py").read_text()) == []


ROUND_TRIP = """
import json
from game2048 import board as B
from game2048.game import Game
from game2048.game_record import GameRecord, RecordError, decision, positions

out = []
for seed in (0, 5, 2**62 + 12345):
    game, record = Game.new(seed), GameRecord(seed, started=1700000000000)
    while not game.over and game.moves < 300:
        legal = B.legal_moves(game.board)
        direction = legal[(game.moves * 7 + game.board) % len(legal)]
        game.play(direction)
        record.append(direction, decision("alphabeta", "classic", 3, 2.5) if game.moves % 2 else None)
    taken = record.undo()
    out.append((record.undos, sorted(record.result().items())))
    record.append(taken[0], taken[1])
    back = GameRecord.from_dict(json.loads(json.dumps(record.to_dict())))
    assert back == record
    result = back.result()
    out.append((sorted(result.items()), hex(positions(back)[-1][0]), record.to_dict()["moves"][:40]))
for broken in ({"version": 1, "seed": 3, "moves": "uuuuuuuu"}, {"version": 1, "seed": "3", "moves": ""}, []):
    try:
        GameRecord.from_dict(broken)
    except RecordError as exc:
        out.append(str(exc))
print(repr(out))
"""


def test_records_are_the_same_in_micropython():
    micro, cpython = run_both(ROUND_TRIP, RULES + ("game2048/record_checks.py", "game2048/game_record.py"))
    assert micro == cpython
    assert "does not change the board" in cpython
