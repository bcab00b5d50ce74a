"""Why the search chose its move: one decision and everything it knows about it, as JSON-ready data.

``explain`` runs the same search as ``decide`` (same options, same think
time, same move) with a ``Trace`` that records each iteration and keeps the
search's tables, then reads them within a budget of its own (``analysis_ms``):
``root`` (each move's value, exact or the bound alpha-beta proved),
``iterations`` (one row per depth), ``pv`` (the line the search expects),
``placements`` (the computer's replies to the chosen move), ``patterns`` (the
``learned`` network's view of it), ``why`` (the chosen move against the
runner-up, term by term, each term as its weight times the raw value read
from the board), ``chance`` (expectimax's chance node) and ``pruning``
(alpha-beta's nodes beside a plain minimax's, and what its aids save, depth by
depth).  ``explain_every_move`` reads every root move so (``comparison``).

When alpha-beta's rescue search chooses the move (``decision["rescued"]``),
the root values, iterations and line are those of the proof, and ``chosen``
and the placements follow the move played.  Counting the table lookups
(``count_hits``) slows the search a little, so the page explains only while
its explorer is open; the analysis runs after the decision, with its own
deadline, off the search's hot path.

What each part holds and how it is found: docs/search-explained.md.
"""

from __future__ import annotations

import time
from math import inf
from typing import Any

from ..board import DIRECTIONS, Board, from_rows, to_rows
from ..evaluation.terms import explained_terms, term_name
from ..move_tables import afterstates
from . import prepared, run_search
from .clock import Clock, Deadline
from .explained_alphabeta import AlphaBetaReader
from .explained_expectimax import chance_node, expected_why, typical_line
from .explanation_parts import Analysis, Evaluator, placement_label, weighted
from .options import SearchOptions
from .placements import scored_placements
from .result import SearchResult, Trace

DEFAULT_ANALYSIS_MS = 200.0
"""The explanation's own time after the decision, when the caller gives none."""


def explain(
    board: Board,
    *,
    exact_root: bool = False,
    analysis_ms: float = DEFAULT_ANALYSIS_MS,
    clock: Clock | None = None,
    **search: Any,
) -> dict[str, Any]:
    """The decision ``best_move`` would make for ``board``, with its explanation (module docstring).

    ``search`` names the decision as ``best_move``'s keywords do
    (``think_ms``, ``depth``, ``algorithm``, ``preset``, ``weights``,
    ``rescue``; checked by ``SearchOptions``, whose fields they are);
    ``exact_root`` asks for an exact value for every legal root move;
    ``analysis_ms`` bounds the time spent explaining after the decision.
    """
    return explain_decision(board, SearchOptions(**search), exact_root=exact_root, analysis_ms=analysis_ms, clock=clock)


def explain_decision(
    board: Board,
    options: SearchOptions,
    *,
    exact_root: bool = False,
    analysis_ms: float = DEFAULT_ANALYSIS_MS,
    clock: Clock | None = None,
) -> dict[str, Any]:
    """``explain`` for a ``SearchOptions`` (the page's worker builds one from its request)."""
    clock = clock or time.perf_counter
    result, trace, evaluate, deadline = _searched(board, options, analysis_ms, clock)
    analysis = Analysis(clock, analysis_ms)
    searched = [it for it in trace.iterations if it.completed]
    last = searched[-1] if searched else None
    out: dict[str, Any] = {
        "rows": to_rows(board),
        "decision": result.to_dict(),
        "root": _root(board, last, result),
        "iterations": [_iteration(it) for it in trace.iterations],
        "pv": None,
        "placements": None,
        "pruning": None,
        "patterns": None,
        "why": None,
        "chance": None,
    }
    if last is not None:
        pv_index = last.move_index
        if options.algorithm == "alphabeta":
            explainer = AlphaBetaReader(board, evaluate, deadline, trace, last.depth, analysis)
            if exact_root:
                explainer.exact_root(out["root"])
            out["pv"] = explainer.principal_variation(pv_index, last.value)
            runner_up = _runner_up(out["root"], pv_index)
            if runner_up is not None:
                second = explainer.principal_variation(runner_up, out["root"][runner_up]["value"])
                out["why"] = _why(options, out["root"], (pv_index, out["pv"]), (runner_up, second))
            out["pruning"] = explainer.pruning(searched)
        else:
            deadline.limit = analysis.limit  # the searcher reads it (timed searches only)
            runner_up = _runner_up(out["root"], pv_index)
            if runner_up is not None:  # first, with most of the time: what a learner asks first is why
                out["why"] = expected_why(
                    board, options, out["root"], trace.tree, last.depth, (pv_index, runner_up), evaluate, analysis
                )
            out["pv"] = typical_line(board, trace.tree, last.depth, pv_index, evaluate, analysis)
            out["chance"] = chance_node(board, trace.tree, last.depth, pv_index, evaluate, analysis)
        chosen = DIRECTIONS.index(result.move) if result.move is not None else pv_index
        out["placements"] = _placements(board, chosen, options.algorithm == "alphabeta")
        if options.preset_name == "learned":
            out["patterns"] = _patterns(board, chosen, evaluate)
    out["analysis"] = analysis.report()
    return out


