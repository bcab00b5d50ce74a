"""Fakes of the page's parts for CPython tests of the glue."""

from __future__ import annotations

from typing import Any

from game2048.board import to_rows


class FakeView:
    """Records what the session asked the view to draw; keeps a copy of the settled board."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.settled_rows: list[list[int]] | None = None
        self.settled = True
        self.overlays: tuple[bool, bool] = (False, False)
        self.notices: list[str] = []  # every notice shown
        self.notice: tuple[str, bool] | None = None  # (text, error) of the notice on screen
        self.action = None
        self.kept = 0
        self.announced: list[str] = []

    def render(self, game):
        self.calls.append("render")
        self.settled_rows = to_rows(game.board)

    def slide(self, outcome):
        self.calls.append(f"slide:{outcome.direction}")

    def settle(self, game, outcome):
        self.calls.append("settle")
        self.settled_rows = to_rows(game.board)

    def show_score(self, score, best, added=0):
        self.score, self.best = score, best

    def show_overlays(self, game):
        self.overlays = (game.paused_at_win, game.over)

    def set_settled(self, settled):
        self.settled = settled

    def show_notice(self, text, error=False, action=None):
        self.notices.append(text)
        self.action = action
        self.notice = (text, error)

    def end_game_notice(self):
        if self.notice is not None and not self.notice[1]:
            self.notice = None

    def show_kept_games(self, count):
        self.kept = count

    def show_history(self, game):
        self.history = (len(game.history), len(game.undone), game.undos)

    def announce(self, text):
        self.announced.append(text)


class GuardedOutcome:
    """What ``guarded.js``'s ``guardedCall`` returns: ``ok``, and ``value`` or ``error``."""

    def __init__(self, ok: bool, value: Any = None, error: str | None = None) -> None:
        self.ok, self.value, self.error = ok, value, error


def guarded_call(target: Any, name: str, *args: Any) -> GuardedOutcome:
    """``guarded.js``'s ``guardedCall`` in Python, for fake windows: a call that raises becomes an outcome."""
    try:
        member = getattr(target, name)
        return GuardedOutcome(True, member(*args) if callable(member) else member)
    except Exception as exc:  # noqa: BLE001 - what JavaScript's catch would catch
        return GuardedOutcome(False, error=f"{type(exc).__name__}: {exc}")
