"""The status line's words for a hint and the move after it (issue 54): every sentence, and when each is said.

"Hint: up" (depth 5) stayed on the status line after AI step played left (depth 6); now the move that follows a
hint takes its place, with its depth, and a move other than the hint's says in one clause why it may differ.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from app.ai.hint_status import (
    Decision,
    ShownHint,
    ai_move_text,
    hint_text,
    player_move_text,
    why_it_differs,
    withdrawn_text,
)
from app.board.play import AI, HUMAN, Intent

CLASSIC = {"algorithm": "alphabeta", "preset": "classic", "weights": {}}


def _decision(move: str, depth: int, rescued: bool = False, **request: object) -> Decision:
    asked = dict(CLASSIC, **request)
    answer = {"move": move, "depth": depth, "rescued": rescued, "algorithm": asked["algorithm"]}
    answer["preset"] = asked["preset"]
    return Decision(answer, asked)


def test_a_hint_names_its_depth():
    assert hint_text(_decision("up", 5)) == "Hint: up (depth 5)"
    assert hint_text(_decision("up", 7, rescued=True)) == "Hint: up (depth 7, vs 2s)"


def test_the_ai_move_after_a_hint_replaces_it_and_says_why_it_differs():
    hint = _decision("up", 5)
    assert ai_move_text("AI step", _decision("left", 6), None) == "AI step: left (depth 6)"
    assert ai_move_text("Autoplay", _decision("up", 6), hint) == "Autoplay: up (depth 6), the hint\u2019s move"
    assert ai_move_text("AI step", _decision("left", 6), hint) == (
        "AI step: left (depth 6); a deeper search (depth 6) changed its mind from the hint\u2019s up (depth 5)"
    )


@pytest.mark.parametrize(
    ("played", "clause"),
    [
        (_decision("left", 6), "a deeper search (depth 6) changed its mind from the hint\u2019s up (depth 5)"),
        (_decision("left", 4), "a shallower search (depth 4, with less time) chose otherwise than"),
        (_decision("left", 5), "a second search as deep chose otherwise than the hint\u2019s up (depth 5)"),
        (
            _decision("right", 5, algorithm="expectimax", preset="rows"),
            "Expectimax with rows chose it, where the hint\u2019s up (depth 5) came from Alpha-beta with classic",
        ),
        (_decision("left", 5, weights={"max": 2.0}), "searched with other weights than the hint\u2019s up"),
        (_decision("left", 9, rescued=True), "the search proved a loss and chose against 2s only, unlike"),
    ],
)
def test_each_reason_a_move_may_differ_from_the_hint(played: Decision, clause: str):
    assert why_it_differs(played, _decision("up", 5)).startswith(clause)


def test_the_players_own_move_after_a_hint():
    hint = _decision("up", 5)
    assert player_move_text("up", hint) == "You played up, the hint\u2019s move (depth 5)"
    assert player_move_text("left", hint) == "You played left; the hint was up (depth 5): you chose another move"


def test_a_hint_holds_for_its_board_until_that_board_changes():
    shown, game = ShownHint(), object()
    assert shown.show(_decision("up", 5), 1234, game) == "Hint: up (depth 5)"
    assert shown.take(99, game) is None and shown.hint is None  # another board: not this hint's; forgotten
    shown.show(_decision("up", 5), 1234, game)
    assert shown.take(1234, object()) is None  # the same board in another game
    shown.show(_decision("up", 5), 1234, game)
    assert shown.take(1234, game).move == "up" and shown.take() is None


def test_what_the_status_says_when_the_board_of_a_hint_changes():
    shown = ShownHint()
    move = SimpleNamespace(kind="move", source=HUMAN, direction="left")
    assert shown.after("move", move) is None  # no hint: nothing to say
    shown.show(_decision("up", 5), 1, None)
    assert shown.after("move", Intent.move("right", AI)) is None and shown.hint is not None  # says itself
    assert shown.after("submitted", move) is None and shown.hint is not None  # not applied yet
    assert shown.after("move", move) == player_move_text("left", _decision("up", 5))
    assert shown.hint is None and shown.after("move", move) is None  # said once: the next move is not the hint's
    for event, why in (("undo", "taken back"), ("restart", "new game"), ("switch", "another game"), ("edit", "edit")):
        shown.show(_decision("up", 5), 1, None)
        assert shown.after(event, Intent(event)).startswith("Hint up withdrawn: ") and why in withdrawn_text(
            _decision("up", 5), event
        )
    shown.show(_decision("up", 5), 1, None)
    assert shown.after("move", Intent("redo")) == "Hint up withdrawn: a move was played again"


MICROPYTHON = """
from fakedom import Document
from app.ai.client import AiClient
from app.ai.controls import HINTED, AiControls
from app.ai.hint_status import Decision, ShownHint, ai_move_text, player_move_text
from app.ai.panel import AiPanel
from app.board.play import Intent


class Quiet:
    listeners = []

    def __getattr__(self, name):
        return lambda *args, **kw: None


class Store:
    saved = {"ai": {"algorithm": "alphabeta"}}

    def settings(self):
        return dict(self.saved)

    def save_settings(self, settings):
        self.saved = settings


PANEL = ("hint", "step", "autoplay", "status", "algorithm", "think", "think-value", "pause", "pause-value", "preset")
IDS = ["ai-" + name for name in PANEL + ("weights", "weights-reset", "readout", "preset-note")]
document = Document(IDS + ["weights-panel"])
client = AiClient(lambda attempt: None)
client.presets = [{"name": "classic", "default_weights": {"max": 1.0}}, {"name": "rows", "default_weights": {}}]
panel = AiPanel(document, client, Store(), Quiet(), lambda f: f)
panel.preset_defaults = {"classic": {"max": 1.0}, "rows": {}}
controls = AiControls(document, Quiet(), Quiet(), client, panel, lambda f: f)
out = []
select = document.getElementById("ai-algorithm")
select.value = "expectimax"
select.dispatch("change")
note = document.getElementById("ai-preset-note")
out.append([note.textContent, note.hidden])
request = {"algorithm": "alphabeta", "preset": "classic", "weights": {}}
hint = Decision({"move": "up", "depth": 5}, request)
out.append(ai_move_text("AI step", Decision({"move": "left", "depth": 6}, request), hint))
out.append(player_move_text("left", hint))
shown = ShownHint()
shown.show(hint, 12, None)
out.append([shown.after("move", Intent.move("down")), shown.after("undo", Intent("undo"))])
controls.link.fate(HINTED, {"move": "up", "depth": 5}, dict(request, rows=[[0] * 4] * 4), 12)
told = []


class Explorer:
    def remember(self, *untold):
        told.append(list(untold))


controls.explorer = Explorer()
out.append([told, controls.explorer is controls.link.explorer])
print(json.dumps(out))
"""


def test_the_words_and_the_hand_over_run_the_same_in_micropython():
    from micropython_runner import json_outputs
    from test_micropython_ai_side import FAKE_DOM

    micropython, cpython = json_outputs(MICROPYTHON, {"fakedom.py": FAKE_DOM})
    assert micropython == cpython
    assert cpython[0] == [
        "Now playing Expectimax with the rows preset (it was classic): each algorithm plays its own "
        "evaluation; choose another under \u201cEvaluation preset and weights\u201d.",
        False,
    ]
    assert cpython[3] == ["You played down; the hint was up (depth 5): you chose another move", None]
    assert cpython[4][0][0][2:] == ["Shown as a hint: not played.", "up"] and cpython[4][1] is True
