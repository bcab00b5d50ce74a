"""Entry point of the page: PyScript runs it in MicroPython on the main thread; the page is ``app.page``.

MicroPython starts in well under a second; the AI worker runs Pyodide,
declared in ``index.html`` so that it boots at once, in parallel.  This file
does as little as it can inside PyScript's own start (one long task of the
main thread): it names the AI worker, then hands over to ``app.page.start``
in a task of its own.  Nothing at the top level is awaited, so PyScript's
``mpy:done`` is not held back.  That task first gives the worker the main
thread until its Pyodide begins to load (``guarded.js``'s ``aiWorkerLoading``):
the worker's first steps wait for this thread, and the page's start would
otherwise hold them until it is playable.
"""

from pyscript import document

# The window as a DOM object: MicroPython's ``pyscript.window`` is the global scope, and calling a
# method on it (addEventListener, matchMedia) fails with "Illegal invocation".
window = document.defaultView
# When the interpreter began running this page's code, beside the page's other times (app.page) for the benches.
document.body.setAttribute("data-python-start-ms", f"{window.performance.now():.0f}")

import asyncio  # noqa: E402

import js  # noqa: E402
from pyscript import workers  # noqa: E402

from app.ai.worker_start import worker_starter  # noqa: E402

start_ai_worker = worker_starter(window, document, workers)
"""The AI's workers, started as ``app.ai.worker_start`` says (the bench page starts its own the same way)."""

FIRST_MODULES = ("game2048.game", "app.board.view", "app.board.play", "app.browser.storage", "app.games.saved_games")
"""Imported one after another, each in a task of its own, before ``app.page`` (which then finds them loaded): one
task for all the page's first modules would be long enough on a phone to hold a tap back (``pause`` in
``app.page`` does the same between the start's steps)."""

AI_HEAD_START_CAP_MS = 100
"""The longest the page's start waits for the AI worker to begin loading Pyodide (usually a few ms)."""


async def start() -> None:
    """The page, out of PyScript's start task: its modules load and its parts are built in tasks of their own."""
    await asyncio.sleep(0)
    await js.aiWorkerLoading(AI_HEAD_START_CAP_MS)
    try:
        for name in FIRST_MODULES:
            __import__(name)
            window.performance.mark("2048:import " + name)
            await js.nextTask()
        from app import page
    except Exception as exc:  # a module that cannot load: say so where the spinner is, not only in the console
        document.querySelector("#loading p").textContent = f"The game could not start: {exc}. Please reload."
        raise
    await page.start(start_ai_worker)


STARTED = asyncio.create_task(start())
