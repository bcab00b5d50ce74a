"""Time-limited iterative-deepening alpha-beta over the reduced 2048 game tree (ovolve's 2048-AI).

The tree: the player (max) picks one of four moves; the computer (min) places
a 2 or a 4, but only its most annoying placements (``placements``).  Depth
counts player moves.  A leaf is the board right after the player's last move,
scored by the evaluation.  A move that makes 2048 scores ``WIN_SCORE +
remaining depth`` and a player who cannot move ``-(WIN_SCORE + remaining
depth)``; once the root holds 2048, wins are not scored.

The contract:

* without ``reductions`` the value at every depth is the exact minimax of the
  reduced tree (``reference.best_moves``): the transposition table, the move
  ordering and the cached placements make it faster, never different;
* nodes are fail-hard: a node searched with window (alpha, beta) returns
  alpha when its value is ≤ alpha, beta when ≥ beta, its exact value otherwise;
* a timed search plays the move of its deepest completed iteration (depth 1
  is never interrupted); a fixed ``depth`` ignores the clock;
* ``reductions=True`` (late-move reductions) and ``rescue=True`` (a second
  search against 2s only after a proven loss) change the answer, only when
  asked for.

How each speed-up and option works, and why it keeps or changes the answer:
docs/alphabeta.md.  This module drives the search (the deepening, the root,
the rescue); the tree it searches, its node functions and tables, is
``alphabeta_tree``'s.
"""

from __future__ import annotations

import gc

from ..board import DIRECTIONS, WIN_RANK, Board, has_win_tile, max_rank
from ..move_tables import afterstates
from ..values import WIN_SCORE
from .alphabeta_tree import (
    INFINITY,
    MAX_DEPTH,
    REDUCE_MIN_DEPTH,
    Evaluator,
    _make_tree,
    _Switches,
    _Tree,
)
from .clock import Deadline, TimeUp
from .result import SearchResult, Trace


def search(
    board: Board,
    evaluate: Evaluator,
    deadline: Deadline,
    depth: int | None = None,
    *,
    transposition: bool = True,
    ordering: bool = True,
    reductions: bool = False,
    rescue: bool = False,
    trace: Trace | None = None,
) -> SearchResult:
    """The best move for ``board``: exactly ``depth`` player moves deep, or as deep as the deadline allows.

    ``depth=None`` deepens from 1 until the deadline; ``depth=N`` searches
    depths 1..N (the shallower ones order the moves of the deeper) and ignores
    the deadline.  ``transposition=False`` / ``ordering=False`` switch the
    table or the best-move-first ordering off, for the tests that prove they
    change nothing and for measuring what they are worth.  Without
    ``reductions`` the value is the exact minimax of the reduced tree at every
    depth, what ``reference.best_moves`` computes; ``reductions=True`` switches
    late-move reductions on; ``rescue=True`` the rescue search of a proven
    loss (docs/alphabeta.md), whose result reports ``rescued=True``.
    ``trace`` (``explain``) receives the first search's iterations and tree.

    The cyclic garbage collector is paused for the search: the tables allocate
    hundreds of thousands of small objects, and a full collection in the middle
    of a think overran the budget (docs/results.md).  The search makes no
    garbage cycles worth collecting early; the collector's state is restored.
    """
    if depth is not None and depth > MAX_DEPTH:
        raise ValueError(f"alpha-beta searches at most {MAX_DEPTH} player moves deep, got depth={depth}")
    was_enabled = gc.isenabled()
    gc.disable()
    try:

        def run(twos_only: bool) -> SearchResult:
            return _deepen(
                board,
                evaluate,
                deadline,
                depth,
                _Switches(transposition, ordering, reductions, twos_only, trace is not None),
                trace,
            )

        result = run(False)
        if rescue and result.move is not None and result.score <= -WIN_SCORE:
            result = _rescued(result, run(True))
        return result
    finally:
        if was_enabled:
            gc.enable()


def _rescued(lost: SearchResult, second: SearchResult) -> SearchResult:
    """The decision after a proven loss: ``second``'s move (the search against 2s only), or the proof's.

    The second search shares the deadline (what the first left), or the fixed
    depth; its move replaces the first's only if it completed at least as many
    moves, so a rushed rescue never overrules a deeper proof.  Nodes, cutoffs
    and time count both searches.
    """
    if second.move is None or second.depth < lost.depth:
        second.move, second.depth, second.score = lost.move, lost.depth, lost.score
    else:
        second.rescued = True
    second.nodes += lost.nodes
    second.cutoffs += lost.cutoffs
    return second


