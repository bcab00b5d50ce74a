"""The checks of a game record's fields read from outside: its seed, moves, decisions, times, and the error they raise.

A record reaches the engine in several forms (``game_record``'s saved form, a
share link in ``game_link``, the page's storage in parts), each read from data
anyone could have written.  Every form checks its fields with these functions,
so a seed or a decision is refused for the same reason, in the same words,
whatever form it came in.

Plain Python that CPython, Pyodide and MicroPython share, like ``board``: the
page's main thread imports it.
"""

import math

from .board import DIRECTIONS, Direction
from .game import MAX_SEED

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass

MAX_MOVES = 100_000
"""Longer records and links are refused before they are read: a game to 2048 takes about 1,000 moves."""
DECISION_FIELDS = ("algorithm", "preset", "depth", "think_ms", "rescued")
"""An AI move's summary: who decided, how deep the search got, how long it took (ms), and whether the rescue
search of a proven loss chose the move."""
MAX_NAME_CHARS = 40
"""The longest algorithm or preset name a decision may carry."""
MAX_THINK_MS = 86_400_000.0
"""The longest think time a decision may carry (a day): longer is not a measurement."""


class RecordError(ValueError):
    """A record that is not a game this engine could have played; the message says what is wrong."""


def checked_decision(summary: Any, what: str) -> "dict[str, Any]":
    """A copy of ``summary`` if it has exactly ``DECISION_FIELDS``, each of its kind; ``RecordError`` otherwise."""
    if not isinstance(summary, dict) or len(summary) != len(DECISION_FIELDS):
        raise RecordError(f"{what} is not a summary of {', '.join(DECISION_FIELDS)}: {shown(summary)}")
    for name in ("algorithm", "preset"):
        value = summary.get(name)
        if not isinstance(value, str) or not 0 < len(value) <= MAX_NAME_CHARS:
            raise RecordError(f"{what} has no {name} name: {shown(value)}")
    depth: Any = summary.get("depth")  # outside data, checked below
    think_ms: Any = summary.get("think_ms")
    rescued: Any = summary.get("rescued")
    if not_whole(depth) or depth < 0:
        raise RecordError(f"{what} has a depth that is not a non-negative whole number: {shown(depth)}")
    if not is_finite(think_ms) or think_ms < 0 or think_ms > MAX_THINK_MS:
        raise RecordError(f"{what} has a think time that is not a number of ms: {shown(think_ms)}")
    if not isinstance(rescued, bool):
        raise RecordError(f"{what} has a rescued flag that is not true/false: {shown(rescued)}")
    return {
        "algorithm": summary["algorithm"],
        "preset": summary["preset"],
        "depth": depth,
        "think_ms": think_ms,
        "rescued": rescued,
    }


def checked_moves(moves: Any) -> "list[Direction]":
    """A copy of ``moves`` if it is a list (or tuple) of at most ``MAX_MOVES`` directions."""
    if moves is None:
        return []
    if not isinstance(moves, (list, tuple)):
        raise RecordError(f"the moves are not a list of directions: {shown(moves)}")
    if len(moves) > MAX_MOVES:
        raise RecordError(f"a record holds at most {MAX_MOVES} moves, not {len(moves)}")
    for number, direction in enumerate(moves, 1):
        if direction not in DIRECTIONS:
            raise RecordError(f"move {number} is not a direction (up, right, down, left): {shown(direction)}")
    return list(moves)


def checked_seed(seed: Any, what: str) -> int:
    """``seed`` if it is a seed ``Game.new`` takes; ``RecordError`` naming ``what`` otherwise."""
    if not_whole(seed) or not 0 <= seed <= MAX_SEED:
        raise RecordError(f"{what} is not a whole number from 0 to 2^63-1: {shown(seed)}")
    checked: int = seed
    return checked


def checked_time(value: Any, name: str) -> "float | None":
    """``value`` if it is None or a time in ms since 1970; ``RecordError`` naming the record's ``name`` time."""
    if value is not None and (not is_finite(value) or value < 0):
        raise RecordError(f"the record's {name} time is not a number of ms since 1970: {shown(value)}")
    checked: float | None = value
    return checked


def is_finite(value: Any) -> bool:
    """An int or a finite float (a huge int is fine: it is never made a float here)."""
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, int) and not isinstance(value, bool)


def not_whole(value: Any) -> bool:
    """Whether ``value`` is not an int (a bool is not one: JSON's true is not a count)."""
    return isinstance(value, bool) or not isinstance(value, int)


def decisions_shown(items: Any) -> str:
    """How many decisions ``items`` holds, for a message; the value itself when it is not a list."""
    return f"{len(items)} decisions" if isinstance(items, list) else f"decisions {shown(items)}"


def shown(value: Any) -> str:
    """A value for a message, cut short: saved data and links can be any size."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
