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

The tree, the windows, the bounds and the orderings in full: docs/search-explained.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..board import DIRECTIONS, WIN_RANK, Board, has_win_tile, max_rank, move, to_rows
from ..values import format_value, loss_value, win_value
from . import alphabeta
from .clock import Deadline
from .explanation_parts import placement_label
from .options import SearchOptions
from .placements import make_placements, scored_placements
from .result import Trace

Evaluator = Callable[[Board], float]

DEPTHS = (2, 3)
"""The depths a person can walk through: player, computer, player (and computer, player)."""
INFINITY = float("inf")
CUT = "\u03b1 \u2265 \u03b2"
"""The reason of every cut, as shown."""
UNREDUCED_LIMIT = 6000
"""Nodes the same search without the min-node reduction may visit before it is only said to be larger
(a depth-3 minimax of an opening board over every placement visits 55,000, 1.7 s in CPython)."""


OPEN_REASONS = ("single", "unbounded", "at_last", "never")
"""Why a node below the root cut nothing, in the order ``no_cut_reason`` says them."""


def _open_words(kind: str, why: str, count: int) -> str:
    """What ``count`` nodes of ``kind`` that cut nothing for the reason ``why`` did, after their number."""
    one = count == 1
    if kind == "min":
        child, bound, reach = "placement", "\u03b1 was \u2212\u221e", "\u03b1 or less"
        had_one = "had a single most annoying placement"
    else:
        child, bound, reach = "move", "\u03b2 was +\u221e", "\u03b2 or more"
        had_one = "had a single move"
    its = "its" if one else "their"
    return {
        "single": f"{had_one}, so nothing was left to prune",
        "unbounded": f"{'was' if one else 'were'} searched while {bound}, with nothing yet to compare",
        "at_last": f"reached {reach} only at {its} last {child}, where nothing was left to prune",
        "never": f"had no {child} worth {reach}",
    }[why]


class _TooMany(Exception):
    """The search without the reduction passed ``UNREDUCED_LIMIT`` nodes."""


def every_placement(board: Board) -> list[Board]:
    """Every 2 and every 4 in every empty cell: the computer's replies without ovolve's reduction."""
    return [board | (rank << (4 * cell)) for cell, rank, _score, _kept in scored_placements(board)]


def _bound(value: float) -> float | None:
    """α or β for JSON: ``None`` when infinite."""
    return None if value in (INFINITY, -INFINITY) else value


def _placement_label(parent: Board, child: Board) -> str:
    diff = parent ^ child
    cell = (diff.bit_length() - 1) // 4
    rank = (child >> (4 * cell)) & 0xF
    return placement_label(cell, rank)


