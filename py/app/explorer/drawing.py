"""The explorer's small drawing pieces, shared by its parts: a bar's width, a number, a difference, a cell's name.

Plain functions that return text or numbers, so CPython tests read them
without a browser and the page's MicroPython runs them (the small board is
``app.board.mini_board``, the page's).
"""

from math import floor, isfinite, log10

from game2048.board import cell_name as board_cell_name
from game2048.values import WIN_SCORE, fixed, format_value

SHORTEST_BAR = 8.0
"""The lowest root move's bar, in % of the full length: short, but still there to see and compare."""


def bar_width(value: float, low: float, high: float) -> float:
    """A root move's bar, in % of its full length: ``SHORTEST_BAR`` for ``low``, 100 for ``high``, to scale between
    (every bar full when they tie), so the shortest bar still shows."""
    if high == low:
        return 100.0
    return SHORTEST_BAR + (100.0 - SHORTEST_BAR) * (value - low) / (high - low)


def number(value: float) -> str:
    """``format_value``'s reading (4 significant digits, k and M, "−") with a tie rounded up in every
    interpreter (``fixed``): an average of counts such as 14.625 reads "14.63" in the page and in CPython."""
    if value is None or not isfinite(value) or abs(value) >= WIN_SCORE:
        return format_value(value)
    size = abs(value)
    scale, suffix = (1e6, "M") if size >= 1e6 else (1e3, "k") if size >= 1e4 else (1.0, "")
    shown = value / scale
    places = 0 if shown == 0 else max(0, 3 - floor(log10(abs(shown))))
    text = fixed(shown, places)
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return ("0" if text in ("-0", "") else text).replace("-", "\u2212") + suffix


def signed(value: float) -> str:
    """A difference for a person: "+0.9", "−5", "0"."""
    return "0" if value == 0 else ("+" if value > 0 else "") + number(value)


def cell_name(cell: int) -> str:
    """A cell (0..15, in reading order) for a person: "row 2, column 3" (``game2048.board.cell_name``)."""
    return board_cell_name(cell)
