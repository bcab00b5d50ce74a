"""Entry point of the page: PyScript runs it in MicroPython on the main thread; the page is ``app.page``.

MicroPython starts in well under a second; the AI worker runs Pyodide,
declared in ``index.html`` so that it boots at once, in parallel.  This file
does as little as it can inside PyScript's own start (one long task of the
main thread): it names the AI worker, then hands over to ``app.page.start``
in a task of its own.  Nothing at the top level is awaited, so PyScript's
``mpy:done`` is not held back.
"""

from pyscript import document

# The window as a DOM object: MicroPython's ``pyscript.window`` is the global scope, and calling a
# method on it (addEventListener, matchMedia) fails with "Illegal invocation".
window = document.defaultView
# When the interpreter began running this page's code, beside the page's other times (app.page) for the benches.
document.body.setAttribute("data-python-start-ms", f"{window.performance.now():.0f}")

import asyncio  # noqa: E402

from pyscript import workers  # noqa: E402

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from typing import Any
except ImportError:
    pass

AI_WORKER_NAME = "ai"  # as index.html declares it
AI_WORKER_SRC = "./py/app/ai_worker.py"
AI_WORKER_CONFIG = "./pyscript-worker.toml"


async def start_ai_worker(attempt: int, base: str = AI_WORKER_NAME) -> Any:
    """The AI worker: first the one ``index.html`` declares, then a new one per attempt, with a name of its own.

    ``base`` names a helper worker instead (``app.ai_split``: ``ai-help-1``...), which the page declares here.

    A worker the page does not declare is declared here (PyScript boots script
    tags added later).  The worker's file is fetched first: PyScript reports a
    file it cannot fetch only as a page error, and its worker promise then
    never settles.
    """
    try:
        response = await window.fetch(AI_WORKER_SRC)
    except Exception:  # noqa: BLE001 - a JavaScript network error
        raise RuntimeError("its file could not be loaded (network error)") from None
    if not response.ok:
        raise RuntimeError(f"its file could not be loaded (HTTP {response.status})")
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


async def start() -> None:
    """The page, out of PyScript's start task: its modules load and its parts are built in tasks of their own."""
    await asyncio.sleep(0)
    try:
        from app import page
    except Exception as exc:  # a module that cannot load: say so where the spinner is, not only in the console
        document.querySelector("#loading p").textContent = f"The game could not start: {exc}. Please reload."
        raise
    await page.start(start_ai_worker)


STARTED = asyncio.create_task(start())
