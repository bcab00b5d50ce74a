"""Where the keyboard goes: to an opened panel's heading, and back to the board after a close or a click.

A panel opened by a key or a button scrolls into view with the focus on its
heading (``tabindex="-1"``), so a screen reader reads where the player is and
the page shows it; a closed panel gives the focus back to the board, where the
arrow keys play.  Focusing scrolls only when the heading is out of view, so a
panel already beside the board (the wide layout) leaves the page still.  A
setting changed with the mouse or a finger hands the keys back to the board
too (``KeysBack``); one reached with Tab keeps them.
"""

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass

BOARD_ID = "board"


def focus_heading(heading: Any) -> None:
    """Bring an opened panel's ``heading`` into view with the focus."""
    if heading is not None:
        heading.focus()


def focus_board(document: Any) -> None:
    """Give the focus back to the board (a closed panel, a setting changed with the mouse)."""
    board = document.getElementById(BOARD_ID)
    if board is not None:
        board.focus()


class KeysBack:
    """After a mouse or touch changes a watched control, the focus goes back to the board, so the arrows play.

    A control reached with Tab keeps the focus and its own keys (no pointer went down on it).
    """

    def __init__(self, document: Any, wiring: Any) -> None:
        """``wiring`` is the panel's ``app.wiring.Wiring``: its listeners live as long as the panel."""
        self.document = document
        self.wiring = wiring
        self.pointed: Any = None  # the control a pointer went down on, until its change

    def watch(self, control: Any, area: Any = None) -> None:
        """Hand the keys back after a pointer changes ``control`` (pressed on it, or on ``area``: its label)."""
        self.wiring.listen(area or control, "pointerdown", lambda _e: self._pointer_down(control))
        self.wiring.listen(control, "change", lambda _e: self._changed_by(control))

    def _pointer_down(self, control: Any) -> None:
        self.pointed = control

    def _changed_by(self, control: Any) -> None:
        if self.pointed is control:
            self.pointed = None
            focus_board(self.document)
