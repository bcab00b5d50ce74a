"""Drawing: the engine's state as DOM elements, one element per tile, moved by CSS transforms.

The view reads the game and never changes it (the original's ``HTMLActuator``
role).  A move is drawn in two steps that ``app.board.play`` times:

* ``slide(outcome)``: every tile element gets its destination cell; the CSS
  transition on ``transform`` animates it (about 100 ms);
* ``settle(game, outcome)``: tiles that merged away are removed, merged tiles
  get their new value and a "pop", the spawned tile appears, and every cell
  is checked against the engine's board, so whatever happened in between,
  the DOM ends up showing exactly the engine's state.

For assistive technology the tile elements are hidden: the board's grid of 16
cells (``role="grid"`` in index.html) carries each cell's value or "empty" as
its label, relabelled whenever the view settles, and ``announce`` adds a
sentence (from ``app.browser.announce``) as a new line of the polite live region
``#announcer`` (a log that keeps its last few lines).

Test hooks kept stable here: each settled tile is ``.tile`` with its value as
text and ``data-row`` / ``data-col`` (0-based, row 0 on top); ``#board`` has
``data-settled="true"`` when no move is being drawn.
"""

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

from app.browser.announce import cell_label, cell_values
from game2048.board import DOWN, LEFT, RIGHT, UP, Direction, direction_named
from game2048.game import Game, MoveOutcome

ARROWS = {UP: "\u2191", RIGHT: "\u2192", DOWN: "\u2193", LEFT: "\u2190"}
SUPER_VALUE = 2048  # tiles above it share one dark colour, as in the original
# Lines the live region keeps: enough that sentences said in one turn of the loop are all still
# there when the browser reads the region; older lines, long since read, are removed (not said).
SAID_KEPT = 4
SET_UP_NOTE = "Set-up position: Score includes the {} points it started with; Best counts only what moves earn."
"""Under the scores while the game began on a position set up by hand (``Game.start_score``): why they differ."""


def colour_class(value: int) -> str:
    """The colour class of a tile of ``value`` (also the explorer's and the editor's small tiles)."""
    return f"tile-{value}" if value <= SUPER_VALUE else "tile-super"


def tile_classes(value: int, extra: str = "") -> str:
    """The class list of a tile of ``value``: colour by value, font size by number of digits."""
    colour = colour_class(value)
    return f"tile {colour} digits-{len(str(value))}" + (f" {extra}" if extra else "")


