"""What the position editor does to the game under it: hold it while editing, then play the edited position.

"Play from here" makes the board the game through the session (``Intent.switch``): the game it replaces is kept
first if it is worth keeping (``app.games.saved_games``), said in a notice, and a board with no legal move opens as
a lost game (``app.games.startup.position_game``).  Fewer than two tiles is refused; an unchanged board leaves the
game as it is, score and all.  Once playing, the position is a game like any other: hints and the explorer take it.
"""

from app.board.play import AI, HUMAN, Intent, PlaySession
from app.games.saved_games import SavedGames, describe, worth_keeping
from app.games.startup import LOST_POSITION, position_game
from game2048.board import Board, tile_values

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

KEPT = "Your game in progress ({}) is kept: \u201cResume kept game\u201d (B) brings it back."
TOO_FEW = "Not played: a game needs at least two tiles, this board has {}."


class EditorActions:
    """The editor's hand on one ``PlaySession``: the game stays as it is until a position is played."""

    def __init__(
        self, session: PlaySession, view: Any, saved: SavedGames, hold_ai: "Callable[[str], None] | None" = None
    ) -> None:
        self.session = session
        self.view = view
        self.saved = saved
        self.hold_ai = hold_ai

    def hold(self) -> None:
        """Editing begins: autoplay stops, and moves asked before it are dropped, so the game underneath stays."""
        if self.hold_ai is not None:
            self.hold_ai("Autoplay stopped: editing a position.")
        self.session.discard_queued(AI)
        self.session.discard_queued(HUMAN)  # keys pressed before Edit do not move the game underneath

    def play(self, board: Board, leave: "Callable[[], None]") -> str:
        """Make ``board`` the game, ``leave()`` (editing ends) first; or why not ("" when played)."""
        tiles = len(tile_values(board))
        if tiles < 2:
            return TOO_FEW.format(tiles)
        current = self.session.game
        if board == current.board:  # nothing changed: the game goes on, score and all
            leave()
            return ""
        game = position_game(board)
        notices = []
        if worth_keeping(current):
            self.saved.keep(current)
            notices.append(KEPT.format(describe(current)))
        notices.extend(self.saved.take_notices())
        if game.over:
            notices.append(LOST_POSITION)
        leave()
        self.session.submit(Intent.switch(game))
        if notices:
            self.view.show_notice(" ".join(notices))
        return ""
