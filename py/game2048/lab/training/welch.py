"""Welch's t-test: do two groups of runs differ in mean, without assuming they spread alike?

``t = (mean_a - mean_b) / sqrt(var_a/n_a + var_b/n_b)`` with sample variances (n - 1), the Welch-Satterthwaite
degrees of freedom ``df = (var_a/n_a + var_b/n_b)^2 / ((var_a/n_a)^2/(n_a-1) + (var_b/n_b)^2/(n_b-1))``, and the
two-sided p-value ``P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2)`` for Student's T with ``df`` degrees of freedom
(``I`` the regularized incomplete beta function).  What ``scipy.stats.ttest_ind(a, b, equal_var=False)``
returns, in plain Python: the lab does not need scipy for one p-value.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

BETA_ITERATIONS = 300
BETA_EPSILON = 1e-15


@dataclass(frozen=True)
class Welch:
    """The statistic, its degrees of freedom and the two-sided p-value."""

    t: float
    df: float
    p: float


def welch_test(a: Sequence[float], b: Sequence[float]) -> Welch:
    """Welch's t-test of ``a`` against ``b`` (each at least two values, not all the same in both)."""
    if len(a) < 2 or len(b) < 2:
        raise ValueError(f"Welch's test needs at least two values in each group, got {len(a)} and {len(b)}")
    share_a = statistics.variance(a) / len(a)
    share_b = statistics.variance(b) / len(b)
    if share_a + share_b == 0:
        raise ValueError("Welch's test needs some spread: every value of both groups is the same")
    t = (statistics.fmean(a) - statistics.fmean(b)) / math.sqrt(share_a + share_b)
    df = (share_a + share_b) ** 2 / (share_a**2 / (len(a) - 1) + share_b**2 / (len(b) - 1))
    return Welch(t, df, two_sided_p(t, df))


def two_sided_p(t: float, df: float) -> float:
    """``P(|T| >= |t|)`` for Student's T with ``df`` (> 0, not necessarily whole) degrees of freedom."""
    return regularized_beta(df / (df + t * t), df / 2, 0.5)


def regularized_beta(x: float, a: float, b: float) -> float:
    """``I_x(a, b)``, by its continued fraction (modified Lentz), on the side where it converges fast."""
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"x is 0 to 1, got {x}")
    if x in (0.0, 1.0):
        return x
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(x, a, b) / a
    return 1.0 - front * _beta_fraction(1.0 - x, b, a) / b


def _beta_fraction(x: float, a: float, b: float) -> float:
    """The continued fraction of the incomplete beta function (Numerical Recipes' ``betacf``)."""
    tiny = 1e-300
    c = 1.0
    d = 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, BETA_ITERATIONS + 1):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < BETA_EPSILON:
            break
    return h
