"""What each panel needs to live in the page: listeners whose proxies stay alive, and tasks kept until done.

A Python function handed to ``addEventListener`` must stay wrapped in a
proxy for as long as the page may call it, and a task must be referenced
until it ends, or either can be collected mid-flight.  Every panel keeps one
``Wiring``; ``create_proxy`` is ``pyscript.ffi.create_proxy`` in the page and
the identity in CPython tests.
"""

import asyncio

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable, Coroutine
    from typing import Any
except ImportError:
    pass


class Wiring:
    """One panel's event proxies and running tasks."""

    def __init__(self, create_proxy: Callable[[Callable[..., Any]], Any]) -> None:
        self.create_proxy = create_proxy
        self.proxies: list[Any] = []
        self.tasks: set[asyncio.Task[Any]] = set()

    def listen(self, element: Any, event: str, handler: "Callable[[Any], object]") -> None:
        """``element.addEventListener(event, handler)``, the handler kept alive as long as the panel."""
        proxy = self.create_proxy(handler)
        self.proxies.append(proxy)
        element.addEventListener(event, proxy)

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``coroutine`` as a task, referenced in ``tasks`` until it ends."""
        task = asyncio.create_task(self._until_done(coroutine))
        self.tasks.add(task)
        return task

    async def _until_done(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        # The task forgets itself (MicroPython's tasks have no ``add_done_callback``).
        try:
            return await coroutine
        finally:
            self.tasks.discard(asyncio.current_task())
