"""The one gate for data from outside the page's code: saved values and the URL.

Anyone can put anything into localStorage or a link, and a value that makes
start-up raise is read again on every load, so a page that trusts it never
opens again.  Everything read from storage or the URL goes through these
functions, which raise nothing but ``BadData`` (a message for the notice):
size is checked before parsing, JSON nesting depth before ``json.loads``
(deep nesting overflows the interpreter's stack, which Pyodide reports as a
fatal error), integers by their number of digits before ``int()`` (Python
refuses to convert more than 4,300), and numbers for finiteness and range.
"""

from __future__ import annotations

import json
import math
from typing import Any

MAX_INT_DIGITS = 30
"""No value the page reads needs more digits (a seed is below 2**63, 19 digits); longer ones are refused."""


class BadData(ValueError):
    """A value from storage or the URL that the page refuses; the message says why, for the player."""


def _refuse_constant(name: str) -> Any:
    raise BadData(f"it holds {name}, which is not a number")


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise BadData(f"it holds a number with {len(text.lstrip('-'))} digits")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadData(f"it holds the number {text[:20]}, too large for the page")
    return value


def nesting_depth_exceeds(text: str, limit: int) -> bool:
    """Whether JSON ``text`` nests arrays and objects more than ``limit`` deep (brackets in strings don't count).

    A plain scan, so that no recursion happens before the depth is known; texts
    with fewer opening brackets than ``limit`` skip the scan.
    """
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def read_json(text: Any, max_chars: int, max_depth: int) -> Any:
    """``text`` parsed as JSON within the limits; ``BadData`` for anything else, never another exception."""
    if not isinstance(text, str):
        raise BadData("it is not text")
    if len(text) > max_chars:
        raise BadData(f"it is {len(text):,} characters long, more than the {max_chars:,} it can be")
    if nesting_depth_exceeds(text, max_depth):
        raise BadData(f"it nests more than {max_depth} levels deep")
    try:
        return json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_refuse_constant)
    except BadData:
        raise
    except (ValueError, RecursionError, MemoryError) as exc:
        raise BadData(f"it is not readable JSON ({_first_line(exc)})") from None


def read_int(text: Any, low: int, high: int, max_digits: int = MAX_INT_DIGITS) -> int:
    """A whole number written in plain decimal digits, ``low <= n <= high``; ``BadData`` otherwise."""
    if not isinstance(text, str):
        raise BadData("it is not text")
    digits = text.strip()
    if not digits or not digits.isascii() or not digits.isdigit():
        raise BadData("it is not a whole number")
    significant = digits.lstrip("0") or "0"
    if len(significant) > max_digits:
        raise BadData(f"it has {len(significant)} digits, more than the {max_digits} it can have")
    value = int(significant)
    if not low <= value <= high:
        raise BadData(f"it is not between {low} and {high}")
    return value


def finite_number(value: Any) -> float | None:
    """``value`` as a finite float if it is an int or float (not a bool) that has one; else ``None``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:  # an int too large for a float
        return None
    return number if math.isfinite(number) else None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:80] if text else type(exc).__name__
