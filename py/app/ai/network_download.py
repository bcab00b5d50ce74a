"""The page's side of the learned network's download: ask the worker, show how far it is, say how it ended.

The worker downloads and checks the file (``game2048.evaluation.network_loader``:
in ranges, resumed where a dropped connection stopped it); the page asks it to
(``load_network``) and, while that runs, polls ``network_progress`` to show
"Downloading the learned network: 1,234 of 31,519 KB (3.9 %), 20 KB/s, about
25 min left (a slow line)".  The download has no time limit: a slow line takes
as long as it takes, and the polls, each with its own limit, are what tell a
worker that died from one that is busy.  The answer is the worker's: ``ok``
with the network's size and shape, or the message that says what was wrong.
The stages' names are ``game2048.evaluation.network_stages``, the loader's own.  Plain Python for the page's
MicroPython.
"""

import asyncio

from app.browser.clock import sleep
from game2048.evaluation import network_stages as stages

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

POLL_S = 0.25
"""How often the page asks the worker how far the download is."""
PROGRESS_BUDGET_MS = 20000.0
"""A progress poll waits while the worker decodes the file (seconds on a phone): never mistaken for a dead worker;
a poll that is not answered within its limit (103 s) is a worker that died, restarted like any other."""
SLOW_LEFT_S = 120
"""A download with more than this left, at the rate measured, is said to be on a slow line."""


def page_folder(base_uri: str) -> str:
    """The folder of the page's address (``document.baseURI``), ending in ``/``: where ``networks/`` lies."""
    address = base_uri.split("#")[0].split("?")[0]
    return address[: address.rfind("/") + 1]


def duration_text(seconds: float) -> str:
    """``seconds`` for a person: "40 s", "25 min", "1 h 5 min"."""
    seconds = int(seconds + 0.5)
    if seconds < 90:
        return f"{seconds} s"
    minutes = (seconds + 30) // 60
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60} min"


def progress_text(progress: "dict[str, Any]") -> str:
    """What the download's line says: the kilobytes so far and in all, the rate, the time left, resumes."""
    stage = progress.get("stage")
    if stage == stages.DOWNLOADING:
        loaded, total = int(progress.get("loaded") or 0), int(progress.get("total") or 0)
        rate, left = int(progress.get("rate") or 0), progress.get("left_s")
        left = -1 if left is None else int(left)
        text = f"Downloading the learned network: {_kb(loaded)}"
        if total > 0:
            text += f" of {_kb(total)} KB ({loaded * 100 / total:.1f} %)"
        else:
            text += " KB"
        if rate > 0:
            text += f", {_kb(rate)} KB/s"
        if left >= 0 and rate > 0:
            text += f", about {duration_text(left)} left"
            if left > SLOW_LEFT_S:
                text += " (a slow line)"
        resumed = int(progress.get("resumed") or 0)
        if resumed:
            text += f"; resumed {resumed} time{'s' if resumed > 1 else ''} where the connection dropped"
        return text + "\u2026"
    if stage == stages.CACHE:
        return "Reading the learned network kept in this browser\u2026"
    if stage == stages.CHECKING:
        return "Checking the learned network and building its tables\u2026"
    return "Asking for the learned network\u2026"


def _kb(count: int) -> str:
    return f"{(count + 500) // 1000:,}"


def ready_text(answer: "dict[str, Any]") -> str:
    """What the status line says once the network is in use (and why a kept copy was downloaded again)."""
    size = float(answer.get("bytes") or 0) / 1e6
    text = f"Learned network ready ({answer.get('shape')}, {size:.1f} MB)."
    dropped = str(answer.get("dropped") or "")
    if dropped:
        text += f" The copy this browser kept was bad ({dropped}): downloaded again."
    return text


async def download(client: "Any", base: str, show: "Callable[[str], None]") -> "dict[str, Any]":
    """Have the worker load the network from ``base``, calling ``show`` with each progress text; its answer.

    The answer always has ``ok``: a worker that died (a progress poll that
    failed for want of an answer) comes back as the client's own failure
    answer, with ``restart``; the download is then given up.  Cancelled (its
    worker replaced), it cancels its ``load_network`` call too.
    """
    outcome: dict[str, Any] = {}

    async def load() -> None:
        outcome["answer"] = await client.call("load_network", {"base": base}, None)

    task = asyncio.create_task(load())
    shown = ""
    try:
        while "answer" not in outcome:
            progress = await client.call("network_progress", {}, PROGRESS_BUDGET_MS)
            if "answer" in outcome:
                break
            if not progress.get("ok") and progress.get("restart"):
                return progress
            text = progress_text(progress if progress.get("ok") else {})
            if text != shown:
                show(text)
                shown = text
            await sleep(POLL_S)
        await task
    finally:
        if not task.done():  # given up, or the download itself cancelled (its worker replaced): the call too
            task.cancel()
    return outcome["answer"]
