"""Points lost, measured by playing on: greedy playouts after the played move and after the best.

The review's expectimax values a move by the network one or two moves ahead, where the network knows least:
a move it would never play leads to boards it has rarely seen, so their values are the least trained, and
looking deeper by expectimax stays among them.  Playing on greedily for ``moves`` moves and asking the network
only there lets the game's own points decide most of the difference (docs/results.md, "Game review").  Each
playout after the best move has the same spawns as the one after the played move (common random numbers), so
luck falls alike on both sides.  Seeded by the board and the move's number: a game is graded the same in the
lab and the page.  Pure Python, for CPython and Pyodide (it uses ``random``, which MicroPython lacks).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..board import DIRECTIONS, Board, Direction, empty_cells, place
from ..evaluation.ntuple_shapes import score_of_tiles
from ..game import SPAWN_FOUR_PROBABILITY
from ..move_tables import afterstates

PLAYOUTS = 64
"""Playouts on each side of a graded move: the review's default with the network."""
PLAYOUT_MOVES = 30
"""Moves each playout plays before the network values where it stopped."""

Evaluator = Callable[[Board], float]


def spawned(after: Board, rng: random.Random) -> tuple[Board, bool]:
    """``after`` with one tile placed as the game places it (``game.Game.spawn``'s rule: a 4 one time in ten,
    on a uniformly chosen empty cell), and whether it was a 4; ``after`` must have an empty cell (an
    afterstate of a legal move always has one)."""
    four = rng.random() < SPAWN_FOUR_PROBABILITY
    cells = empty_cells(after)
    return place(after, cells[rng.randrange(len(cells))], 2 if four else 1), four


def playout_value(after: Board, evaluate: Evaluator, moves: int, rng: random.Random) -> float:
    """What one greedy playout of ``moves`` moves from the afterstate ``after`` is worth, up to a constant of
    the board before the move: ``evaluate`` (points of the tiles + the network's value) where it stopped, less
    4 for every 4 that spawned on the way (a 4's tile score is not points); a lost playout, its tiles only.

    The tiles' score rises by exactly a move's points, so this is the points of the move into ``after``, the
    playout's points and the network's value at its end, all less the score of the board before the move.
    """
    current = after
    fours = 0
    for _ in range(moves):
        board, four = spawned(current, rng)
        options = [a for a in afterstates(board) if a != board]
        if not options:
            return float(score_of_tiles(current) - 4 * fours)
        fours += four
        current = max(options, key=evaluate)
    return evaluate(current) - 4 * fours


def playout_loss(
    board: Board,
    best: Direction,
    played: Direction,
    evaluate: Evaluator,
    seed: int,
    playouts: int = PLAYOUTS,
    moves: int = PLAYOUT_MOVES,
) -> float:
    """The points ``played`` lost against ``best`` on ``board``: the mean, over ``playouts`` seeded pairs of
    playouts (the same spawns on both sides), of the best's value less the played move's (may be negative)."""
    after = afterstates(board)
    best_after, played_after = after[DIRECTIONS.index(best)], after[DIRECTIONS.index(played)]
    total = 0.0
    for k in range(playouts):
        total += playout_value(best_after, evaluate, moves, random.Random(seed * 1_000_003 + k))
        total -= playout_value(played_after, evaluate, moves, random.Random(seed * 1_000_003 + k))
    return total / playouts


def move_seed(board: Board, number: int) -> int:
    """The playouts' seed for move ``number`` on ``board``: the same wherever the game is graded."""
    return board * 4099 + number
