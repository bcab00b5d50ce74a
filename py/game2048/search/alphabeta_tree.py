"""Alpha-beta's tree: its three kinds of node over one search's tables and counters (``alphabeta`` drives it).

Each kind of node is a closure built by its own function (``_player_node``,
``_frontier_node``, ``_computer_node``) over local names only, the fastest
lookups CPython has, and ``_make_tree`` wires them to call each other; the
constants they read are this module's globals.  The deepening, the root and
the rescue search live in ``alphabeta``, which is all a caller needs; the
nodes are apart so that the hot path reads as one piece.  Why each node is
shaped so: docs/alphabeta.md.
"""

from __future__ import annotations

from collections.abc import Callable
from math import nextafter
from typing import NamedTuple

from ..board import EIGHTS, FOURS, ONES, TWOS, Board
from ..move_tables import COL_DOWN, COL_UP, ROW_LEFT, ROW_RIGHT, spread_tables
from ..values import WIN_SCORE
from .clock import Deadline, TimeUp
from .placements import make_placements

Evaluator = Callable[[Board], float]

MAX_DEPTH = 60
"""Iterative deepening stops here even with time left (tiny trees near the end of a game)."""
CHECK_EVERY = 32
"""Player nodes between two reads of the clock: about 0.1–0.3 ms of search in CPython."""
REDUCTION = 3
"""Player moves a late move's probe is searched shallower than the move itself."""
REDUCE_FROM = 2
"""The first legal move (0-based, in search order) that is reduced: the hint and the runner-up never are."""
REDUCE_MIN_DEPTH = REDUCTION + 2
"""Player nodes with fewer moves to go search every move in full (a probe needs one move to go at least)."""

EXACT, LOWER, UPPER = 0, 1, 2
INFINITY = float("inf")

# Move order when the move at index ``h`` is tried first (DIRECTIONS order otherwise).
ORDERS: tuple[tuple[int, ...], ...] = tuple((h,) + tuple(i for i in range(4) if i != h) for h in range(4))
NATURAL_ORDER = (0, 1, 2, 3)


class _Forgetful(dict):  # type: ignore[type-arg]  # any table's stand-in
    """A dict that stores nothing: a table or hint store switched off at no cost to the hot path."""

    def __setitem__(self, key: object, value: object) -> None:
        pass


class _Switches(NamedTuple):
    """How one search runs: the table and the ordering (tests switch them off), late-move reductions, 2s only.

    ``count_hits`` counts the transposition table's hits, for ``explain``
    only: its table's lookups go through a Python method, which costs time.
    """

    transposition: bool
    ordering: bool
    reductions: bool
    twos_only: bool
    count_hits: bool = False


class _Tree(NamedTuple):
    """One search's node functions over its tables and counters, for the root, the deepening loop and ``explain``."""

    computer: Callable[[Board, int, float, float], float]
    player: Callable[[Board, int, float, float], float]
    count_nodes: Callable[[int], None]
    counts: Callable[[], tuple[int, int]]
    start_clock: Callable[[], None]
    table_hits: Callable[[], int]


class _CountingTable(dict[Board, tuple[float, int]]):
    """A transposition table that counts the lookups that found an entry (``_Switches.count_hits``)."""

    hits = 0

    def get(self, key: Board, default: None = None) -> tuple[float, int] | None:  # type: ignore[override]
        entry = dict.get(self, key)
        if entry is not None:
            self.hits += 1
        return entry


NodeFunction = Callable[[Board, int, float, float], float]
"""A node of the tree: (board, player moves to go, alpha, beta) -> its fail-hard value."""


def _unconnected(board: Board, depth: int, alpha: float, beta: float) -> float:
    """The node a node calls until ``_make_tree`` connects the real one."""
    raise RuntimeError("alpha-beta's node functions were called before they were connected")


class _Node(NamedTuple):
    """One kind of node: its function and the nodes and cutoffs it has counted."""

    visit: NodeFunction
    counts: Callable[[], tuple[int, int]]


