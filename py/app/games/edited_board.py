"""The board being edited in the position editor: its sixteen cell buttons, the "Tile" field and the status line.

``EditedBoard`` holds the position and turns clicks and typing on its cells into tiles; ``element`` and ``button``
make the elements of the editor's bar, for the editor's other parts too (``app.games.editor``,
``app.games.editor_share``).  Bound to the ``document`` it receives, so CPython tests drive it with fakes.
"""

from app.board.view import colour_class
from app.browser.wiring import Wiring
from game2048.board import MAX_RANK, Board, cell_name, from_rows, to_rows
from game2048.position_text import parse_value

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

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
    is called whenever the board changes, so the share link follows it (``app.games.editor_share``).
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
