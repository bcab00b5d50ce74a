"""Expectimax explained: its why (the expected evaluation terms at the horizon), its chance node and a typical line.

Each reads the finished search's warm caches through its own node functions
(``searcher.player``, ``searcher.chance``) and its chance node through
``expectimax.spawns``, so nothing here restates how expectimax values a board.
``explanation.explain`` calls ``expected_why``, ``chance_node`` and ``typical_line``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..board import DIRECTIONS, Board, to_rows
from ..evaluation.terms import Term, explained_terms, term_name
from ..move_tables import afterstates
from . import expectimax
from .clock import TimeUp
from .explanation_parts import Analysis, Evaluator, placement_label, ply, weighted
from .options import SearchOptions

WHY_SHARE = 0.7
"""The part of the explanation's time expectimax's why may take; the line and the chance node get the rest."""
LOST_TERM = "lost boards"
"""The expected-terms entry for lines that end lost: the lost value, weighted by their probability."""
LOST_UNIT = "probability of a lost board"
"""The raw value of ``LOST_TERM``: the lost value is its weight."""


def expected_why(
    board: Board,
    options: SearchOptions,
    root: list[dict[str, Any]],
    searcher: Any,
    depth: int,
    moves: tuple[int, int],
    evaluate: Evaluator,
    analysis: Analysis,
) -> dict[str, Any] | None:
    """Expectimax's why: the chosen move's and the runner-up's *expected* evaluation terms at the horizon.

    A move's value is an expectation over the tiles of the evaluation at the
    horizon, and the evaluation is a sum of terms, so the value splits into
    expected terms (E[Σ tᵢ] = Σ E[tᵢ]).  They are taken over the tree the search
    walked: at each chance node every tile with its probability, at each player
    node the move the search's values choose, a branch the probability cutoff
    evaluated as that board; a lost board adds the lost value as its own term.
    ``exact``: the terms add up to the search's values (the search reuses
    chance values it cached at another probability, which can differ slightly).
    The deciding term is the one with the largest share of the difference;
    ``against`` lists the terms that favour the runner-up.
    """
    lost = float(getattr(evaluate, "lost_value", expectimax.DEFAULT_LOST_VALUE))
    leaves: dict[Board, list[Term]] = {}
    kinds: dict[str, Term] = {LOST_TERM: Term(LOST_TERM, lost, lost, 1.0, LOST_UNIT)}
    """A term of each name (its weight, unit and form are the same on every board)."""

    def terms_of(node: Board) -> list[Term]:
        found = leaves.get(node)
        if found is None:
            found = leaves[node] = explained_terms(options.preset_name, node, options.weights)
            for term in found:
                kinds.setdefault(term.name, term)
        return found

    lines = []
    expired = analysis.share(WHY_SHARE)
    try:
        for index in moves:
            expected = _expected_terms(afterstates(board)[index], depth, searcher, evaluate, terms_of, lost, expired)
            lines.append({"move": DIRECTIONS[index], "value": root[index]["value"], "expected": expected})
    except TimeUp:
        analysis.note("why", "the budget ran out before the expected terms were added up")
        return None
    names = []
    for line in lines:
        names += [name for name in line["expected"] if name in kinds and name not in names]
    for line in lines:
        expected = line["expected"]
        line["terms"] = [[term_name(name), round(expected.get(name, 0.0), 4)] for name in names]
        line["weighted"] = [weighted(_expected_term(kinds[name], expected), True) for name in names]
        line["total"] = sum(expected.get(name, 0.0) for name in names)
    mine, theirs = lines
    differences = [
        [term_name(name), round(mine["expected"].get(name, 0.0) - theirs["expected"].get(name, 0.0), 4)]
        for name in names
    ]
    margin = root[moves[0]]["value"] - root[moves[1]]["value"]
    deciding = max(differences, key=lambda d: d[1]) if differences else None
    against = [d for d in differences if d[1] < 0]
    exact = all(abs(line["total"] - line["value"]) <= 1e-6 * max(1.0, abs(line["value"])) for line in lines)
    for line in lines:
        del line["expected"]
    return {
        "kind": "expected",
        "chosen": mine,
        "runner_up": theirs,
        "differences": differences,
        "deciding": deciding,
        "share": deciding[1] / margin if deciding and margin > 0 else None,
        "against": sorted(against, key=lambda d: d[1]),
        "margin": margin,
        "exact": exact,
        "depth": depth,
    }


RAW, FACTOR = "\x00raw", "\x00factor"
"""Suffixes of the expected-terms entries that keep a term's raw value and factor apart from its value, where
they are not its value divided by its weight (a logarithm, a weight of 0)."""


def _leaf_terms(terms: list[Term]) -> dict[str, float]:
    """A board's terms as ``_expected_terms`` adds them up: each term's value, and its raw value and factor
    where the value does not give them (``RAW``, ``FACTOR``)."""
    out = {}
    for term in terms:
        out[term.name] = term.value
        if term.form or not term.weight:
            out[term.name + RAW] = term.raw
            if term.form and not term.weight:
                out[term.name + FACTOR] = term.multiplied()
    return out


def _expected_term(kind: Term, expected: dict[str, float]) -> Term:
    """The term ``kind`` with the expectations ``_expected_terms`` found: value, raw value and factor."""
    value = expected.get(kind.name, 0.0)
    if kind.weight:
        factor = value / kind.weight
    else:
        factor = expected.get(kind.name + (FACTOR if kind.form else RAW), 0.0)
    return kind._replace(value=value, raw=expected.get(kind.name + RAW, factor), factor=factor)


def _expected_terms(
    after: Board,
    depth: int,
    searcher: Any,
    evaluate: Evaluator,
    terms_of: Callable[[Board], list[Term]],
    lost: float,
    expired: Callable[[], bool],
) -> dict[str, float]:
    """E[terms at the horizon] after a root move whose afterstate is ``after``, searched to ``depth`` (see
    ``expected_why``), with the expectations of the raw values ``_leaf_terms`` keeps; ``TimeUp`` once
    ``expired``.  Memoised by (board, moves left), as the search caches."""
    threshold = expectimax.PROBABILITY_THRESHOLD
    memo: dict[tuple[Board, int], dict[str, float]] = {}
    leaves: dict[Board, dict[str, float]] = {}

    def leaf(node: Board) -> dict[str, float]:
        found = leaves.get(node)
        if found is None:
            found = leaves[node] = _leaf_terms(terms_of(node))
        return found

    def chance(node: Board, remaining: int, prob: float) -> dict[str, float]:
        if prob < threshold:  # before the memo, as the search checks its cutoff before its cache
            return leaf(node)
        key = (node, remaining)
        if key in memo:
            return memo[key]
        if expired():
            raise TimeUp
        out: dict[str, float] = {}
        for placed, _cell, _rank, weight in expectimax.spawns(node):
            for name, value in player(placed, remaining, prob * weight).items():
                out[name] = out.get(name, 0.0) + weight * value
        memo[key] = out
        return out

    def player(node: Board, remaining: int, prob: float) -> dict[str, float]:
        best = None
        for child in afterstates(node):
            if child == node:
                continue
            value = evaluate(child) if remaining == 1 else searcher.chance(child, remaining - 1, prob)
            if best is None or value > best[0]:
                best = (value, child)
        if best is None:
            return {LOST_TERM: lost, LOST_TERM + RAW: 1.0}
        return leaf(best[1]) if remaining == 1 else chance(best[1], remaining - 1, prob)

    return leaf(after) if depth == 1 else chance(after, depth - 1, 1.0)


def chance_node(
    board: Board, searcher: Any, depth: int, index: int, evaluate: Evaluator, analysis: Analysis
) -> dict[str, Any] | None:
    """The chosen move's chance node as expectimax weighs it: each empty cell's 2 and 4, their values and odds.

    The values come from the search's warm caches (``searcher.player`` at each
    tile's probability, as the search reached it); their weighted mean is the
    move's value.  At depth 1 the afterstate is a leaf, with no chance node.
    """
    if depth < 2:
        return None
    after = afterstates(board)[index]
    tiles = expectimax.spawns(after)
    if not tiles:
        return None
    cells = []
    try:
        for (two, cell, _, p_two), (four, _, _, p_four) in zip(tiles[::2], tiles[1::2], strict=True):
            if analysis.expired():
                raise TimeUp
            value_two = searcher.player(two, depth - 1, p_two)
            value_four = searcher.player(four, depth - 1, p_four)
            cells.append({"cell": cell, "two": value_two, "four": value_four, "p_two": p_two, "p_four": p_four})
    except TimeUp:
        analysis.note("chance", "the budget ran out before every cell was read")
        return None
    mean = sum(c["p_two"] * c["two"] + c["p_four"] * c["four"] for c in cells)
    return {"move": DIRECTIONS[index], "rows": to_rows(after), "cells": cells, "value": mean}


def typical_line(
    board: Board, searcher: Any, depth: int, index: int, evaluate: Evaluator, analysis: Analysis
) -> dict[str, Any]:
    """The chosen move, then a typical tile and the best move after it, to the horizon.

    Expectimax averages over the tiles, so no single line is "expected"; this
    one follows the likeliest tile, a 2 (nine in ten), and of the equally
    likely cells for it the one whose value is nearest the chance node's
    average: never the worst tile, which expectimax does not assume.  Values
    come from the search's warm caches (``searcher.player`` at the path's
    probability, as the search reached it).
    """
    plies: list[dict[str, Any]] = []
    node = afterstates(board)[index]
    remaining = depth - 1
    prob = 1.0
    plies.append(ply("move", DIRECTIONS[index], node, remaining, move=DIRECTIONS[index]))
    end = "horizon"
    lost = float(getattr(evaluate, "lost_value", expectimax.DEFAULT_LOST_VALUE))
    while remaining >= 1:
        if analysis.expired():
            end = "budget"
            analysis.note("pv", "the budget ran out before the end of the line")
            break
        try:
            node, remaining, prob, end = _expectimaxply(node, remaining, prob, searcher, evaluate, lost, plies)
        except TimeUp:
            end = "budget"
            analysis.note("pv", "the budget ran out before the end of the line")
        if end != "horizon":
            break
    return {"value": None, "plies": plies, "end": end, "complete": end == "horizon", "tiles": "typical"}


def _expectimaxply(
    node: Board, remaining: int, prob: float, searcher: Any, evaluate: Evaluator, lost: float, plies: list[Any]
) -> tuple[Board, int, float, str]:
    """One placement and one move of ``typical_line``: (the board after them, moves left, probability, end)."""
    tiles = expectimax.spawns(node)
    if not tiles:
        return node, remaining, prob, "not found"
    count = len(tiles) // 2  # the empty cells, each with its 2 and its 4
    prob2 = prob * expectimax.TWO_PROBABILITY / count
    prob4 = prob * expectimax.FOUR_PROBABILITY / count
    twos = [(searcher.player(placed, remaining, prob2), cell) for placed, cell, rank, _ in tiles if rank == 1]
    fours = [searcher.player(placed, remaining, prob4) for placed, _, rank, _ in tiles if rank == 2]
    average = (
        sum(
            expectimax.TWO_PROBABILITY * two + expectimax.FOUR_PROBABILITY * four
            for (two, _), four in zip(twos, fours, strict=True)
        )
        / count
    )
    value, cell = min(twos, key=lambda two: (abs(two[0] - average), two[1]))
    placed = node | (1 << (4 * cell))
    plies.append(ply("place", placement_label(cell, 1), placed, remaining, cell=cell, tile=2, value=value))
    if value == lost:
        return placed, remaining, prob2, "loss"
    best = None
    for i, child in enumerate(afterstates(placed)):
        if child == placed:
            continue
        v = searcher.chance(child, remaining - 1, prob2) if remaining > 1 else evaluate(child)
        if best is None or v > best[0]:
            best = (v, i, child)
    assert best is not None  # a board with a legal move: its value is not the lost value
    _, i, after = best
    plies.append(ply("move", DIRECTIONS[i], after, remaining - 1, move=DIRECTIONS[i]))
    return after, remaining - 1, prob2, "horizon"
