"""Entry point of the page: build the parts and wire them, like the original's ``application.js``.

The game is playable as soon as this has run: ``<body data-ready="true">``
is set here, before (and independently of) the AI worker, which loads its
own interpreter in the background.  Nothing at the top level is awaited, so
PyScript's ``py:done`` is not held back.
"""

from __future__ import annotations

from pyscript import window as _window

PYTHON_START_MS = _window.performance.now()  # when the interpreter began running this page's code

import asyncio  # noqa: E402
import sys  # noqa: E402
from typing import Callable  # noqa: E402

from pyodide.ffi import create_proxy  # noqa: E402
from pyscript import document, window, workers  # noqa: E402

from app.ai_client import AiClient  # noqa: E402
from app.ai_controls import SHORTCUTS, AiControls  # noqa: E402
from app.inputs import InputRouter  # noqa: E402
from app.page_options import parse_page_options  # noqa: E402
from app.play import Intent, PlaySession  # noqa: E402
from app.storage import Storage, browser_backend  # noqa: E402
from app.view import BoardView  # noqa: E402
from game2048.game import Game  # noqa: E402

IMPORTED_MS = window.performance.now()
_keep_alive: list[object] = []  # event proxies that must live as long as the page


def on_click(element_id: str, handler: Callable[[], None]) -> None:
    proxy = create_proxy(lambda _event: handler())
    _keep_alive.append(proxy)
    document.getElementById(element_id).addEventListener("click", proxy)


AI_WORKER_ATTRIBUTES = {"type": "py", "worker": "", "name": "ai", "src": "./py/app/ai_worker.py",
                        "config": "./pyscript.toml"}


def start_ai_worker() -> None:
    """Declare the AI worker now that the game is playable (PyScript boots script tags added later)."""
    script = document.createElement("script")
    for name, value in AI_WORKER_ATTRIBUTES.items():
        script.setAttribute(name, value)
    document.body.appendChild(script)


def main() -> PlaySession:
    options = parse_page_options(str(window.location.search))
    storage = Storage(browser_backend())
    view = BoardView(document)

    notices = list(options.notices)
    game, notice = storage.load_game()
    if notice:
        notices.append(notice)
    if options.seed is not None and (game is None or game.seed != options.seed):
        game = Game.new(options.seed)
    if game is None:
        game = Game.new(None)
    storage.save_game(game)

    session = PlaySession(game, view, storage, new_game=lambda: Game.new(options.seed))
    session.start()

    def move(direction) -> None:
        session.submit(Intent.move(direction))

    def restart() -> None:
        session.submit(Intent("restart"))

    def keep_going() -> None:
        session.submit(Intent("keep_going"))

    controls = AiControls(document, session, view, AiClient(), storage, create_proxy)
    key_actions = {"r": restart, **{key: controls.shortcut(action) for key, action in SHORTCUTS.items()}}
    _keep_alive.extend([controls, InputRouter(document, view.board_el, move, key_actions)])
    on_click("new-game", restart)
    on_click("win-new-game", restart)
    on_click("try-again", restart)
    on_click("keep-going", keep_going)
    on_click("notice-close", view.hide_notice)
    if notices:
        view.show_notice(" ".join(notices))

    python = ".".join(map(str, sys.version_info[:3]))
    document.getElementById("runtime-line").textContent = (
        f"This game runs in Python {python}, in this browser (PyScript + Pyodide), served from this site alone.")
    document.getElementById("loading").hidden = True
    document.body.setAttribute("data-python-start-ms", f"{PYTHON_START_MS:.0f}")
    document.body.setAttribute("data-imported-ms", f"{IMPORTED_MS:.0f}")
    document.body.setAttribute("data-ready-ms", f"{window.performance.now():.0f}")
    document.body.setAttribute("data-ready", "true")
    # The worker loads its own interpreter from now on; the AI buttons come alive when it answers.
    start_ai_worker()
    _keep_alive.append(asyncio.ensure_future(controls.connect(workers["ai"])))
    return session


SESSION = main()
