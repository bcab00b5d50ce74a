"""What each panel needs to live in the page: listeners whose proxies stay alive, and tasks kept until done.

A Python function handed to ``addEventListener`` must stay wrapped in a
proxy for as long as the page may call it, and a task started with
``ensure_future`` must be referenced until it ends, or either can be
collected mid-flight.  Every panel keeps one ``Wiring``; ``create_proxy`` is
``pyodide.ffi.create_proxy`` in the page and the identity in CPython tests.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any


class Wiring:
    """One panel's event proxies and running tasks."""

    def __init__(self, create_proxy: Callable[[Callable[..., Any]], Any]) -> None:
        self.create_proxy = create_proxy
        self.proxies: list[Any] = []
        self.tasks: set[asyncio.Future[Any]] = set()

    def listen(self, element: Any, event: str, handler: Callable[[Any], None]) -> None:
        """``element.addEventListener(event, handler)``, the handler kept alive as long as the panel."""
        proxy = self.create_proxy(handler)
        self.proxies.append(proxy)
        element.addEventListener(event, proxy)

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Future[Any]:
        """Run ``coroutine`` as a task, referenced until it ends."""
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task
