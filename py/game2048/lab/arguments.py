"""Bounded numbers for the lab's command line, checked as argparse reads them, before anything is allocated.

An unbounded ``--games 10**20`` reaches ``range`` or numpy as an overflow or a
memory error after the imports; here it is one line naming the accepted range.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import TypeVar

from ..game import MAX_SEED

T = TypeVar("T")

MAX_GAMES = 10_000_000
"""The most games one command plays (a list of their seeds and records fits in memory)."""

MAX_TRAINING_GAMES = 1_000_000_000
"""The most games one training run plays (nothing is kept per game, but a run must end)."""

MAX_DEPTH = 20
"""The deepest fixed search the lab accepts (depth 8 already takes minutes a move)."""

MAX_MS = 3_600_000.0
"""The longest think time a move may have: an hour."""

_MAX_CHARS = 40
"""Longer text is not read as a number at all (``int`` of 5,000 digits is refused only after work)."""

SEED = (0, MAX_SEED)
GAMES = (1, MAX_GAMES)


def _read(text: str, kind: Callable[[str], T], what: str) -> T:
    """``kind(text)``, or an argparse error saying the text is not ``what`` (too long ones are not read)."""
    try:
        if len(text) > _MAX_CHARS:
            raise ValueError
        return kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:_MAX_CHARS]!r} is not {what}") from None


def whole(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``, or an error that says so."""

    def parse(text: str) -> int:
        value = _read(text, int, "a whole number")
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value:,} is not from {low:,} to {high:,}")
        return value

    parse.__name__ = "whole number"
    return parse


def _shown(value: float) -> str:
    return f"{value:,.0f}" if value == int(value) else f"{value:g}"


def number(low: float, high: float, *, above_low: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite number from ``low`` (excluded with ``above_low``) to ``high``."""

    def parse(text: str) -> float:
        value = _read(text, float, "a number")
        if not math.isfinite(value) or value < low or (above_low and value == low) or value > high:
            least = f"above {_shown(low)}" if above_low else f"at least {_shown(low)}"
            raise argparse.ArgumentTypeError(f"{text!r} is not a number {least} and at most {_shown(high)}")
        return value

    parse.__name__ = "number"
    return parse


THINK_MS = number(0.0, MAX_MS, above_low=True)
DEPTH = whole(1, MAX_DEPTH)
STOP_TILE = whole(0, 1 << 17)
"""The largest tile a game can hold is 2^17; 0 plays to the end."""
