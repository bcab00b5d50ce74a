"""Searches that choose a move, behind one entry point: ``best_move``.

The page's worker, the lab, the bench and the tests all call ``best_move`` and
get the same ``SearchResult`` whatever the algorithm, so none of them needs a
special case.  Bad arguments are refused here, with a message that says what
is accepted, before any search starts.  The algorithm modules are imported on
first use so that a page asking only for alpha-beta never loads expectimax.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping

from ..board import FULL_MASK, Board
from ..evaluation import presets
from .clock import Clock, Deadline
from .result import SearchResult

ALGORITHMS = ("alphabeta", "expectimax")
DEFAULT_PRESETS = {"alphabeta": "classic", "expectimax": "rows"}
"""Each algorithm's own evaluation when the caller names none."""
DEFAULT_RESCUE = {"alphabeta": True, "expectimax": False}
"""Whether each algorithm runs alpha-beta's rescue search when the caller says nothing (it wins more games)."""


def rescues(algorithm: str, rescue: bool | None) -> bool:
    """Whether a search of ``algorithm`` asked for ``rescue`` (``None``: the algorithm's default) runs the rescue."""
    return DEFAULT_RESCUE.get(algorithm, False) if rescue is None else rescue


def best_move(
    board: Board,
    think_ms: float = 100,
    depth: int | None = None,
    algorithm: str = "alphabeta",
    preset: str | None = None,
    weights: Mapping[str, float] | None = None,
    clock: Clock | None = None,
    reductions: bool = False,
    rescue: bool | None = None,
) -> SearchResult:
    """Choose a move for ``board``.

    ``depth=None`` searches as deep as ``think_ms`` allows (iterative
    deepening, the clock read inside the search); ``depth=N`` searches exactly
    N player moves with no time limit, the same on every machine.  ``preset``
    and ``weights`` pick the evaluation (``None``: the algorithm's default);
    ``clock`` replaces ``time.perf_counter`` (tests).  ``reductions=True``
    switches alpha-beta's late-move reductions on (deeper, not stronger: see
    ``alphabeta``); ``rescue`` is alpha-beta's rescue search once the game
    looks lost (``alphabeta``), on unless ``rescue=False`` (``None``: the
    algorithm's default; it wins more games, docs/results.md); expectimax has neither.
    On a lost board the result's move is None and its depth 0.
    """
    if isinstance(board, bool) or not isinstance(board, int) or not 0 <= board <= FULL_MASK:
        raise ValueError(f"a board is a 64-bit int of 16 ranks, got {board!r}")
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; known algorithms: {list(ALGORITHMS)}")
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise ValueError(
            f"depth is a whole number of player moves, at least 1, or None for a timed search; got {depth!r}"
        )
    if depth is None and (
        isinstance(think_ms, bool) or not isinstance(think_ms, (int, float)) or not 0 < think_ms < float("inf")
    ):
        raise ValueError(f"think_ms is a positive number of milliseconds, got {think_ms!r}")
    if not isinstance(reductions, bool):
        raise ValueError(f"reductions is True or False, got {reductions!r}")
    if reductions and algorithm != "alphabeta":
        raise ValueError(f"late-move reductions belong to alpha-beta; {algorithm} has none")
    if rescue is not None and not isinstance(rescue, bool):
        raise ValueError(f"rescue is True, False or None (the algorithm's default), got {rescue!r}")
    if rescue and algorithm != "alphabeta":
        raise ValueError(f"the rescue search belongs to alpha-beta; {algorithm} has none")
    if weights is not None:
        _check_weights(weights)
    name = DEFAULT_PRESETS[algorithm] if preset is None else preset
    evaluate = presets.get(name).make(weights)
    if algorithm == "alphabeta":
        from .alphabeta import search

        options = {"reductions": reductions, "rescue": rescues(algorithm, rescue)}
    else:
        from .expectimax import search

        options = {}
    # The clock starts after the first call's lazy import, which is set-up, not thinking.
    deadline = Deadline(None if depth is not None else think_ms, clock or time.perf_counter)
    result = search(board, evaluate, deadline, depth=depth, **options)
    result.algorithm = algorithm
    result.preset = name
    result.think_ms = None if depth is not None else float(think_ms)
    return result


def _check_weights(weights: Mapping[str, float]) -> None:
    """Refuse weights that are not a mapping of names to finite numbers (the preset refuses unknown names)."""
    if not isinstance(weights, Mapping):
        raise ValueError(f"weights are a mapping of weight names to numbers, got {weights!r}")
    for key, value in weights.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"weight {key!r} must be a finite number, got {value!r}")


__all__ = ["ALGORITHMS", "DEFAULT_PRESETS", "DEFAULT_RESCUE", "SearchResult", "best_move", "rescues"]
