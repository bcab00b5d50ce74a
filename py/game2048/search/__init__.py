"""Searches that choose a move, behind one entry point: ``best_move``.

The page's worker, the lab, the bench and the tests all call ``best_move`` and
get the same ``SearchResult`` whatever the algorithm, so none of them needs a
special case.  Bad arguments are refused by ``SearchOptions``, with a message
that says what is accepted, before any search starts.  The algorithm modules are imported on
first use so that a page asking only for alpha-beta never loads expectimax.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from ..board import Board, is_board
from .clock import Clock, Deadline
from .options import ALGORITHMS, DEFAULT_PRESETS, DEFAULT_RESCUE, SearchOptions, rescues
from .result import SearchResult, Trace


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
    """Choose a move for ``board``: ``decide`` with these ``SearchOptions`` (each argument is explained there).

    ``clock`` replaces ``time.perf_counter`` (tests).  On a lost board the
    result's move is None and its depth 0.
    """
    options = SearchOptions(algorithm, think_ms, depth, preset, weights, reductions, rescue)
    return decide(board, options, clock)


def decide(board: Board, options: SearchOptions, clock: Clock | None = None) -> SearchResult:
    """The decision of the search ``options`` describe, for ``board``."""
    evaluate, deadline = prepared(board, options, clock)
    return run_search(board, options, evaluate, deadline)


def prepared(
    board: Board, options: SearchOptions, clock: Clock | None = None
) -> tuple[Callable[[Board], float], Deadline]:
    """What a decision needs before it thinks: ``board`` checked, the evaluation built, the algorithm's module
    imported (set-up, not thinking), then the deadline started.  ``decide`` and ``explain`` both begin here."""
    checked_board(board)
    evaluate = options.evaluator()
    search_function(options.algorithm)
    return evaluate, Deadline(options.think_ms if options.timed else None, clock or time.perf_counter)


def checked_board(board: Any) -> None:
    """``ValueError`` unless ``board`` is a board (``board.is_board``): every entry point checks the same."""
    if not is_board(board):
        raise ValueError(f"a board is a 64-bit int of 16 ranks, got {board!r}")


def search_function(algorithm: str) -> Callable[..., SearchResult]:
    """The algorithm's ``search``, its module imported on first use, so that a page asking only for alpha-beta
    never loads expectimax."""
    if algorithm == "alphabeta":
        from .alphabeta import search as alphabeta_search

        return alphabeta_search
    from .expectimax import search as expectimax_search

    return expectimax_search


def run_search(
    board: Board, options: SearchOptions, evaluate: Any, deadline: Deadline, trace: Trace | None = None
) -> SearchResult:
    """The search ``options`` name, on ``board`` with ``evaluate`` until ``deadline``, its result labelled with the
    options' algorithm, preset and think time (``trace``: ``explain``'s record of it)."""
    search = search_function(options.algorithm)
    if options.algorithm == "alphabeta":
        result = search(
            board,
            evaluate,
            deadline,
            depth=options.depth,
            reductions=options.reductions,
            rescue=options.rescues,
            trace=trace,
        )
    else:
        result = search(board, evaluate, deadline, depth=options.depth, trace=trace)
    result.algorithm = options.algorithm
    result.preset = options.preset_name
    result.think_ms = float(options.think_ms) if options.timed else None
    return result


def decide_part(
    board: Board, options: SearchOptions, part: int, parts: int, clock: Clock | None = None
) -> dict[str, Any]:
    """One of ``parts`` workers' share of the expectimax decision ``options`` describe (``expectimax.search_part``).

    Alpha-beta is not split: its cutoffs need the moves searched before, in one tree.
    """
    checked_board(board)
    if options.algorithm != "expectimax":
        raise ValueError(f"only expectimax is searched in parts, got {options.algorithm!r}")
    for name, value in (("parts", parts), ("part", part)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{name} is a whole number, got {value!r}")
    if not 1 <= parts <= MAX_PARTS:
        raise ValueError(f"parts is 1 to {MAX_PARTS}, got {parts!r}")
    if not 0 <= part < parts:
        raise ValueError(f"part is 0 to {parts - 1}, got {part!r}")
    evaluate = options.evaluator()
    from .expectimax import search_part

    deadline = Deadline(options.think_ms if options.timed else None, clock or time.perf_counter)
    return search_part(board, evaluate, deadline, part, parts, depth=options.depth)


MAX_PARTS = 8
"""The most workers one decision is shared among (the page uses at most 4)."""


def explain(board: Board, think_ms: float = 100, depth: int | None = None, **options: Any) -> dict[str, Any]:
    """The decision ``best_move`` makes for ``board``, with all the search knows about it (``search.explanation``).

    Imported on first use, like the algorithms: the explanation is for the
    explorer and the terminal, not for every decision.
    """
    from .explanation import explain as _explain

    return _explain(board, think_ms=think_ms, depth=depth, **options)


__all__ = [
    "ALGORITHMS",
    "DEFAULT_PRESETS",
    "DEFAULT_RESCUE",
    "SearchOptions",
    "SearchResult",
    "best_move",
    "decide",
    "decide_part",
    "explain",
    "rescues",
]
