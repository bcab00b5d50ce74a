"""The browser's clock in ms since 1970, for the start and end of a game's record.

``Date.now()`` cannot be read as a number here: MicroPython's bridge to
JavaScript hands an integral number over as a 32-bit integer, and today's
time in ms needs 41 bits.  So the time is read as ``Date``'s ISO text and
counted in Python.
"""

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass


def days_since_1970(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's ``days_from_civil``)."""
    if month <= 2:
        year -= 1
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def iso_ms(text: str) -> float:
    """``Date.prototype.toISOString()`` text (``YYYY-MM-DDTHH:MM:SS.sssZ``) as ms since 1970, else ValueError."""
    if len(text) != 24 or text[4] != "-" or text[10] != "T" or text[19] != "." or text[23] != "Z":
        raise ValueError(f"not an ISO time: {text[:40]!r}")
    year, month, day = int(text[0:4]), int(text[5:7]), int(text[8:10])
    hours, minutes, seconds, ms = int(text[11:13]), int(text[14:16]), int(text[17:19]), int(text[20:23])
    days = days_since_1970(year, month, day)
    return float((((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000 + ms)


def now_ms(window: Any) -> float:
    """The browser's time now, in ms since 1970."""
    return iso_ms(str(window.Date.new().toISOString()))
