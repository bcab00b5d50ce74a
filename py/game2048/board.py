"""The 4x4 board as one integer, the rules of a move, and the board's views.

A board is a 64-bit ``int`` of sixteen 4-bit *ranks* (log2 of the tile value,
0 for an empty cell).  Cell ``(row, col)`` lives in nibble ``4 * row + col``,
so row 0 (the top row) is the low 16 bits and, inside a row, column 0 is the
low nibble.  This is the layout of nneonneo/2048-ai: a whole row is one 16-bit
*line key*, and columns are read as line keys too (top cell in the low nibble)
by a mask and three shifts, so "up" is "left" on a column key and "down" is
"right".  ``move_tables`` turns every line's move into tables for the search.

Ranks are 4 bits, so the largest tile is 2**15 = 32768; two 32768 tiles do not
merge (a 65536 tile is beyond the representation).  No game played here comes
near it; ``from_rows`` refuses larger tiles with a clear message.

Plain Python that CPython, Pyodide and MicroPython share (the page's main
thread runs MicroPython): no ``__future__``, ``typing``, ``enum`` or
``int.bit_length``, and nothing expensive at import.
"""

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from collections.abc import Iterable, Sequence
except ImportError:
    pass

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

Direction = str
"""A player's move is its name, the one used in the API, the saved data and the page."""
UP = "up"
RIGHT = "right"
DOWN = "down"
LEFT = "left"
DIRECTIONS = (UP, RIGHT, DOWN, LEFT)


def is_board(value: object) -> bool:
    """Whether ``value`` is a board: an int (not a bool) of 64 bits, sixteen 4-bit ranks."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= FULL_MASK


def direction_named(name: object) -> Direction:
    """``name`` if it is one of ``DIRECTIONS``; ``ValueError`` otherwise."""
    if name not in DIRECTIONS:
        raise ValueError(f"a move is one of up, right, down, left; got {name!r}")
    return name


def line_ranks(line: int) -> tuple[int, int, int, int]:
    """The four ranks of a 16-bit line key, index 0 first."""
    return (line & 0xF, (line >> 4) & 0xF, (line >> 8) & 0xF, (line >> 12) & 0xF)


def line_key(ranks: "Sequence[int]") -> int:
    """The 16-bit line key of four ranks, index 0 in the low nibble."""
    return ranks[0] | (ranks[1] << 4) | (ranks[2] << 8) | (ranks[3] << 12)


def reverse_line(line: int) -> int:
    """The line read from the other end."""
    return ((line & 0xF) << 12) | ((line & 0xF0) << 4) | ((line >> 4) & 0xF0) | (line >> 12)


def spread_column(line: int) -> int:
    """Put a line key's four nibbles at the positions of column 0 (bits 0, 16, 32, 48)."""
    return (line & 0xF) | ((line & 0xF0) << 12) | ((line & 0xF00) << 24) | ((line & 0xF000) << 36)


def slide_ranks(tiles: list[int]) -> tuple[int, int]:
    """The rule of one move on one line: its tiles (non-zero ranks, from the wall they move toward) slid
    and merged toward that wall, as a line key, and the points the merges score.

    Equal neighbours merge once per move, the pair nearest the wall first; two
    tiles of ``MAX_RANK`` do not merge (see the module's docstring).
    ``move_tables`` builds the search's tables with it; ``reference.slide_line``
    states the same rule on tile values, and a test checks they agree.
    """
    n = len(tiles)
    out = points = shift = i = 0
    while i < n:
        r = tiles[i]
        if i + 1 < n and tiles[i + 1] == r and r < MAX_RANK:
            r += 1
            points += 1 << r
            i += 2
        else:
            i += 1
        out |= r << shift
        shift += 4
    return out, points


_slides: dict[int, tuple[int, int]] = {}


def slide_line(line: int) -> tuple[int, int]:
    """A line key moved toward index 0, and its points; remembered per line, so a game's move costs
    four dictionary lookups once its lines have been seen, and nothing is built at import."""
    known = _slides.get(line)
    if known is None:
        known = _slides[line] = slide_ranks([r for r in line_ranks(line) if r])
    return known


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


def move(board: Board, direction: Direction) -> tuple[Board, int]:
    """The board after ``direction`` and the points it scored; an illegal move returns ``(board, 0)``.

    Line by line through ``slide_line``: the game's path, one move per key
    press.  The search moves by the tables of ``move_tables`` instead.
    """
    direction = direction_named(direction)
    along_rows = direction == LEFT or direction == RIGHT
    toward_high_index = direction == RIGHT or direction == DOWN  # column 3 or row 3: the reversed line
    out = points = 0
    for i, key in enumerate(row_keys(board) if along_rows else column_keys(board)):
        if toward_high_index:
            slid, pts = slide_line(reverse_line(key))
            slid = reverse_line(slid)
        else:
            slid, pts = slide_line(key)
        out |= slid << (16 * i) if along_rows else spread_column(slid) << (4 * i)
        points += pts
    return out, points


def legal_moves(board: Board) -> list[Direction]:
    """The moves that change the board, in ``DIRECTIONS`` order."""
    return [d for d in DIRECTIONS if move(board, d)[0] != board]


def is_game_over(board: Board) -> bool:
    """True when no move changes the board."""
    return not legal_moves(board)


def from_rows(rows: "Iterable[Iterable[int]]") -> Board:
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
    rank = RANK_OF_VALUE.get(value)
    if rank is None:
        raise ValueError(f"a tile is 0 or a power of two from 2 to {1 << MAX_RANK}, got {value!r}")
    return rank


RANK_OF_VALUE = {0: 0}
RANK_OF_VALUE.update({1 << rank: rank for rank in range(1, MAX_RANK + 1)})
"""Each tile value's rank (0 for an empty cell)."""


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


def empty_cells(board: Board) -> list[int]:
    """Indices ``4 * row + col`` of the empty cells, in reading order."""
    return [i for i in range(16) if not (board >> (4 * i)) & 0xF]


def cell_name(cell: int) -> str:
    """Cell ``cell`` (``4 * row + col``) as a person names it, counting from 1: cell 6 is "row 2, column 3".

    The one wording of a cell for every screen-reader label and explanation, so they all say it alike.
    """
    return f"row {cell // 4 + 1}, column {cell % 4 + 1}"


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
