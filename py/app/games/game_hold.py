"""The panels of ``app.games`` that hold the game still while open: the position editor, and the replay.

Each is built at its first use (``app.page``'s ``OnDemand``: its ``part`` is None until then), so one not built
holds nothing.  ``GameHold`` answers whether either holds the game now, and ``guard`` makes a game action (a move,
a game key) do nothing while one does; it also keeps what opens them, for the page's keys.
"""

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass


class GameHold:
    """The editor and Your games with the replay (each an ``OnDemand``), and what opens them."""

    def __init__(
        self,
        editor: Any,
        games: Any,
        toggle_editor: "Callable[[], None]",
        toggle_games: "Callable[[], None]",
        replay_current: "Callable[[], None]",
    ) -> None:
        self.editor = editor
        self.games = games
        self.toggle_editor = toggle_editor
        self.toggle_games = toggle_games
        self.replay_current = replay_current

    def editing(self) -> bool:
        return self.editor.part is not None and self.editor.part.editing  # not built: nothing is being edited

    def replaying(self) -> bool:
        return self.games.part is not None and self.games.part.view.is_open  # not built: no replay is open

    def guard(self, action: "Callable[..., None]") -> "Callable[..., None]":
        """While a position is edited or a replay is open, game moves and game keys do nothing."""
        return lambda *args: None if self.editing() or self.replaying() else action(*args)
