"""The position editor: set up a board by hand, paste or share one, then play it, ask a hint or explore it.

"Edit" (button or T) puts sixteen cell buttons over the board and the editor's controls in ``#editor-bar``; the
game underneath is left exactly as it was until "Play from here".  ``PositionEditor`` is the edit mode and puts
together its parts, one job each:

* ``EditedBoard`` (``app.games.editor_board``): the cells, their values and the typing, the "Tile" field and the
  status line;
* ``PositionText``: the position pasted as text, and the ``?rows=`` link that opens it;
* ``EditorActions``: the game held while editing, then the position played (the game it replaces kept).

"Play from here" (or Edit / T again) plays the board; "Cancel" leaves the game untouched.  While editing, game moves
and game keys do nothing (``guard``), autoplay is stopped, and the game's buttons are inert.  Once playing, the
position is a game like any other: hints and the explorer take it.

Bound to the DOM it receives (``document``, ``create_proxy``), like ``app.ai.controls``, so CPython tests drive it
with fakes.
"""

from app.board.play import AI, HUMAN, Intent, PlaySession
from app.browser.page_options import forget_option
from app.browser.wiring import Wiring
from app.games.editor_board import EditedBoard, button, element
from app.games.saved_games import SavedGames, describe, worth_keeping
from app.games.startup import LOST_POSITION, position_game
from game2048.board import Board, tile_values
from game2048.position_text import format_rows, parse_rows

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


class PositionText:
    """The share box of the editor bar (``share``) over one ``EditedBoard``: paste a position, or share its link.

    A position written any usual way (``game2048.position_text.parse_rows``) is pasted into the board being edited;
    the link field follows the board, and "Copy link" puts the address in the clipboard when the browser allows it.
    A position opened from such a link (``app.games.startup``) is the game from then on: ``rows`` leaves the
    address, so a reload goes on playing it.
    """

    def __init__(self, document: Any, wiring: Wiring, cells: EditedBoard) -> None:
        self.document = document
        self._wiring = wiring
        self.cells = cells
        self._build()

    def _build(self) -> None:
        document = self.document
        self.share = element(document, "details", {"class": "editor-share", "id": "editor-share"})
        summary = element(document, "summary", {}, "Paste or share a position")
        paste_label = element(
            document, "label", {"class": "editor-paste", "for": "editor-paste"}, "Four rows of numbers"
        )
        self.paste_input = element(
            document,
            "textarea",
            {
                "id": "editor-paste",
                "rows": "4",
                "spellcheck": "false",
                "placeholder": "0 2 4 8\n0 0 0 0\n0 0 0 0\n2 0 0 0",
            },
        )
        paste_row = element(document, "div", {"class": "editor-row"})
        paste_row.append(button(document, self._wiring, "editor-paste-apply", "Use this position", self.paste, True))
        link_row = element(document, "div", {"class": "editor-row editor-link-row"})
        self.link_input = element(
            document,
            "input",
            {"id": "editor-link", "type": "text", "readonly": "", "aria-label": "Link to this position"},
        )
        copy = button(document, self._wiring, "editor-copy-link", "Copy link", self.copy_link, True)
        link_row.append(copy, self.link_input)
        self.share.append(summary, paste_label, self.paste_input, paste_row, link_row)

    def paste(self) -> None:
        """The position written in the paste box replaces the board being edited."""
        self.cells.commit_typed()
        try:
            board = parse_rows(str(self.paste_input.value))
        except ValueError as exc:
            self.cells.say(f"Not pasted: {exc}.", error=True)
            return
        self.cells.load(board)
        self.cells.say("Position pasted: \u201cPlay from here\u201d plays it.")

    def link(self) -> str:
        """The address that opens the edited position (``?rows=``), on this page."""
        location = self.document.location
        return f"{location.origin}{location.pathname}?rows={format_rows(self.cells.board())}"

    def show_link(self) -> None:
        """The link field follows the board."""
        self.link_input.value = self.link()

    def copy_link(self) -> None:
        """Put the link in the clipboard when the browser allows it; it is in the field below either way."""
        self.cells.commit_typed()
        url = self.link()
        self.link_input.value = url
        self.link_input.select()
        clipboard = getattr(self.document.defaultView.navigator, "clipboard", None)
        if not clipboard:
            self.cells.say("This browser gives no clipboard here: copy the link from the field below.")
            return
        self._wiring.spawn(self._copy(clipboard, url))

    async def _copy(self, clipboard: Any, url: str) -> None:
        try:
            await clipboard.writeText(url)
        except Exception:  # noqa: BLE001 - a refusal from the browser (permission, focus)
            self.cells.say("The browser did not allow copying: the link is in the field below.")
            return
        self.cells.say("Link copied: it opens this position.")

    def forget_link_position(self) -> None:
        """The URL's position is now the game: drop ``rows`` from the address, so a reload goes on playing it."""
        forget_option(self.document.defaultView, "rows")


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
