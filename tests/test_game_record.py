"""Game records and share links: a recorded game replays exactly, and corrupt records and links are refused.

Records round-trip through their saved form (JSON text included) and replay
the same boards and scores at every step; a link decodes to the same game;
anything malformed raises ``RecordError`` or ``LinkError`` with a message,
never another exception; and the module runs the same under MicroPython.
"""

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from micropython_runner import RULES, run_both
from test_micropython_subset import problems

from game2048 import board as B
from game2048 import game as game_module
from game2048.game import MAX_SEED, Game
from game2048.game_record import (
    LINK_ALPHABET,
    MAX_LINK_CHARS,
    MAX_MOVES,
    GameRecord,
    LinkError,
    RecordError,
    decision,
    decision_from_answer,
    decode_game,
    decode_link,
    encode_game,
    game_result,
    join_parts,
    positions,
    record_from_link,
    record_head,
    record_of,
    record_part,
    replay,
    resume,
    saved_record,
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


@settings(max_examples=30, deadline=None)
@given(seeds, st.integers(min_value=0, max_value=2**32))
def test_a_link_decodes_to_the_same_game(seed, policy):
    record, _ = play_recorded(seed, policy, most=120)
    code = encode_game(record.seed, record.moves)
    assert set(code) <= set(LINK_ALPHABET)
    assert decode_game(code) == (record.seed, record.moves)
    assert record_from_link(code).result() == record.result()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, st.lists(st.sampled_from(B.DIRECTIONS), max_size=40), st.data())
def test_a_cut_short_or_changed_link_is_refused_with_a_link_error(seed, moves, data):
    code = encode_game(seed, moves)
    cut = data.draw(st.integers(min_value=0, max_value=len(code) - 1))
    with pytest.raises(LinkError):
        decode_game(code[:cut])
    at = data.draw(st.integers(min_value=0, max_value=len(code) - 1))
    replacement = data.draw(st.characters().filter(lambda c: c != code[at]))
    with pytest.raises(LinkError):
        decode_game(code[:at] + replacement + code[at + 1 :])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "it is empty"),
        ("BC%vB", "character '%' is not allowed"),
        ("DAAAA", "unknown link version 3"),
        ("B", "the link is cut short: it ends before its moves"),
        (None, "not text"),
        ("B" + "_" * 14, "its seed takes more than 13 characters"),
        ("x" * 60_000, "longer than any game"),
    ],
)
def test_a_bad_link_says_what_is_wrong(text, message):
    with pytest.raises(LinkError, match=message):
        decode_game(text)


def test_link_messages_for_a_cut_short_changed_or_padded_link():
    code = encode_game(7, ["up"] * 456)
    with pytest.raises(LinkError, match="the link is cut short: it holds 123 of 456 moves"):
        decode_game(code[: 4 + 41])  # version, seed, count (2 characters), 41 characters of 3 moves
    with pytest.raises(LinkError, match="holds all 456 moves but not its check"):
        decode_game(code[:-1])
    with pytest.raises(LinkError, match="has 1 character more"):
        decode_game(code + "A")
    changed = code[:20] + ("B" if code[20] != "B" else "C") + code[21:]
    with pytest.raises(LinkError, match="the link's check does not match: it was changed or copied wrongly"):
        decode_game(changed)
    assert decode_game(f"  {code}\n") == (7, ["up"] * 456)  # pasted with spaces around it


def illegal_after(seed: int) -> tuple[list[str], str]:
    """Legal moves from ``seed`` up to a position where some move changes nothing, and that move."""
    game, moves = Game.new(seed), []
    while True:
        illegal = [d for d in B.DIRECTIONS if B.move(game.board, d)[0] == game.board]
        if illegal and moves:
            return moves, illegal[0]
        moves.append(B.legal_moves(game.board)[0])
        game.play(moves[-1])


def test_a_link_whose_moves_are_illegal_says_which_move():
    moves, illegal = illegal_after(3)
    with pytest.raises(LinkError, match=f"the link's moves are not a game: move {len(moves) + 1} \\({illegal}\\)"):
        record_from_link(encode_game(3, moves + [illegal]))


def test_a_2000_move_game_fits_well_inside_a_url():
    moves = [B.DIRECTIONS[i % 4] for i in range(2000)]
    code = encode_game(MAX_SEED, moves)
    assert len(code) == 1 + 13 + 3 + 667 + 3  # version, seed, count, 3 moves a character, check: well under 2,000
    assert decode_game(code) == (MAX_SEED, moves)
    assert len(encode_game(7, [])) == 6


players = st.lists(st.sampled_from(B.DIRECTIONS), max_size=60).flatmap(
    lambda moves: st.tuples(st.just(moves), st.lists(st.booleans(), min_size=len(moves), max_size=len(moves)))
)
"""(moves, who played each): any mix, from one side only to a change at every move."""