class _Clock:
    """When a node may interrupt the search: once ``timed`` (depth 1 is done and a deadline applies) and expired.

    Node functions read it every ``CHECK_EVERY`` of their nodes only, so its
    attributes cost nothing on the hot path.
    """

    __slots__ = ("timed", "expired")

    def __init__(self, deadline: Deadline) -> None:
        self.timed = False
        self.expired = deadline.expired


def _make_tree(evaluate: Evaluator, deadline: Deadline, win_possible: bool, switches: _Switches) -> _Tree:
    """This search's tables and counters, and its three kinds of node wired to call each other.

    Each kind of node is a closure built by its own function, over local
    names only (the fastest lookups CPython has); the player and the
    computer call each other through a name each is given once built.
    """
    transposition, ordering, reductions, twos_only, count_hits = switches
    table_type = (_CountingTable if count_hits else dict) if transposition else _Forgetful
    tables: list[dict[Board, tuple[float, int]]] = [table_type() for _ in range(MAX_DEPTH + 1)]
    hints: dict[Board, int] = {} if ordering else _Forgetful()
    leaf_values: dict[Board, float] = {}
    clock = _Clock(deadline)
    frontier = _frontier_node(evaluate, clock, win_possible, leaf_values)
    computer, connect_computer = _computer_node(make_placements(twos_only), ordering)
    player, connect_player = _player_node(evaluate, clock, win_possible, reductions, tables, hints, leaf_values)
    connect_computer(player.visit, frontier.visit)
    connect_player(computer.visit)
    root_nodes = 0

    def any_player(board: Board, depth: int, alpha: float, beta: float) -> float:
        """A max node at any ``depth`` ≥ 1 (``explain`` asks about nodes the search visited)."""
        return frontier.visit(board, depth, alpha, beta) if depth == 1 else player.visit(board, depth, alpha, beta)

    def table_hits() -> int:
        return sum(getattr(table, "hits", 0) for table in tables)

    def count_nodes(n: int) -> None:
        nonlocal root_nodes
        root_nodes += n

    def counts() -> tuple[int, int]:
        nodes, cutoffs = root_nodes, 0
        for node in (frontier, computer, player):
            more_nodes, more_cutoffs = node.counts()
            nodes += more_nodes
            cutoffs += more_cutoffs
        return nodes, cutoffs

    def start_clock() -> None:
        clock.timed = True

    return _Tree(computer.visit, any_player, count_nodes, counts, start_clock, table_hits)


