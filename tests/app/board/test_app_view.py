"""BoardView over the MicroPython tests' fake DOM: the note under the scores, and which notice a new game ends."""

from __future__ import annotations

import types

from test_micropython_app import FAKE_DOM

from app.board.view import SET_UP_NOTE, BoardView
from game2048 import board as B
from game2048.game import Game

fakedom = types.ModuleType("fakedom")
exec(FAKE_DOM, fakedom.__dict__)  # noqa: S102 - the test suite's own fake DOM


def test_a_set_up_game_says_by_the_scores_that_best_leaves_out_the_points_it_began_with():
    """Issue 41: "Score 35,584 beside Best 424 with no note that set-up points do not count"."""
    document = fakedom.Document()
    view = BoardView(document)
    note = document.getElementById("score-note")
    set_up = Game.from_position(B.from_rows([[2048, 1024, 512, 256], [0] * 4, [0] * 4, [0, 0, 2, 2]]), 3)
    view.render(set_up)
    assert not note.hidden and note.textContent == SET_UP_NOTE.format(35_584)
    assert "35584 points it started with" in note.textContent and "Best counts only" in note.textContent
    view.render(Game.new(5))  # a game from its two first tiles: nothing to explain
    assert note.hidden and note.textContent == ""


def test_a_new_game_ends_a_notice_of_the_old_one_and_leaves_an_error():
    view = BoardView(fakedom.Document())
    view.show_notice("Your game in progress is kept.")
    view.end_game_notice()
    assert view.notice_el.hidden
    view.show_notice("Your game could not be saved.", error=True)
    view.end_game_notice()
    assert not view.notice_el.hidden and view.notice_text.textContent == "Your game could not be saved."
