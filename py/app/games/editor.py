"""The position editor: set up a board by hand, paste or share one, then play it, ask a hint or explore it.

"Edit" (button or T) puts sixteen cell buttons over the board and the editor's controls in ``#editor-bar``; the
game underneath is left exactly as it was until "Play from here".  ``PositionEditor`` is the edit mode and puts
together its parts, one job each:

* ``EditedBoard``: the cells, their values and the typing, the "Tile" field and the status line;
* ``PositionText``: the position pasted as text, and the ``?rows=`` link that opens it;
* ``EditorActions``: the game held while editing, then the position played (the game it replaces kept).

"Play from here" (or Edit / T again) plays the board; "Cancel" leaves the game untouched.  While editing, game moves
and game keys do nothing (``app.page`` reads ``editing``), autoplay is stopped, and the game's buttons are inert.
Once playing, the position is a game like any other: hints and the explorer take it.

Bound to the DOM it receives (``document``, ``create_proxy``), like ``app.ai.controls``, so CPython tests drive it
with fakes.
"""

from app.board.play import AI, HUMAN, Intent, PlaySession
from app.board.view import colour_class
from app.browser.page_options import forget_option
from app.browser.wiring import Wiring
from app.games.saved_games import SavedGames, describe, worth_keeping
from app.games.startup import LOST_POSITION, position_game
from game2048.board import MAX_RANK, Board, cell_name, from_rows, tile_values, to_rows
from game2048.position_text import format_rows, parse_rows, parse_value

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
            button(self.document, self._wiring, "editor-clear", "Clear board", self.clear_board),
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


TILE_VALUES = [0] + [1 << rank for rank in range(1, MAX_RANK + 1)]
TILE_TEXTS = [str(value) for value in TILE_VALUES[1:]]
ARROW_STEPS = {"ArrowUp": (-1, 0), "ArrowDown": (1, 0), "ArrowLeft": (0, -1), "ArrowRight": (0, 1)}

HELP = (
    "Click a cell to cycle its tile (Shift-click or right-click goes back), or type its value; "
    "arrows move between cells, Backspace clears."
)


def element(document: Any, tag: str, attributes: "dict[str, str] | None" = None, text: str = "") -> Any:
    """A new ``tag`` element with ``attributes`` and ``text``."""
    made = document.createElement(tag)
    for name, value in (attributes or {}).items():
        made.setAttribute(name, value)
    if text:
        made.textContent = text
    return made


def button(
    document: Any, wiring: Wiring, element_id: str, text: str, handler: "Callable[[], object]", small: bool = False
) -> Any:
    """A new button of the editor bar that calls ``handler()`` when clicked."""
    made = element(
        document, "button", {"type": "button", "id": element_id, "class": "button small" if small else "button"}, text
    )
    wiring.listen(made, "click", lambda _e: handler())
    return made


