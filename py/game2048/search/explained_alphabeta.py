"""Alpha-beta explained: a finished search's warm tree read again for exact root values, its line and its pruning.

``AlphaBetaReader`` asks the search's own node functions (the ``Trace``'s
tree, its tables still warm) with the windows it needs, and judges the
transposition table and the move ordering by the search's own deepening with
one of them off (``alphabeta._deepen``); ``minimax_counts`` counts the plain
minimax tree alpha-beta prunes.  ``explanation.explain`` calls them, within
the explanation's own budget (``Analysis``).
"""

from __future__ import annotations

from collections.abc import Callable
from math import inf, nextafter
from typing import Any

from ..board import DIRECTIONS, Board, has_win_tile
from ..move_tables import afterstates
from ..values import win_value
from . import alphabeta
from .alphabeta_tree import _Switches
from .clock import Deadline, TimeUp
from .explanation_parts import Analysis, Evaluator, placement_label, ply
from .placements import make_placements
from .result import Trace

MINIMAX_CHECK_EVERY = 64
"""Node counts computed between two reads of the clock while counting the plain minimax tree."""


class AlphaBetaReader:
    """Reads a finished alpha-beta search's warm tree: exact root values, the principal variation, pruning."""

    def __init__(
        self, board: Board, evaluate: Evaluator, deadline: Deadline, trace: Trace, depth: int, analysis: Analysis
    ) -> None:
        self.board = board
        self.evaluate = evaluate
        self.deadline = deadline
        self.tree = trace.tree
        self.win_possible = trace.win_possible
        self.depth = depth
        self.analysis = analysis
        # From now on the search's own deadline is the analysis's: the tree reads it every few nodes.
        deadline.limit = analysis.limit
        self.tree.start_clock()

    def move_value(self, child: Board, remaining: int, alpha: float, beta: float) -> float:
        """The fail-hard value of the board after a player move with ``remaining`` moves counting that one."""
        value: float
        if self.win_possible and has_win_tile(child):
            value = win_value(remaining)
        elif remaining == 1:
            value = self.evaluate(child)
        else:
            below: float = self.tree.computer(child, remaining - 1, alpha, beta)  # fail-hard already
            return below
        return alpha if value <= alpha else beta if value >= beta else value

    def exact_root(self, root: list[dict[str, Any]]) -> None:
        """Search each move known only by a bound again with a full window, while the budget lasts."""
        children = afterstates(self.board)
        for index, entry in enumerate(root):
            if entry["value"] is None or entry["exact"]:
                continue
            try:
                value = self.move_value(children[index], self.depth, -inf, inf)
            except TimeUp:
                self.analysis.note("exact_root", "the budget ran out: some moves keep their bound")
                return
            entry.update(value=value, exact=True, bound=None, source="exact_root")

    def principal_variation(self, index: int, value: float) -> dict[str, Any]:
        """The line the search expects: at each node the child whose exact value is the node's value.

        A child is tested with the window just around ``value`` (the fail-hard
        search returns ``value`` itself only if that is the child's exact
        value); the warm transposition table makes each test cheap.
        """
        low, high = nextafter(value, -inf), nextafter(value, inf)
        plies: list[dict[str, Any]] = []
        board = afterstates(self.board)[index]
        remaining = self.depth
        plies.append(ply("move", DIRECTIONS[index], board, remaining - 1, move=DIRECTIONS[index]))
        end = "horizon"
        placements = make_placements()
        try:
            while True:
                if self.win_possible and has_win_tile(board):
                    end = "win"
                    break
                if remaining == 1:
                    break
                remaining -= 1
                placed = next(
                    (p for p in placements(board) if self.tree.player(p, remaining, low, high) == value), None
                )
                if placed is None:
                    end = "not found"
                    break
                cell = ((placed ^ board).bit_length() - 1) // 4
                rank = (placed >> (4 * cell)) & 0xF
                plies.append(ply("place", placement_label(cell, rank), placed, remaining, cell=cell, tile=1 << rank))
                kids = [(i, child) for i, child in enumerate(afterstates(placed)) if child != placed]
                if not kids:
                    end = "loss"
                    break
                hint = next(
                    ((i, child) for i, child in kids if self.move_value(child, remaining, low, high) == value), None
                )
                if hint is None:
                    end = "not found"
                    break
                i, board = hint
                plies.append(ply("move", DIRECTIONS[i], board, remaining - 1, move=DIRECTIONS[i]))
        except TimeUp:
            end = "budget"
            self.analysis.note("pv", "the budget ran out before the end of the line")
        complete = end in ("horizon", "win", "loss")
        return {"value": value, "plies": plies, "end": end, "complete": complete}

    def pruning(self, searched: list[Any]) -> dict[str, Any]:
        """Nodes searched beside a plain minimax's at the deepest depth, and what the table and the ordering saved.

        The minimax tree is counted exactly where the budget allows and
        extrapolated beyond (marked so).  The table and the ordering are
        judged by the same deepening with one of them off, compared at the
        deepest depth that search completed in its share of the budget.
        """
        depth = self.depth
        out: dict[str, Any] = {
            "depth": depth,
            "search_nodes": searched[-1].nodes,
            "search_nodes_all_depths": sum(it.nodes for it in searched),
            "minimax_nodes": None,
            "minimax_exact": False,
            "minimax_counted_depth": 0,
        }
        # The budget left is shared: half to counting the minimax tree, then half of the rest to each comparison.
        counts = minimax_counts(self.board, depth, self.win_possible, self.analysis.share(0.5))
        counted = len(counts)
        out["minimax_counted_depth"] = counted
        if counted == depth:
            out["minimax_nodes"], out["minimax_exact"] = counts[-1], True
        elif counted >= 2 and counts[-2] > 0:
            growth = counts[-1] / counts[-2]
            out["minimax_nodes"] = round(counts[-1] * growth ** (depth - counted))
            self.analysis.note("minimax", f"counted exactly to depth {counted}; deeper is extrapolated")
        else:
            self.analysis.note("minimax", "the budget ran out before two depths were counted")
        with_both = [it.nodes for it in searched]
        out["without_table"] = self._compare(with_both, 0.5, "table", transposition=False)
        out["without_ordering"] = self._compare(with_both, 1.0, "ordering", ordering=False)
        return out

    def _compare(self, with_both: list[int], fraction: float, name: str, **switch: bool) -> dict[str, Any] | None:
        """The deepening 1, 2, ... with one aid off, in ``fraction`` of the time left, beside the search's own nodes.

        ``with_both[k - 1]`` is the search's nodes at depth k.  The answer
        compares at the deepest depth the switched-off search completed
        (``depth``): ``with`` and ``without`` over depths 1..depth, ``at_depth``
        that depth's own nodes (with, without), and ``by_depth`` each depth's
        [depth, with, without], where the saving shows as it grows; ``searched``
        is the depth the search itself reached.
        """
        deadline = Deadline(self.analysis.left_ms() * fraction, self.analysis.clock)
        switches = _Switches(switch.get("transposition", True), switch.get("ordering", True), False, False, False)
        trace = Trace()
        alphabeta._deepen(self.board, self.evaluate, deadline, self.depth, switches, trace, stop_at_deadline=True)
        done = [it for it in trace.iterations if it.completed]
        if not done:
            self.analysis.note(f"without_{name}", "no budget left")
            return None
        depth = done[-1].depth
        if depth < self.depth:
            self.analysis.note(f"without_{name}", f"compared at depth {depth}, the deepest its budget allowed")
        by_depth = [[it.depth, with_both[it.depth - 1], it.nodes] for it in done]
        return {
            "depth": depth,
            "searched": self.depth,
            "with": sum(with_both[:depth]),
            "without": sum(it.nodes for it in done),
            "at_depth": by_depth[-1][1:],
            "by_depth": by_depth,
        }


