"""Run a coroutine to completion on its own event loop, in its own thread.

``asyncio.run`` refuses to start inside a thread whose loop is already
running, which is the case once Playwright's sync API (the browser tests, in
the same pytest process) has run there; a short-lived thread avoids that.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any


def run_async(make_coroutine: Callable[[], Awaitable[Any]]) -> Any:
    result: dict[str, Any] = {}

    def target() -> None:
        try:
            result["value"] = asyncio.run(make_coroutine())
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            result["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in result:
        raise result["error"]
    return result.get("value")
