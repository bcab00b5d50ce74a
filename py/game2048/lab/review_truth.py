"""Are the review's grades true?  The points a move lost, as the review says, against what playing on shows.

Positions come from seeded games of the network played greedily with noise (a random legal move with
probability ``noise``): imperfect play, every kind of mistake.  At each sampled position the noisy player's
move is graded by the review (``search.review``, the network's expectimax at a fixed depth) and measured:
from the board after the played move and after the best move, ``playouts`` games each are played on by the
network greedily (``review_playouts``, compiled: to the end, or ``horizon`` moves and then the network's value
there), each after its own seeded spawn, the same seeds after both moves (common random numbers: the luck of
the spawns falls alike on both sides of the difference); a move's measured value is its points plus the mean
return of its playouts, and the measured loss is the best move's minus the played move's.
Spearman's rank correlation between the predicted and the measured losses says whether the review orders
moves as play does; the measure's two halves against each other say how high any grader could score; the
measured mean per grade says what each grade costs (and where bounds belong).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ..board import DIRECTIONS, Board
from ..evaluation.ntuple_file import Network
from ..evaluation.ntuple_shapes import score_of_tiles
from ..game import Game
from ..move_tables import afterstates
from ..search.review import GRADES, REVIEW_DEPTH, grade_move
from ..search.review_playouts import PLAYOUTS, spawned
from .review_playouts import Playouts
from .training.export import dequantized


@dataclass(frozen=True)
class TruthRow:
    """One measured move: its predicted loss and grade, and the measured loss with its standard error and as
    each half of the playouts measures it (for the measure's agreement with itself)."""

    predicted: float
    grade: str
    measured: float
    error: float
    halves: tuple[float, float] = (0.0, 0.0)
    measured_move: bool = True
    """Whether the played move was not the search's best, so was measured (else every field but the grade is 0)."""


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


def playout_values(player: Playouts, board: Board, move: str, playouts: int, horizon: int, seed: int) -> np.ndarray:
    """Each of ``playouts`` greedy games after ``move`` (``review_playouts``: stopped ``horizon`` moves on and
    valued there by the network, or to the end for 0), plus the move's own points; ``seed`` chooses the spawns,
    so the same seed after two moves gives both sides the same luck."""
    after = afterstates(board)[DIRECTIONS.index(move)]
    points = score_of_tiles(after) - score_of_tiles(board)
    rng = random.Random(seed)
    starts = [spawned(after, rng)[0] for _ in range(playouts)]
    return points + player.returns(starts, horizon, seed)


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
    player: Callable[[Board], float] | None = None,
    grader_playouts: int = PLAYOUTS,
) -> list[TruthRow]:
    """Graded and measured moves from noisy games of seeds ``seed``, ``seed + 1``, … until ``moves`` of them
    were not the search's best (those are measured by playouts; the best itself loses 0 on both sides).
    ``horizon`` 0: playouts to the end; else n-step returns (``playout_values``).  ``player``: the evaluation
    the noisy games choose their moves by (default ``evaluate``, the network's own); ``grader_playouts``: the
    review's own playouts (``grade_move``'s), seeded apart from the measure's."""
    playouts_by = Playouts(network.shape, dequantized(network))
    rows: list[TruthRow] = []
    game_seed = seed
    while sum(r.measured_move for r in rows) < moves:
        for board, played in noisy_moves(player or evaluate, game_seed, noise, every):
            if sum(r.measured_move for r in rows) >= moves:
                break
            graded = grade_move(0, board, played, evaluate, depth, playouts=grader_playouts)
            if graded.played == graded.best:
                row = TruthRow(graded.lost, graded.grade, 0.0, 0.0, measured_move=False)
            else:
                salt = len(rows) + seed * 1_000_003  # the same spawns after both moves: common random numbers
                best = playout_values(playouts_by, board, graded.best, playouts, horizon, salt)
                mine = playout_values(playouts_by, board, played, playouts, horizon, salt)
                row = TruthRow(graded.lost, graded.grade, *mean_and_error(best - mine), halves(best - mine))
            rows.append(row)
            if on_row is not None:
                on_row(row)
        game_seed += 1
    return rows


def mean_and_error(losses: np.ndarray) -> tuple[float, float]:
    """The mean of a move's per-playout losses and its standard error (0 for one playout)."""
    error = float(losses.std(ddof=1) / np.sqrt(len(losses))) if len(losses) > 1 else 0.0
    return float(losses.mean()), error


def halves(losses: np.ndarray) -> tuple[float, float]:
    """The mean loss over the first half of the playouts and over the second: two independent measures."""
    middle = len(losses) // 2
    return float(losses[:middle].mean()), float(losses[middle:].mean())


def self_agreement(rows: list[TruthRow]) -> tuple[float, float]:
    """How well the measure agrees with itself over the measured moves: Spearman's correlation of its two
    halves' losses, and that stretched to all the playouts (Spearman–Brown, ``2r / (1 + r)``).  A grader,
    however true, correlates with the measure at most about the square root of the second: below 0.36 of
    it, a Spearman of 0.6 cannot be shown by this measure."""
    half = _rank_correlation([r.halves for r in rows if r.measured_move])
    return half, 2 * half / (1 + half) if half > -1 else float("nan")


def spearman(rows: list[TruthRow]) -> float:
    """Spearman's rank correlation of predicted and measured losses over the moves that were not the search's
    best, whatever their grade (the best itself is 0 on both sides by definition and would only inflate it)."""
    return _rank_correlation([(r.predicted, r.measured) for r in rows if r.measured_move])


def _rank_correlation(pairs: list[tuple[float, float]]) -> float:
    """Spearman's correlation of the pairs; not a number for fewer than 3 or where one side is constant."""
    first, second = [a for a, _ in pairs], [b for _, b in pairs]
    if len(pairs) < 3 or len(set(first)) < 2 or len(set(second)) < 2:
        return float("nan")
    return float(stats.spearmanr(first, second).statistic)


def by_grade(rows: list[TruthRow]) -> list[list[str]]:
    """Per grade: moves, mean predicted loss, mean measured loss with its standard error over the grade's
    measured moves (a search's best move graded best is not measured)."""
    table = []
    for grade in GRADES:
        mine = [r for r in rows if r.grade == grade]
        tried = [r for r in mine if r.measured_move]
        if not tried:
            table.append([grade, str(len(mine)), f"{np.mean([r.predicted for r in mine]):,.0f}" if mine else "", ""])
            continue
        measured = np.array([r.measured for r in tried])
        error = measured.std(ddof=1) / np.sqrt(len(tried)) if len(tried) > 1 else 0.0
        table.append(
            [
                grade,
                str(len(mine)),
                f"{np.mean([r.predicted for r in mine]):,.0f}",
                f"{measured.mean():,.0f} ± {error:,.0f} ({len(tried)})",
            ]
        )
    return table
