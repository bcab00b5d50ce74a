"""The position editor: set up a board by hand, paste or share one, then play it, ask a hint or explore it.

"Edit" (button or T) puts sixteen cell buttons over the board and the editor's controls in ``#editor-bar``; the
game underneath is left exactly as it was until "Play from here".  ``PositionEditor`` is the edit mode and puts
together its parts, one job each:

* ``app.games.editor_board``: the cells, their values and the typing, the "Tile" field and the status line;
* ``app.games.editor_text``: the position pasted as text, and the ``?rows=`` link that opens it;
* ``app.games.editor_actions``: the game held while editing, then the position played (the game it replaces kept).

"Play from here" (or Edit / T again) plays the board; "Cancel" leaves the game untouched.  While editing, game moves
and game keys do nothing (``guard``), autoplay is stopped, and the game's buttons are inert.

Bound to the DOM it receives (``document``, ``create_proxy``), like ``app.ai.controls``, so CPython tests drive it
with fakes.
"""

from app.board.play import PlaySession
from app.browser.wiring import Wiring
from app.games.editor_actions import EditorActions
from app.games.editor_board import EditedBoard, button, element
from app.games.editor_text import PositionText
from app.games.saved_games import SavedGames
from game2048.board import Board

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

EDIT_KEY = "t"
"""The key that enters edit mode, and plays from the position when pressed again (E is the explorer's)."""
INERT_WHILE_EDITING = ("ai-panel", "new-game", "kept-games")
"""Controls that act on the game under the editor: they wait until editing ends."""
AI_WAITS = (
    "The AI and the game\u2019s buttons wait while you edit: \u201cPlay from here\u201d (T) plays this position,"
    " Cancel goes back to your game."
)
"""What the editor says when it opens: why the AI panel is greyed out."""


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
            button(self.document, self._wiring, "editor-clear", "Clear board", self.clear_board),
        )
        cells = self.cells
        self.bar.replaceChildren(cells.help_line, actions, cells.value_row, cells.status, self.text.share)

    # -- the mode -----------------------------------------------------------------------------

    def guard(self, action: Callable[..., None]) -> Callable[..., None]:
        """``action``, doing nothing while editing (game moves and game keys)."""

        def guarded(*args: Any) -> None:
            if not self.editing:
                action(*args)

        return guarded

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

    # -- its parts, as the page and the tests reach them ------------------------------------

    @property
    def values(self) -> "list[int]":
        """The board being edited, cell 0 (top left) first."""
        return self.cells.values

    @property
    def selected(self) -> int:
        return self.cells.selected

    @property
    def cell_buttons(self) -> "list[Any]":
        return self.cells.cell_buttons

    @property
    def cells_el(self) -> Any:
        return self.cells.cells_el

    @property
    def paste_input(self) -> Any:
        return self.text.paste_input

    def board(self) -> Board:
        return self.cells.board()

    def clear_board(self) -> None:
        self.cells.clear_board()

    def paste(self) -> None:
        """The position written in the paste box replaces the board being edited."""
        self.text.paste()

    def link(self) -> str:
        """The address that opens the edited position (``?rows=``), on this page."""
        return self.text.link()

    def copy_link(self) -> None:
        self.text.copy_link()