def _deepen(
    board: Board,
    evaluate: Evaluator,
    deadline: Deadline,
    depth: int | None,
    switches: _Switches,
    trace: Trace | None = None,
    stop_at_deadline: bool = False,
) -> SearchResult:
    """Iterative deepening: a root search at depth 1, 2, ... (to ``depth``, or while the deadline allows).

    The deepest completed iteration decides; an interrupted one is thrown
    away.  A timed search stops early once the move is decided (a forced win
    or loss, a single legal move) or when the time left is less than the last
    iteration took.  A ``trace`` records each iteration, the abandoned one
    too, and keeps the tree.  ``stop_at_deadline`` makes a fixed-depth search
    stop at the deadline too (``explain``'s comparisons, which have a budget).
    """
    root_kids = [(i, child) for i, child in enumerate(afterstates(board)) if child != board]
    if not root_kids:
        return SearchResult(None, 0, 0, 0, deadline.elapsed_ms(), -WIN_SCORE, "alphabeta")
    win_possible = max_rank(board) < WIN_RANK
    tree = _make_tree(evaluate, deadline, win_possible, switches)
    record = None if trace is None or trace.tree is not None else trace  # the rescue's second search is not traced
    if record is not None:
        record.tree, record.win_possible = tree, win_possible
    last = depth if depth is not None else MAX_DEPTH
    done_depth = 0
    done_value = 0.0
    done_index = root_kids[0][0]
    for d in range(1, last + 1):
        started_ms = deadline.elapsed_ms()
        values: list[tuple[int, float, bool]] | None = [] if record is not None else None
        try:
            value, index = _root(
                tree, root_kids, d, done_index if switches.ordering else -1, evaluate, win_possible, values
            )
        except TimeUp:
            if record is not None:
                record.record(d, False, -1, 0.0, _totals(tree), deadline.elapsed_ms() - started_ms)
            break
        if record is not None:
            record.record(d, True, index, value, _totals(tree), deadline.elapsed_ms() - started_ms, tuple(values or ()))
        done_depth, done_value, done_index = d, value, index
        if depth is not None:
            if stop_at_deadline:
                tree.start_clock()
            continue
        timed = deadline.limit is not None
        if timed:
            tree.start_clock()
        took_ms = deadline.elapsed_ms() - started_ms
        if abs(value) >= WIN_SCORE or len(root_kids) == 1:
            break  # decided: a forced win or loss, or a single legal move
        if timed and deadline.remaining_ms() < took_ms:
            break
    nodes, cutoffs = tree.counts()
    return SearchResult(
        move=DIRECTIONS[done_index],
        depth=done_depth,
        nodes=nodes,
        cutoffs=cutoffs,
        elapsed_ms=deadline.elapsed_ms(),
        score=done_value,
        algorithm="alphabeta",
    )


def _totals(tree: _Tree) -> tuple[int, int, int]:
    """The search's running nodes, cutoffs and table hits, for ``Trace.record``."""
    nodes, cutoffs = tree.counts()
    return nodes, cutoffs, tree.table_hits()


def _root(
    tree: _Tree,
    root_kids: list[tuple[int, Board]],
    depth: int,
    first: int,
    evaluate: Evaluator,
    win_possible: bool,
    values: list[tuple[int, float, bool]] | None = None,
) -> tuple[float, int]:
    """Value and index of the best root move at ``depth``; ``first`` is tried first, and ties go to it.

    ``values`` (``explain``) receives (index, value, exact) for each move in
    the order searched: a value that does not beat the best so far is the
    bound the fail-hard search returns, so it is not exact.
    """
    ordered = sorted(root_kids, key=lambda kid: kid[0] != first)
    best = -INFINITY
    best_index = ordered[0][0]
    for i, child in ordered:
        tree.count_nodes(1)
        exact = True
        if win_possible and has_win_tile(child):
            value = WIN_SCORE + depth  # values.win_value, inlined in the hot loop
        elif depth == 1:
            value = evaluate(child)
        else:
            value = tree.computer(child, depth - 1, best, INFINITY)
            exact = value > best
        if values is not None:
            values.append((i, value, exact))
        if value > best:
            best = value
            best_index = i
    return best, best_index


__all__ = ["MAX_DEPTH", "REDUCE_MIN_DEPTH", "Evaluator", "search"]
