"""The "snake" evaluation: features measured along one path through the whole board.

The path runs left to right along row 0, right to left along row 1, left to right along row 2, right to left
along row 3: one 16-cell line from the top-left corner, since a strong position is a descending line along
such a path.  It is fixed, not taken over the board's symmetries, so the preset steers the big tiles into the
top-left corner.  A tile is its rank (log2 of its value), an empty cell rank 0; each feature is signed so that
higher is better, and every default weight (in parentheses) is ≥ 0:

* ``smoothness`` (1): −Σ |a[k] − a[k+1]| over the 15 steps of the line;
* ``monotonicity`` (2): −inversions, the pairs i < j on the line with a[i] < a[j];
* ``empty`` (3): empty cells; ``max`` (1): the largest rank;
* ``repeats`` (0): −(tiles − distinct tile values); ``mean`` (0): the tiles' mean rank (0 on an empty board).

Empty cells count as rank 0 in the first two, so tiles after a gap are out of order, and a perfect snake's
smoothness is minus its first rank.  Each row's features come from per-key tables (``tables``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import product

from ..board import Board, line_ranks, reverse_line

DEFAULT_WEIGHTS: dict[str, float] = {
    "smoothness": 1.0,
    "monotonicity": 2.0,
    "empty": 3.0,
    "max": 1.0,
    "repeats": 0.0,
    "mean": 0.0,
}

FEATURE_WEIGHTS: tuple[str, ...] = tuple(DEFAULT_WEIGHTS)
"""Every weight switches one feature on (for the lab's single-feature experiment)."""

LOST_VALUE = -1e6
"""A lost board, far below any live one (features stay within a few hundred)."""

# Packed per-key fields, 8 bits each; sums over four rows stay below 256.
_SMOOTH, _INV, _EMPTY, _SUM = 0, 8, 16, 24
_DOT_SHIFT = 8 * 15

_tables: tuple[list[int], list[int], list[int], list[int], list[int], list[int]] | None = None


def path_ranks(board: Board) -> list[int]:
    """The 16 ranks along the snake path (a plain loop: for tests and explanations)."""
    out: list[int] = []
    for r in range(4):
        ranks = list(line_ranks((board >> (16 * r)) & 0xFFFF))
        out.extend(reversed(ranks) if r % 2 else ranks)
    return out


def features_of_line(line: list[int]) -> dict[str, float]:
    """The six features of a 16-cell path, by their definitions (the slow reference)."""
    tiles = [r for r in line if r]
    inversions = sum(1 for i in range(16) for j in range(i + 1, 16) if line[i] < line[j])
    return {
        "smoothness": -float(sum(abs(a - b) for a, b in zip(line, line[1:]))),
        "monotonicity": -float(inversions),
        "empty": float(16 - len(tiles)),
        "max": float(max(line)),
        "repeats": -float(len(tiles) - len(set(tiles))),
        "mean": sum(tiles) / len(tiles) if tiles else 0.0,
    }


def _build_tables() -> tuple[list[int], list[int], list[int], list[int], list[int], list[int]]:
    """The tables of ``tables()``, one entry per line key, enumerated in key order (``r0`` varies fastest).

    Written for the worker's start: per-rank contributions are looked up
    (``above[r]``: 1 in the byte of every value above ``r``; ``equal[r]``: 1 in
    byte ``15 - r``), so each key costs a few additions.
    """
    above = [sum(1 << (8 * v) for v in range(r + 1, 16)) for r in range(16)]
    equal = [1 << (8 * (15 - r)) for r in range(16)]
    bit = [0] + [1 << r for r in range(1, 16)]
    packed, top, present, less, equal_rev = [], [], [], [], []
    for r3, r2, r1, r0 in product(range(16), repeat=4):
        smooth = abs(r0 - r1) + abs(r1 - r2) + abs(r2 - r3)
        inv = (r0 < r1) + (r0 < r2) + (r0 < r3) + (r1 < r2) + (r1 < r3) + (r2 < r3)
        empty = (not r0) + (not r1) + (not r2) + (not r3)
        packed.append((smooth << _SMOOTH) | (inv << _INV) | (empty << _EMPTY) | ((r0 + r1 + r2 + r3) << _SUM))
        top.append(max(r0, r1, r2, r3))
        present.append(bit[r0] | bit[r1] | bit[r2] | bit[r3])
        less.append(above[r0] + above[r1] + above[r2] + above[r3])
        equal_rev.append(equal[r0] + equal[r1] + equal[r2] + equal[r3])
    reverse = [reverse_line(key) for key in range(1 << 16)]
    return packed, top, present, less, equal_rev, reverse


def tables() -> tuple[list[int], list[int], list[int], list[int], list[int], list[int]]:
    """The per-row-key tables, built on first use.

    (packed fields, max, values present, "below v" counts, reversed "equal v" counts, reversal)
    """
    global _tables
    if _tables is None:
        _tables = _build_tables()
    return _tables


def _feature_values(board: Board) -> tuple[int, int, int, int, int, int]:
    """(Σ|steps|, inversions, empties, max rank, repeats, rank sum), all ≥ 0, by the tables."""
    packed, top, present, less, equal_rev, reverse = tables()
    # Each row is read in path order as a 16-bit key: rows 1 and 3 through the reversal table.
    k0 = board & 0xFFFF
    k1 = reverse[(board >> 16) & 0xFFFF]
    k2 = (board >> 32) & 0xFFFF
    k3 = reverse[board >> 48]
    p = packed[k0] + packed[k1] + packed[k2] + packed[k3]
    smooth = (p & 255) + abs((k0 >> 12) - (k1 & 15)) + abs((k1 >> 12) - (k2 & 15)) + abs((k2 >> 12) - (k3 & 15))
    # Inversions between rows: Σ over values v of (tiles below v in the earlier rows) × (tiles equal to v in
    # this one).  Both counts are packed 8 bits a value, the second reversed, so one big-int product puts the
    # dot product in bits 120..127 (no field exceeds 48, so nothing carries).
    below = less[k0]
    cross = (below * equal_rev[k1]) >> _DOT_SHIFT & 255
    below += less[k1]
    cross += (below * equal_rev[k2]) >> _DOT_SHIFT & 255
    below += less[k2]
    cross += (below * equal_rev[k3]) >> _DOT_SHIFT & 255
    empty = (p >> _EMPTY) & 255
    repeats = 16 - empty - (present[k0] | present[k1] | present[k2] | present[k3]).bit_count()
    return smooth, ((p >> _INV) & 255) + cross, empty, max(top[k0], top[k1], top[k2], top[k3]), repeats, p >> _SUM


def features(board: Board) -> dict[str, float]:
    """The six signed features of a board (higher is better for each)."""
    smooth, inversions, empty, top, repeats, rank_sum = _feature_values(board)
    tiles = 16 - empty
    return {
        "smoothness": -float(smooth),
        "monotonicity": -float(inversions),
        "empty": float(empty),
        "max": float(top),
        "repeats": -float(repeats),
        "mean": rank_sum / tiles if tiles else 0.0,
    }


def make_evaluator(weights: Mapping[str, float] | None = None) -> Callable[[Board], float]:
    """Σ weight × feature with these weights (missing ones take the defaults)."""
    w = {**DEFAULT_WEIGHTS, **(weights or {})}
    w_smooth, w_mono, w_empty = float(w["smoothness"]), float(w["monotonicity"]), float(w["empty"])
    w_max, w_repeats, w_mean = float(w["max"]), float(w["repeats"]), float(w["mean"])
    values = _feature_values
    tables()

    def evaluate(board: Board) -> float:
        smooth, inversions, empty, top, repeats, rank_sum = values(board)
        tiles = 16 - empty
        return (
            w_empty * empty
            + w_max * top
            - w_smooth * smooth
            - w_mono * inversions
            - w_repeats * repeats
            + (w_mean * rank_sum / tiles if tiles else 0.0)
        )

    evaluate.lost_value = LOST_VALUE  # type: ignore[attr-defined]
    return evaluate
