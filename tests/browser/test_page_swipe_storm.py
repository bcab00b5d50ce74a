"""Fast swipes on a slow phone: every stroke is played, whatever the slide removes from under the finger (issue 53).

A finger that lands on a tile the running slide then removes keeps that tile as its touch's target: its
``touchend`` goes to a node no longer in the page, which bubbles to nothing. The swipes here are sent as a finger
makes them, 15 ms apart whatever the page is doing, so the browser queues them while the slowed main thread is
busy; Playwright's synchronous CDP session would wait for the page to take each event before sending the next,
so this module drives Chromium through Playwright's asyncio API, with a browser of its own (in a thread of its
own, ``app_async``: the other modules' synchronous API leaves an event loop in the main thread).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import page_storage
from app_async import run_async
from browser import DEFAULT_READY_TIMEOUT_MS, READY_SELECTOR, launch_chromium, watch_page
from pagekit import SETTLE_TIMEOUT_MS, SETTLED_SELECTOR, TILES_JS, board_rows, replay

from game2048.board import to_rows
from game2048.game import Game

SWIPES = 200
GAP_S = 0.015
EVENT_GAP_S = 0.008
"""A touch screen reports a finger every 8 ms (120 Hz): a swipe of four events lasts 24 ms."""
CPU_SLOWDOWN = 4
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 3}
SEED = 56
STEP_PX = {"up": (0, -30), "right": (30, 0), "down": (0, 30), "left": (-30, 0)}


def swipe_plan(count: int = SWIPES, seed: int = SEED) -> list[tuple[int, str]]:
    """``count`` swipes as (the cell the finger lands on, direction): down and left, the corner a person keeps, at
    times right, so the game lasts; the cells spread over the board, so fingers land on tiles a slide removes."""
    pick = random.Random(seed)
    return [
        (pick.randrange(16), pick.choice(("down", "left", "down", "left", "down", "left", "right")))
        for _ in range(count)
    ]


def schedule(box: dict[str, float], plan: list[tuple[int, str]]) -> list[tuple[float, dict[str, Any]]]:
    """The touch events of ``plan`` with the second each is sent at: a swipe from the middle of its cell is a
    touch down, two moves of 30 px and a touch up ``EVENT_GAP_S`` apart, and the next swipe begins ``GAP_S`` after."""
    events: list[tuple[float, dict[str, Any]]] = []
    at = 0.0
    for cell, direction in plan:
        row, col = divmod(cell, 4)
        x, y = box["x"] + (col + 0.5) * box["width"] / 4, box["y"] + (row + 0.5) * box["height"] / 4
        dx, dy = STEP_PX[direction]
        moves = [{"type": "touchMove", "touchPoints": [{"x": x + dx * step, "y": y + dy * step}]} for step in (1, 2)]
        stroke = [
            {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]},
            *moves,
            {"type": "touchEnd", "touchPoints": []},
        ]
        for index, event in enumerate(stroke):
            events.append((at + index * EVENT_GAP_S, event))
        at += (len(stroke) - 1) * EVENT_GAP_S + GAP_S
    return events


async def touch_listeners(cdp: Any) -> dict[str, int]:
    """How many listeners of each touch event the board and the elements in it hold."""
    board = await cdp.send("Runtime.evaluate", {"expression": "document.getElementById('board')"})
    found = await cdp.send("DOMDebugger.getEventListeners", {"objectId": board["result"]["objectId"], "depth": -1})
    counts: dict[str, int] = {}
    for listener in found["listeners"]:
        if listener["type"].startswith("touch"):
            counts[listener["type"]] = counts.get(listener["type"], 0) + 1
    return counts


async def _storm(server_url: str, plan: list[tuple[int, str]]) -> tuple[Any, ...]:
    """After ``plan`` swiped at ``CPU_SLOWDOWN``: the page's board, score and saved move count; the touch listeners
    in the board then, while a finger is on the corner's tile, and once it has left; the page's errors."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        chromium = await launch_chromium(playwright)
        try:
            context = await chromium.new_context(service_workers="block", **PHONE)
            page = await context.new_page()
            watch_page(page, [])
            await page.goto(f"{server_url}/index.html?seed={SEED}")
            await page.wait_for_selector(READY_SELECTOR, state="attached", timeout=DEFAULT_READY_TIMEOUT_MS)
            box = await page.locator("#board").bounding_box()
            cdp = await context.new_cdp_session(page)
            await cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
            loop = asyncio.get_running_loop()
            started = loop.time()
            sent = []
            for at, event in schedule(box, plan):  # each sent in its time, none waiting for the page to take it
                await asyncio.sleep(max(0.0, started + at - loop.time()))
                sent.append(asyncio.ensure_future(cdp.send("Input.dispatchTouchEvent", event)))
            await asyncio.gather(*sent)
            await page.wait_for_selector(SETTLED_SELECTOR, state="attached", timeout=SETTLE_TIMEOUT_MS)
            await cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
            rows = board_rows(await page.eval_on_selector_all("#board .tile", TILES_JS))
            score = int(await page.text_content("#score"))
            saved = page_storage.saved_game(await page.evaluate(page_storage.STORAGE_ITEMS_JS))
            listening = [await touch_listeners(cdp)]
            x, y = box["x"] + box["width"] * 7 / 8, box["y"] + box["height"] * 7 / 8  # the corner's tile
            await cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
            listening.append(await touch_listeners(cdp))
            await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
            listening.append(await touch_listeners(cdp))
            return rows, score, saved and saved["moves"], listening, page.console_errors
        finally:
            await chromium.close()


def test_200_swipes_15_ms_apart_on_a_slow_phone_are_all_played(server_url):
    """200 swipes 15 ms apart at CPU x4 on a 390x844 phone: the page's game equals CPython's for the same swipes
    (before issue 53, 1-4 of 80 swipes 25 ms apart did not happen)."""
    plan = swipe_plan()
    expected = replay(Game.new(SEED), [direction for _, direction in plan])
    assert not expected.over and expected.moves > 150  # the swipes play a long game, not one soon over
    rows, score, moves, listening, errors = run_async(lambda: _storm(server_url, plan))
    assert (rows, score, moves) == (to_rows(expected.board), expected.score, expected.moves)
    board_only = {"touchstart": 1, "touchend": 1, "touchcancel": 1}
    followed = {"touchstart": 1, "touchend": 2, "touchcancel": 2}  # the end heard on the touched tile too
    assert listening == [board_only, followed, board_only]  # and no longer once the finger left: none pile up
    assert errors == []
