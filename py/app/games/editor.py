"""The position editor: set up a board by hand, paste or share one, then play it, ask a hint or explore it.

"Edit" (button or T) puts sixteen cell buttons over the board and the editor's controls in ``#editor-bar``; the
game underneath is left exactly as it was until "Play from here".  ``PositionEditor`` is the edit mode and puts
together its parts, one job each:

* ``EditedBoard`` (``app.games.edited_board``): the cells, their values and the typing, the "Tile" field and the
  status line;
* ``PositionText`` (``app.games.editor_share``): the position pasted as text, and the ``?rows=`` link that opens it;
* ``EditorActions`` (here): the game held while editing, then the position played (the game it replaces kept).

The page and the tests reach each part where it lives (``editor.cells.values``, ``editor.text.link()``).

"Play from here" (or Edit / T again) plays the board; "Cancel" leaves the game untouched.  While editing, game moves
and game keys do nothing (``app.page`` reads ``editing``), autoplay is stopped, and the game's buttons are inert.
Once playing, the position is a game like any other: hints and the explorer take it.

Bound to the DOM it receives (``document``, ``create_proxy``), like ``app.ai.controls``, so CPython tests drive it
with fakes.
"""

from app.board.play import AI, HUMAN, Intent, PlaySession
from app.browser.wiring import Wiring
from app.games.edited_board import EditedBoard, button, element
from app.games.editor_share import PositionText
from app.games.saved_games import SavedGames, describe, worth_keeping
from app.games.startup import LOST_POSITION, position_game
from game2048.board import Board, tile_values

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

INERT_WHILE_EDITING = ("ai-panel", "new-game", "kept-games")
"""Controls that act on the game under the editor: they wait until editing ends."""
AI_WAITS = (
    "The AI and the game\u2019s buttons wait while you edit: \u201cPlay from here\u201d (T) plays this position,"
    " Cancel goes back to your game."
)
"""What the editor says when it opens: why the AI panel is greyed out."""
KEPT = "Your game in progress ({}) is kept: \u201cResume kept game\u201d (B) brings it back."
TOO_FEW = "Not played: a game needs at least two tiles, this board has {}."


class PositionEditor:
    """Edit mode over one ``PlaySession``: the cell buttons, the editor bar and the Edit button."""

    def __init__(
        self,
        document: Any,
        session: PlaySession,
        view: Any,
        saved: SavedGames,
        create_proxy: Callable[[Callable[..., Any]], Any],
        hold_ai: Callable[[str], None] | None = None,
        from_link: bool = False,
    ) -> None:
        self.document = document
        self.session = session
        self._wiring = Wiring(create_proxy)
        self.editing = False
        el = document.getElementById
        self.toggle_button = el("edit-toggle")
        self.bar = el("editor-bar")
        self.board_el = el("board")
        self.actions = EditorActions(session, view, saved, hold_ai)
        self.cells = EditedBoard(document, self._wiring, self.board_el, lambda: self.text.show_link())
        self.text = PositionText(document, self._wiring, self.cells)
        self._build_bar()
        self._wiring.listen(self.toggle_button, "click", lambda _e: self.toggle())
        if from_link:
            self.text.forget_link_position()

    def _build_bar(self) -> None:
        actions = element(self.document, "div", {"class": "editor-row"})
        actions.append(
            button(self.document, self._wiring, "editor-play", "Play from here", self.play_from_here),
            button(self.document, self._wiring, "editor-cancel", "Cancel", self.cancel),
            button(self.document, self._wiring, "editor-clear", "Clear board", self.cells.clear_board),
        )
        cells = self.cells
        self.bar.replaceChildren(cells.help_line, actions, cells.value_row, cells.status, self.text.share)

    # -- the mode -----------------------------------------------------------------------------

    def toggle(self) -> None:
        """Edit button or T: start editing, or play the edited position."""
        if self.editing:
            self.play_from_here()
        else:
            self.enter()

    def enter(self) -> None:
        """Edit mode on the current game's board; the game itself is left as it is."""
        if self.editing:
            return
        self.actions.hold()
        self.editing = True
        self._show_mode()
        self.cells.load(self.session.game.board)
        self.cells.say(AI_WAITS)
        self.cells.focus_cell(self.cells.selected)

    def cancel(self) -> None:
        """Leave edit mode; the game is as it was."""
        self.cells.typed = ""
        self._leave()

    def play_from_here(self) -> bool:
        """The edited board becomes the game (True), or why not is said and editing goes on (False)."""
        if not self.editing or not self.cells.commit_typed():
            return False
        refused = self.actions.play(self.cells.board(), self._leave)
        if refused:
            self.cells.say(refused, error=True)
        return not refused

    def _leave(self) -> None:
        self.editing = False
        self._show_mode()
        self.board_el.focus()

    def _show_mode(self) -> None:
        editing = self.editing
        self.bar.hidden = not editing
        self.cells.cells_el.hidden = not editing
        self.toggle_button.setAttribute("aria-pressed", "true" if editing else "false")
        self.toggle_button.title = "Play this position (T)" if editing else "Set up a position (T)"
        self.document.body.setAttribute("data-editing", "on" if editing else "off")
        for element_id in INERT_WHILE_EDITING:
            found = self.document.getElementById(element_id)
            if found:
                found.inert = editing


class EditorActions:
    """The editor's hand on one ``PlaySession``: the game stays as it is until a position is played.

    "Play from here" makes the board the game through the session (``Intent.switch``): the game it replaces is kept
    first if it is worth keeping (``app.games.saved_games``), said in a notice, and a board with no legal move opens
    as a lost game (``app.games.startup.position_game``).  Fewer than two tiles is refused; an unchanged board leaves
    the game as it is, score and all.
    """

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
