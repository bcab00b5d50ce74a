"""The 4x4 board as one integer, and the moves on it.

A board is a 64-bit ``int`` of sixteen 4-bit *ranks* (log2 of the tile value,
0 for an empty cell).  Cell ``(row, col)`` lives in nibble ``4 * row + col``,
so row 0 (the top row) is the low 16 bits and, inside a row, column 0 is the
low nibble.  This is the layout of nneonneo/2048-ai: a whole row is one 16-bit
*line key*, so a move is four lookups in a 65,536-entry table instead of a loop
over cells, which is what makes a pure-Python search affordable.

Columns are read as line keys too (top cell in the low nibble) by a mask and
three shifts, so "up" is "left" on a column key and "down" is "right"; the
column tables hold their result already spread back into column position.

Ranks are 4 bits, so the largest tile is 2**15 = 32768; two 32768 tiles do not
merge (a 65536 tile is beyond the representation).  No game played here comes
near it; ``from_rows`` refuses larger tiles with a clear message.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum
from itertools import product

Board = int

MAX_RANK = 15
WIN_RANK = 11
"""The rank of 2048, the tile that wins."""
ROW_MASK = 0xFFFF
COL_MASK = 0x000F_000F_000F_000F
FULL_MASK = 0xFFFF_FFFF_FFFF_FFFF
ONES = 0x1111_1111_1111_1111
"""Bit 0 of every nibble (cell); ``TWOS``, ``FOURS`` and ``EIGHTS`` are bits 1, 2 and 3."""
TWOS = ONES << 1
FOURS = ONES << 2
EIGHTS = ONES << 3


class Direction(str, Enum):
    """A player's move; the value is the name used in the API and the page."""

    UP = "up"
    RIGHT = "right"
    DOWN = "down"
    LEFT = "left"


DIRECTIONS: tuple[Direction, ...] = (Direction.UP, Direction.RIGHT, Direction.DOWN, Direction.LEFT)


def line_ranks(line: int) -> tuple[int, int, int, int]:
    """The four ranks of a 16-bit line key, index 0 first."""
    return (line & 0xF, (line >> 4) & 0xF, (line >> 8) & 0xF, (line >> 12) & 0xF)


def line_key(ranks: Sequence[int]) -> int:
    """The 16-bit line key of four ranks, index 0 in the low nibble."""
    return ranks[0] | (ranks[1] << 4) | (ranks[2] << 8) | (ranks[3] << 12)


def reverse_line(line: int) -> int:
    """The line read from the other end."""
    return ((line & 0xF) << 12) | ((line & 0xF0) << 4) | ((line >> 4) & 0xF0) | (line >> 12)


def _spread_column(line: int) -> int:
    """Put a line key's four nibbles at the positions of column 0 (bits 0, 16, 32, 48)."""
    return (line & 0xF) | ((line & 0xF0) << 12) | ((line & 0xF00) << 24) | ((line & 0xF000) << 36)


def _build_tables() -> tuple[list[int], list[int], list[int], list[int], list[int], list[int]]:
    """Row results for left/right, column results for up/down, and the points of each.

    Built once at import, on the page's main thread too, so it is written for
    start-up time (about 0.1 s in CPython): line keys are enumerated in order by
    ``itertools.product`` and slid inline, and moving right is moving left on
    the reversed line.  ``reference.slide_line`` states the same rule plainly;
    a test checks the two agree on every line.
    """
    size = 1 << 16
    left = [0] * size
    score = [0] * size
    key = 0
    for r3, r2, r1, r0 in product(range(16), repeat=4):  # r0 varies fastest: key order
        tiles = [r for r in (r0, r1, r2, r3) if r]
        n = len(tiles)
        out = pts = shift = i = 0
        while i < n:
            r = tiles[i]
            if i + 1 < n and tiles[i + 1] == r and r < MAX_RANK:
                r += 1
                pts += 1 << r
                i += 2
            else:
                i += 1
            out |= r << shift
            shift += 4
        left[key] = out
        score[key] = pts
        key += 1
    rev = [reverse_line(k) for k in range(size)]
    right = [rev[left[r]] for r in rev]
    right_score = [score[r] for r in rev]
    up = [_spread_column(v) for v in left]
    down = [_spread_column(v) for v in right]
    return left, right, up, down, score, right_score


ROW_LEFT, ROW_RIGHT, COL_UP, COL_DOWN, SCORE_LEFT, SCORE_RIGHT = _build_tables()


def row_keys(board: Board) -> tuple[int, int, int, int]:
    """The four rows as line keys, top row first."""
    return (board & ROW_MASK, (board >> 16) & ROW_MASK, (board >> 32) & ROW_MASK, board >> 48)


