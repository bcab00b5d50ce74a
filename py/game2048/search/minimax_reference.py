"""Plain minimax over the same reduced tree as ``alphabeta``: the yardstick for its optimisations.

No pruning, no table, no move ordering, no incremental scoring: moves through
``board.move``, placements scored from scratch by ``reduction.direct_placements``.
The pruning-equivalence test compares ``alphabeta`` with this at fixed depths;
it shares only the rules of the tree (win and loss values, what depth counts),
so a bug in a shortcut cannot hide behind the same shortcut here.
"""

from __future__ import annotations

from typing import Callable

from ..board import DIRECTIONS, Board, Direction, max_rank, move
from .alphabeta import WIN_RANK, WIN_SCORE
from .reduction import PLACED_RANKS, direct_placements

Evaluator = Callable[[Board], float]


def _makes_win(board: Board) -> bool:
    return max_rank(board) >= WIN_RANK


def _player_value(board: Board, depth: int, evaluate: Evaluator, win_possible: bool, ranks: tuple[int, ...]) -> float:
    """Value of a max node: the board after a placement, ``depth`` player moves to go."""
    values = []
    for direction in DIRECTIONS:
        child, _ = move(board, direction)
        if child == board:
            continue
        values.append(_move_value(child, depth, evaluate, win_possible, ranks))
    if not values:
        return -(WIN_SCORE + depth)
    return max(values)


def _move_value(child: Board, depth: int, evaluate: Evaluator, win_possible: bool, ranks: tuple[int, ...]) -> float:
    """Value of the board right after a player move, with ``depth`` counting that move."""
    if win_possible and _makes_win(child):
        return WIN_SCORE + depth
    if depth == 1:
        return evaluate(child)
    return min(
        _player_value(placed, depth - 1, evaluate, win_possible, ranks) for placed in direct_placements(child, ranks)
    )


def root_values(
    board: Board, depth: int, evaluate: Evaluator, ranks: tuple[int, ...] = PLACED_RANKS
) -> dict[Direction, float]:
    """The minimax value of every legal move at ``depth`` player moves; the computer places tiles of ``ranks``."""
    win_possible = max_rank(board) < WIN_RANK
    out = {}
    for direction in DIRECTIONS:
        child, _ = move(board, direction)
        if child != board:
            out[direction] = _move_value(child, depth, evaluate, win_possible, ranks)
    return out


def best_moves(
    board: Board, depth: int, evaluate: Evaluator, ranks: tuple[int, ...] = PLACED_RANKS
) -> tuple[float, set[Direction]]:
    """(root value, every move that reaches it); an empty set on a lost board."""
    values = root_values(board, depth, evaluate, ranks)
    if not values:
        return -WIN_SCORE, set()
    best = max(values.values())
    return best, {d for d, v in values.items() if v == best}