class BoardView:
    """Draws a ``Game`` into the page's board, score boxes and overlays."""

    def __init__(self, document: Any) -> None:
        self.document = document
        self.board_el = document.getElementById("board")
        self.tiles_el = document.getElementById("tiles")
        self.score_el = document.getElementById("score")
        self.best_el = document.getElementById("best")
        self.score_box = document.getElementById("score-box")
        self.score_note = document.getElementById("score-note")
        self.win_overlay = document.getElementById("win-overlay")
        self.over_overlay = document.getElementById("over-overlay")
        self.hint_el = document.getElementById("hint-arrow")
        self.notice_el = document.getElementById("notice")
        self.notice_text = document.getElementById("notice-text")
        self.notice_action_el = document.getElementById("notice-action")
        self.kept_button = document.getElementById("kept-games")
        self.undo_button = document.getElementById("undo")
        self.redo_button = document.getElementById("redo")
        self.undo_count = document.getElementById("undo-count")
        self.announcer = document.getElementById("announcer")
        self._said: list[Any] = []  # the live region's lines, oldest first
        cells = self.board_el.querySelectorAll('[role="gridcell"]')
        self.cells = [cells.item(i) for i in range(cells.length)]  # 16, top-left first, row by row
        self._cell_labels: list[str] = [""] * len(self.cells)
        self._notice_action: Callable[[], None] | None = None
        self._notice_error = False  # the notice shown says what is wrong (``show_notice(error=True)``)
        self._tiles: dict[int, Any] = {}  # cell (0..15) -> settled tile element
        self._leaving: list[Any] = []  # elements sliding into a merge, removed at settle

    # -- tiles --------------------------------------------------------------------------------

    def _new_tile(self, cell: int, value: int, extra: str) -> Any:
        tile = self.document.createElement("div")
        self._position(tile, cell)
        self._paint(tile, value, extra)
        self.tiles_el.appendChild(tile)
        return tile

    @staticmethod
    def _position(tile: Any, cell: int) -> None:
        row, col = divmod(cell, 4)
        tile.setAttribute("data-row", str(row))
        tile.setAttribute("data-col", str(col))
        tile.style.setProperty("--r", str(row))
        tile.style.setProperty("--c", str(col))

    def _paint(self, tile: Any, value: int, extra: str) -> None:
        """Set value and classes; a fresh inner element so a pop/appear animation starts anew."""
        tile.className = tile_classes(value, extra)
        inner = self.document.createElement("div")
        inner.className = "tile-inner"
        inner.textContent = str(value)
        tile.replaceChildren(inner)

    def render(self, game: Game) -> None:
        """Draw the board from scratch (new or restored game): every tile appears."""
        self.tiles_el.replaceChildren()
        self._tiles = {}
        self._leaving = []
        for cell, value in enumerate(cell_values(game)):
            if value:
                self._tiles[cell] = self._new_tile(cell, value, "tile-new")
        self.hide_hint()
        self._label_cells(game)
        self._note_set_up(game)

    def _note_set_up(self, game: Game) -> None:
        """The note under the scores of a game begun on a set-up position: Best leaves out the points it began with.

        Those points are the game's own (``start_score``): drawn with the game, they change only with it.
        """
        shown = game.start_score > 0
        self.score_note.textContent = SET_UP_NOTE.format(game.start_score) if shown else ""
        self.score_note.hidden = not shown

    def slide(self, outcome: MoveOutcome) -> None:
        """Send each tile element to its destination; merging tiles are removed at ``settle``."""
        self.hide_hint()
        for tile in self._leaving:  # a previous slide cut short: finish it now
            tile.remove()
        self._leaving = []
        before = self._tiles
        after: dict[int, Any] = {}
        for journey in outcome.journeys:
            tile = before.pop(journey.src, None)
            if tile is None:
                continue  # the DOM had drifted; settle() redraws that cell from the engine
            if journey.src != journey.dst:
                self._position(tile, journey.dst)
            if journey.merged or journey.dst in after:
                self._leaving.append(tile)
            else:
                after[journey.dst] = tile
        for stray in before.values():
            stray.remove()
        self._tiles = after

    def settle(self, game: Game, outcome: MoveOutcome | None = None) -> None:
        """Make the DOM equal to the engine's board: drop merged-away tiles, pop merges, show the spawn."""
        for tile in self._leaving:
            tile.remove()
        self._leaving = []
        merged = set(outcome.merged_cells) if outcome else set()
        spawn_cell = outcome.spawn[0] if outcome and outcome.spawn else None
        for cell, value in enumerate(cell_values(game)):
            tile = self._tiles.get(cell)
            if not value:
                if tile is not None:
                    tile.remove()
                    del self._tiles[cell]
                continue
            if tile is None:
                self._tiles[cell] = self._new_tile(cell, value, "tile-new" if cell == spawn_cell else "")
            elif cell in merged:
                self._paint(tile, value, "tile-merged")
            elif tile.textContent != str(value):
                self._paint(tile, value, "")
        self._label_cells(game)

    def _label_cells(self, game: Game) -> None:
        """Each grid cell's accessible name: its tile's value or "empty" (only the cells that changed)."""
        for cell, value in enumerate(cell_values(game)[: len(self.cells)]):
            label = cell_label(value)
            if label != self._cell_labels[cell]:
                self.cells[cell].setAttribute("aria-label", label)
                self._cell_labels[cell] = label

    def announce(self, text: str) -> None:
        """Say ``text`` through the polite live region, as a line added to it.

        A new line rather than new text: two sentences said in one turn of the
        loop (a blocked key and the AI's loading stage) are both read, where
        replacing the text would leave the browser only the last; and the same
        sentence twice is a second addition, read again.
        """
        line = self.document.createElement("div")
        line.textContent = text
        self.announcer.appendChild(line)
        self._said.append(line)
        if len(self._said) > SAID_KEPT:
            self._said.pop(0).remove()

    # -- score, overlays, hint, notice --------------------------------------------------------

    def show_score(self, score: int, best: int, added: int = 0) -> None:
        self.score_el.textContent = str(score)
        self.best_el.textContent = str(best)
        old = self.score_box.querySelectorAll(".score-addition")  # a static list: removing is safe
        for i in range(old.length):
            old.item(i).remove()
        if added > 0:
            floater = self.document.createElement("div")
            floater.className = "score-addition"
            floater.textContent = f"+{added}"
            self.score_box.appendChild(floater)

    def show_overlays(self, game: Game) -> None:
        """The win or game-over overlay the game is in; one that appears takes the focus on its first button.

        So a keyboard or screen-reader user answers it with Enter, where the
        live region has just said why it appeared.
        """
        for overlay, shown in (
            (self.win_overlay, game.paused_at_win),
            (self.over_overlay, game.over and not game.paused_at_win),
        ):
            appeared = shown and overlay.hidden
            overlay.hidden = not shown
            if appeared:
                overlay.querySelector("button").focus()

    def set_settled(self, settled: bool) -> None:
        self.board_el.setAttribute("data-settled", "true" if settled else "false")

    def show_hint(self, direction: Direction) -> None:
        direction = direction_named(direction)
        self.hint_el.textContent = ARROWS[direction]
        self.hint_el.setAttribute("data-direction", direction)
        self.hint_el.hidden = False

    def hide_hint(self) -> None:
        self.hint_el.hidden = True
        self.hint_el.removeAttribute("data-direction")

    def show_notice(self, text: str, error: bool = False, action: tuple[str, Callable[[], None]] | None = None) -> None:
        """Show ``text`` (replacing any notice), with an optional button ``(label, callback)``."""
        self.notice_text.textContent = text
        self.notice_el.className = "notice error" if error else "notice"
        self._notice_error = error
        self.notice_el.hidden = False
        self._notice_action = action[1] if action else None
        self.notice_action_el.hidden = action is None
        self.notice_action_el.textContent = action[0] if action else ""

    def run_notice_action(self) -> None:
        """The notice's button was pressed: run its callback once and close the notice."""
        action, self._notice_action = self._notice_action, None
        self.hide_notice()
        if action is not None:
            action()

    def hide_notice(self) -> None:
        self.notice_el.hidden = True
        self._notice_action = None

    def end_game_notice(self) -> None:
        """A new game (R): the notice goes, unless it is an error.

        A notice tells of the game it came with (a game kept, rebuilt or dropped, the AI restarted over it), which
        a new game leaves behind; an error tells of what outlasts a game (storage that saves nothing, an AI that
        does not start, a network that could not be used), still true, so it stays until dismissed.
        """
        if not self._notice_error:
            self.hide_notice()

    def show_history(self, game: Game) -> None:
        """The Undo and Redo buttons (enabled when they can act) and the game's undo count."""
        self.undo_button.disabled = not game.history
        self.redo_button.disabled = not game.undone
        self.undo_count.textContent = str(game.undos) if game.undos else ""
        self.undo_button.setAttribute(
            "aria-label", f"Undo ({game.undos} so far in this game)" if game.undos else "Undo"
        )

    def show_kept_games(self, count: int) -> None:
        """The "Resume kept game" button, shown while games are kept."""
        self.kept_button.hidden = count == 0
        self.kept_button.title = f"{count} kept game{'s' if count != 1 else ''}: switch to the newest (B)"
