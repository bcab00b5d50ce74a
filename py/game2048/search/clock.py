"""The think-time limit, with a clock that tests can replace.

Searches ask ``deadline.expired()`` every few nodes and raise ``TimeUp`` to
abandon an unfinished iteration; the iteration that was running is thrown
away, so the move played always comes from a completed depth.
"""

from __future__ import annotations

import time
from collections.abc import Callable

Clock = Callable[[], float]
"""Seconds as a float, monotonic: ``time.perf_counter`` in real use, a fake in tests."""


class TimeUp(Exception):
    """Raised inside a search when the deadline has passed; caught by the iterative-deepening loop."""


class Deadline:
    """A point in time after which the search must stop; ``None`` budget means no limit."""

    __slots__ = ("clock", "start", "limit")

    def __init__(self, budget_ms: float | None, clock: Clock = time.perf_counter) -> None:
        self.clock = clock
        self.start = clock()
        self.limit = None if budget_ms is None else self.start + budget_ms / 1000.0

    def expired(self) -> bool:
        return self.limit is not None and self.clock() >= self.limit

    def elapsed_ms(self) -> float:
        return (self.clock() - self.start) * 1000.0

    def remaining_ms(self) -> float:
        return float("inf") if self.limit is None else (self.limit - self.clock()) * 1000.0
