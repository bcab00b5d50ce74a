"""A record saved in parts: a head and runs of moves join to the record's saved form, and bad pieces are refused."""

from pathlib import Path

import pytest
from test_micropython_subset import problems

from app.games.record_parts import join_parts, record_head, record_part
from game2048.game import Game
from game2048.game_record import RecordError, decision, saved_record

ROOT = Path(__file__).resolve().parents[3]


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


def test_the_module_keeps_to_micropython():
    assert problems((ROOT / "py/app/games/record_parts.py").read_text()) == []