def column_key(board: Board, col: int) -> int:
    """Column ``col`` as a line key, top cell in the low nibble."""
    x = (board >> (4 * col)) & COL_MASK
    return (x | (x >> 12) | (x >> 24) | (x >> 36)) & ROW_MASK


def column_keys(board: Board) -> tuple[int, int, int, int]:
    """The four columns as line keys, left column first."""
    return (column_key(board, 0), column_key(board, 1), column_key(board, 2), column_key(board, 3))


def move_left(board: Board) -> tuple[Board, int]:
    """Move every row toward column 0."""
    r0 = board & ROW_MASK
    r1 = (board >> 16) & ROW_MASK
    r2 = (board >> 32) & ROW_MASK
    r3 = board >> 48
    return (
        ROW_LEFT[r0] | (ROW_LEFT[r1] << 16) | (ROW_LEFT[r2] << 32) | (ROW_LEFT[r3] << 48),
        SCORE_LEFT[r0] + SCORE_LEFT[r1] + SCORE_LEFT[r2] + SCORE_LEFT[r3],
    )


def move_right(board: Board) -> tuple[Board, int]:
    """Move every row toward column 3."""
    r0 = board & ROW_MASK
    r1 = (board >> 16) & ROW_MASK
    r2 = (board >> 32) & ROW_MASK
    r3 = board >> 48
    return (
        ROW_RIGHT[r0] | (ROW_RIGHT[r1] << 16) | (ROW_RIGHT[r2] << 32) | (ROW_RIGHT[r3] << 48),
        SCORE_RIGHT[r0] + SCORE_RIGHT[r1] + SCORE_RIGHT[r2] + SCORE_RIGHT[r3],
    )


def _move_columns(board: Board, table: list[int], scores: list[int]) -> tuple[Board, int]:
    """Move the four columns by ``table``; unrolled because this is on the search's hot path."""
    x = board & COL_MASK
    k0 = (x | (x >> 12) | (x >> 24) | (x >> 36)) & ROW_MASK
    x = (board >> 4) & COL_MASK
    k1 = (x | (x >> 12) | (x >> 24) | (x >> 36)) & ROW_MASK
    x = (board >> 8) & COL_MASK
    k2 = (x | (x >> 12) | (x >> 24) | (x >> 36)) & ROW_MASK
    x = (board >> 12) & COL_MASK
    k3 = (x | (x >> 12) | (x >> 24) | (x >> 36)) & ROW_MASK
    return (
        table[k0] | (table[k1] << 4) | (table[k2] << 8) | (table[k3] << 12),
        scores[k0] + scores[k1] + scores[k2] + scores[k3],
    )


def move_up(board: Board) -> tuple[Board, int]:
    """Move every column toward row 0 (the top)."""
    return _move_columns(board, COL_UP, SCORE_LEFT)


def move_down(board: Board) -> tuple[Board, int]:
    """Move every column toward row 3 (the bottom)."""
    return _move_columns(board, COL_DOWN, SCORE_RIGHT)


MOVERS = {
    Direction.UP: move_up,
    Direction.RIGHT: move_right,
    Direction.DOWN: move_down,
    Direction.LEFT: move_left,
}


def move(board: Board, direction: Direction | str) -> tuple[Board, int]:
    """The board after ``direction`` and the points it scored; an illegal move returns ``(board, 0)``."""
    return MOVERS[Direction(direction)](board)


def legal_moves(board: Board) -> list[Direction]:
    """The moves that change the board, in ``DIRECTIONS`` order."""
    return [d for d in DIRECTIONS if MOVERS[d](board)[0] != board]


def is_game_over(board: Board) -> bool:
    """True when no move changes the board."""
    return not legal_moves(board)


def from_rows(rows: Iterable[Iterable[int]]) -> Board:
    """A board from 4 lists of 4 tile values (0 for empty); raises ``ValueError`` on anything else."""
    grid = [list(r) for r in rows]
    if len(grid) != 4 or any(len(r) != 4 for r in grid):
        raise ValueError(f"a board is 4 rows of 4 tiles, got {grid!r}")
    board = 0
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            board |= rank_of(value) << (4 * (4 * r + c))
    return board


