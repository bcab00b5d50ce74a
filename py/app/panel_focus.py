"""Where the keyboard goes when a panel opens or closes: to the opened panel's heading, or back to the board.

A panel opened by a key or a button scrolls into view with the focus on its
heading (``tabindex="-1"``), so a screen reader reads where the player is and
the page shows it; a closed panel gives the focus back to the board, where the
arrow keys play.  Focusing scrolls only when the heading is out of view, so a
panel already beside the board (the wide layout) leaves the page still.
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
