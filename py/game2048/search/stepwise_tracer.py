"""One step-by-step alpha-beta search as it runs: the recursion, each node and step it records, their sentences.

``Tracer`` is ``stepwise``'s engine: AIMA's fail-soft alpha-beta (or plain
minimax) over the reduced tree, each node generated and each step taken
written down as JSON-ready data with a sentence for a person.  ``stepwise``
runs it (``trace``, ``unreduced``) and sets the answers side by side; the
words a step says live here, next to the step that says them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..board import DIRECTIONS, Board, has_win_tile, move, to_rows
from ..values import format_value, loss_value, win_value
from .explanation_parts import placement_label
from .placements import make_placements, scored_placements

Evaluator = Callable[[Board], float]

INFINITY = float("inf")
CUT = "\u03b1 \u2265 \u03b2"
"""The reason of every cut, as shown."""

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


class TooMany(Exception):
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


class Tracer:
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
            raise TooMany
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


__all__ = ["CUT", "INFINITY", "OPEN_REASONS", "Evaluator", "TooMany", "Tracer", "every_placement"]