def rank_of(value: int) -> int:
    """log2 of a tile value (0 for empty); raises ``ValueError`` for a value that is not a tile."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"a tile is an int, got {value!r}")
    if value == 0:
        return 0
    rank = value.bit_length() - 1
    if value < 2 or value != 1 << rank or rank > MAX_RANK:
        raise ValueError(f"a tile is 0 or a power of two from 2 to {1 << MAX_RANK}, got {value!r}")
    return rank


def to_rows(board: Board) -> list[list[int]]:
    """The board as 4 lists of 4 tile values, row 0 on top."""
    rows = []
    for r in range(4):
        row = []
        for c in range(4):
            rank = (board >> (4 * (4 * r + c))) & 0xF
            row.append(1 << rank if rank else 0)
        rows.append(row)
    return rows


def rank_at(board: Board, row: int, col: int) -> int:
    """The rank (log2 value, 0 for empty) at ``(row, col)``."""
    return (board >> (4 * (4 * row + col))) & 0xF


def empty_cells(board: Board) -> list[int]:
    """Indices ``4 * row + col`` of the empty cells, in reading order."""
    return [i for i in range(16) if not (board >> (4 * i)) & 0xF]


def count_empty(board: Board) -> int:
    """How many cells are empty."""
    # Fold each nibble to one bit that is set when the nibble is non-zero.
    x = board | (board >> 1)
    x |= x >> 2
    x &= ONES
    return 16 - bin(x).count("1")


def has_win_tile(child: Board) -> bool:
    """Some cell holds rank 11 (2048) or more: bit 3 set, and bit 2 or bits 1 and 0.

    The search inlines the expression (pinned to this text by ``tests/test_board_inlined_copies.py``).
    """
    eights, fours, twos, ones = EIGHTS, FOURS, TWOS, ONES
    return bool(child & eights and (child & eights) >> 3 & ((child & fours) >> 2 | (child & twos) >> 1 & child & ones))


_spread: tuple[list[int], list[int], list[int], list[int]] | None = None


def _spread_row(key: int) -> int:
    """Nibble ``c`` of a line key moved to bit ``16 * c`` (the line as row 0 of the transposed board)."""
    return (key & 0xF) | ((key & 0xF0) << 12) | ((key & 0xF00) << 24) | ((key & 0xF000) << 36)


def spread_tables() -> tuple[list[int], list[int], list[int], list[int]]:
    """``SPREAD[r][key]``: row ``r`` with line key ``key``, placed where it belongs in the transposed board.

    With them the transposed board is four lookups and three ORs, and its
    rows are the column keys: far cheaper than gathering nibbles with masks
    and shifts on multi-digit ints.  Four tables of 65,536 ints, built on
    first use, so that code that never searches (the page's main thread)
    never builds them.
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


def tile_values(board: Board) -> list[int]:
    """The values of the tiles on the board, in reading order, empty cells left out."""
    return [1 << rank for i in range(16) if (rank := (board >> (4 * i)) & 0xF)]


def max_rank(board: Board) -> int:
    """The largest rank on the board (0 when empty)."""
    best = 0
    while board:
        r = board & 0xF
        if r > best:
            best = r
        board >>= 4
    return best


def place(board: Board, cell: int, rank: int) -> Board:
    """The board with rank ``rank`` placed in the empty cell ``cell`` (0..15)."""
    return board | (rank << (4 * cell))


def transpose(board: Board) -> Board:
    """Mirror over the main diagonal: cell (r, c) goes to (c, r)."""
    a1 = board & 0xF0F0_0F0F_F0F0_0F0F
    a2 = board & 0x0000_F0F0_0000_F0F0
    a3 = board & 0x0F0F_0000_0F0F_0000
    a = a1 | (a2 << 12) | (a3 >> 12)
    b1 = a & 0xFF00_FF00_00FF_00FF
    b2 = a & 0x00FF_00FF_0000_0000
    b3 = a & 0x0000_0000_FF00_FF00
    return b1 | (b2 >> 24) | (b3 << 24)


def mirror(board: Board) -> Board:
    """Mirror left to right: cell (r, c) goes to (r, 3 - c)."""
    out = 0
    for r, key in enumerate(row_keys(board)):
        out |= reverse_line(key) << (16 * r)
    return out


def flip(board: Board) -> Board:
    """Mirror top to bottom: cell (r, c) goes to (3 - r, c)."""
    r0, r1, r2, r3 = row_keys(board)
    return r3 | (r2 << 16) | (r1 << 32) | (r0 << 48)


def rotate(board: Board) -> Board:
    """Rotate a quarter turn clockwise: cell (r, c) goes to (c, 3 - r)."""
    return mirror(transpose(board))


def symmetries(board: Board) -> list[Board]:
    """The eight images of the board under rotations and reflections."""
    out = []
    b = board
    for _ in range(4):
        out.append(b)
        out.append(mirror(b))
        b = rotate(b)
    return out


def tile_sum(board: Board) -> int:
    """The sum of the tile values."""
    total = 0
    while board:
        r = board & 0xF
        if r:
            total += 1 << r
        board >>= 4
    return total


def format_board(board: Board) -> str:
    """A small text picture of the board, for messages and the command line."""
    return "\n".join(" ".join(f"{v or '.':>5}" for v in row) for row in to_rows(board))