def explain_every_move(
    board: Board, options: SearchOptions, *, analysis_ms: float = DEFAULT_ANALYSIS_MS, clock: Clock | None = None
) -> dict[str, Any]:
    """Every legal move as the search values it, with the computer's reply it reckons with (for ``comparison``).

    The same search as ``explain_decision``; then, within ``analysis_ms``,
    each root entry gets alpha-beta's exact value and ``line`` (the line it
    expects after that move: its first tile is the reply the minimiser
    assumed), or expectimax's ``chance`` node (each empty cell's 2 and 4, their
    odds and values: what its average weighed).  A move the budget did not
    reach keeps ``None`` there (``analysis["unfinished"]`` says why).
    """
    clock = clock or time.perf_counter
    result, trace, evaluate, deadline = _searched(board, options, analysis_ms, clock)
    analysis = Analysis(clock, analysis_ms)
    searched = [it for it in trace.iterations if it.completed]
    last = searched[-1] if searched else None
    root = _root(board, last, result)
    if last is not None:
        if options.algorithm == "alphabeta":
            explainer = AlphaBetaReader(board, evaluate, deadline, trace, last.depth, analysis)
            explainer.exact_root(root)
            for index, entry in enumerate(root):
                entry["line"] = (
                    explainer.principal_variation(index, entry["value"])
                    if entry["exact"] and not analysis.expired()
                    else None
                )
        else:
            deadline.limit = analysis.limit
            for index, entry in enumerate(root):
                entry["chance"] = (
                    chance_node(board, trace.tree, last.depth, index, evaluate, analysis) if entry["legal"] else None
                )
    return {"rows": to_rows(board), "decision": result.to_dict(), "root": root, "analysis": analysis.report()}


def _searched(
    board: Board, options: SearchOptions, analysis_ms: float, clock: Clock
) -> tuple[SearchResult, Trace, Evaluator, Deadline]:
    """The search ``decide`` runs, with a ``Trace`` that keeps its tables: (result, trace, evaluation, deadline)."""
    if options.reductions:
        raise ValueError("explain describes the full-width search: late-move reductions must be off")
    if isinstance(analysis_ms, bool) or not isinstance(analysis_ms, (int, float)) or not 0 <= analysis_ms < inf:
        raise ValueError(f"analysis_ms is a number of milliseconds, at least 0, got {analysis_ms!r}")
    evaluate, deadline = prepared(board, options, clock)
    trace = Trace()
    return run_search(board, options, evaluate, deadline, trace), trace, evaluate, deadline


def _root(board: Board, last: Any, result: SearchResult) -> list[dict[str, Any]]:
    """One entry per direction: legal or not, the value at the deepest completed depth, exact or an upper bound."""
    legal = [child != board for child in afterstates(board)]
    values = {index: (value, exact) for index, value, exact in (last.root if last is not None else ())}
    out = []
    for index, direction in enumerate(DIRECTIONS):
        value, exact = values.get(index, (None, False))
        out.append(
            {
                "move": direction,
                "legal": legal[index],
                "value": value,
                "exact": bool(exact) if value is not None else False,
                "bound": None if value is None or exact else "upper",
                "source": None if value is None else "search",
                "chosen": result.move is not None and direction == result.move,
            }
        )
    return out