@settings(max_examples=150, deadline=None)
@given(seeds, players)
def test_a_link_says_who_played_each_move_and_an_old_link_says_nothing_of_it(seed, game):
    moves, by_ai = game
    code = encode_game(seed, moves, by_ai)
    assert set(code) <= set(LINK_ALPHABET) and code[0] == "C" and len(code) <= MAX_LINK_CHARS
    assert decode_link(code) == (seed, moves, by_ai)
    assert decode_game(code) == (seed, moves)
    old = encode_game(seed, moves)  # as links were made before they said who played: they still open
    assert old[0] == "B" and decode_link(old) == (seed, moves, None)
    # who played costs one character for the runs' or bits' mark, then whichever of the two is shorter
    assert len(code) - len(old) <= 1 + (len(moves) + 5) // 6


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, players, st.data())
def test_a_cut_short_or_changed_link_that_says_who_played_is_refused(seed, game, data):
    code = encode_game(seed, *game)
    cut = data.draw(st.integers(min_value=0, max_value=len(code) - 1))
    with pytest.raises(LinkError):
        decode_link(code[:cut])
    at = data.draw(st.integers(min_value=0, max_value=len(code) - 1))
    replacement = data.draw(st.sampled_from(LINK_ALPHABET).filter(lambda c: c != code[at]))
    with pytest.raises(LinkError):
        decode_link(code[:at] + replacement + code[at + 1 :])


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=LINK_ALPHABET, max_size=40).map(lambda tail: "C" + tail) | st.text(max_size=40))
def test_any_text_is_a_link_or_a_link_error(text):
    try:
        seed, moves, by_ai = decode_link(text)
    except LinkError:
        return
    assert by_ai is None or len(by_ai) == len(moves)
    assert decode_link(encode_game(seed, moves, by_ai)) == (seed, moves, by_ai)


def test_who_played_is_a_few_characters_for_a_game_of_one_side_and_bits_for_a_mixed_one():
    moves = [B.DIRECTIONS[i % 4] for i in range(2000)]
    plain = len(encode_game(7, moves))
    assert len(encode_game(7, moves, [True] * 2000)) == plain + 1 + 1 + 3  # the mark, an empty run, 2000 AI moves
    assert len(encode_game(7, moves, [False] * 2000)) == plain + 1 + 3
    assert len(encode_game(7, moves, [i % 2 == 0 for i in range(2000)])) == plain + 1 + 334  # six moves a character
    code = encode_game(7, moves[:9], [False, True, True] * 3)
    with pytest.raises(LinkError, match="the link is cut short: it holds all 9 moves but not who played them"):
        decode_link(code[: 1 + 1 + 1 + 3])  # version, seed, count, 3 characters of moves
    with pytest.raises(RecordError, match="says who played each of its 9 moves"):
        encode_game(7, moves[:9], [True])


def test_a_shared_record_says_who_played_when_its_link_does():
    record, _ = play_recorded(11, 3, most=30)
    assert record_from_link(encode_game(11, record.moves, record.chosen_by_ai())).by_ai == [
        d is not None for d in record.decisions
    ]
    assert record_from_link(encode_game(11, record.moves)).by_ai is None
    assert record.by_ai is None  # a record that holds its decisions


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
    assert problems((ROOT / "py/game2048/game_record.py").read_text()) == []


ROUND_TRIP = """
import json
from game2048 import board as B
from game2048.game import Game
from game2048.game_record import GameRecord, LinkError, RecordError, decision, decode_game, decode_link, encode_game
from game2048.game_record import positions

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
    code = encode_game(seed, record.moves)
    assert decode_game(code) == (seed, record.moves)
    told = encode_game(seed, record.moves, record.chosen_by_ai())
    assert decode_link(told) == (seed, record.moves, record.chosen_by_ai())
    mixed = encode_game(seed, record.moves[:40], [n % 3 == 0 for n in range(40)])
    out.append((told[-12:], mixed[-12:], decode_link(mixed)[2][:9]))
    result = back.result()
    out.append((code, sorted(result.items()), hex(positions(back)[-1][0]), record.to_dict()["moves"][:40]))
    for bad in (code[:-4], code[:9] + ("A" if code[9] != "A" else "B") + code[10:], code + "=", "D" + code[1:]):
        try:
            decode_game(bad)
        except LinkError as exc:
            out.append(str(exc))
for broken in ({"version": 1, "seed": 3, "moves": "uuuuuuuu"}, {"version": 1, "seed": "3", "moves": ""}, []):
    try:
        GameRecord.from_dict(broken)
    except RecordError as exc:
        out.append(str(exc))
print(repr(out))
"""


def test_records_and_links_are_the_same_in_micropython():
    micro, cpython = run_both(ROUND_TRIP, RULES + ("game2048/game_record.py",))
    assert micro == cpython
    assert "check does not match" in cpython and "does not change the board" in cpython


def _ai_game(moves: int) -> Game:
    game = Game.new(31)
    for number in range(moves):
        for direction in ("left", "down", "right", "up"):
            note = decision("alphabeta", "snake" if number % 5 else "corner", 3, 2.0) if number % 3 else None
            if game.play(direction, note).moved:
                break
    return game


def test_a_record_in_parts_joins_to_its_saved_form_and_a_longer_last_part_is_cut():
    game = _ai_game(40)
    history = game.history
    parts = [
        record_part([e[0] for e in history[at : at + 7]], [e[2] for e in history[at : at + 7]])
        for at in range(0, 40, 7)
    ]
    assert join_parts(record_head(game), parts) == saved_record(game)
    head = record_head(game)
    game.undo()
    assert join_parts(record_head(game), parts) == saved_record(game)  # the last part saved before its head
    assert head["moves"] == ""
    human = Game.new(3)
    human.play("left")
    assert join_parts(record_head(human), [record_part(["left"], [None])]) == saved_record(human)
    assert record_head(Game.from_position(0x1100)) is None


def test_parts_that_are_not_a_records_are_refused_with_the_reason():
    head = record_head(_ai_game(3))
    for parts, words in (
        ([{"moves": "l"}], "parts hold 1 moves"),
        ([7], "not a run of moves"),
        ([{"moves": "lll", "decisions": [None]}], "not one decision per move"),
        ([{"moves": "lll", "deciders": [], "decisions": [None, [0, 1, 1, False], None]}], "not one"),
    ):
        with pytest.raises(RecordError, match=words):
            join_parts(head, parts)
    with pytest.raises(RecordError, match="head"):
        join_parts({"moves": ""}, [])