def _player_node(
    evaluate: Evaluator,
    clock: _Clock,
    win_possible: bool,
    reductions: bool,
    tables: list[dict[Board, tuple[float, int]]],
    hints: dict[Board, int],
    leaf_values: dict[Board, float],
) -> tuple[_Node, Callable[[NodeFunction], None]]:
    """Max nodes with 2 or more moves to go, and the function that gives them the computer's node to call."""
    spread0, spread1, spread2, spread3 = spread_tables()
    row_left, row_right, col_up, col_down = ROW_LEFT, ROW_RIGHT, COL_UP, COL_DOWN
    eights, fours, twos, ones = EIGHTS, FOURS, TWOS, ONES
    win_score = WIN_SCORE
    orders, natural = ORDERS, NATURAL_ORDER
    # The one switch of late-move reductions: off, no node is deep enough to reduce (``late`` is never true).
    reduce_min_depth = REDUCE_MIN_DEPTH if reductions else MAX_DEPTH + 1
    reduce_from, reduction, infinity = REDUCE_FROM, REDUCTION, INFINITY
    late_first = _late_first
    nodes = 0
    cutoffs = 0
    countdown = CHECK_EVERY
    computer: NodeFunction = _unconnected

    def player(board: Board, depth: int, alpha: float, beta: float) -> float:
        """Max node: ``board`` after a placement, ``depth`` ≥ 2 player moves to go (1: ``frontier``)."""
        nonlocal nodes, cutoffs, countdown
        countdown -= 1
        if not countdown:
            countdown = CHECK_EVERY
            if clock.timed and clock.expired():
                raise TimeUp
        table = tables[depth]
        entry = table.get(board)
        if entry is not None:
            value, flag = entry
            if flag == EXACT:
                return alpha if value <= alpha else beta if value >= beta else value
            if flag == LOWER:
                if value >= beta:
                    return beta
            elif value <= alpha:
                return alpha

        # move_tables.afterstates, inlined (tests/test_board_inlined_copies.py)
        r0 = board & 0xFFFF
        r1 = (board >> 16) & 0xFFFF
        r2 = (board >> 32) & 0xFFFF
        r3 = board >> 48
        x = spread0[r0] | spread1[r1] | spread2[r2] | spread3[r3]  # the transposed board
        k0 = x & 0xFFFF
        k1 = (x >> 16) & 0xFFFF
        k2 = (x >> 32) & 0xFFFF
        k3 = x >> 48
        kids = (
            col_up[k0] | (col_up[k1] << 4) | (col_up[k2] << 8) | (col_up[k3] << 12),
            row_right[r0] | (row_right[r1] << 16) | (row_right[r2] << 32) | (row_right[r3] << 48),
            col_down[k0] | (col_down[k1] << 4) | (col_down[k2] << 8) | (col_down[k3] << 12),
            row_left[r0] | (row_left[r1] << 16) | (row_left[r2] << 32) | (row_left[r3] << 48),
        )
        hint = hints.get(board)
        late = depth >= reduce_min_depth
        order = (
            late_first(board, kids, hint, evaluate, leaf_values) if late else natural if hint is None else orders[hint]
        )
        best = alpha
        best_index = -1
        moved = False
        tried = 0
        for i in order:
            child = kids[i]
            if child == board:
                continue
            moved = True
            nodes += 1
            if (
                win_possible
                and child & eights
                and (child & eights) >> 3 & ((child & fours) >> 2 | (child & twos) >> 1 & child & ones)
            ):  # board.has_win_tile, inlined
                value = win_score + depth  # values.win_value, inlined
                hints[board] = i
                table[board] = (value, EXACT)
                return alpha if value <= alpha else beta if value >= beta else value
            if late:  # late-move reductions only (``reduce_min_depth``)
                tried += 1
                if tried > reduce_from and best > -infinity:
                    # Probe shallower, null window just above best: at most best means not better, skip it.
                    if computer(child, depth - 1 - reduction, best, nextafter(best, infinity)) <= best:
                        continue
            value = computer(child, depth - 1, best, beta)
            if value > best:
                best = value
                best_index = i
                if best >= beta:
                    cutoffs += 1
                    hints[board] = i
                    table[board] = (beta, LOWER)
                    return beta
        if not moved:
            value = -(win_score + depth)  # values.loss_value, inlined
            table[board] = (value, EXACT)
            return alpha if value <= alpha else beta if value >= beta else value
        if best_index < 0:
            table[board] = (alpha, UPPER)
            return alpha
        hints[board] = best_index
        table[board] = (best, EXACT)
        return best

    def connect(computer_node: NodeFunction) -> None:
        nonlocal computer
        computer = computer_node

    def counts() -> tuple[int, int]:
        return nodes, cutoffs

    return _Node(player, counts), connect


def _late_first(
    board: Board, kids: tuple[Board, ...], hint: int | None, evaluate: Evaluator, leaf_values: dict[Board, float]
) -> list[int]:
    """The legal moves of a node that reduces late moves: the hint, then best static evaluation first.

    Only nodes far from the horizon sort, so the four evaluations (cached
    with the leaves in ``leaf_values``) cost little beside the subtrees they order.
    """
    scored = []
    for i in range(4):
        child = kids[i]
        if child != board and i != hint:
            value = leaf_values.get(child)
            if value is None:
                value = leaf_values[child] = evaluate(child)
            scored.append((value, i))
    scored.sort(reverse=True)
    ordered = [i for _, i in scored]
    return ordered if hint is None else [hint] + ordered


