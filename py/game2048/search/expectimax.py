"""Time-limited iterative-deepening expectimax: the player takes the best move, the game places its tile at random.

The tree, as in nneonneo/2048-ai: a player node (a board waiting for a move)
is worth its best legal move's afterstate, or ``lost_value`` with no legal
move; a chance node (the board after a move, before the new tile) is worth the
mean over its empty cells of 0.9 × (a 2 there) + 0.1 × (a 4 there).  Depth
counts player moves; the afterstate of the last one is evaluated.

The contract:

* with ``probability_threshold=0`` the value at every depth is the exact
  expectimax of the tree: the caches make it faster, never different;
* above it, a chance node reached less likely than the threshold is evaluated,
  not expanded, and the transposition cache reuses a chance node's first value;
* a timed search plays the move of its deepest completed iteration (depth 1
  never looks at the clock); a fixed ``depth`` ignores the clock.

How the cutoff, the caches, the last layer and the clock work, and why:
docs/expectimax.md.
"""

from __future__ import annotations

from collections.abc import Callable

from ..board import DIRECTIONS, ONES, Board, count_empty
from ..game import SPAWN_FOUR_PROBABILITY
from ..move_tables import COL_DOWN, COL_UP, ROW_LEFT, ROW_RIGHT, afterstates, spread_tables
from .clock import Deadline, TimeUp
from .result import SearchResult, Trace

Evaluator = Callable[[Board], float]

PROBABILITY_THRESHOLD = 1e-4
"""Chance nodes reached with a smaller probability are evaluated, not expanded."""

DEFAULT_LOST_VALUE = -1e9
"""A lost board's value when the evaluation does not say (``evaluate.lost_value``); far below any live board."""

NEXT_ITERATION_GROWTH = 4.0
"""Early stop's guess of how much more the next iteration costs than the last one: at most this, and never
more than the last growth seen (measured 8 to 30 times at depths 3 to 5; less when cutoffs thin the tree)."""

MAX_DEPTH = 64
"""Iterative deepening never goes deeper (in practice the clock or the cutoff stops it long before)."""

SHARED_DEPTH = 2
"""Workers sharing one decision (``part``) each search every move up to this depth: a few milliseconds that
let any one of them answer alone when another fails."""

FOUR_PROBABILITY = SPAWN_FOUR_PROBABILITY
TWO_PROBABILITY = 1.0 - SPAWN_FOUR_PROBABILITY
"""The chance node's odds: the game's own (``game.SPAWN_FOUR_PROBABILITY``), named for the hot loops."""


def spawns(board: Board) -> list[tuple[Board, int, int, float]]:
    """The chance node of ``board`` (an afterstate): each tile the game may place, as (the board with it, its
    cell, its rank, its probability), cell after cell, the 2 before the 4; empty on a full board.  The one
    statement of the chance node's odds; the search's ``chance`` inlines it, the explanation calls it."""
    empties = [cell for cell in range(16) if not (board >> (4 * cell)) & 0xF]
    if not empties:
        return []
    two, four = TWO_PROBABILITY / len(empties), FOUR_PROBABILITY / len(empties)
    return [(board | (rank << (4 * cell)), cell, rank, p) for cell in empties for rank, p in ((1, two), (2, four))]


def _empty_columns() -> list[tuple[int, ...]]:
    """Built from two 256-entry halves in one comprehension (a few ms), since the module loads inside a think."""
    by_mask = [tuple(j for j in range(4) if mask >> j & 1) for mask in range(16)]
    low = [(not k & 0xF) | (not k & 0xF0) << 1 for k in range(256)]
    high = [m << 2 for m in low]
    return [by_mask[low[k & 0xFF] | high[k >> 8]] for k in range(1 << 16)]


EMPTY_COLUMNS: list[tuple[int, ...]] = _empty_columns()
"""For each line key, the indices of its empty cells (16 distinct tuples shared by 65,536 entries)."""


