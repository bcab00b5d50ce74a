"""A game review's figures on the page: the worker's requests cut from a record, and what its answers add up to.

The grading itself runs in the AI worker (its ``review``, over ``game2048.search.review``); this module only
cuts a game into short batches (``batches``: Cancel and a hint asked meanwhile wait for one batch, never the
game) and sums the graded moves the way ``search.review.summarize`` does: counts per grade of the player's own
moves, the AI's counted apart, the accuracy (the share of the player's moves in the first two grades), and the
costliest moves.  The grades and their order come from the worker's answer, never copied here, so a change of
the review's bounds reaches the page unchanged.  Plain Python that MicroPython runs (the page's main thread).
"""

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from typing import Any
except ImportError:
    pass

from game2048.game_record import GameRecord

BATCH_MOVES = 20
"""Moves graded by one worker request: a few seconds in the browser with the network's playouts."""
REVIEW_MS_PER_MOVE = 600.0
"""A move's grading as the worker's time limit counts it (``AiClient.call``): a move whose loss the network's
playouts measure takes about a third of that in Chromium (docs/results.md), a move a preset grades far less,
so only a worker that stopped answering runs past it."""
WORST_SHOWN = 5
"""How many of the player's costliest moves the review lists."""


def batches(record: GameRecord, steps: "list[tuple[int, int]]", size: int = BATCH_MOVES) -> "list[dict[str, Any]]":
    """The worker's ``review`` requests for every move of ``record`` (``steps``: its positions), ``size`` a request."""
    by_ai = record.by_ai if record.by_ai is not None else record.chosen_by_ai()  # a link says who played
    requests = []
    for first in range(0, len(record.moves), size):
        last = min(first + size, len(record.moves))
        requests.append(
            {
                "boards": [f"{steps[k][0]:016x}" for k in range(first, last)],
                "played": list(record.moves[first:last]),
                "by_ai": [bool(by_ai[k]) for k in range(first, last)],
                "first": first + 1,
            }
        )
    return requests


class ReviewFigures:
    """A review's sums: ``counts`` per grade (in ``grades``' order) of the player's moves, ``yours``, ``ai_moves``,
    ``lost`` (in all), ``accuracy`` (%, None when the player made no move) and ``worst`` (costliest first)."""

    def __init__(self, moves: "list[dict[str, Any]]", grades: "list[str]", worst: int = WORST_SHOWN) -> None:
        self.grades = list(grades)
        self.counts = [0] * len(self.grades)
        self.yours = 0
        self.ai_moves = 0
        self.lost = 0.0
        for move in moves:
            if move["by_ai"]:
                self.ai_moves += 1
                continue
            self.yours += 1
            if move["grade"] in self.grades:
                self.counts[self.grades.index(move["grade"])] += 1
            self.lost += float(move["lost"])
        costly = [m for m in moves if not m["by_ai"] and m["grade"] != self.grades[0]]
        costly.sort(key=lambda m: (-float(m["lost"]), m["number"]))
        self.worst = costly[:worst]

    @property
    def accuracy(self) -> "float | None":
        if not self.yours:
            return None
        return 100.0 * (self.counts[0] + self.counts[1]) / self.yours

    def count_of(self, grade: str) -> int:
        return self.counts[self.grades.index(grade)] if grade in self.grades else 0


def graded_move(answer: "dict[str, Any]") -> "dict[str, Any]":
    """A move of the worker's answer as the page keeps it: its number, the moves played and best, the points lost,
    the grade, the AI's or not, and ``value`` (the played move's value: the chart's line)."""
    values = answer["values"]
    return {
        "number": int(answer["number"]),
        "played": str(answer["played"]),
        "best": str(answer["best"]),
        "lost": float(answer["lost"]),
        "grade": str(answer["grade"]),
        "by_ai": bool(answer["by_ai"]),
        "value": float(values.get(answer["played"], 0.0)),
    }


class GameReview:
    """A whole game's review as the page keeps it: every graded move (``graded_move``'s dicts, in order), the preset
    that valued them, whether its values are points, and the grades' names; ``figures`` sums them."""

    def __init__(self, moves: "list[dict[str, Any]]", preset: str, points: bool, grades: "list[str]") -> None:
        self.moves = moves
        self.preset = preset
        self.points = points
        self.grades = list(grades)
        self._figures: ReviewFigures | None = None

    @property
    def figures(self) -> ReviewFigures:
        """The sums, made once (the moves never change)."""
        if self._figures is None:
            self._figures = ReviewFigures(self.moves, self.grades)
        return self._figures

    def move(self, number: int) -> "dict[str, Any] | None":
        """Move ``number`` (1 for the first), or None past the review."""
        return self.moves[number - 1] if 1 <= number <= len(self.moves) else None

    def units(self) -> str:
        """What its values are counted in: points, or the preset's own units (which are not points)."""
        return "points" if self.points else f"units of the {self.preset} evaluation (not points)"
