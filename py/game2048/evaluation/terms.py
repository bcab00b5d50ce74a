"""An evaluation of a board term by term: what each weighted feature adds (the explorer's "why").

``weighted_terms(preset, board, weights)`` gives (term, value) pairs whose
sum is the preset's evaluation of ``board`` (``tests/test_terms.py`` pins the
sum to each preset's fast evaluator), so an explanation can say which term
decides between two lines.  The terms come from each preset's own
``features``; only ``corner-weights``, a best of three paths, has one term:
the path that wins.  Slow and plain: it runs once per explanation, never in
a search.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..board import Board
from . import classic, corner, presets, rows, snake

TERM_NAMES: dict[str, str] = {
    "smoothness": "smoothness",
    "monotonicity": "monotonicity",
    "empty": "empty cells",
    "max": "largest tile",
    "repeats": "repeated values",
    "mean": "mean rank",
    "lost_penalty": "lines still playable",
    "merges": "merges",
    "sum": "big tiles",
    "row_snake": "row-snake path",
    "spiral": "spiral path",
    "zigzag": "zigzag path",
    "tiles": "the tiles' points",
}
"""How the explorer words each term."""


def weighted_terms(preset: str, board: Board, weights: Mapping[str, float] | None = None) -> list[tuple[str, float]]:
    """The terms of ``preset``'s evaluation of ``board`` with ``weights`` over its defaults; they sum to it."""
    w = {**presets.get(preset).default_weights, **(weights or {})}
    if preset == "classic":
        f = classic.features(board)
        return [(name, float(w[name]) * f[name]) for name in ("smoothness", "monotonicity", "empty", "max")]
    if preset == "snake":
        f = snake.features(board)
        return [(name, float(w[name]) * f[name]) for name in snake.DEFAULT_WEIGHTS]
    if preset == "rows":
        f = rows.features(board, w)
        return [
            ("lost_penalty", 8 * float(w["lost_penalty"])),
            ("empty", float(w["empty_weight"]) * f["empty"]),
            ("merges", float(w["merges_weight"]) * f["merges"]),
            ("monotonicity", -float(w["monotonicity_weight"]) * f["monotonicity"]),
            ("sum", -float(w["sum_weight"]) * f["sum"]),
        ]
    if preset == "corner-weights":
        scores = corner.features(board, w)
        named = [(name, float(w[name]) * scores[name]) for name in corner.MATRICES if w[name]]
        return [max(named, key=lambda term: term[1])] if named else []
    if preset == "learned":
        return _learned_terms(board, float(w["network"]))
    raise ValueError(f"no terms for preset {preset!r}")


def _learned_terms(board: Board, share: float) -> list[tuple[str, float]]:
    """The network's patterns, each summed over the board's 8 symmetries, and the points the tiles are worth."""
    from . import learned
    from .ntuple import feature_values
    from .ntuple_shapes import score_of_tiles

    network = learned.network()
    per_pattern = [0.0] * len(network.shape.tuples)
    images = len(feature_values(network, 0)) // len(per_pattern)
    for number, (_cells, weight) in enumerate(feature_values(network, board)):
        per_pattern[number // images] += share * weight
    terms = [(f"pattern {t + 1}", value) for t, value in enumerate(per_pattern)]
    return terms + [("tiles", float(score_of_tiles(board)))]


def term_name(term: str) -> str:
    """The explorer's words for ``term`` (a learned pattern keeps its number)."""
    return TERM_NAMES.get(term, term)