class _Searcher:
    """One decision's state: the evaluation, the deadline, the caches and the counters.

    The node functions (``player``, ``chance``, and ``last_layer`` from
    ``_make_last_layer``) are closures because local and closure names are the
    cheapest lookups in CPython and Pyodide; only the counters live on ``self``.
    """

    def __init__(
        self, evaluate: Evaluator, deadline: Deadline | None, threshold: float, lost_value: float, use_cache: bool
    ) -> None:
        self.evaluate = evaluate
        self.nodes = 0
        self.cutoffs = 0
        self.cache_hits = 0
        self.reached_limit = False
        caches: list[dict[Board, float]] = [{} for _ in range(MAX_DEPTH + 1)]
        leaf: dict[Board, float] = {}  # evaluations of last-move afterstates: a pure function, always sound
        leaf_get = leaf.get
        expired = deadline.expired if deadline is not None else None
        row_left, row_right, col_up, col_down = ROW_LEFT, ROW_RIGHT, COL_UP, COL_DOWN
        ones = ONES
        spread0, spread1, spread2, spread3 = spread_tables()
        p2, p4 = TWO_PROBABILITY, FOUR_PROBABILITY
        me = self

        def player(board: Board, remaining: int, prob: float) -> float:
            """Best afterstate value; ``remaining`` ≥ 1 moves left including this one."""
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
            best = None
            n = 1
            for after in (
                col_up[k0] | (col_up[k1] << 4) | (col_up[k2] << 8) | (col_up[k3] << 12),
                row_right[r0] | (row_right[r1] << 16) | (row_right[r2] << 32) | (row_right[r3] << 48),
                col_down[k0] | (col_down[k1] << 4) | (col_down[k2] << 8) | (col_down[k3] << 12),
                row_left[r0] | (row_left[r1] << 16) | (row_left[r2] << 32) | (row_left[r3] << 48),
            ):
                if after == board:
                    continue
                n += 1
                if remaining == 1:
                    value = leaf_get(after)
                    if value is None:
                        value = leaf[after] = evaluate(after)
                else:
                    value = chance(after, remaining - 1, prob)
                if best is None or value > best:
                    best = value
            me.nodes += n
            if best is None:
                return lost_value
            if remaining == 1:
                me.reached_limit = True
            return best

        last_layer = _make_last_layer(me, evaluate, leaf, lost_value)

        def chance(board: Board, remaining: int, prob: float) -> float:
            """Expected value over the random tile; ``remaining`` ≥ 1 moves follow it."""
            if prob < threshold:
                me.cutoffs += 1
                return evaluate(board)
            cache = caches[remaining] if use_cache else None
            if cache is not None:
                cached = cache.get(board)
                if cached is not None:
                    me.cache_hits += 1
                    return cached
            if expired is not None and expired():
                raise TimeUp
            x = board | (board >> 1)  # spawns(board), inlined: the empty cells' low bits, then each cell's 2 and 4
            x |= x >> 2
            empties = ~x & ones
            count = empties.bit_count()
            prob2 = prob * p2 / count
            prob4 = prob * p4 / count
            if remaining == 1:
                value = last_layer(board) / count
            else:
                total = 0.0
                while empties:
                    two = empties & -empties
                    empties ^= two
                    total += p2 * player(board | two, remaining, prob2) + p4 * player(
                        board | (two << 1), remaining, prob4
                    )
                value = total / count
            if cache is not None:
                cache[board] = value
            return value

        self.chance = chance
        self.player = player

    def root(
        self,
        board: Board,
        depth: int,
        values: list[tuple[int, float, bool]] | None = None,
        only: tuple[int, ...] | None = None,
    ) -> tuple[int | None, float]:
        """(index in DIRECTIONS of the best move, its value) at exactly ``depth``; ties keep the first.

        ``values`` (``explain``, ``search_part``) receives (index, value, True) for every legal move searched;
        ``only``: the moves (indices) to search, all legal ones when None.
        """
        best_index: int | None = None
        best_value = 0.0
        for index, after in enumerate(afterstates(board)):
            if after == board or (only is not None and index not in only):
                continue
            self.nodes += 1
            value = self.chance(after, depth - 1, 1.0) if depth > 1 else self._leaf(after)
            if values is not None:
                values.append((index, value, True))
            if best_index is None or value > best_value:
                best_index, best_value = index, value
        return best_index, best_value

    def totals(self) -> tuple[int, int, int]:
        """Running nodes, cutoffs (probability cutoffs and cache hits, as the result counts them), cache hits."""
        return self.nodes, self.cutoffs + self.cache_hits, self.cache_hits

    def _leaf(self, board: Board) -> float:
        self.reached_limit = True
        return self.evaluate(board)


