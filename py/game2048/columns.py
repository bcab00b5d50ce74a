"""Column keys by table lookup: the board transposed from its four row keys.

A column key is four nibbles gathered from four rows.  Gathering them with
masks and shifts costs 28 operations on a 64-bit ``int``, and in CPython (and
more so in Pyodide) every one of those allocates a multi-digit integer.  With
``SPREAD[r][row_key]`` = that row's four nibbles already placed where they
belong in the *transposed* board (nibble ``c`` of row ``r`` at bit
``16 * c + 4 * r``), the transposed board is four lookups and three ORs, and
its four 16-bit rows are the column keys.  Measured: 3.0 µs → 0.7 µs for the
four keys of a random board in CPython 3.11, 5 % less search time overall.

Four tables of 65,536 ints (about 10 MB in CPython), built on first use (about
50 ms) so that the page's main thread, which never searches, never builds them.
"""

from __future__ import annotations

from .board import ROW_MASK

_spread: tuple[list[int], list[int], list[int], list[int]] | None = None


def _spread_row(key: int) -> int:
    """Nibble ``c`` of a line key moved to bit ``16 * c`` (the line as row 0 of the transposed board)."""
    return (key & 0xF) | ((key & 0xF0) << 12) | ((key & 0xF00) << 24) | ((key & 0xF000) << 36)


def spread_tables() -> tuple[list[int], list[int], list[int], list[int]]:
    """``SPREAD[r][key]``: row ``r`` with line key ``key``, placed in the transposed board; built once."""
    global _spread
    if _spread is None:
        first = [_spread_row(key) for key in range(1 << 16)]
        _spread = (first, [v << 4 for v in first], [v << 8 for v in first], [v << 12 for v in first])
    return _spread


def transposed(board: int) -> int:
    """The board mirrored over its main diagonal (column ``c`` becomes row ``c``), by table."""
    s0, s1, s2, s3 = spread_tables()
    return s0[board & ROW_MASK] | s1[(board >> 16) & ROW_MASK] | s2[(board >> 32) & ROW_MASK] | s3[board >> 48]
