"""An evaluation of a board term by term: what each weighted feature adds (the explorer's "why").

``explained_terms(preset, board, weights)`` gives each term as a ``Term``:
its weight, the raw value read from the board (a count of empty cells, a
rank, a sum of rank differences) with its unit, the factor the weight
multiplies (the raw value itself, or its logarithm for classic's empty
cells) and the product, so a person can rebuild every number from the board:
``empty cells: 2.7 × ln(7 empty cells) = 5.254``.  ``weighted_terms`` keeps
the (term, value) pairs, whose sum is the preset's evaluation of ``board``
(``tests/test_terms.py`` pins the sum to each preset's fast evaluator), so an
explanation can say which term decides between two lines.  The terms come
from each preset's own ``features``; only ``corner-weights``, a best of three
paths, has one term: the path that wins.  Slow and plain: it runs once per
explanation, never in a search.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from ..board import Board, count_empty
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


class Term(NamedTuple):
    """One term of an evaluation: ``value`` = ``weight`` × ``factor``, where ``factor`` is ``raw`` (the number
    read from the board, in ``unit``) or, when ``form`` is ``"ln"``, its natural logarithm."""

    name: str
    value: float
    weight: float
    raw: float
    unit: str
    form: str = ""
    factor: float | None = None

    def multiplied(self) -> float:
        """What the weight multiplies: ``factor`` when it is given, else ``raw``."""
        return self.raw if self.factor is None else self.factor


UNITS: dict[str, dict[str, str]] = {
    "classic": {
        "smoothness": "rank steps between neighbours",
        "monotonicity": "rank steps the wrong way",
        "empty": "empty cells",
        "max": "rank of the largest tile",
    },
    "snake": {
        "smoothness": "rank steps along the path",
        "monotonicity": "pairs out of order",
        "empty": "empty cells",
        "max": "rank of the largest tile",
        "repeats": "repeated tiles",
        "mean": "mean rank",
    },
    "rows": {
        "lost_penalty": "lines (rows + columns)",
        "empty": "empty cells (rows + columns)",
        "merges": "merges (rows + columns)",
        "monotonicity": "rank^{monotonicity_power} steps the wrong way",
        "sum": "\u03a3 rank^{sum_power} (rows + columns)",
    },
}
"""The unit of each preset's raw values (the glossary says how each is counted); rows' name its powers."""
PATH_UNIT = "points along the path"
PATTERN_UNIT = "points its 8 weights add"
TILES_UNIT = "points"


def explained_terms(preset: str, board: Board, weights: Mapping[str, float] | None = None) -> list[Term]:
    """The terms of ``preset``'s evaluation of ``board`` with ``weights`` over its defaults: each its weight, its
    raw value read from the board and its unit; their values sum to the evaluation."""
    w = {**presets.get(preset).default_weights, **(weights or {})}
    if preset == "classic":
        f = classic.features(board)
        units = UNITS["classic"]
        out = []
        for name in ("smoothness", "monotonicity", "empty", "max"):
            weight = float(w[name])
            if name == "empty":  # ln of the count; a full board counts as half a cell (classic.LN_EMPTY)
                out.append(Term(name, weight * f[name], weight, float(count_empty(board)), units[name], "ln", f[name]))
            else:
                out.append(Term(name, weight * f[name], weight, float(f[name]), units[name]))
        return out
    if preset == "snake":
        f = snake.features(board)
        return [
            Term(name, float(w[name]) * f[name], float(w[name]), float(f[name]), UNITS["snake"][name])
            for name in snake.DEFAULT_WEIGHTS
        ]
    if preset == "rows":
        f = rows.features(board, w)
        powers = {name: f"{float(w[name]):g}" for name in ("monotonicity_power", "sum_power")}
        units = {name: unit.format(**powers) for name, unit in UNITS["rows"].items()}
        lost = float(w["lost_penalty"])
        signed = {
            "empty": float(w["empty_weight"]),
            "merges": float(w["merges_weight"]),
            "monotonicity": -float(w["monotonicity_weight"]),
            "sum": -float(w["sum_weight"]),
        }
        return [Term("lost_penalty", 8 * lost, lost, 8.0, units["lost_penalty"])] + [
            Term(name, weight * f[name], weight, f[name], units[name]) for name, weight in signed.items()
        ]
    if preset == "corner-weights":
        scores = corner.features(board, w)
        named = [
            Term(name, float(w[name]) * scores[name], float(w[name]), scores[name], PATH_UNIT)
            for name in corner.MATRICES
            if w[name]
        ]
        return [max(named, key=lambda term: term.value)] if named else []
    if preset == "learned":
        return _learned_terms(board, float(w["network"]))
    raise ValueError(f"no terms for preset {preset!r}")


def weighted_terms(preset: str, board: Board, weights: Mapping[str, float] | None = None) -> list[tuple[str, float]]:
    """The terms of ``preset``'s evaluation of ``board`` with ``weights`` over its defaults; they sum to it."""
    return [(term.name, term.value) for term in explained_terms(preset, board, weights)]


def _learned_terms(board: Board, share: float) -> list[Term]:
    """The network's patterns, each summed over the board's 8 symmetries, and the points the tiles are worth."""
    from . import learned
    from .ntuple import feature_values
    from .ntuple_shapes import score_of_tiles

    network = learned.network()
    per_pattern = [0.0] * len(network.shape.tuples)
    raw = [0.0] * len(per_pattern)
    images = len(feature_values(network, 0)) // len(per_pattern)
    for number, (_cells, weight) in enumerate(feature_values(network, board)):
        per_pattern[number // images] += share * weight
        raw[number // images] += weight
    terms = [Term(f"pattern {t + 1}", value, share, raw[t], PATTERN_UNIT) for t, value in enumerate(per_pattern)]
    tiles = float(score_of_tiles(board))
    return terms + [Term("tiles", tiles, 1.0, tiles, TILES_UNIT)]


def term_name(term: str) -> str:
    """The explorer's words for ``term`` (a learned pattern keeps its number)."""
    return TERM_NAMES.get(term, term)