class _Tracer:
    """One traced search: the recursion, and the nodes and steps it records on the way."""

    def __init__(
        self, evaluate: Evaluator, ordering: bool, pruning: bool, win_possible: bool, limit: int | None = None
    ) -> None:
        """``limit`` (the search without the reduction): every placement, at most that many nodes."""
        self.evaluate = evaluate
        self.ordering = ordering
        self.pruning = pruning
        self.win_possible = win_possible
        self.placements = make_placements() if limit is None else every_placement
        self.limit = limit
        self.nodes: list[dict[str, Any]] = []
        self.steps: list[dict[str, Any]] = []
        self.leaves = 0
        self.visited = 0
        self.cuts = 0
        self.closed_at_last = 0
        self.open_nodes: dict[tuple[str, str], int] = {}
        """Inner nodes below the root that cut nothing, by (kind, why): ``no_cut_reason``'s counts."""

    # -- the tree -----------------------------------------------------------------------------

    def node(self, parent: int | None, kind: str, label: str, board: Board, depth: int) -> dict[str, Any]:
        node = {
            "id": len(self.nodes),
            "parent": parent,
            "kind": kind,
            "label": label,
            "rows": to_rows(board),
            "depth": depth,
            "value": None,
            "bound": None,
            "visited": False,
            "pruned": None,
            "best": None,
            "cuts": 0,
            "children": [],
        }
        self.nodes.append(node)
        if parent is not None:
            self.nodes[parent]["children"].append(node["id"])
        return node

    def player_node(self, parent: int | None, label: str, board: Board, depth: int) -> dict[str, Any]:
        """A board where the player moves: max, or lost when no move changes it."""
        legal = any(move(board, d)[0] != board for d in DIRECTIONS)
        return self.node(parent, "max" if legal else "lost", label, board, depth)

    def expand(self, node: dict[str, Any], board: Board) -> list[tuple[dict[str, Any], Board]]:
        """Create the children of a max or min node, in the order they are tried."""
        depth = node["depth"]
        if node["kind"] == "max":
            children = []
            for direction in DIRECTIONS:
                child, _ = move(board, direction)
                if child == board:
                    continue
                if self.win_possible and has_win_tile(child):
                    kind = "won"
                else:
                    kind = "leaf" if depth == 1 else "min"
                children.append((kind, direction, child))
            if self.ordering:
                children.sort(key=lambda c: -win_value(depth) if c[0] == "won" else -self.evaluate(c[2]))
            return [(self.node(node["id"], kind, label, child, depth), child) for kind, label, child in children]
        placed = self.placements(board)
        if self.ordering:
            placed.sort(key=self.evaluate)
        return [(self.player_node(node["id"], _placement_label(board, p), p, depth - 1), p) for p in placed]

    # -- the search ---------------------------------------------------------------------------

    def step(self, node: dict[str, Any], event: str, text: str, **fields: Any) -> None:
        self.steps.append({"node": node["id"], "event": event, **fields, "text": text})

    def window(self, alpha: float, beta: float) -> dict[str, Any]:
        return {"alpha": _bound(alpha), "beta": _bound(beta)} if self.pruning else {}

    def visit(self, node: dict[str, Any], board: Board, alpha: float, beta: float) -> float:
        node["visited"] = True
        self.visited += 1
        if self.limit is not None and self.visited > self.limit:
            raise _TooMany
        kind = node["kind"]
        if kind in ("leaf", "won", "lost"):
            return self.terminal(node, board, alpha, beta)
        return self.inner(node, board, alpha, beta)

    def terminal(self, node: dict[str, Any], board: Board, alpha: float, beta: float) -> float:
        self.leaves += 1
        kind, label, depth = node["kind"], node["label"], node["depth"]
        if kind == "leaf":
            value = self.evaluate(board)
            text = f"Leaf: evaluate the board after {label}: {format_value(value)}."
        elif kind == "won":
            value = win_value(depth)
            text = f"{label} makes 2048: a win, worth WIN_SCORE + {depth} (sooner wins score higher)."
        else:
            value = loss_value(depth)
            text = f"After {label} the player has no move: a loss, worth \u2212(WIN_SCORE + {depth})."
        node["value"], node["bound"] = value, "exact"
        self.step(node, kind, text, value=value, **self.window(alpha, beta))
        return value

    def inner(self, node: dict[str, Any], board: Board, alpha: float, beta: float) -> float:
        maximizing = node["kind"] == "max"
        children = self.expand(node, board)
        one = len(children) == 1
        what = (
            ("move" if one else "moves")
            if maximizing
            else ("most annoying placement" if one else "most annoying placements")
        )
        who = "Player to move (max)" if maximizing else "Computer to place a tile (min)"
        where = "at the root" if node["parent"] is None else f"after {node['label']}"
        window = f", with \u03b1 = {format_value(alpha)}, \u03b2 = {format_value(beta)}" if self.pruning else ""
        self.step(
            node,
            "enter",
            f"{who} {where}{window}: {len(children)} {what} to try.",
            **self.window(alpha, beta),
        )
        entry_alpha, entry_beta = alpha, beta
        cuts_before = self.cuts
        closed = False  # the window closed at the last child: nothing left to prune
        best = -INFINITY if maximizing else INFINITY
        for index, (child, child_board) in enumerate(children):
            value = self.visit(child, child_board, alpha, beta)
            better = value > best if maximizing else value < best
            if better:
                best = value
                node["best"] = child["id"]
            text = self.backup_text(child["label"], value, best, better, maximizing, alpha, beta)
            if self.pruning:
                if maximizing:
                    alpha = max(alpha, best)
                else:
                    beta = min(beta, best)
            rest = children[index + 1 :]
            closed = self.pruning and alpha >= beta and not rest
            if closed:
                self.closed_at_last += 1
                text += " " + self.closed_text(maximizing)
            self.step(node, "backup", text, child=child["id"], value=value, best=best, **self.window(alpha, beta))
            if self.pruning and alpha >= beta and rest:
                self.cut(node, [c for c, _ in rest], alpha, beta)
                break
        node["value"] = best
        node["cuts"] = self.cuts - cuts_before
        if node["cuts"] == 0:
            node["bound"] = "exact"  # every child searched to the end: the value is the subtree's own
            if self.pruning and node["parent"] is not None:
                self.note_open(node, len(children), entry_alpha, entry_beta, closed)
        elif best <= entry_alpha:
            node["bound"] = "upper"
        elif best >= entry_beta:
            node["bound"] = "lower"
        else:
            node["bound"] = "exact"
        self.step(node, "return", self.return_text(node), value=best, bound=node["bound"])
        return best

    def note_open(self, node: dict[str, Any], children: int, alpha: float, beta: float, closed: bool) -> None:
        """Count why a node below the root cut nothing: one child, no bound yet, closed at its last, never."""
        if children == 1:
            why = "single"
        elif (node["kind"] == "max" and beta == INFINITY) or (node["kind"] == "min" and alpha == -INFINITY):
            why = "unbounded"
        else:
            why = "at_last" if closed else "never"
        key = (node["kind"], why)
        self.open_nodes[key] = self.open_nodes.get(key, 0) + 1

    @staticmethod
    def closed_text(maximizing: bool) -> str:
        last = "move" if maximizing else "placement"
        return f"Now {CUT}, but this was its last {last}: nothing is left to prune."

    def backup_text(
        self, label: str, value: float, best: float, better: bool, maximizing: bool, alpha: float, beta: float
    ) -> str:
        shown = format_value(value)
        if maximizing:
            if not better:
                return f"{label} is worth {shown}, no better than {format_value(best)}: the best stays."
            raised = self.pruning and best > alpha
            return f"{label} is worth {shown}: the best so far" + (f", so \u03b1 = {shown}." if raised else ".")
        if not better:
            return f"{label} is worth {shown}, no lower than {format_value(best)}: the lowest stays."
        lowered = self.pruning and best < beta
        return f"{label} is worth {shown}: the lowest so far" + (f", so \u03b2 = {shown}." if lowered else ".")

    def cut(self, node: dict[str, Any], pruned: list[dict[str, Any]], alpha: float, beta: float) -> None:
        self.cuts += 1
        for child in pruned:
            child["pruned"] = {"alpha": _bound(alpha), "beta": _bound(beta)}
        count = len(pruned)
        a, b = format_value(alpha), format_value(beta)
        if node["kind"] == "max":
            why = (
                f"the player gets at least {a} after {node['label']}, but the computer already holds the player "
                f"to {b} with another placement, so it will never place this one"
            )
            rest = "move is" if count == 1 else "moves are"
        else:
            why = (
                f"the computer holds {node['label']} to at most {b}, but the player already has {a} "
                f"with another move, so the player will never choose this one"
            )
            rest = "placement is" if count == 1 else "placements are"
        self.step(
            node,
            "cut",
            f"Cut: {CUT} (\u03b1 = {a}, \u03b2 = {b}): {why}. {count} more {rest} pruned.",
            pruned=[child["id"] for child in pruned],
            reason=CUT,
            **self.window(alpha, beta),
        )

    def return_text(self, node: dict[str, Any]) -> str:
        """The value a node returns, and a cut only where one happened: at the node or below it."""
        value = format_value(node["value"])
        where = "The root" if node["parent"] is None else f"{node['label']}"
        cuts = node["cuts"]
        own = any(child["pruned"] for child in (self.nodes[c] for c in node["children"]))
        if own:
            at = "a cut here" if cuts == 1 else f"a cut here and {cuts - 1} below"
        else:
            at = "a cut below it" if cuts == 1 else f"{cuts} cuts below it"
        if node["bound"] == "upper":
            return (
                f"{where} returns {value}, an upper bound (worth at most {value}): {at} skipped branches "
                "that could only lower it."
            )
        if node["bound"] == "lower":
            return (
                f"{where} returns {value}, a lower bound (worth at least {value}): {at} skipped branches "
                "that could only raise it."
            )
        if node["parent"] is None and node["best"] is not None:
            return f"The root returns {value}: play {self.nodes[node['best']]['label']}."
        if cuts:
            return f"{where} returns {value}, its exact value: {at} skipped only branches that could not change it."
        return f"{where} returns {value}, its exact value: nothing below it was pruned."

    def no_cut_reason(self) -> str:
        """Why a tree searched with pruning has no cut, node kind by node kind, as a sentence for a person."""
        parts = []
        for kind, who in (("min", "computer nodes"), ("max", "player nodes below the root")):
            counts = [(why, self.open_nodes.get((kind, why), 0)) for why in OPEN_REASONS]
            total = sum(n for _, n in counts)
            if total:
                said = "; ".join(f"{n} {_open_words(kind, why, n)}" for why, n in counts if n)
                parts.append(f" Of its {total} {who}: {said}.")
        rule = f"Nothing was pruned: alpha-beta prunes only when {CUT} while a node still has children to try."
        return rule + "".join(parts)


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
    tracer = _Tracer(evaluate, ordering, pruning, max_rank(board) < WIN_RANK)
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
    tracer = _Tracer(evaluate, ordering, pruning, max_rank(board) < WIN_RANK, limit=UNREDUCED_LIMIT)
    root = tracer.player_node(None, "this board", board, depth)
    out: dict[str, Any] = {"ordering": ordering, "pruning": pruning, "over": None}
    try:
        value = tracer.visit(root, board, -INFINITY, INFINITY)
    except _TooMany:
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
