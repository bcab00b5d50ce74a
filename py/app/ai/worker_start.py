"""Starting the AI's PyScript workers: the one ``index.html`` declares, and any the page adds (retries, helpers).

Shared by the page (``main.py``) and the bench page (``bench.html``), so the bench starts its workers exactly as
the page does.  Plain Python that MicroPython runs; the browser's objects come in as arguments.
"""

from app.browser.fetch_text import FetchError, fetch_ok

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Awaitable, Callable
    from typing import Any
except ImportError:
    pass

AI_WORKER_NAME = "ai"  # as index.html declares it
AI_WORKER_SRC = "./py/app/ai/worker.py"
AI_WORKER_CONFIG = "./pyscript-worker.toml"


def worker_starter(window: "Any", document: "Any", workers: "Any") -> "Callable[..., Awaitable[Any]]":
    """``start(attempt, base="ai")``: the worker named ``base`` (``base-N`` for attempt N > 1), declared if new.

    A worker the page does not declare is declared here (PyScript boots script
    tags added later).  The worker's file is fetched first: PyScript reports a
    file it cannot fetch only as a page error, and its worker promise then
    never settles.  ``base`` names a helper (``app.ai.split``: ``ai-help-1``...).
    """

    async def start(attempt: int, base: str = AI_WORKER_NAME) -> "Any":
        try:
            await fetch_ok(window, AI_WORKER_SRC)
        except FetchError as exc:
            reason = "network error" if exc.status is None else f"HTTP {exc.status}"
            raise RuntimeError(f"its file could not be loaded ({reason})") from None
        name = base if attempt == 1 else f"{base}-{attempt}"
        if document.querySelector(f'script[name="{name}"]') is None:
            script = document.createElement("script")
            for key, value in (
                ("type", "py"),
                ("worker", ""),
                ("name", name),
                ("src", AI_WORKER_SRC),
                ("config", AI_WORKER_CONFIG),
            ):
                script.setAttribute(key, value)
            document.body.appendChild(script)
        return await workers[name]

    return start
