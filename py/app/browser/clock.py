"""The page's two clocks: the wall clock for a game's record, and a clock that only goes forward for every wait.

``now_ms(window)`` is the browser's time in ms since 1970, for the start and
end of a game's record.  ``Date.now()`` cannot be read as a number here:
MicroPython's bridge to JavaScript hands an integral number over as a 32-bit
integer, and today's time in ms needs 41 bits.  So the time is read as
``Date``'s ISO text and counted in Python.

``monotonic()`` and ``sleep(seconds)`` are for every countdown, time limit and
pause of the page, never the wall clock: in the browser, MicroPython's
``time.ticks_ms`` is ``Date.now()``, and its ``asyncio.sleep`` waits until
that clock reaches a time, so a clock set back a day made a one-second sleep
last a day (a countdown froze, and a time limit never came).  In a browser they read ``performance.now()`` and wait on a
timer (``setTimeout``), which only go forward; in CPython, ``perf_counter``
and ``asyncio.sleep``, monotonic there.
"""

import asyncio
import time

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass

try:  # the browser's global scope: the page's MicroPython (and MicroPython in Node, for the tests)
    import js
except ImportError:  # CPython
    js = None


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


def monotonic() -> float:
    """Seconds by a clock that only goes forward, from an arbitrary start: the browser's ``performance.now()``."""
    if js is None:
        return time.perf_counter()
    return float(js.performance.now()) / 1000.0


async def sleep(seconds: float) -> None:
    """Wait ``seconds`` on the browser's timer, whatever the wall clock does; 0 only lets ready tasks run.

    A promise resolved by ``setTimeout``: awaiting it, MicroPython's loop
    wakes the task when the browser's timer fires, not by its own clock.
    """
    if js is None or seconds <= 0:
        await asyncio.sleep(max(0.0, seconds))
        return
    ms = int(seconds * 1000 + 0.5)
    await js.Promise.new(lambda resolve, _reject: js.setTimeout(resolve, ms))
