"""The "corner-weights" evaluation: Σ tile value × positional weight, best of three snakes × 8 symmetries.

Each path of ``MATRICES`` (``row_snake``, ``spiral``, ``zigzag``) numbers the
cells 0..15 from a corner; the cell at step k weighs ``decay ** k`` and a tile
counts by its value (2, 4, 8, ...; an empty cell 0), so the score is high when
the big tiles sit early on the path in descending order.  Each path is tried
under the board's 8 rotations and reflections, scaled by its own weight, and
the best of the 24 is the score.

Weights: ``row_snake``, ``spiral``, ``zigzag`` (multipliers, default 1; 0
leaves that path out) and ``decay`` (default 0.5).  With non-negative
multipliers every live board scores above 0, so a lost board scores 0
(``evaluate.lost_value``): it keeps nothing.  An image's score is four lookups
in ``array('d')`` tables, cached per weight set.

The paths drawn, and how the tables are built: docs/evaluations.md.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping

from ..board import Board, reverse_line
from ..move_tables import spread_tables

MATRICES: dict[str, tuple[tuple[int, ...], ...]] = {
    "row_snake": ((0, 1, 2, 3), (7, 6, 5, 4), (8, 9, 10, 11), (15, 14, 13, 12)),
    "spiral": ((0, 1, 2, 3), (11, 12, 13, 4), (10, 15, 14, 5), (9, 8, 7, 6)),
    "zigzag": ((0, 1, 5, 6), (2, 4, 7, 12), (3, 8, 11, 13), (9, 10, 14, 15)),
}
"""Step along the path of each cell, [row][col]; the weight of step k is decay ** k."""

DEFAULT_WEIGHTS: dict[str, float] = {"row_snake": 1.0, "spiral": 1.0, "zigzag": 1.0, "decay": 0.5}

FEATURE_WEIGHTS: tuple[str, ...] = tuple(MATRICES)
"""The matrix multipliers: each alone is one "feature" for the lab (``decay`` is a parameter)."""

_CACHE_SIZE = 4
_tables: dict[tuple[float, ...], list[tuple[array[float], array[float], array[float], array[float]]]] = {}
_reverse: list[int] | None = None


def matrix_weights(name: str, decay: float) -> list[list[float]]:
    """The positional weight matrix of one path, [row][col]."""
    return [[decay**step for step in row] for row in MATRICES[name]]


def reference_score(board: Board, weights: Mapping[str, float] | None = None) -> float:
    """The evaluation by its definition, cell by cell over 3 matrices × 8 images (slow; for tests)."""
    from ..board import symmetries

    w = {**DEFAULT_WEIGHTS, **(weights or {})}
    best = None
    for name in MATRICES:
        if not w[name]:
            continue
        m = matrix_weights(name, w["decay"])
        for image in symmetries(board):
            total = 0.0
            for i in range(16):
                rank = (image >> (4 * i)) & 0xF
                if rank:
                    total += (1 << rank) * m[i // 4][i % 4]
            total *= w[name]
            if best is None or total > best:
                best = total
    return best if best is not None else 0.0


def _line_table(row_weights: list[float]) -> array[float]:
    """Σ value × weight over one line, for every line key, from two 256-entry halves."""
    value = [0.0] + [float(1 << r) for r in range(1, 16)]
    low = [value[k & 15] * row_weights[0] + value[k >> 4] * row_weights[1] for k in range(256)]
    high = [value[k & 15] * row_weights[2] + value[k >> 4] * row_weights[3] for k in range(256)]
    return array("d", [h + lo for h in high for lo in low])


def tables(
    weights: Mapping[str, float] | None = None,
) -> list[tuple[array[float], array[float], array[float], array[float]]]:
    """For each matrix with a non-zero multiplier, its four row tables (multiplier included)."""
    w = {**DEFAULT_WEIGHTS, **(weights or {})}
    key = tuple(float(w[name]) for name in DEFAULT_WEIGHTS)
    found = _tables.get(key)
    if found is None:
        found = []
        for name in MATRICES:
            scale = float(w[name])
            if scale:
                m = matrix_weights(name, float(w["decay"]))
                rows = [_line_table([scale * x for x in m[i]]) for i in range(4)]
                found.append((rows[0], rows[1], rows[2], rows[3]))
        if len(_tables) >= _CACHE_SIZE:
            _tables.pop(next(iter(_tables)))
        _tables[key] = found
    return found


def _reversal() -> list[int]:
    global _reverse
    if _reverse is None:
        _reverse = [reverse_line(k) for k in range(1 << 16)]
    return _reverse


def features(board: Board, weights: Mapping[str, float] | None = None) -> dict[str, float]:
    """Each matrix's best score over the 8 images, unscaled (for tests and the lab's readouts)."""
    w = {**DEFAULT_WEIGHTS, **(weights or {})}
    return {
        name: reference_score(board, {**{n: 0.0 for n in MATRICES}, name: 1.0, "decay": w["decay"]})
        for name in MATRICES
    }


def make_evaluator(weights: Mapping[str, float] | None = None) -> Callable[[Board], float]:
    """The best of 24 positional sums with these weights: 32 lookups per matrix in use."""
    w = {**DEFAULT_WEIGHTS, **(weights or {})}
    per_matrix = tables(w)
    rev = _reversal()
    spread0, spread1, spread2, spread3 = spread_tables()

    def evaluate(board: Board) -> float:
        # move_tables.afterstates' keys, inlined (tests/test_board_inlined_copies.py):
        # rows r, columns k, reversed b and d
        r0 = board & 0xFFFF
        r1 = (board >> 16) & 0xFFFF
        r2 = (board >> 32) & 0xFFFF
        r3 = board >> 48
        x = spread0[r0] | spread1[r1] | spread2[r2] | spread3[r3]  # the transposed board
        k0 = x & 0xFFFF
        k1 = (x >> 16) & 0xFFFF
        k2 = (x >> 32) & 0xFFFF
        k3 = x >> 48
        b0, b1, b2, b3 = rev[r0], rev[r1], rev[r2], rev[r3]
        d0, d1, d2, d3 = rev[k0], rev[k1], rev[k2], rev[k3]
        best = 0.0
        first = True
        for t0, t1, t2, t3 in per_matrix:
            score = max(
                t0[r0] + t1[r1] + t2[r2] + t3[r3],
                t0[b0] + t1[b1] + t2[b2] + t3[b3],
                t0[r3] + t1[r2] + t2[r1] + t3[r0],
                t0[b3] + t1[b2] + t2[b1] + t3[b0],
                t0[k0] + t1[k1] + t2[k2] + t3[k3],
                t0[d0] + t1[d1] + t2[d2] + t3[d3],
                t0[k3] + t1[k2] + t2[k1] + t3[k0],
                t0[d3] + t1[d2] + t2[d1] + t3[d0],
            )
            if first or score > best:
                best, first = score, False
        return best

    negative = any(float(w[name]) < 0 for name in MATRICES)
    evaluate.lost_value = -1e12 if negative else 0.0  # type: ignore[attr-defined]
    return evaluate
