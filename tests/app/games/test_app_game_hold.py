"""The editor or the replay holds the game still while open; one not yet built holds nothing."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from app.games.game_hold import GameHold


def part(built: Any = None) -> SimpleNamespace:
    """An ``OnDemand`` as the page makes it: ``part`` is None until built."""
    return SimpleNamespace(part=built)


def hold(editor: Any = None, replay_open: bool | None = None) -> GameHold:
    games = None if replay_open is None else SimpleNamespace(view=SimpleNamespace(is_open=replay_open))
    return GameHold(part(editor), part(games), lambda: None, lambda: None, lambda: None)


def test_nothing_built_holds_nothing_and_a_guarded_action_runs():
    done: list[str] = []
    held = hold()
    held.guard(done.append)("left")
    assert not held.editing() and not held.replaying() and done == ["left"]


def test_an_open_editor_or_replay_holds_the_game_and_a_closed_one_does_not():
    done: list[str] = []
    for held, holds in (
        (hold(editor=SimpleNamespace(editing=True)), True),
        (hold(editor=SimpleNamespace(editing=False)), False),
        (hold(replay_open=True), True),
        (hold(replay_open=False), False),
    ):
        held.guard(done.append)("up")
        assert (held.editing() or held.replaying()) is holds
    assert done == ["up", "up"]
