"""The computer's placements: which tiles the min nodes try (ovolve's reduction of the tree).

The computer does not try every empty cell with a 2 and a 4 (up to 30
replies): each placement is scored by how *annoying* the board it makes is,
``−smoothness + islands`` (smoothness as in the classic evaluation, islands =
groups of equal 4-connected tiles), and only the placements of the highest
score are kept, ties all: one or two per min node, which makes depth affordable.

The scores are computed as changes from the board before the placement (four
table lookups and a memoised island count), which keeps the same placements as
``reference.annoyance``'s scores from scratch.  How, and why that is exact:
docs/alphabeta.md, "The computer's placements".
"""

from __future__ import annotations

from collections.abc import Callable

from ..board import COL_MASK, ONES, ROW_MASK, Board
from ..evaluation import classic
from ..move_tables import spread_tables

NOT_COL0 = 0x1110_1110_1110_1110
"""Nibble mask of the cells outside column 0 (where a shift toward higher cells may land)."""
NOT_COL3 = 0x0111_0111_0111_0111
"""Nibble mask of the cells outside column 3 (where a shift toward lower cells may land)."""
PLACED_RANKS = (1, 2)
"""The computer places a 2 (rank 1) or a 4 (rank 2); scored and listed 2 first, as the original does."""


def _count_components(mask: int) -> int:
    """4-connected groups of the cells in a nibble mask, by growing each group with shifts until it stops."""
    groups = 0
    while mask:
        group = mask & -mask
        while True:
            grown = (
                group | ((group << 4) & NOT_COL0) | ((group >> 4) & NOT_COL3) | (group << 16) | (group >> 16)
            ) & mask
            if grown == group:
                break
            group = grown
        mask ^= group
        groups += 1
    return groups


class _Components(dict[int, int]):
    """Memoised component counts: ``COMPONENTS[mask]`` computes on a miss, a dict lookup otherwise."""

    def __missing__(self, mask: int) -> int:
        count = self[mask] = _count_components(mask)
        return count


COMPONENTS: dict[int, int] = _Components()


def rank_mask(board: Board, rank: int) -> int:
    """Nibble mask (bit ``4 * cell``) of the cells holding ``rank`` (rank 0: the empty cells)."""
    x = board ^ (rank * ONES)
    x |= x >> 1
    x |= x >> 2
    return ~x & ONES


def placement_deltas(board: Board) -> list[tuple[int, int, int]]:
    """(cell, rank, change of −smoothness + islands) for every placement, 2s first.

    The incremental scoring of ``placements``, written plainly, one tuple per
    placement, so the tests can hold each change against ``reference.annoyance``.
    """
    smooth = smoothness_table()
    out = []
    for rank in PLACED_RANKS:
        same = rank_mask(board, rank)
        base_groups = COMPONENTS[same]
        for cell in range(16):
            shift = 4 * cell
            if (board >> shift) & 0xF:
                continue
            r, c = divmod(cell, 4)
            row = (board >> (16 * r)) & ROW_MASK
            x = (board >> (4 * c)) & COL_MASK
            col = (x | (x >> 12) | (x >> 24) | (x >> 36)) & ROW_MASK
            d_smooth = smooth[row | (rank << (4 * c))] - smooth[row] + smooth[col | (rank << (4 * r))] - smooth[col]
            d_islands = COMPONENTS[same | (1 << shift)] - base_groups
            out.append((cell, rank, d_smooth + d_islands))
    return out


def annoyance(board: Board) -> int:
    """``−smoothness + islands`` of ``board`` from the tables: what ``reference.annoyance`` computes cell by cell."""
    smooth = smoothness_table()
    x = board
    total = 0
    for _ in range(4):
        total += smooth[x & ROW_MASK]
        x >>= 16
    for c in range(4):
        x = (board >> (4 * c)) & COL_MASK
        total += smooth[(x | (x >> 12) | (x >> 24) | (x >> 36)) & ROW_MASK]
    ranks = {(board >> (4 * cell)) & 0xF for cell in range(16)} - {0}
    return total + sum(COMPONENTS[rank_mask(board, rank)] for rank in ranks)


def scored_placements(board: Board) -> list[tuple[int, int, int, bool]]:
    """(cell, rank, annoyance of the board after it, kept) for every placement, 2s first: the reduction laid bare.

    ``kept`` marks the placements ``make_placements`` keeps (the highest
    score, ties all kept), for ``explain``'s heat map; the scores are
    ``annoyance(board) + change`` (``placement_deltas``).
    """
    base = annoyance(board)
    scored = [(cell, rank, base + change) for cell, rank, change in placement_deltas(board)]
    best = max((score for _, _, score in scored), default=0)
    return [(cell, rank, score, score == best) for cell, rank, score in scored]


_smoothness: list[int] | None = None