def _patterns(board: Board, chosen: int, evaluate: Evaluator) -> dict[str, Any]:
    """For the learned evaluation: what the network sees on the chosen move's afterstate, cell by cell.

    ``cells`` are the 16 shares of the network's value (``ntuple.cell_shares``),
    ``value`` their sum and ``tiles`` the points the tiles are worth;
    ``evaluation`` the search's evaluation of that board (the network's value
    times its weight, plus the tiles); ``reads`` how many of the patterns'
    images read each cell (a share grows with it: an inner cell is read by
    more images than a corner); ``top`` the patterns that add most, as their
    number, the cells of the image read and weight; ``shapes`` each pattern's
    own cells, pattern 1 first (the page draws a pattern wherever it is named).
    """
    from ..evaluation import learned
    from ..evaluation.ntuple import cell_shares
    from ..evaluation.ntuple_shapes import images, score_of_tiles

    after = afterstates(board)[chosen]
    network = learned.network()
    shares, top = cell_shares(network, after)
    reads = [0] * 16
    for cells in network.shape.tuples:
        for image in images(cells):
            for cell in image:
                reads[cell] += 1
    return {
        "move": DIRECTIONS[chosen],
        "rows": to_rows(after),
        "cells": [round(share, 1) for share in shares],
        "value": round(sum(shares), 1),
        "tiles": score_of_tiles(after),
        "evaluation": evaluate(after),
        "reads": reads,
        "top": [{"number": number, "cells": list(cells), "value": round(weight, 1)} for number, cells, weight in top],
        "shapes": [list(cells) for cells in network.shape.tuples],
    }


def _runner_up(root: list[dict[str, Any]], chosen: int) -> int | None:
    """The legal move with the best exact value after the chosen one (a bound does not say how good a move is)."""
    others = [(e["value"], i) for i, e in enumerate(root) if i != chosen and e["exact"] and e["value"] is not None]
    return max(others)[1] if others else None


def _line_end(pv: dict[str, Any]) -> list[list[int]] | None:
    """The board at the end of a line: its last player move's (what the evaluation scored at the horizon)."""
    moves = [ply for ply in pv["plies"] if ply["kind"] == "move"]
    return moves[-1]["rows"] if moves else None


def _why(
    options: SearchOptions,
    root: list[dict[str, Any]],
    chosen: tuple[int, dict[str, Any]],
    runner_up: tuple[int, dict[str, Any]],
) -> dict[str, Any] | None:
    """The two lines' end boards term by term, and the term that favours the chosen move most."""
    lines = []
    for index, pv in (chosen, runner_up):
        end = _line_end(pv)
        if end is None:
            return None
        terms = explained_terms(options.preset_name, from_rows(end), options.weights)
        lines.append(
            {
                "move": DIRECTIONS[index],
                "value": root[index]["value"],
                "rows": end,
                "plies": len(pv["plies"]),
                "end": pv["end"],
                "terms": [[term_name(term.name), round(term.value, 4)] for term in terms],
                "weighted": [weighted(term) for term in terms],
            }
        )
    differences = [
        [name, round(mine - theirs, 4)]
        for (name, mine), (_, theirs) in zip(lines[0]["terms"], lines[1]["terms"], strict=True)
    ]
    deciding = max(differences, key=lambda d: d[1]) if differences else None
    return {
        "chosen": lines[0],
        "runner_up": lines[1],
        "differences": differences,
        "deciding": deciding,
        "margin": root[chosen[0]]["value"] - root[runner_up[0]]["value"],
    }


def _iteration(it: Any) -> dict[str, Any]:
    return {
        "depth": it.depth,
        "completed": it.completed,
        "move": DIRECTIONS[it.move_index] if it.completed else None,
        "value": it.value if it.completed else None,
        "nodes": it.nodes,
        "cutoffs": it.cutoffs,
        "table_hits": it.table_hits,
        "elapsed_ms": round(it.elapsed_ms, 3),
    }


def _placements(board: Board, index: int, reduced: bool) -> dict[str, Any]:
    """The heat map of the computer's reply to move ``index``: each placement's annoyance, the kept ones marked."""
    after = afterstates(board)[index]
    scored = scored_placements(after)
    cells = [
        {
            "cell": cell,
            "row": cell // 4,
            "column": cell % 4,
            "tile": 1 << rank,
            "annoyance": score,
            "kept": kept,
            "label": placement_label(cell, rank),
        }
        for cell, rank, score, kept in scored
    ]
    return {
        "move": DIRECTIONS[index],
        "rows": to_rows(after),
        "cells": cells,
        "kept": sum(1 for c in cells if c["kept"]),
        "possible": len(cells),
        "reduction_used": reduced,
    }


__all__ = ["DEFAULT_ANALYSIS_MS", "explain", "explain_decision", "explain_every_move"]
