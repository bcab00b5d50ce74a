"""The page's small board: a 4×4 board as HTML, for the explorer, the walk and the replay.

One drawing and one reading for a screen reader (``board_words``), so every
small board on the page looks and sounds the same.  A plain function that
returns escaped HTML, so CPython tests read it without a browser and the
page's MicroPython runs it.
"""

from html import escape

from app.board.view import colour_class


def mini_board(rows: "list[list[int]]", mark: "int | None" = None, label: str = "") -> str:
    """A small 4×4 board; ``mark`` outlines one cell (the tile just placed).

    Each tile carries its number of digits (``digits-N``), so the style sizes
    a 16384 to stay on one line and readable (explorer.css).
    """
    cells = []
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            cls = f"{colour_class(int(value))} digits-{len(str(int(value)))}" if value else "empty"
            if mark is not None and 4 * r + c == mark:
                cls += " marked"
            cells.append(f'<span class="mini-cell {cls}">{int(value) if value else ""}</span>')
    return (
        f'<div class="mini-board" role="img" aria-label="{escape(label)}: {board_words(rows)}">{"".join(cells)}</div>'
    )


def board_words(rows: "list[list[int]]") -> str:
    """A small board as a screen reader hears it, row by row ("·" an empty cell): the same for every small board
    of the page."""
    return "; ".join(" ".join(str(int(v)) if v else "\u00b7" for v in row) for row in rows)
