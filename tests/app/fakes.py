"""Fakes of the page's parts for CPython tests of the glue."""

from __future__ import annotations

from game2048.board import to_rows


class FakeView:
    """Records what the session asked the view to draw; keeps a copy of the settled board."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.settled_rows: list[list[int]] | None = None
        self.settled = True
        self.overlays: tuple[bool, bool] = (False, False)
        self.notices: list[str] = []
        self.action = None
        self.kept = 0
        self.announced: list[str] = []

    def render(self, game):
        self.calls.append("render")
        self.settled_rows = to_rows(game.board)

    def slide(self, outcome):
        self.calls.append(f"slide:{outcome.direction.value}")

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

    def show_kept_games(self, count):
        self.kept = count

    def announce(self, text):
        self.announced.append(text)
