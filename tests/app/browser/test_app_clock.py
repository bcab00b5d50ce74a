"""The page's clocks: the wall clock read as text (the same ms since 1970 as Python's datetime, for any date a
browser shows), and the one every wait of the page goes by, which a clock set back does not stop (issue 53)."""

from __future__ import annotations

import asyncio
import json
import types
from datetime import UTC, datetime, timedelta

import pytest
from app_async import run_async
from hypothesis import given
from hypothesis import strategies as st
from micropython_runner import run_micropython

from app.browser import clock
from app.browser.clock import iso_ms

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@given(st.datetimes(min_value=datetime(1970, 1, 1), max_value=datetime(9999, 12, 31)))
def test_iso_text_counts_the_same_ms_as_datetime(moment):
    moment = moment.replace(microsecond=moment.microsecond // 1000 * 1000, tzinfo=UTC)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
    assert iso_ms(text) == (moment - EPOCH) / timedelta(milliseconds=1)


@pytest.mark.parametrize("text", ["", "2026-11-24", "2026-11-24T15:10:00Z", "+020000-01-01T00:00:00.000Z"])
def test_other_text_is_refused(text):
    with pytest.raises(ValueError):
        iso_ms(text)


class FakeBrowser:
    """The browser's globals ``app.browser.clock`` reads, on the test's event loop: ``performance.now()`` goes on
    with the loop's clock while ``Date`` (the wall clock) is set back two days; ``setTimeout`` and ``Promise``."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.started = self.loop.time()
        self.timers: list[int] = []
        self.performance = types.SimpleNamespace(now=lambda: (self.loop.time() - self.started) * 1000 + 5000)
        wall = datetime.now(UTC) - timedelta(days=2)
        self.Date = types.SimpleNamespace(now=lambda: wall.timestamp() * 1000)
        self.Promise = types.SimpleNamespace(new=self._promise)

    def setTimeout(self, callback, ms):  # noqa: N802 - the browser's name
        self.timers.append(ms)
        self.loop.call_later(ms / 1000, callback)

    def _promise(self, executor):
        future = self.loop.create_future()
        executor(lambda *_value: future.done() or future.set_result(None), lambda *_error: None)
        return future


def test_in_a_browser_the_monotonic_clock_is_performance_now_and_a_sleep_waits_on_a_timer(monkeypatch):
    async def refused(seconds):
        raise AssertionError(f"asyncio.sleep({seconds}): MicroPython's waits by the wall clock")

    async def scenario():
        browser = FakeBrowser()
        monkeypatch.setattr(clock, "js", browser)
        before = clock.monotonic()
        monkeypatch.setattr(clock.asyncio, "sleep", refused)
        await clock.sleep(0.05)
        return before, clock.monotonic() - before, browser.timers

    before, slept, timers = run_async(scenario)
    assert 5.0 <= before < 5.5  # performance.now() in seconds, not Date's ms since 1970
    assert 0.05 <= slept < 1.0 and timers == [50]


CLOCK_SET_BACK = """
import asyncio
import json

import js

from app.ai.client import LOADING_STAGES, _within
from app.ai.controls import show_loading

js.eval("(() => { const wall = Date.now; globalThis.clockBack = 0; Date.now = () => wall() - clockBack; })()")


def browser_timer(ms):
    return js.Promise.new(lambda resolve, _reject: js.setTimeout(resolve, ms))


class Starting:
    stage, attempts = LOADING_STAGES[0], 1


async def main():
    shown, loading, limited = [], [True], []
    counter = asyncio.create_task(
        show_loading(Starting(), lambda: loading[0], lambda text, say="": shown.append(text.split("\\u2026 ")[1]))
    )
    await browser_timer(1300)
    js.clockBack = 2 * 86400 * 1000  # the system's clock is set back two days
    back = js.performance.now()

    async def limit():
        try:
            await _within(asyncio.Event().wait(), 1.0)  # an answer that never comes
            limited.append("answered")
        except asyncio.TimeoutError:
            limited.append((js.performance.now() - back) / 1000)

    limiting = asyncio.create_task(limit())
    await browser_timer(2300)
    loading[0] = False
    js.clockBack = 0
    counter.cancel()
    limiting.cancel()
    await browser_timer(10)
    return [shown, limited]

print(json.dumps(await asyncio.create_task(main())))
"""
"""The start's countdown and a call's time limit in the page's interpreter, MicroPython, whose ``time.ticks_ms`` is
``Date.now()``: its clock is set back two days 1.3 s in, then 2.3 s go by on the browser's timer."""


def test_in_the_pages_micropython_a_clock_set_back_two_days_stops_no_countdown_and_no_time_limit():
    """Issue 53: the AI's start froze at "2 s" when the clock went back a day, and its give-up never came."""
    shown, limited = json.loads(run_micropython(CLOCK_SET_BACK))
    assert shown == ["0 s", "1 s", "2 s", "3 s"]  # a countdown once a second, the clock set back or not
    assert len(limited) == 1 and 1.0 <= limited[0] < 2.0  # the limit of 1 s came (at a tick past it)
