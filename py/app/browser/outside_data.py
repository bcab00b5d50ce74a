"""The one gate for data from outside the page's code: saved values and the URL.

Anyone can put anything into localStorage or a link, and a value that makes
start-up raise is read again on every load, so a page that trusts it never
opens again.  Everything read from storage or the URL goes through these
functions, which raise nothing but ``BadData`` (a message for the notice):
size is checked before parsing, JSON nesting depth and runs of digits before
``json.loads`` (CPython's parser recurses, and a stack overflow is a fatal
error in Pyodide; MicroPython reads a long integer in quadratic time), and
the parsed numbers after it: floats must be finite, integers at most
``MAX_INT_DIGITS`` long (MicroPython's ``json.loads`` takes no hooks to
check them while it parses; CPython's refuses more than 4,300 digits).
"""

import json
import math

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from typing import Any
except ImportError:
    pass

MAX_INT_DIGITS = 30
"""No value the page reads needs more digits (a seed is below 2**63, 19 digits); longer ones are refused."""
MAX_INT_CHARS = 10_000
"""The longest text read as a whole number (leading zeros and spaces included); a longer one is refused unread."""
_INT_LIMIT = 10**MAX_INT_DIGITS
_NUMBER_TYPES = (int, float)
MAX_DATE_MS = 8_640_000_000_000_000
"""The last moment a browser's ``Date`` holds (ms since 1970, in the year 275760): a later time is no date."""
DIGITS = "0123456789"


class BadData(ValueError):
    """A value from storage or the URL that the page refuses; the message says why, for the player."""


def nesting_depth_exceeds(text: str, limit: int) -> bool:
    """Whether JSON ``text`` nests arrays and objects more than ``limit`` deep (brackets in strings don't count).

    A plain scan, so that no recursion happens before the depth is known; texts
    with fewer opening brackets than ``limit`` skip the scan.  The depth is
    deepest just before a closing bracket, so the opening brackets are counted
    from one closing bracket to the next (in the text without its strings):
    ``str`` methods, in a loop as long as the text has containers, far faster
    than a loop over every character in MicroPython, and the first closing
    bracket of ``[[[…]]]`` ends it.
    """
    if text.count("[") + text.count("{") <= limit:
        return False
    # Bytes: MicroPython finds a str's character by walking its UTF-8, a bytes' at once.
    structure = _outside_strings(text).encode().replace(b"{", b"[").replace(b"}", b"]")
    opened = closed = start = 0
    while True:
        end = structure.find(b"]", start)
        opened += structure.count(b"[", start, len(structure) if end < 0 else end)
        if opened - closed > limit:
            return True
        if end < 0:
            return False
        closed += 1
        start = end + 1


def digit_run(text: str, limit: int = MAX_INT_DIGITS) -> int:
    """The length of the first run of more than ``limit`` digits in ``text`` (in a string too); 0 if none.

    To be asked before ``json.loads``: MicroPython reads an integer's digits one
    by one into a growing number, in a time that grows with their square (100,000
    digits take a second, a million minutes).  Nine ``str.replace`` make every
    digit a ``0``, and ``find`` finds a run: C speed, however long the text.
    """
    if len(text) <= limit:
        return 0
    zeros = text
    for digit in "123456789":
        zeros = zeros.replace(digit, "0")
    start = zeros.find("0" * (limit + 1))
    if start < 0:
        return 0
    rest = zeros[start:]
    return len(rest) - len(rest.lstrip("0"))


def _outside_strings(text: str) -> str:
    """``text`` without the insides of its JSON strings (a quote after an odd number of backslashes is inside)."""
    pieces = text.split('"')
    outside = [pieces[0]]
    in_string = True  # each piece after the first follows a quote
    for piece in pieces[1:]:
        if not in_string:
            outside.append(piece)
            in_string = True
        elif (len(piece) - len(piece.rstrip("\\"))) % 2 == 0:
            in_string = False  # the quote after this piece ends the string
    return "".join(outside)


