"""How sure a share of games is: the Wilson score interval of k successes in n trials (scipy).

The late game is measured in tens to hundreds of trials, where "0 of 8" must read as "somewhere from 0 to
about 32 %", not as 0 %; Wilson's interval stays inside 0..1 and is honest at 0 and at n, where the normal
approximation collapses to a point.
"""

from __future__ import annotations

from dataclasses import dataclass

from scipy.stats import binomtest

CONFIDENCE = 0.95
"""The interval's confidence level, as every table of docs/results.md quotes it."""


@dataclass(frozen=True)
class Share:
    """``k`` of ``n`` with its interval: ``low <= k / n <= high``."""

    k: int
    n: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.k / self.n

    def __str__(self) -> str:
        """``12 of 40 (30.0 %, 95 % interval 18.1–45.4 %)``: what a table cell says."""
        return (
            f"{self.k} of {self.n} ({100 * self.rate:.1f} %, {100 * CONFIDENCE:.0f} % interval "
            f"{100 * self.low:.1f}–{100 * self.high:.1f} %)"
        )


def wilson(k: int, n: int, confidence: float = CONFIDENCE) -> Share:
    """``k`` of ``n`` trials with Wilson's interval (``scipy.stats.binomtest``); ``ValueError`` unless
    0 <= k <= n and n >= 1."""
    if n < 1 or not 0 <= k <= n:
        raise ValueError(f"a share is k of n trials with 0 <= k <= n and n >= 1, got {k} of {n}")
    interval = binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    return Share(k, n, float(interval.low), float(interval.high))