def _make_last_layer(
    me: _Searcher, evaluate: Evaluator, leaf: dict[Board, float], lost_value: float
) -> Callable[[Board], float]:
    """The chance node right before the last move, as a closure over the search's leaf cache and counters."""
    leaf_get = leaf.get
    row_left, row_right, col_up, col_down = ROW_LEFT, ROW_RIGHT, COL_UP, COL_DOWN
    spread0, spread1, spread2, spread3 = spread_tables()
    spawns = ((1, TWO_PROBABILITY), (2, FOUR_PROBABILITY))

    def last_layer(board: Board) -> float:
        """Σ over the tiles of p × (best last move's evaluation): the chance node right before the last move.

        The same values ``player(child, 1, ·)`` would give, but most nodes of a
        tree are here, so the afterstates are updated instead of rebuilt: a tile
        at (i, j) changes row i and column j only, so each move's result is the
        parent's with that row's (or column's) table entry swapped by XOR.
        """
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
        up0, right0, down0, left0 = (
            col_up[k0] | (col_up[k1] << 4) | (col_up[k2] << 8) | (col_up[k3] << 12),
            row_right[r0] | (row_right[r1] << 16) | (row_right[r2] << 32) | (row_right[r3] << 48),
            col_down[k0] | (col_down[k1] << 4) | (col_down[k2] << 8) | (col_down[k3] << 12),
            row_left[r0] | (row_left[r1] << 16) | (row_left[r2] << 32) | (row_left[r3] << 48),
        )
        r = (r0, r1, r2, r3)
        c = (k0, k1, k2, k3)
        total = 0.0
        n = 0
        moved = False
        for i in (0, 1, 2, 3):
            ri = r[i]
            for j in EMPTY_COLUMNS[ri]:
                cj = c[j]
                row_shift = 16 * i
                col_shift = 4 * j
                for rank, p in spawns:
                    child = board | (rank << (row_shift + col_shift))
                    nr = ri | (rank << col_shift)
                    nc = cj | (rank << (4 * i))
                    best = None
                    after = up0 ^ ((col_up[cj] ^ col_up[nc]) << col_shift)
                    if after != child:
                        best = leaf_get(after)
                        if best is None:
                            best = leaf[after] = evaluate(after)
                        n += 1
                    after = right0 ^ ((row_right[ri] ^ row_right[nr]) << row_shift)
                    if after != child:
                        value = leaf_get(after)
                        if value is None:
                            value = leaf[after] = evaluate(after)
                        if best is None or value > best:
                            best = value
                        n += 1
                    after = down0 ^ ((col_down[cj] ^ col_down[nc]) << col_shift)
                    if after != child:
                        value = leaf_get(after)
                        if value is None:
                            value = leaf[after] = evaluate(after)
                        if best is None or value > best:
                            best = value
                        n += 1
                    after = left0 ^ ((row_left[ri] ^ row_left[nr]) << row_shift)
                    if after != child:
                        value = leaf_get(after)
                        if value is None:
                            value = leaf[after] = evaluate(after)
                        if best is None or value > best:
                            best = value
                        n += 1
                    if best is None:
                        best = lost_value
                    else:
                        moved = True
                    total += p * best
                    n += 1
        me.nodes += n
        if moved:
            me.reached_limit = True
        return total

    return last_layer