def read_json(text: Any, max_chars: int, max_depth: int) -> Any:
    """``text`` parsed as JSON within the limits; ``BadData`` for anything else, never another exception."""
    if not isinstance(text, str):
        raise BadData("it is not text")
    if len(text) > max_chars:
        raise BadData(f"it is {len(text):,} characters long, more than the {max_chars:,} it can be")
    if nesting_depth_exceeds(text, max_depth):
        raise BadData(f"it nests more than {max_depth} levels deep")
    digits = digit_run(text)
    if digits:
        raise BadData(f"it holds a number with {digits} digits")
    try:
        value = json.loads(text)
    except (ValueError, RuntimeError, MemoryError) as exc:  # RuntimeError: CPython's RecursionError
        raise BadData(f"it is not readable JSON ({_first_line(exc)})") from None
    check_numbers(value)
    return value


def check_numbers(value: Any) -> None:
    """``BadData`` for what ``json.loads`` lets through: a float that is not finite, an integer too long.

    CPython reads ``NaN``, ``Infinity`` and ``1e999``; MicroPython reads ``1e999``
    as infinity and integers of any length.  A loop, not recursion, though the
    depth is already known to be small.
    """
    pending = [value]
    while pending:
        item = pending.pop()
        kind = type(item)  # json.loads makes exactly these types; one look, not a chain of isinstance
        if kind is list:
            if item and type(item[0]) in _NUMBER_TYPES:  # likely only numbers: then checked at C speed
                try:
                    if sum(map(abs, item)) < _INT_LIMIT:
                        continue  # only numbers, all small: the common case
                except TypeError:  # not only numbers (an exception costs, in MicroPython in a browser)
                    pass
            pending.extend(item)
        elif kind is dict:
            pending.extend(item.values())
        elif kind is float and item != item:
            raise BadData("it holds NaN, which is not a number")
        elif kind is float and item - item != 0.0:  # infinity less itself is NaN
            raise BadData("it holds a number too large for the page")
        elif kind is int and not -_INT_LIMIT < item < _INT_LIMIT:
            raise BadData(f"it holds a number with {len(str(abs(item)))} digits")


def read_int(text: Any, low: int, high: int, max_digits: int = MAX_INT_DIGITS) -> int:
    """A whole number written in plain decimal digits, ``low <= n <= high``; ``BadData`` otherwise.

    The length is checked before anything reads the characters: a stored value of megabytes is refused
    at once, not walked through (MicroPython takes seconds over five million).
    """
    if not isinstance(text, str):
        raise BadData("it is not text")
    if len(text) > MAX_INT_CHARS:
        raise BadData(f"it is {len(text):,} characters long, more than the {MAX_INT_CHARS:,} a number can be")
    digits = text.strip()
    if digits[:1] == "-" and len(digits) > 1 and all(char in DIGITS for char in digits[1:]):
        raise BadData(f"it is below {low}, the least it can be")  # a whole number, only out of range
    if not digits or not all(char in DIGITS for char in digits):
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


def date_ms(value: Any) -> "float | None":
    """``value`` as ms since 1970 that a browser's ``Date`` can show (0 to ``MAX_DATE_MS``); else ``None``."""
    number = finite_number(value)
    return number if number is not None and 0 <= number <= MAX_DATE_MS else None


def date_problem(summary: "dict[str, Any]") -> "str | None":
    """Why a game's ``started`` or ``ended`` (a ``summary_of`` row) is no date a browser can show; ``None`` if both are.

    ``summary_of`` takes any finite number of ms; a browser's ``Date`` ends in the
    year 275760, and the table of games words each start as a date.
    """
    for field, words in (("started", "start"), ("ended", "end")):
        value = summary.get(field)
        if value is not None and date_ms(value) is None:
            return f"its {words} time ({_number_text(value)} ms since 1970) is not a date"
    return None


def _number_text(value: Any) -> str:
    """A number for a message, the same in MicroPython and CPython (four significant digits)."""
    number = finite_number(value)
    return "too large a number" if number is None else f"{number:.4g}"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:80] if text else type(exc).__name__