class EditedBoard:
    """The position being edited, cell 0 (top left) first, with its cells, its "Tile" field and its status line.

    What a person does with a cell:

    * click (or Enter, Space): the next tile, empty -> 2 -> 4 -> ... -> 32768 ->
      empty; Shift-click or right-click goes back;
    * type a value: the digits set the tile as soon as they make one (``1024``
      goes through 1, 10, 102); digits that make no tile are refused with the
      reason, at once (``7``) or on Enter or leaving the cell (``6``);
      Backspace, Delete or 0 clears; arrows move between cells;
    * or use the "Tile" field for the selected cell, which takes any text and
      says why a value is refused.

    The cells' keys never reach the game's.  ``PositionEditor`` shows and hides the cells (edit mode); ``changed()``
    is called whenever the board changes, so the share link follows it (``PositionText``).
    """

    def __init__(self, document: Any, wiring: Wiring, board_el: Any, changed: "Callable[[], None]") -> None:
        self.document = document
        self._wiring = wiring
        self.board_el = board_el
        self.changed = changed
        self.values = [0] * 16  # the board being edited, cell 0 (top left) first
        self.selected = 0
        self.typed = ""  # digits typed into the selected cell, not yet a whole tile or not yet confirmed
        self.typed_from = 0  # the cell's value before the typing began
        self._build_fields()
        self._build_cells()

    # -- building -----------------------------------------------------------------------------

    def _build_fields(self) -> None:
        """The bar's lines about the cells (``help_line``, ``value_row``, ``status``), for the editor to place."""
        document = self.document
        self.help_line = element(document, "p", {"class": "editor-help", "id": "editor-help"}, HELP)
        self.value_row = element(document, "div", {"class": "editor-row"})
        label = element(document, "label", {"class": "editor-value", "for": "editor-value"})
        self.value_caption = element(document, "span", {"id": "editor-value-caption"}, "Tile")
        self.value_input = element(
            document,
            "input",
            {
                "id": "editor-value",
                "type": "text",
                "inputmode": "numeric",
                "autocomplete": "off",
                "size": "6",
                "aria-describedby": "editor-status",
            },
        )
        label.append(self.value_caption, self.value_input)
        self.value_row.append(label)
        self._wiring.listen(self.value_input, "change", lambda _e: self._value_entered())
        self.status = element(document, "p", {"class": "editor-status", "id": "editor-status", "role": "status"})

    def _build_cells(self) -> None:
        self.cells_el = element(
            self.document, "div", {"id": "editor-cells", "class": "editor-cells", "aria-label": "Cells of the position"}
        )
        self.cells_el.hidden = True
        stale = self.document.getElementById("editor-cells")
        if stale:  # a start that failed half-way (main.guarded_main starts again); JavaScript's null is falsy
            stale.remove()
        self.cell_buttons = []
        for cell in range(16):
            row, col = divmod(cell, 4)
            cell_button = element(
                self.document,
                "button",
                {
                    "type": "button",
                    "class": "editor-cell",
                    "data-cell": str(cell),
                    "data-row": str(row),
                    "data-col": str(col),
                },
            )
            cell_button.append(element(self.document, "span", {"class": "tile-inner"}))
            self.cell_buttons.append(cell_button)
            self.cells_el.append(cell_button)
        self._wiring.listen(self.cells_el, "click", self._cell_click)
        self._wiring.listen(self.cells_el, "contextmenu", self._cell_context_menu)
        self._wiring.listen(self.cells_el, "keydown", self._cell_key)
        self._wiring.listen(self.cells_el, "focusin", self._cell_focus)
        self.board_el.append(self.cells_el)

    # -- the board being edited ---------------------------------------------------------------

    def board(self) -> Board:
        return from_rows([self.values[i : i + 4] for i in range(0, 16, 4)])

    def load(self, board: Board) -> None:
        """Edit ``board`` from now on: its tiles in the cells, no typing under way."""
        self.values = [value for row in to_rows(board) for value in row]
        self.typed = ""
        self.draw()

    def set_cell(self, cell: int, value: int) -> None:
        self.values[cell] = value
        self._draw_cell(cell)
        self.changed()
        if cell == self.selected:
            self.value_input.value = str(value) if value else ""

    def cycle(self, cell: int, step: int = 1) -> None:
        index = TILE_VALUES.index(self.values[cell])
        self.set_cell(cell, TILE_VALUES[(index + step) % len(TILE_VALUES)])

    def clear_board(self) -> None:
        self.typed = ""
        self.values = [0] * 16
        self.draw()
        self.say("The board is empty: set at least two tiles to play it.")

    def select(self, cell: int) -> None:
        if cell != self.selected:
            self.commit_typed()
            previous, self.selected = self.selected, cell
            self._draw_cell(previous)
            self._draw_cell(cell)
        self.value_caption.textContent = f"Tile at {cell_name(cell)}"
        self.value_input.value = str(self.values[cell]) if self.values[cell] else ""

    # -- typing -------------------------------------------------------------------------------

    def type_digit(self, digit: str) -> None:
        """A digit typed on the selected cell: the tile is set as soon as the digits make one."""
        cell = self.selected
        if not self.typed and digit == "0":
            self.set_cell(cell, 0)
            return
        if not self.typed:
            self.typed_from = self.values[cell]
        candidate = self.typed + digit
        if not any(text.startswith(candidate) for text in TILE_TEXTS):
            self.typed = ""
            self._refuse(candidate)
            self.set_cell(cell, self.typed_from)
            return
        self.typed = candidate
        if candidate in TILE_TEXTS:
            self.set_cell(cell, int(candidate))
        else:
            self._draw_cell(cell)

    def commit_typed(self) -> bool:
        """End the typing on the selected cell; False (and the cell as before) if the digits make no tile."""
        typed, self.typed = self.typed, ""
        if not typed or typed in TILE_TEXTS:
            self._draw_cell(self.selected)
            return True
        self._refuse(typed)
        self.set_cell(self.selected, self.typed_from)
        return False

    def _refuse(self, text: str) -> None:
        try:
            parse_value(text)
        except ValueError as exc:
            self.say(f"Not set: {exc}.", error=True)

    def _value_entered(self) -> None:
        """The "Tile" field was changed (Enter or leaving it): set the selected cell, or say why not."""
        try:
            value = parse_value(str(self.value_input.value))
        except ValueError as exc:
            self.say(f"Not set: {exc}.", error=True)
            return
        self.typed = ""
        self.set_cell(self.selected, value)
        self.say("")

    # -- events on the cells ------------------------------------------------------------------

    @staticmethod
    def _cell_of(event: Any) -> int | None:
        target = event.target
        found = target.closest("[data-cell]") if target else None  # JavaScript's null is falsy
        return int(found.getAttribute("data-cell")) if found else None

    def _cell_focus(self, event: Any) -> None:
        cell = self._cell_of(event)
        if cell is not None:
            self.select(cell)

    def _cell_click(self, event: Any) -> None:
        cell = self._cell_of(event)
        if cell is None:
            return
        self.select(cell)
        self.cycle(cell, -1 if event.shiftKey else 1)

    def _cell_context_menu(self, event: Any) -> None:
        cell = self._cell_of(event)
        if cell is None:
            return
        event.preventDefault()
        self.select(cell)
        self.cycle(cell, -1)
        self.focus_cell(cell)

    def _cell_key(self, event: Any) -> None:
        cell = self._cell_of(event)
        if cell is None or event.ctrlKey or event.altKey or event.metaKey:
            return
        self.select(cell)
        key = event.key
        if len(key) == 1 and key in "0123456789":
            self.type_digit(key)
        elif key == "Enter" and self.typed:
            self.commit_typed()  # (without typing, Enter clicks the button: the next tile)
        elif key == "Escape" and self.typed:
            self.typed = ""
            self.set_cell(cell, self.typed_from)
        elif key == "Backspace" and self.typed:
            self.typed = self.typed[:-1]
            self.set_cell(cell, int(self.typed) if self.typed in TILE_TEXTS else self.typed_from)
        elif key in ("Backspace", "Delete"):
            self.typed = ""
            self.set_cell(cell, 0)
        elif key in ARROW_STEPS:
            dr, dc = ARROW_STEPS[key]
            row, col = divmod(cell, 4)
            self.focus_cell(4 * min(max(row + dr, 0), 3) + min(max(col + dc, 0), 3))
        else:
            return  # Tab, T and the rest go on as usual
        event.preventDefault()
        event.stopPropagation()  # the game's keys never see the editor's

    def focus_cell(self, cell: int) -> None:
        self.select(cell)
        self.cell_buttons[cell].focus()

    # -- drawing ------------------------------------------------------------------------------

    def draw(self) -> None:
        for cell in range(16):
            self._draw_cell(cell)
        self.select(self.selected)
        self.changed()

    def _draw_cell(self, cell: int) -> None:
        value = self.values[cell]
        typing = bool(self.typed) and cell == self.selected
        text = self.typed if typing else (str(value) if value else "")
        classes = ["editor-cell"]
        if typing or value:
            classes.append(f"digits-{len(text)}")
        if value and not typing:
            classes.append(colour_class(value))
        classes.extend(name for name, on in (("typing", typing), ("selected", cell == self.selected)) if on)
        cell_button = self.cell_buttons[cell]
        cell_button.setAttribute("class", " ".join(classes))
        cell_button.setAttribute("tabindex", "0" if cell == self.selected else "-1")
        shown = f"typing {self.typed}" if typing else (str(value) if value else "empty")
        cell_button.setAttribute("aria-label", f"{cell_name(cell)}: {shown}")
        cell_button.firstChild.textContent = text

    def say(self, text: str, error: bool = False) -> None:
        """Show ``text`` in the editor's status line (an error in its colour)."""
        self.status.textContent = text
        self.status.setAttribute("class", "editor-status error" if error else "editor-status")


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
