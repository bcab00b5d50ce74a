"""What both halves of an explanation share: its own time budget, a term as weight × raw value, a ply of a line.

``explanation`` (the whole, and alpha-beta's half) and ``explained_expectimax``
(expectimax's why, chance node and line) build their parts from these, so a
ply or a term reads the same whichever algorithm made the decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..board import Board, cell_name, to_rows
from ..evaluation.terms import Term, term_name
from .clock import Clock

Evaluator = Callable[[Board], float]


class Analysis:
    """The explanation's own budget: one deadline for everything after the decision, and what was cut short."""

    def __init__(self, clock: Clock, budget_ms: float) -> None:
        self.clock = clock
        self.budget_ms = float(budget_ms)
        self.start = clock()
        self.limit = self.start + budget_ms / 1000.0
        self.unfinished: dict[str, str] = {}

    def left_ms(self) -> float:
        return max(0.0, (self.limit - self.clock()) * 1000.0)

    def expired(self) -> bool:
        return self.clock() >= self.limit

    def share(self, fraction: float) -> Callable[[], bool]:
        """An ``expired`` for a part that may use ``fraction`` of the time left, so the parts after it get some."""
        limit = self.clock() + self.left_ms() * fraction / 1000.0
        clock = self.clock
        return lambda: clock() >= limit

    def note(self, part: str, why: str) -> None:
        self.unfinished[part] = why

    def report(self) -> dict[str, Any]:
        return {
            "budget_ms": self.budget_ms,
            "elapsed_ms": round((self.clock() - self.start) * 1000.0, 3),
            "unfinished": dict(self.unfinished),
        }


def weighted(term: Term, expected: bool = False) -> dict[str, Any]:
    """A term as a person rebuilds it: ``value`` = ``weight`` × ``factor``, the factor being ``raw`` (read from
    the board, in ``unit``) or its ``form`` of it (``"ln"``); ``expected``: each an average over the tiles."""
    return {
        "term": term_name(term.name),
        "value": round(term.value, 4),
        "weight": term.weight,
        "raw": term.raw,
        "unit": term.unit,
        "form": term.form,
        "factor": term.multiplied(),
        "expected": expected,
    }


def placement_label(cell: int, rank: int) -> str:
    """A tile the computer places, for a person: "2 at row 1, column 4"."""
    return f"{1 << rank} at {cell_name(cell)}"


def ply(kind: str, label: str, board: Board, remaining: int, **extra: Any) -> dict[str, Any]:
    return {"kind": kind, "label": label, "rows": to_rows(board), "remaining": remaining, **extra}
