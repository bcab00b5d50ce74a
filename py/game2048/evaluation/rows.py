"""The expectimax evaluation ("rows"): nneonneo/2048-ai's heuristic, one table lookup per line.

Every one of the 65,536 possible lines (a row, or a column read top to bottom)
gets a score of its own; a board scores the sum over its 4 rows and 4 columns.
Per line, with ``r`` the rank (log2 value, 0 for empty) of each cell::

    lost_penalty
    + empty_weight × (empty cells)
    + merges_weight × (merges: each run of k ≥ 2 equal tiles, empties skipped, counts k)
    − monotonicity_weight × min(Σ decreases, Σ increases) of r^monotonicity_power
    − sum_weight × Σ r^sum_power

The monotonicity term charges a line for going the "wrong" way, in the
direction that costs least, more for big tiles (power 4); the sum term charges
big tiles so the search prefers boards that merged them.  ``lost_penalty`` is a
constant per line (8 × 200,000 per board): a board the search is still playing
scores far above 0, and a lost board scores exactly 0 (``evaluate.lost_value``),
which is how nneonneo makes expectimax fear losing.  The constants are the
weights of the preset, so the page's sliders and the lab can change them.

Tables depend on the weights, so they are built per weight set (about 0.2 s
in CPython, lazily) and kept in a small cache keyed by the weights tuple.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..board import Board, line_ranks

DEFAULT_WEIGHTS: dict[str, float] = {
    "lost_penalty": 200000.0,
    "monotonicity_power": 4.0,
    "monotonicity_weight": 47.0,
    "sum_power": 3.5,
    "sum_weight": 11.0,
    "merges_weight": 700.0,
    "empty_weight": 270.0,
}

FEATURE_WEIGHTS: tuple[str, ...] = ("empty_weight", "merges_weight", "monotonicity_weight", "sum_weight")
"""The weights that switch a feature on (the others are a constant and two exponents), for the lab."""

LOST_VALUE = 0.0
"""What a lost board scores: every live board scores about 8 × lost_penalty more."""

_CACHE_SIZE = 4
_tables: dict[tuple[float, ...], list[float]] = {}


def empty_and_merges(ranks: tuple[int, int, int, int]) -> tuple[int, int]:
    """Empty cells, and nneonneo's merge count: a run of k equal tiles (gaps skipped) counts k."""
    empty = merges = prev = counter = 0
    for rank in ranks:
        if rank == 0:
            empty += 1
            continue
        if prev == rank:
            counter += 1
        elif counter > 0:
            merges += 1 + counter
            counter = 0
        prev = rank
    if counter > 0:
        merges += 1 + counter
    return empty, merges


def line_features(
    ranks: tuple[int, int, int, int], monotonicity_power: float = 4.0, sum_power: float = 3.5
) -> dict[str, float]:
    """The four raw features of one line (each ≥ 0; the evaluation adds or subtracts them)."""
    empty, merges = empty_and_merges(ranks)
    left = right = 0.0
    for a, b in zip(ranks, ranks[1:]):
        if a > b:
            left += a**monotonicity_power - b**monotonicity_power
        else:
            right += b**monotonicity_power - a**monotonicity_power
    return {
        "empty": float(empty),
        "merges": float(merges),
        "monotonicity": min(left, right),
        "sum": float(sum(r**sum_power for r in ranks)),
    }


def _build_table(w: Mapping[str, float]) -> list[float]:
    """One score per line key; powers of ranks come from 16-entry lists, not ``**`` per cell."""
    mono_pow = [float(r) ** w["monotonicity_power"] for r in range(16)]
    sum_pow = [float(r) ** w["sum_power"] for r in range(16)]
    lost, w_mono, w_sum = w["lost_penalty"], w["monotonicity_weight"], w["sum_weight"]
    w_merge, w_empty = w["merges_weight"], w["empty_weight"]
    table = [0.0] * (1 << 16)
    for key in range(1 << 16):
        ranks = line_ranks(key)
        empty, merges = empty_and_merges(ranks)
        a, b, c, d = ranks
        pa, pb, pc, pd = mono_pow[a], mono_pow[b], mono_pow[c], mono_pow[d]
        left = right = 0.0
        if a > b:
            left += pa - pb
        else:
            right += pb - pa
        if b > c:
            left += pb - pc
        else:
            right += pc - pb
        if c > d:
            left += pc - pd
        else:
            right += pd - pc
        table[key] = (
            lost
            + w_empty * empty
            + w_merge * merges
            - w_mono * (left if left < right else right)
            - w_sum * (sum_pow[a] + sum_pow[b] + sum_pow[c] + sum_pow[d])
        )
    return table


def line_table(weights: Mapping[str, float] | None = None) -> list[float]:
    """The 65,536-entry line score table for these weights, built on first use and cached."""
    w = {**DEFAULT_WEIGHTS, **(weights or {})}
    key = tuple(float(w[name]) for name in DEFAULT_WEIGHTS)
    table = _tables.get(key)
    if table is None:
        if len(_tables) >= _CACHE_SIZE:
            _tables.pop(next(iter(_tables)))
        table = _tables[key] = _build_table(w)
    return table


def features(board: Board, weights: Mapping[str, float] | None = None) -> dict[str, float]:
    """The board's raw features summed over its 4 rows and 4 columns (for tests and the lab).

    Empty cells count twice (once in their row, once in their column), as in the evaluation.
    """
    w = {**DEFAULT_WEIGHTS, **(weights or {})}
    total = {"empty": 0.0, "merges": 0.0, "monotonicity": 0.0, "sum": 0.0}
    lines = [(board >> (16 * r)) & 0xFFFF for r in range(4)]
    for c in range(4):
        x = (board >> (4 * c)) & 0x000F_000F_000F_000F
        lines.append((x | (x >> 12) | (x >> 24) | (x >> 36)) & 0xFFFF)
    for key in lines:
        for name, value in line_features(line_ranks(key), w["monotonicity_power"], w["sum_power"]).items():
            total[name] += value
    return total


def make_evaluator(weights: Mapping[str, float] | None = None) -> Callable[[Board], float]:
    """The evaluation with these weights: eight lookups in one table.

    The closure carries ``lost_value`` (0.0) for expectimax: the score of a board with no move.
    """
    table = line_table(weights)

    def evaluate(board: Board) -> float:
        x = board & 0x000F_000F_000F_000F
        y = (board >> 4) & 0x000F_000F_000F_000F
        z = (board >> 8) & 0x000F_000F_000F_000F
        v = (board >> 12) & 0x000F_000F_000F_000F
        return (
            table[board & 0xFFFF]
            + table[(board >> 16) & 0xFFFF]
            + table[(board >> 32) & 0xFFFF]
            + table[board >> 48]
            + table[(x | (x >> 12) | (x >> 24) | (x >> 36)) & 0xFFFF]
            + table[(y | (y >> 12) | (y >> 24) | (y >> 36)) & 0xFFFF]
            + table[(z | (z >> 12) | (z >> 24) | (z >> 36)) & 0xFFFF]
            + table[(v | (v >> 12) | (v >> 24) | (v >> 36)) & 0xFFFF]
        )

    evaluate.lost_value = LOST_VALUE  # type: ignore[attr-defined]
    return evaluate
