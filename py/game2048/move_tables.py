"""The search's move tables: every line's move precomputed, so a move is four lookups.

A whole row of the board is one 16-bit line key, so "left" is four lookups in
a 65,536-entry table instead of a loop over cells, which is what makes a
pure-Python search affordable.  Columns are read as line keys too (top cell in
the low nibble), so "up" is "left" on a column key and "down" is "right"; the
column tables hold their result already spread back into column position.

Built at import, about 0.1 s in CPython: only the AI worker and the lab import
this module.  The page's main thread moves line by line (``board.move``).
"""

from __future__ import annotations

from itertools import product

from .board import MAX_RANK, Board, reverse_line, slide_ranks, spread_column


def _build_tables() -> tuple[list[int], list[int], list[int], list[int], list[int], list[int]]:
    """Row results for left/right, column results for up/down, and the points of each.

    Line keys are enumerated in order by ``itertools.product`` and slid by
    ``board.slide_ranks``; moving right is moving left on the reversed line.
    """
    size = 1 << 16
    left = [0] * size
    score = [0] * size
    key = 0
    for r3, r2, r1, r0 in product(range(MAX_RANK + 1), repeat=4):  # r0 varies fastest: key order
        left[key], score[key] = slide_ranks([r for r in (r0, r1, r2, r3) if r])
        key += 1
    rev = [reverse_line(k) for k in range(size)]
    right = [rev[left[r]] for r in rev]
    right_score = [score[r] for r in rev]
    up = [spread_column(v) for v in left]
    down = [spread_column(v) for v in right]
    return left, right, up, down, score, right_score


ROW_LEFT, ROW_RIGHT, COL_UP, COL_DOWN, SCORE_LEFT, SCORE_RIGHT = _build_tables()

_spread: tuple[list[int], list[int], list[int], list[int]] | None = None


def _spread_row(key: int) -> int:
    """Nibble ``c`` of a line key moved to bit ``16 * c`` (the line as row 0 of the transposed board)."""
    return (key & 0xF) | ((key & 0xF0) << 12) | ((key & 0xF00) << 24) | ((key & 0xF000) << 36)


def spread_tables() -> tuple[list[int], list[int], list[int], list[int]]:
    """``SPREAD[r][key]``: row ``r`` with line key ``key``, placed where it belongs in the transposed board.

    With them the transposed board is four lookups and three ORs, and its
    rows are the column keys: far cheaper than gathering nibbles with masks
    and shifts on multi-digit ints.  Four tables of 65,536 ints, built on
    first use.
    """
    global _spread
    if _spread is None:
        first = [_spread_row(key) for key in range(1 << 16)]
        _spread = (first, [v << 4 for v in first], [v << 8 for v in first], [v << 12 for v in first])
    return _spread


def afterstates(board: Board) -> tuple[Board, Board, Board, Board]:
    """The boards after up, right, down, left (``DIRECTIONS`` order); a move that changes nothing gives ``board``.

    The one statement of the table path: row keys, the transposed board (its
    rows are the column keys), four lookups per move.  The search's hot loops
    inline these lines, with these names; ``tests/test_board_inlined_copies.py``
    checks every copy against this text.
    """
    spread0, spread1, spread2, spread3 = spread_tables()
    row_left, row_right, col_up, col_down = ROW_LEFT, ROW_RIGHT, COL_UP, COL_DOWN
    r0 = board & 0xFFFF
    r1 = (board >> 16) & 0xFFFF
    r2 = (board >> 32) & 0xFFFF
    r3 = board >> 48
    x = spread0[r0] | spread1[r1] | spread2[r2] | spread3[r3]  # the transposed board
    k0 = x & 0xFFFF
    k1 = (x >> 16) & 0xFFFF
    k2 = (x >> 32) & 0xFFFF
    k3 = x >> 48
    return (
        col_up[k0] | (col_up[k1] << 4) | (col_up[k2] << 8) | (col_up[k3] << 12),
        row_right[r0] | (row_right[r1] << 16) | (row_right[r2] << 32) | (row_right[r3] << 48),
        col_down[k0] | (col_down[k1] << 4) | (col_down[k2] << 8) | (col_down[k3] << 12),
        row_left[r0] | (row_left[r1] << 16) | (row_left[r2] << 32) | (row_left[r3] << 48),
    )
