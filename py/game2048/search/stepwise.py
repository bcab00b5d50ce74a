"""Alpha-beta step by step: the textbook recursion over the real reduced tree, recorded node by node for a person.

The tree is exactly ``reference.py``'s (and so ``alphabeta.py``'s), at depth 2
or 3, the size a person can walk through.  The search is AIMA's fail-soft
alpha-beta, the one tutorials draw (``alphabeta.py`` is fail-hard; both give
the same root value).  The root's value is always exact, with the move that
first reached it; another node's is exact, or a bound after a cut below it
(``bound`` says which).  Only a window that closes while a node still has
children to try is a cut (``closed_at_last`` counts the others; ``no_cut``
says why a tree has none).  ``pruning=False`` is plain minimax;
``ordering=True`` tries the likely best moves and worst placements first.

``trace`` returns a JSON-ready dict: ``nodes`` (every node generated, pruned
children included but not their subtrees), ``steps`` in visiting order, each
with a sentence for a person, and ``counts``; infinite α and β are ``None``
(α ``None`` = −∞, β ``None`` = +∞).  ``variants`` adds the counts of the other
switches, of the tree without the reduction and of the AI's own search; with
no depth asked it draws the smallest depth at which alpha-beta prunes.

The recursion and the sentences of its steps are ``stepwise_tracer``'s; this
module runs it and sets its answers side by side.  The tree, the windows, the
bounds and the orderings in full: docs/search-explained.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..board import WIN_RANK, Board, max_rank
from . import alphabeta
from .clock import Deadline
from .options import SearchOptions
from .result import Trace
from .stepwise_tracer import INFINITY, Evaluator, TooMany, Tracer, every_placement

DEPTHS = (2, 3)
"""The depths a person can walk through: player, computer, player (and computer, player)."""
UNREDUCED_LIMIT = 6000
"""Nodes the same search without the min-node reduction may visit before it is only said to be larger
(a depth-3 minimax of an opening board over every placement visits 55,000, 1.7 s in CPython)."""


def trace(board: Board, depth: int, evaluate: Evaluator, *, ordering: bool, pruning: bool) -> dict[str, Any]:
    """Alpha-beta (``pruning=False``: minimax) on ``board`` to ``depth`` player moves, recorded step by step.

    The answer: ``{"depth", "ordering", "pruning", "value", "move", "nodes",
    "steps", "counts": {"leaves", "nodes", "cuts", "closed_at_last"},
    "no_cut"}``; a node is ``{"id", "parent", "kind" (max, min, leaf, won,
    lost), "label", "rows", "depth" (player moves to go, counting the move
    that led to a board after a move, as in ``reference``), "value", "bound"
    (exact, upper, lower; ``None`` if not visited), "visited", "pruned"
    (``{"alpha", "beta"}`` that cut it, or ``None``), "best" (the child that
    gave the value), "cuts" (cuts at or below it), "children"}``; a step is
    ``{"node", "event" (enter, leaf, won, lost, backup, cut, return), "text",
    ...}`` with ``alpha`` and ``beta`` (with pruning), ``value``, ``child``
    and ``best`` (backup), ``pruned`` and ``reason`` (cut), ``bound``
    (return).  ``no_cut`` is why nothing was pruned, when pruning was on and
    nothing was (also said by the last step); otherwise ``None``.
    ``ValueError`` unless ``depth`` is 2 or 3.
    """
    if depth not in DEPTHS or isinstance(depth, bool):
        raise ValueError(f"the step-by-step tree is drawn at depth 2 or 3 (player moves), got {depth!r}")
    tracer = Tracer(evaluate, ordering, pruning, max_rank(board) < WIN_RANK)
    root = tracer.player_node(None, "this board", board, depth)
    value = tracer.visit(root, board, -INFINITY, INFINITY)
    best = root["best"]
    no_cut = None
    if pruning and tracer.cuts == 0 and root["kind"] == "max":
        no_cut = tracer.no_cut_reason()
        tracer.steps[-1]["text"] += " " + no_cut
    return {
        "depth": depth,
        "ordering": ordering,
        "pruning": pruning,
        "value": value,
        "move": None if best is None else tracer.nodes[best]["label"],
        "nodes": tracer.nodes,
        "steps": tracer.steps,
        "counts": {
            "leaves": tracer.leaves,
            "nodes": tracer.visited,
            "cuts": tracer.cuts,
            "closed_at_last": tracer.closed_at_last,
        },
        "no_cut": no_cut,
    }


def evaluator(preset: str | None = None, weights: Mapping[str, float] | None = None) -> Evaluator:
    """The evaluation named by ``preset`` and ``weights``, checked as the searches check it (``ValueError``)."""
    return SearchOptions(preset=preset, weights=weights).evaluator()


def variants(board: Board, depth: int | None, evaluate: Evaluator, *, ordering: bool, pruning: bool) -> dict[str, Any]:
    """What the page's step-by-step view needs: the asked search's ``compact`` trace, and all four side by side.

    ``{"trace": compact(trace(...)), "variants": [{"ordering", "pruning",
    "value", "move", "leaves", "nodes", "cuts", "closed_at_last"}, ...],
    "unreduced": {...}, "search": search_counts(...), "smallest": ...}``, the
    variants with pruning first, ordering first within each, the asked search
    without the min-node reduction (``unreduced``) and the AI's own alpha-beta
    at that depth (``search``).  ``depth=None`` draws the smallest of
    ``DEPTHS`` at which alpha-beta (with the asked ordering) prunes, the
    largest if none does; ``smallest`` then says so: ``{"skipped": [{"depth",
    "no_cut"}, ...]}`` for each depth passed over, else ``None``.
    """
    smallest = None
    if depth is None:
        skipped = []
        for depth in DEPTHS[:-1]:
            pruned = trace(board, depth, evaluate, ordering=ordering, pruning=True)
            if pruned["no_cut"] is None:
                break
            skipped.append({"depth": depth, "no_cut": pruned["no_cut"]})
        else:
            depth = DEPTHS[-1]
        smallest = {"skipped": skipped}
    asked = None
    rows = []
    for with_pruning in (True, False):
        for with_ordering in (True, False):
            traced = trace(board, depth, evaluate, ordering=with_ordering, pruning=with_pruning)
            if (with_ordering, with_pruning) == (ordering, pruning):
                asked = traced
            rows.append(
                {
                    "ordering": with_ordering,
                    "pruning": with_pruning,
                    "value": traced["value"],
                    "move": traced["move"],
                    **traced["counts"],
                }
            )
    assert asked is not None  # ordering and pruning are each True or False: one of the four is the one asked
    return {
        "trace": compact(asked),
        "variants": rows,
        "unreduced": unreduced(board, depth, evaluate, ordering, pruning),
        "search": search_counts(board, depth, evaluate),
        "smallest": smallest,
    }


def search_counts(board: Board, depth: int, evaluate: Evaluator) -> dict[str, Any] | None:
    """The AI's own alpha-beta (``alphabeta.search``) at this fixed depth: its last iteration's counts.

    ``{"depth", "value", "move", "nodes", "cutoffs", "table_hits"}``, the row
    for ``depth`` of the explorer's Iterations table when the AI searched this
    board with this evaluation (a timed search's iterations are the fixed
    depth's, as far as it got); ``None`` for a board without a move.  It
    differs from the walk's counts because it counts otherwise: a cutoff
    whenever a window closes, at a last child too (the walk's
    ``closed_at_last``); nodes as the moves and placements tried, without the
    root; moves and placements tried in the order of the depth before, with a
    transposition table.
    """
    record = Trace()
    result = alphabeta.search(board, evaluate, Deadline(None), depth, trace=record)
    if result.move is None or not record.iterations:
        return None
    last = record.iterations[-1]
    return {
        "depth": last.depth,
        "value": last.value,
        "move": result.move,
        "nodes": last.nodes,
        "cutoffs": last.cutoffs,
        "table_hits": last.table_hits,
    }


def unreduced(board: Board, depth: int, evaluate: Evaluator, ordering: bool, pruning: bool) -> dict[str, Any]:
    """The same search over every placement (no min-node reduction): its counts, or ``over`` its node limit.

    ``{"ordering", "pruning", "value", "move", "leaves", "nodes", "cuts", "over"}``; past
    ``UNREDUCED_LIMIT`` nodes the counts are ``None`` and ``over`` is the limit.
    """
    tracer = Tracer(evaluate, ordering, pruning, max_rank(board) < WIN_RANK, limit=UNREDUCED_LIMIT)
    root = tracer.player_node(None, "this board", board, depth)
    out: dict[str, Any] = {"ordering": ordering, "pruning": pruning, "over": None}
    try:
        value = tracer.visit(root, board, -INFINITY, INFINITY)
    except TooMany:
        return {
            **out,
            "value": None,
            "move": None,
            "leaves": None,
            "nodes": None,
            "cuts": None,
            "over": UNREDUCED_LIMIT,
        }
    best = root["best"]
    move_label = None if best is None else tracer.nodes[best]["label"]
    return {
        **out,
        "value": value,
        "move": move_label,
        "leaves": tracer.leaves,
        "nodes": tracer.visited,
        "cuts": tracer.cuts,
    }


def compact(traced: dict[str, Any]) -> dict[str, Any]:
    """A trace as the worker sends it: each node's board as ``ranks``, 16 hex digits (a cell's rank, reading
    order), instead of ``rows``, and no ``children`` or ``visited`` (the parents and the values say them).

    Measured as JSON: 10-30 kB at depth 2; at depth 3, 40-300 kB on the bench's positions; the largest, a
    minimax (no pruning) trace of an opening board, runs to 2,500 nodes and 4,300 steps, 1.25 MB (1.43 MB in full).
    """
    nodes = []
    for node in traced["nodes"]:
        slim = {key: value for key, value in node.items() if key not in ("rows", "children", "visited")}
        slim["ranks"] = "".join(f"{value.bit_length() - 1 if value else 0:x}" for row in node["rows"] for value in row)
        nodes.append(slim)
    return {**traced, "nodes": nodes}


__all__ = [
    "DEPTHS",
    "UNREDUCED_LIMIT",
    "Evaluator",
    "compact",
    "evaluator",
    "every_placement",
    "search_counts",
    "trace",
    "unreduced",
    "variants",
]