def minimax_counts(board: Board, depth: int, win_possible: bool, expired: Callable[[], bool]) -> list[int]:
    """Nodes a plain minimax visits on the reduced tree at depths 1, 2, ... (as many as the budget allows).

    Nodes are counted as alpha-beta counts them: each legal player move and
    each kept placement.  A subtree's count depends only on its board and
    remaining depth, so it is memoised: the tree is counted, not walked.
    """
    placements = make_placements()
    player_memo: dict[tuple[Board, int], int] = {}
    computer_memo: dict[tuple[Board, int], int] = {}
    countdown = [MINIMAX_CHECK_EVERY]

    def moves(node: Board, remaining: int) -> int:
        """Nodes below a max node (``remaining`` ≥ 1 moves to go)."""
        key = (node, remaining)
        found = player_memo.get(key)
        if found is not None:
            return found
        countdown[0] -= 1
        if not countdown[0]:
            countdown[0] = MINIMAX_CHECK_EVERY
            if expired():
                raise TimeUp
        total = 0
        for child in afterstates(node):
            if child == node:
                continue
            total += 1
            if remaining > 1 and not (win_possible and has_win_tile(child)):
                total += replies(child, remaining - 1)
        player_memo[key] = total
        return total

    def replies(node: Board, remaining: int) -> int:
        key = (node, remaining)
        found = computer_memo.get(key)
        if found is None:
            found = computer_memo[key] = sum(1 + moves(placed, remaining) for placed in placements(node))
        return found

    counts: list[int] = []
    try:
        for d in range(1, depth + 1):
            counts.append(moves(board, d))
    except TimeUp:
        pass
    return counts


__all__ = ["MINIMAX_CHECK_EVERY", "AlphaBetaReader", "minimax_counts"]