def _frontier_node(evaluate: Evaluator, clock: _Clock, win_possible: bool, leaf_values: dict[Board, float]) -> _Node:
    """Max nodes one move from the horizon (``depth`` is 1): a player node without table or ordering.

    Most player nodes are here.  Without the table's probe and store they
    are cheaper, and the few more nodes searched without it cost about as
    much (docs/results.md), so the simpler node wins; the leaf values are
    cached instead (``leaf_values``).
    """
    spread0, spread1, spread2, spread3 = spread_tables()
    row_left, row_right, col_up, col_down = ROW_LEFT, ROW_RIGHT, COL_UP, COL_DOWN
    eights, fours, twos, ones = EIGHTS, FOURS, TWOS, ONES
    win_score = WIN_SCORE
    nodes = 0
    cutoffs = 0
    countdown = CHECK_EVERY

    def frontier(board: Board, depth: int, alpha: float, beta: float) -> float:
        nonlocal nodes, cutoffs, countdown
        countdown -= 1
        if not countdown:
            countdown = CHECK_EVERY
            if clock.timed and clock.expired():
                raise TimeUp
        # move_tables.afterstates, inlined (tests/test_board_inlined_copies.py)
        r0 = board & 0xFFFF
        r1 = (board >> 16) & 0xFFFF
        r2 = (board >> 32) & 0xFFFF
        r3 = board >> 48
        x = spread0[r0] | spread1[r1] | spread2[r2] | spread3[r3]  # the transposed board
        k0 = x & 0xFFFF
        k1 = (x >> 16) & 0xFFFF
        k2 = (x >> 32) & 0xFFFF
        k3 = x >> 48
        best = alpha
        moved = False
        value: float | None  # a leaf's value, None until looked up or evaluated (an annotation: no work)
        for child in (
            col_up[k0] | (col_up[k1] << 4) | (col_up[k2] << 8) | (col_up[k3] << 12),
            row_right[r0] | (row_right[r1] << 16) | (row_right[r2] << 32) | (row_right[r3] << 48),
            col_down[k0] | (col_down[k1] << 4) | (col_down[k2] << 8) | (col_down[k3] << 12),
            row_left[r0] | (row_left[r1] << 16) | (row_left[r2] << 32) | (row_left[r3] << 48),
        ):
            if child == board:
                continue
            moved = True
            nodes += 1
            if (
                win_possible
                and child & eights
                and (child & eights) >> 3 & ((child & fours) >> 2 | (child & twos) >> 1 & child & ones)
            ):  # board.has_win_tile, inlined
                value = win_score + 1  # values.win_value(1), inlined
                return alpha if value <= alpha else beta if value >= beta else value
            value = leaf_values.get(child)
            if value is None:
                value = leaf_values[child] = evaluate(child)
            if value > best:
                best = value
                if best >= beta:
                    cutoffs += 1
                    return beta
        if not moved:
            value = -(win_score + 1)  # values.loss_value(1), inlined
            return alpha if value <= alpha else beta if value >= beta else value
        return best

    def counts() -> tuple[int, int]:
        return nodes, cutoffs

    return _Node(frontier, counts)


def _computer_node(
    placements: Callable[[Board], list[Board]], ordering: bool
) -> tuple[_Node, Callable[[NodeFunction, NodeFunction], None]]:
    """Min nodes, and the function that gives them the player's and the frontier's nodes to call."""
    replies: dict[Board, list[Board]] = {}
    nodes = 0
    cutoffs = 0
    player: NodeFunction = _unconnected
    frontier: NodeFunction = _unconnected

    def computer(board: Board, depth: int, alpha: float, beta: float) -> float:
        """Min node: ``board`` after a player move; the computer tries its most annoying placements.

        The placement that gave the lowest value is moved to the front of the
        board's cached list, so the next iteration tries the computer's best
        reply first too.
        """
        nonlocal nodes, cutoffs
        kids = replies.get(board)
        if kids is None:
            kids = replies[board] = placements(board)
        reply = frontier if depth == 1 else player
        best = beta
        lowest = first = kids[0]
        for child in kids:
            nodes += 1
            value = reply(child, depth, alpha, best)
            if value < best:
                best = value
                lowest = child
                if best <= alpha:
                    cutoffs += 1
                    break
        if lowest != first and ordering:
            kids.remove(lowest)
            kids.insert(0, lowest)
        return alpha if best <= alpha else best

    def connect(player_node: NodeFunction, frontier_node: NodeFunction) -> None:
        nonlocal player, frontier
        player, frontier = player_node, frontier_node

    def counts() -> tuple[int, int]:
        return nodes, cutoffs

    return _Node(computer, counts), connect
