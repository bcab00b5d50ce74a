"""Are the review's grades true?  The points a move lost, as the review says, against what playing on shows.

Positions come from seeded games of the network played greedily with noise (a random legal move with
probability ``noise``): imperfect play, every kind of mistake.  At each sampled position the noisy player's
move is graded by the review (``search.review``, the network's expectimax at a fixed depth) and measured:
from the board after the played move and after the best move, ``playouts`` games each are played to the end
by the network greedily (compiled), each after its own seeded spawn, the same seeds after both moves (common
random numbers: the luck of the spawns falls alike on both sides of the difference); a move's measured value is
its points plus the mean points its playouts score, and the measured loss is the best move's minus the played
move's.
Spearman's rank correlation between the predicted and the measured losses says whether the review orders
moves as play does; the measured mean per grade says what each grade costs (and where bounds belong).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ..board import DIRECTIONS, Board, count_empty
from ..evaluation.ntuple_file import Network
from ..evaluation.ntuple_shapes import score_of_tiles
from ..game import SPAWN_FOUR_PROBABILITY, Game
from ..move_tables import afterstates
from ..search.review import GRADES, REVIEW_DEPTH, grade_move
from .training.export import dequantized
from .training.trainer import greedy_on


@dataclass(frozen=True)
class TruthRow:
    """One measured move: its predicted loss and grade, and the measured loss with its standard error."""

    predicted: float
    grade: str
    measured: float
    error: float


def noisy_moves(evaluate: Callable[[Board], float], seed: int, noise: float, every: int) -> list[tuple[Board, str]]:
    """(board, the noisy player's move) at every ``every``-th position of one seeded game played to the end."""
    rng = random.Random(seed)
    game = Game.new(seed)
    found = []
    while not game.over:
        legal = [(d, after) for d, after in zip(DIRECTIONS, afterstates(game.board)) if after != game.board]
        if rng.random() < noise:
            move = rng.choice(legal)[0]
        else:
            move = max(legal, key=lambda pair: evaluate(pair[1]))[0]
        if game.moves % every == seed % every:
            found.append((game.board, move))
        if game.paused_at_win:
            game.continue_after_win()
        game.play(move)
    return found


def spawned(after: Board, rng: random.Random) -> Board:
    """``after`` with one tile placed as the game places it (a 4 one time in ten, on a uniform empty cell)."""
    cells = [c for c in range(16) if not (after >> (4 * c)) & 0xF]
    rank = 2 if rng.random() < SPAWN_FOUR_PROBABILITY else 1
    return after | rank << (4 * rng.choice(cells))


def measured_value(
    network: Network, weights: np.ndarray, board: Board, move: str, playouts: int, seed: int
) -> tuple[float, float]:
    """(points of ``move`` + mean points after it over ``playouts`` greedy games, the mean's standard error)."""
    after = afterstates(board)[DIRECTIONS.index(move)]
    points = score_of_tiles(after) - score_of_tiles(board)
    if not count_empty(after):  # cannot happen after a legal move; a guard for the spawn below
        return float(points), 0.0
    rng = random.Random(seed)
    starts = [spawned(after, rng) for _ in range(playouts)]
    scores = greedy_on(network.shape, weights, starts, 1, seed)[:, 0].astype(float)
    return points + float(scores.mean()), float(scores.std(ddof=1) / np.sqrt(len(scores))) if len(scores) > 1 else 0.0


def horizon_value(
    evaluate: Callable[[Board], float], board: Board, move: str, playouts: int, horizon: int, seed: int
) -> tuple[float, float]:
    """Like ``measured_value``, but each greedy playout stops ``horizon`` moves after ``move`` and counts, past its
    points, what the network says is still to come there (an n-step return: the luck of a whole game's future,
    which swamps a small loss, is replaced by the network's estimate of it).  Pure Python: ``evaluate`` is the
    review's own learned evaluation (points of the tiles + the network's value), so a lost playout adds 0."""
    after = afterstates(board)[DIRECTIONS.index(move)]
    start = score_of_tiles(after) - score_of_tiles(board)
    totals = []
    for k in range(playouts):
        rng = random.Random(seed * 7919 + k)
        current, total = after, float(start)
        for _ in range(horizon):
            current = spawned(current, rng)
            options = [a for a in afterstates(current) if a != current]
            if not options:
                break
            best = max(options, key=evaluate)
            total += score_of_tiles(best) - score_of_tiles(current)
            current = best
        else:
            total += evaluate(current) - score_of_tiles(current)
        totals.append(total)
    mean = sum(totals) / len(totals)
    spread = float(np.std(totals, ddof=1)) / np.sqrt(len(totals)) if len(totals) > 1 else 0.0
    return mean, spread


def measure(
    network: Network,
    evaluate: Callable[[Board], float],
    moves: int,
    playouts: int,
    noise: float,
    seed: int,
    depth: int = REVIEW_DEPTH,
    every: int = 50,
    on_row: Callable[[TruthRow], None] | None = None,
    horizon: int = 0,
) -> list[TruthRow]:
    """Graded and measured moves from noisy games of seeds ``seed``, ``seed + 1``, … until ``moves`` of them
    were not the best (those are measured by playouts; a best move loses 0 on both sides and costs none).
    ``horizon`` 0: playouts to the end (``measured_value``); else ``horizon_value``'s n-step returns."""
    weights = dequantized(network)
    rows: list[TruthRow] = []
    game_seed = seed
    while sum(r.grade != "best" for r in rows) < moves:
        for board, played in noisy_moves(evaluate, game_seed, noise, every):
            if sum(r.grade != "best" for r in rows) >= moves:
                break
            graded = grade_move(0, board, played, evaluate, depth)
            if graded.played == graded.best:
                row = TruthRow(graded.lost, graded.grade, 0.0, 0.0)
            else:
                salt = len(rows) + seed * 1_000_003  # the same spawns after both moves: common random numbers
                if horizon:
                    best, best_error = horizon_value(evaluate, board, graded.best, playouts, horizon, salt)
                    mine, mine_error = horizon_value(evaluate, board, played, playouts, horizon, salt)
                else:
                    best, best_error = measured_value(network, weights, board, graded.best, playouts, salt)
                    mine, mine_error = measured_value(network, weights, board, played, playouts, salt)
                row = TruthRow(graded.lost, graded.grade, best - mine, float(np.hypot(best_error, mine_error)))
            rows.append(row)
            if on_row is not None:
                on_row(row)
        game_seed += 1
    return rows


def spearman(rows: list[TruthRow]) -> float:
    """Spearman's rank correlation of predicted and measured losses over the moves where they differ from
    the best (a best move is 0 on both sides by definition and would only inflate it)."""
    pairs = [(r.predicted, r.measured) for r in rows if r.grade != "best"]
    if len(pairs) < 3:
        return float("nan")
    return float(stats.spearmanr([p for p, _ in pairs], [m for _, m in pairs]).statistic)


def by_grade(rows: list[TruthRow]) -> list[list[str]]:
    """Per grade: moves, mean predicted loss, mean measured loss with its standard error."""
    table = []
    for grade in GRADES:
        mine = [r for r in rows if r.grade == grade]
        if not mine:
            table.append([grade, "0", "", ""])
            continue
        measured = np.array([r.measured for r in mine])
        error = measured.std(ddof=1) / np.sqrt(len(mine)) if len(mine) > 1 else 0.0
        table.append(
            [
                grade,
                str(len(mine)),
                f"{np.mean([r.predicted for r in mine]):,.0f}",
                f"{measured.mean():,.0f} ± {error:,.0f}",
            ]
        )
    return table
