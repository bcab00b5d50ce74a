"""Game review: every move of a game valued by one fixed, stated search and graded by the points it lost.

A move's value is expectimax's value of it at a fixed depth (``REVIEW_DEPTH`` by default) with the evaluation
given, read from the search's own root (``expectimax.search`` with a ``Trace``), so the review can never
disagree with the search it names.  With the ``learned`` network a value is in points: the score the board's
tiles are worth plus the score the network expects still to come, so the best value minus the played move's
is the final score the move gave away; there a played move that was not the best has its loss measured by
playing on instead (``review_playouts``, ``playouts_for``), which the network's values near the move say less
truly.  A grade is the first of ``GRADES`` whose bound in ``GRADE_BOUNDS``
the loss does not exceed (``blunder`` past the last); how the grades fare against play is measured in
docs/results.md ("Game review").  Moves the AI chose are graded too, and marked as the AI's, so a player's
figures leave them out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..board import DIRECTIONS, Board, Direction
from ..game_record import GameRecord, positions
from . import checked_board, expectimax
from .clock import Deadline
from .result import Trace
from .review_playouts import PLAYOUTS, move_seed, playout_loss

Evaluator = Callable[[Board], float]

REVIEW_DEPTH = 2
"""Player moves the review's expectimax looks ahead: the move, a spawn, and the best reply's afterstate."""
GRADES = ("best", "good", "inaccuracy", "mistake", "blunder")
GRADE_BOUNDS = (0.5, 300.0, 1500.0, 6000.0)
"""The most points a move may lose and still be best, good, an inaccuracy or a mistake (more: a blunder).
"best" allows half a point: values that tie to rounding are the same move for a player."""
WORST_SHOWN = 5
"""How many of a player's costliest moves a review lists."""


@dataclass(frozen=True)
class MoveReview:
    """One move graded: its number (1 for the first), the board before it, what was played and what was best,
    every legal move's value, the points lost, the grade, and whether the AI chose it."""

    number: int
    board: Board
    played: Direction
    best: Direction
    values: dict[str, float]
    lost: float
    grade: str
    by_ai: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (the board as a 16-digit hex string, which JSON numbers cannot hold exactly)."""
        return {
            "number": self.number,
            "board": f"{self.board:016x}",
            "played": self.played,
            "best": self.best,
            "values": dict(self.values),
            "lost": self.lost,
            "grade": self.grade,
            "by_ai": self.by_ai,
        }


def grade_of(lost: float) -> str:
    """The grade of a move that lost ``lost`` points against the best."""
    for name, bound in zip(GRADES, GRADE_BOUNDS):
        if lost <= bound:
            return name
    return GRADES[-1]


def move_values(board: Board, evaluate: Evaluator, depth: int = REVIEW_DEPTH) -> dict[str, float]:
    """Each legal move of ``board`` with its expectimax value at ``depth`` (empty on a lost board)."""
    trace = Trace()
    expectimax.search(board, evaluate, Deadline(None), depth=depth, trace=trace)
    done = [it for it in trace.iterations if it.completed]
    return {DIRECTIONS[index]: value for index, value, _exact in done[-1].root} if done else {}


def grade_move(
    number: int,
    board: Board,
    played: Direction,
    evaluate: Evaluator,
    depth: int = REVIEW_DEPTH,
    by_ai: bool = False,
    playouts: int = 0,
) -> MoveReview:
    """Move ``number``, ``played`` on ``board``, graded; ``ValueError`` if ``board`` is not a board or ``played``
    is not a legal move there.  ``playouts`` > 0: where the played move is not the best, its loss is measured
    by that many pairs of playouts (``review_playouts``) instead of read from the search's values."""
    checked_board(board)
    values = move_values(board, evaluate, depth)
    if played not in values:
        raise ValueError(f"move {number} ({played}) is not a legal move of its board")
    best = max(values, key=lambda move: (values[move], -DIRECTIONS.index(move)))  # ties: the search's own order
    lost = max(0.0, values[best] - values[played])
    if playouts and played != best:
        lost = max(0.0, playout_loss(board, best, played, evaluate, move_seed(board, number), playouts))
    return MoveReview(number, board, played, best, values, lost, grade_of(lost), by_ai)


def playouts_for(preset: str) -> int:
    """The pairs of playouts a review with ``preset`` measures a loss by: ``PLAYOUTS`` with the learned network
    (its values are points, which playouts measure), none with a preset (its search's values say the loss)."""
    return PLAYOUTS if preset == "learned" else 0


def review_game(
    record: GameRecord,
    evaluate: Evaluator,
    depth: int = REVIEW_DEPTH,
    on_move: Callable[[MoveReview], None] | None = None,
    mark_ai: bool = True,
    playouts: int = 0,
) -> list[MoveReview]:
    """Every move of ``record`` graded, in order; ``on_move`` hears each as it is graded (progress, cancel).
    ``mark_ai`` False grades every move as the player's (a lab game, whose player is the AI under review);
    ``playouts`` as ``grade_move`` takes it."""
    boards = positions(record)
    by_ai = record.chosen_by_ai() if mark_ai else [False] * len(record.moves)
    graded = []
    for number, played in enumerate(record.moves, 1):
        move = grade_move(number, boards[number - 1][0], played, evaluate, depth, by_ai[number - 1], playouts)
        graded.append(move)
        if on_move is not None:
            on_move(move)
    return graded


@dataclass
class ReviewSummary:
    """A player's figures from a review: moves per grade, accuracy (the share of their moves graded best or
    good, in %), points lost in all, and their costliest moves; the AI's moves are counted apart."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(GRADES, 0))
    yours: int = 0
    ai_moves: int = 0
    lost: float = 0.0
    worst: list[MoveReview] = field(default_factory=list)

    @property
    def accuracy(self) -> float | None:
        """``None`` when the player made no move (a game the AI played alone)."""
        return 100.0 * (self.counts["best"] + self.counts["good"]) / self.yours if self.yours else None


def summarize(moves: list[MoveReview], worst: int = WORST_SHOWN) -> ReviewSummary:
    """The player's figures over ``moves`` (the AI's moves only counted as such)."""
    summary = ReviewSummary()
    for move in moves:
        if move.by_ai:
            summary.ai_moves += 1
            continue
        summary.yours += 1
        summary.counts[move.grade] += 1
        summary.lost += move.lost
    costly = sorted((m for m in moves if not m.by_ai and m.lost > GRADE_BOUNDS[0]), key=lambda m: (-m.lost, m.number))
    summary.worst = costly[:worst]
    return summary