def smoothness_table() -> list[int]:
    """Σ |a − b| of each 16-bit line key (a magnitude), taken from the classic evaluation's packed table."""
    global _smoothness
    if _smoothness is None:
        packed = classic.tables()[0]
        mask = classic.FIELD_MASK
        shift = classic.SMOOTH_SHIFT
        _smoothness = [(p >> shift) & mask for p in packed]
    return _smoothness


def _cell_records(cell: int) -> tuple[int, ...]:
    """What the placement loop needs about one cell, precomputed (see ``make_placements``)."""
    r, c = divmod(cell, 4)
    near = 0
    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= rr < 4 and 0 <= cc < 4:
            near |= 1 << (4 * (4 * rr + cc))
    shift = 4 * cell
    return (r, c, 1 << (4 * c), 1 << (4 * r), 2 << (4 * c), 2 << (4 * r), near, 1 << shift, 2 << shift)


CELL_RECORDS: tuple[tuple[int, ...], ...] = tuple(_cell_records(cell) for cell in range(16))


class _EmptyCells(dict[int, tuple[tuple[int, ...], ...]]):
    """The cell records of the empty cells, by the 16-bit mask of empty cells; filled on first use."""

    def __missing__(self, mask16: int) -> tuple[tuple[int, ...], ...]:
        records = self[mask16] = tuple(CELL_RECORDS[cell] for cell in range(16) if mask16 >> cell & 1)
        return records


EMPTY_CELLS: dict[int, tuple[tuple[int, ...], ...]] = _EmptyCells()


def make_placements(twos_only: bool = False) -> Callable[[Board], list[Board]]:
    """The fast placement generator: ``placements(board) -> list of child boards``, the most annoying ones.

    ``twos_only=True`` lets the computer place only 2s (the most annoying of
    them): the milder opponent of alpha-beta's rescue search, which asks
    what to do once the full reduction proves the game lost (``alphabeta``).

    A closure so that tables and constants are local names in the loop.  The
    four row keys and four column keys (via ``move_tables.spread_tables``) are read once per node; the empty
    cells come from a memoised table indexed by the 16-bit empty mask, each
    with its row, column, the rank bits to OR into its row and column keys,
    its neighbours and its placed-tile bits precomputed.  A placement with no
    equal neighbour adds exactly one island, which skips the component lookup
    in the common case.
    """
    smooth = smoothness_table()
    components = COMPONENTS
    empty_cells = EMPTY_CELLS
    low_bits = ONES
    spread0, spread1, spread2, spread3 = spread_tables()

    def placements(board: Board) -> list[Board]:
        x = board | (board >> 1)
        x |= x >> 2
        x = ~x & low_bits  # bit 4*cell set for each empty cell
        x = (x | (x >> 3)) & 0x0303_0303_0303_0303
        x = (x | (x >> 6)) & 0x000F_000F_000F_000F
        x = (x | (x >> 12)) & 0x0000_00FF_0000_00FF
        cells = empty_cells[(x | (x >> 24)) & 0xFFFF]
        x = board ^ low_bits  # rank-1 cells become 0
        x |= x >> 1
        x |= x >> 2
        twos = ~x & low_bits
        x = board ^ (2 * low_bits)
        x |= x >> 1
        x |= x >> 2
        fours = ~x & low_bits
        groups2 = components[twos]
        groups4 = components[fours]
        # move_tables.afterstates' keys, inlined (tests/test_board_inlined_copies.py)
        r0 = board & 0xFFFF
        r1 = (board >> 16) & 0xFFFF
        r2 = (board >> 32) & 0xFFFF
        r3 = board >> 48
        x = spread0[r0] | spread1[r1] | spread2[r2] | spread3[r3]  # the transposed board
        k0 = x & 0xFFFF
        k1 = (x >> 16) & 0xFFFF
        k2 = (x >> 32) & 0xFFFF
        k3 = x >> 48
        rows = (r0, r1, r2, r3)
        cols = (k0, k1, k2, k3)
        best = -1000
        found2: list[Board] = []
        found4: list[Board] = []
        for r, c, row2, col2, row4, col4, near, bit, four in cells:
            row = rows[r]
            col = cols[c]
            base = smooth[row] + smooth[col]
            # A 2 here.
            score = smooth[row | row2] + smooth[col | col2] - base
            if near & twos:
                score += components[twos | bit] - groups2
            else:
                score += 1
            if score >= best:
                if score > best:
                    best = score
                    found2 = [board | bit]
                    found4 = []
                else:
                    found2.append(board | bit)
            if twos_only:
                continue
            # A 4 here.
            score = smooth[row | row4] + smooth[col | col4] - base
            if near & fours:
                score += components[fours | bit] - groups4
            else:
                score += 1
            if score >= best:
                if score > best:
                    best = score
                    found2 = []
                    found4 = [board | four]
                else:
                    found4.append(board | four)
        return found2 + found4

    return placements