def search(
    board: Board,
    evaluate: Evaluator,
    deadline: Deadline,
    depth: int | None = None,
    *,
    probability_threshold: float = PROBABILITY_THRESHOLD,
    use_cache: bool = True,
    early_stop: bool = True,
    lost_value: float | None = None,
    preset: str = "rows",
    trace: Trace | None = None,
    part: tuple[int, int] | None = None,
) -> SearchResult:
    """The expectimax decision for ``board``.

    ``depth=None``: iterative deepening until ``deadline`` expires (depth 1
    always completes).  ``depth=N``: exactly depth N, the clock is never
    consulted.  ``early_stop``: stop deepening when the time left is less than
    the last iteration's time × min(``NEXT_ITERATION_GROWTH``, the growth from
    the iteration before), since the next iteration could not finish and would
    be thrown away (the move is the same; the budget is not burnt for nothing).
    ``lost_value`` defaults to ``evaluate.lost_value`` when the evaluation
    defines it, else ``DEFAULT_LOST_VALUE``.  ``preset`` only labels the result.
    ``trace`` (``explain``) records each iteration and keeps the searcher.
    ``part=(k, n)``: the k-th of n workers' share of one decision (``search_part``): every legal move up to
    ``SHARED_DEPTH``, then only the moves ``split_moves`` gives it; the result's move is the best of those.
    """
    if depth is not None and depth < 1:
        raise ValueError(f"depth must be at least 1, got {depth!r}")
    if lost_value is None:
        lost_value = float(getattr(evaluate, "lost_value", DEFAULT_LOST_VALUE))
    if not 0.0 <= probability_threshold <= 1.0:
        raise ValueError(f"probability_threshold must be between 0 and 1, got {probability_threshold!r}")
    think_ms = None if depth is not None or deadline.limit is None else (deadline.limit - deadline.start) * 1000.0
    searcher = _Searcher(
        evaluate, None if depth is not None else deadline, probability_threshold, lost_value, use_cache
    )
    single_move = sum(1 for after in afterstates(board) if after != board) == 1
    if trace is not None:
        trace.tree = searcher

    best_index: int | None = None
    best_value = lost_value
    completed = 0
    depths = [depth] if depth is not None else range(1, MAX_DEPTH + 1)
    last_ms = 0.0
    own = split_moves(board, part[1])[part[0]] if part is not None else None
    for d in depths:
        only = own if own is not None and d > SHARED_DEPTH else None
        if only == ():
            break  # more workers than moves: this one's share was the shared depths
        searcher.reached_limit = False
        started = deadline.elapsed_ms() if depth is None or trace is not None else 0.0  # fixed depth: no clock
        values: list[tuple[int, float, bool]] | None = [] if trace is not None else None
        try:
            index, value = searcher.root(board, d, values, only)
        except TimeUp:
            if trace is not None:
                trace.record(d, False, -1, 0.0, searcher.totals(), deadline.elapsed_ms() - started)
            break
        if trace is not None and index is not None:
            trace.record(d, True, index, value, searcher.totals(), deadline.elapsed_ms() - started, tuple(values or ()))
        if index is None:  # no legal move: the game is lost
            break
        best_index, best_value, completed = index, value, d
        if not searcher.reached_limit or single_move:
            if trace is not None:
                trace.exhausted = not searcher.reached_limit
            break
        if depth is None:
            if deadline.expired():
                break
            took = deadline.elapsed_ms() - started
            growth = min(NEXT_ITERATION_GROWTH, took / last_ms) if last_ms > 0.5 else NEXT_ITERATION_GROWTH
            if early_stop and took * growth > deadline.remaining_ms():
                break
            last_ms = took

    return SearchResult(
        move=DIRECTIONS[best_index] if best_index is not None else None,
        depth=completed,
        nodes=searcher.nodes,
        cutoffs=searcher.cutoffs + searcher.cache_hits,
        elapsed_ms=deadline.elapsed_ms(),
        score=best_value,
        algorithm="expectimax",
        preset=preset,
        think_ms=think_ms,
    )


def split_moves(board: Board, parts: int) -> list[tuple[int, ...]]:
    """The legal moves (indices in DIRECTIONS) dealt among ``parts`` workers, the largest trees first.

    A move's tree grows with the empty cells after it, so moves go, most empty cells first, each to the
    part with the fewest empty cells so far (ties: the lower part, the lower index); each part's moves in
    index order.  The same for every worker, so each can compute its own share.
    """
    if parts < 1:
        raise ValueError(f"parts must be at least 1, got {parts!r}")
    moves = sorted((-count_empty(after), index) for index, after in enumerate(afterstates(board)) if after != board)
    loads = [0] * parts
    shares: list[list[int]] = [[] for _ in range(parts)]
    for minus_empty, index in moves:
        k = loads.index(min(loads))
        loads[k] -= minus_empty
        shares[k].append(index)
    return [tuple(sorted(share)) for share in shares]


def search_part(
    board: Board, evaluate: Evaluator, deadline: Deadline, part: int, parts: int, depth: int | None = None
) -> dict[str, object]:
    """One worker's share of a decision searched by ``parts`` workers, JSON-ready for the page to merge.

    ``{"moves", "iterations": [[depth, [[move index, value], ...]], ...], "exhausted", "nodes", "cutoffs",
    "elapsed_ms"}``: the legal moves, each completed iteration's root values (every legal move up to ``SHARED_DEPTH``,
    then this part's own), and whether the last one reached no leaf at its depth (its values then
    stand for every deeper depth).  ``game2048.search.split_merge.merge`` makes the decision from all parts.
    """
    if not 0 <= part < parts:
        raise ValueError(f"part must be 0 to {parts - 1}, got {part!r}")
    trace = Trace()
    result = search(board, evaluate, deadline, depth, trace=trace, part=(part, parts))
    iterations = [
        [it.depth, [[index, value] for index, value, _ in it.root]] for it in trace.iterations if it.completed
    ]
    return {
        "moves": [index for index, after in enumerate(afterstates(board)) if after != board],
        "iterations": iterations,
        "exhausted": trace.exhausted,
        "nodes": result.nodes,
        "cutoffs": result.cutoffs,
        "elapsed_ms": result.elapsed_ms,
    }
