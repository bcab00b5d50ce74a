"""The classic alpha-beta evaluation (ovolve's 2048-AI), decomposed over lines.

``0.1 × smoothness + 1.0 × monotonicity + 2.7 × ln(empty) + 1.0 × max rank``,
every tile taken as its rank (log2 of its value):

* smoothness: −Σ |a − b| over each tile and its nearest occupied neighbour to
  the right and below (empty cells between them are skipped);
* monotonicity: each column walked top to bottom, comparing each cell with the
  next occupied one (the first cell counts even when empty, as 0; when no
  occupied cell follows, the last cell is the partner, as in the original);
  decreases are summed into one total and increases into another over all
  columns, the smaller magnitude is kept (the better direction); the same over
  rows, left to right; the two kept totals (both ≤ 0) are added;
* ln(empty): a full board has no logarithm, so it counts as half an empty cell,
  ln(0.5) ≈ −0.69: finite, and worse than one empty cell (ln 1 = 0);
* max rank: log2 of the largest tile.

Every term but the max is a sum over the four rows and four columns of
something that depends on that line alone, so one 65,536-entry table per line
key holds them packed into a single int (8 bits a field: four lines of at most
45 never carry into the next field).  An evaluation is twelve lookups (four of
them transpose the board, see ``move_tables.spread_tables``), additions of packed ints and a
few shifts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from ..board import ROW_MASK, Board, line_ranks
from ..move_tables import spread_tables

DEFAULT_WEIGHTS: dict[str, float] = {"smoothness": 0.1, "monotonicity": 1.0, "empty": 2.7, "max": 1.0}

FULL_BOARD_EMPTY = 0.5
"""What a full board counts as in ln(empty): half a cell."""

LN_EMPTY: tuple[float, ...] = (math.log(FULL_BOARD_EMPTY),) + tuple(math.log(n) for n in range(1, 17))

FIELD = 8
FIELD_MASK = (1 << FIELD) - 1
SMOOTH_SHIFT, DEC_SHIFT, INC_SHIFT, EMPTY_SHIFT = 0, 8, 16, 24


def line_smoothness(ranks: tuple[int, int, int, int]) -> int:
    """Σ |a − b| over consecutive occupied cells of one line (a magnitude, ≥ 0)."""
    occupied = [r for r in ranks if r]
    return sum(abs(a - b) for a, b in zip(occupied, occupied[1:]))


def line_monotonicity(ranks: tuple[int, int, int, int]) -> tuple[int, int]:
    """(decreases, increases) along one line, as magnitudes, walked as the original does."""
    dec = inc = 0
    current, nxt = 0, 1
    while nxt < 4:
        while nxt < 4 and not ranks[nxt]:
            nxt += 1
        if nxt >= 4:
            nxt -= 1
        a, b = ranks[current], ranks[nxt]
        if a > b:
            dec += a - b
        elif b > a:
            inc += b - a
        current = nxt
        nxt += 1
    return dec, inc


def _build_tables() -> tuple[list[int], list[int]]:
    packed = [0] * (1 << 16)
    max_rank = [0] * (1 << 16)
    for key in range(1 << 16):
        ranks = line_ranks(key)
        dec, inc = line_monotonicity(ranks)
        empty = ranks.count(0)
        packed[key] = (
            (line_smoothness(ranks) << SMOOTH_SHIFT) | (dec << DEC_SHIFT) | (inc << INC_SHIFT) | (empty << EMPTY_SHIFT)
        )
        max_rank[key] = max(ranks)
    return packed, max_rank


_tables: tuple[list[int], list[int]] | None = None


def tables() -> tuple[list[int], list[int]]:
    """(packed line features, line max rank), built on first use (about 0.3 s in CPython).

    Lazy so that the page's main thread, which only plays moves, never pays for them.
    """
    global _tables
    if _tables is None:
        _tables = _build_tables()
    return _tables


def features(board: Board) -> dict[str, float]:
    """The four classic features of a board, unweighted (for tests, the readout and the lab)."""
    packed, max_rank = tables()
    rows = cols = 0
    top = 0
    for r in range(4):
        key = (board >> (16 * r)) & ROW_MASK
        rows += packed[key]
        top = max(top, max_rank[key])
    for c in range(4):
        x = (board >> (4 * c)) & 0x000F_000F_000F_000F
        cols += packed[(x | (x >> 12) | (x >> 24) | (x >> 36)) & ROW_MASK]
    smooth = ((rows >> SMOOTH_SHIFT) & FIELD_MASK) + ((cols >> SMOOTH_SHIFT) & FIELD_MASK)
    mono = -min((rows >> DEC_SHIFT) & FIELD_MASK, (rows >> INC_SHIFT) & FIELD_MASK) - min(
        (cols >> DEC_SHIFT) & FIELD_MASK, (cols >> INC_SHIFT) & FIELD_MASK
    )
    empty = (rows >> EMPTY_SHIFT) & FIELD_MASK
    return {"smoothness": -smooth, "monotonicity": mono, "empty": LN_EMPTY[empty], "max": top}


def make_evaluator(weights: Mapping[str, float] | None = None) -> Callable[[Board], float]:
    """An evaluation function with the given weights (missing ones take the defaults).

    A closure over local names, because attribute and global lookups cost more
    than the arithmetic in CPython's inner loop.
    """
    w = {**DEFAULT_WEIGHTS, **(weights or {})}
    w_smooth, w_mono, w_max = float(w["smoothness"]), float(w["monotonicity"]), float(w["max"])
    ln_empty = tuple(float(w["empty"]) * v for v in LN_EMPTY)
    packed, max_rank = tables()
    spread0, spread1, spread2, spread3 = spread_tables()
    m = FIELD_MASK

    def evaluate(board: Board) -> float:
        k0 = board & 0xFFFF
        k1 = (board >> 16) & 0xFFFF
        k2 = (board >> 32) & 0xFFFF
        k3 = board >> 48
        rows = packed[k0] + packed[k1] + packed[k2] + packed[k3]
        t = spread0[k0] | spread1[k1] | spread2[k2] | spread3[k3]  # the transposed board: its rows are the columns
        cols = packed[t & 0xFFFF] + packed[(t >> 16) & 0xFFFF] + packed[(t >> 32) & 0xFFFF] + packed[t >> 48]
        rd = (rows >> 8) & m
        ri = (rows >> 16) & m
        cd = (cols >> 8) & m
        ci = (cols >> 16) & m
        return (
            -w_smooth * ((rows & m) + (cols & m))
            - w_mono * ((rd if rd < ri else ri) + (cd if cd < ci else ci))
            + ln_empty[rows >> 24]
            + w_max * max(max_rank[k0], max_rank[k1], max_rank[k2], max_rank[k3])
        )

    return evaluate
