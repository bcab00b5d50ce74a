"""Entry point of the page: build the parts and wire them, like the original's ``application.js``.

It runs in MicroPython on the main thread, which starts in well under a
second; the AI worker runs Pyodide, declared in ``index.html`` so that it
boots at once, in parallel, and is awaited here.  The game is playable as
soon as this has run: ``<body data-ready="true">`` is set here, before (and
independently of) the AI worker.  Nothing at the top level is awaited, so PyScript's ``mpy:done`` is
not held back.  If wiring the page fails whatever the reason, it is wired
again over an empty in-memory storage, so the page opens on a fresh game with
a notice instead of staying on its spinner.
"""

from pyscript import document

# The window as a DOM object: MicroPython's ``pyscript.window`` is the global scope, and calling a
# method on it (addEventListener, matchMedia) fails with "Illegal invocation".
window = document.defaultView
PYTHON_START_MS = window.performance.now()  # when the interpreter began running this page's code

import asyncio  # noqa: E402
import sys  # noqa: E402

from pyscript import workers  # noqa: E402
from pyscript.ffi import create_proxy  # noqa: E402

from app.ai_client import AiClient  # noqa: E402
from app.ai_controls import SHORTCUTS, AiControls  # noqa: E402
from app.ai_panel import AiPanel  # noqa: E402
from app.clock import now_ms  # noqa: E402
from app.editor import EDIT_KEY, PositionEditor  # noqa: E402
from app.explorer import EXPLORER_KEY, Explorer  # noqa: E402
from app.game_switch import GameSwitcher  # noqa: E402
from app.games_panel import GAMES_KEY_LETTER, GamesPanel  # noqa: E402
from app.glossary import TermTips, mark_terms  # noqa: E402
from app.inputs import InputRouter  # noqa: E402
from app.motion import MotionToggle  # noqa: E402
from app.page_options import forget_option  # noqa: E402
from app.play import SLIDE_SECONDS, Intent, PlaySession  # noqa: E402
from app.replay_view import ReplayView  # noqa: E402
from app.replays import REPLAY_KEY, Replays  # noqa: E402
from app.saved_games import SavedGames  # noqa: E402
from app.startup import choose_game, fresh_game  # noqa: E402
from app.storage import TAB_CHARS, MemoryBackend, Storage, browser_backend, session_tab_id  # noqa: E402
from app.tree_walk import TreeWalk  # noqa: E402
from app.view import BoardView  # noqa: E402
from game2048.board import to_rows  # noqa: E402
from game2048.game import fresh_seed  # noqa: E402
from game2048.game_record import LINK_MOVE_PARAM, LINK_PARAM  # noqa: E402

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

IMPORTED_MS = window.performance.now()
_keep_alive: list[object] = []  # event proxies that must live as long as the page

AI_WORKER_NAME = "ai"  # as index.html declares it
AI_WORKER_SRC = "./py/app/ai_worker.py"
AI_WORKER_CONFIG = "./pyscript-worker.toml"


def on_event(target: Any, event: str, handler: Callable[[Any], None]) -> None:
    proxy = create_proxy(handler)
    _keep_alive.append(proxy)
    target.addEventListener(event, proxy)


def on_click(element_id: str, handler: Callable[[], None]) -> None:
    on_event(document.getElementById(element_id), "click", lambda _event: handler())


async def start_ai_worker(attempt: int) -> Any:
    """The AI worker: first the one ``index.html`` declares, then a new one per attempt, with a name of its own.

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
    name = AI_WORKER_NAME if attempt == 1 else f"{AI_WORKER_NAME}-{attempt}"
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


def _text(value: Any) -> str | None:
    """A JS string, or None for JavaScript's null (whichever way the interpreter hands it over)."""
    return value if isinstance(value, str) else None


def runtime_line(implementation: Any) -> str:
    """The footer's sentence naming the interpreters: this one for the board, Pyodide for the AI."""
    name = "MicroPython" if implementation.name == "micropython" else "Python"
    version = ".".join(str(part) for part in implementation.version[:3])
    return (
        f"This game runs in Python in this browser: {name} {version} for the board, Pyodide (CPython) "
        "in a worker for the AI, both served from this site alone."
    )


def clock() -> float:
    """Now, in ms since 1970 (the browser's clock): when a game started and ended, for its record."""
    return now_ms(window)


def new_tab_id() -> str:
    """A new tab's id: a fresh random number in base 36 (``app.storage.TAB_CHARS``)."""
    number, digits = fresh_seed(), []
    while number:
        number, digit = divmod(number, len(TAB_CHARS))
        digits.append(TAB_CHARS[digit])
    return "".join(digits) or "0"


def main(storage: Storage, query: str, notices: tuple[str, ...] = ()) -> PlaySession:
    saved = SavedGames(storage, session_tab_id(window, new_tab_id), clock)
    view = BoardView(document)
    start = choose_game(query, saved, clock)
    session = PlaySession(start.game, view, saved, new_game=lambda: fresh_game(start.seed, clock()), clock=clock)
    session.start()
    session.restore_history()  # replays the saved game's record once the page is playable
    switcher = GameSwitcher(session, saved, view)

    def pace(reduced: bool) -> None:
        session.slide_seconds = 0 if reduced else SLIDE_SECONDS

    system_reduces = bool(window.matchMedia("(prefers-reduced-motion: reduce)").matches)
    _keep_alive.append(MotionToggle(document, storage, create_proxy, pace, system_reduces))

    def move(direction) -> None:
        session.submit(Intent.move(direction))

    def restart() -> None:
        session.submit(Intent("restart"))

    def keep_going() -> None:
        session.submit(Intent("keep_going"))

    def undo() -> None:
        session.submit(Intent("undo"))

    def redo() -> None:
        session.submit(Intent("redo"))

    client = AiClient(start_ai_worker)
    ai_panel = AiPanel(document, client, storage, view, create_proxy)
    controls = AiControls(document, session, view, client, ai_panel, create_proxy)
    ai_panel.on_failure = controls.fail  # a network download that killed the worker restarts it
    controls.explorer = explorer = Explorer(document, client, session, storage, create_proxy, controls.fail)

    tree_walk = TreeWalk(
        document,
        client,
        session,
        create_proxy,
        evaluation=lambda: ai_panel.settings.request([]),
        on_worker_failed=controls.fail,
        explained_board=explorer.explained_board,
    )
    controls.on_connected.append(tree_walk.refresh)  # its build button waits for the worker too
    _keep_alive.append(tree_walk)
    editor = PositionEditor(document, session, view, saved, create_proxy, controls.hold, start.from_link)
    replay, panel = replay_parts(session, saved, switcher, controls, client, explorer)
    key_actions = {"r": restart, "b": switcher.resume_kept, EXPLORER_KEY: explorer.toggle, "u": undo, "y": redo}
    key_actions.update({key: controls.shortcut(action) for key, action in SHORTCUTS.items()})
    key_actions[GAMES_KEY_LETTER] = panel.toggle
    key_actions[REPLAY_KEY] = replay.current

    def guard(action: Callable[..., None]) -> Callable[..., None]:
        """While a position is edited or a replay is open, game moves and game keys do nothing."""
        return editor.guard(lambda *args: None if replay.view.is_open else action(*args))

    game_keys = {key: guard(action) for key, action in key_actions.items()}
    game_keys[EDIT_KEY] = lambda: None if replay.view.is_open else editor.toggle()  # T plays the edited position
    history_keys = {"undo": guard(undo), "redo": guard(redo)}  # Ctrl/Cmd+Z, Ctrl+Shift+Z, Ctrl+Y
    router = InputRouter(document, view.board_el, guard(move), game_keys, history_keys)
    mark_terms(document)  # the readout's and the settings' words explain themselves (app.glossary)
    _keep_alive.extend([controls, ai_panel, editor, router, replay, panel, TermTips(document, create_proxy)])
    on_click("new-game", restart)
    on_click("win-new-game", restart)
    on_click("try-again", restart)
    on_click("keep-going", keep_going)
    on_click("kept-games", switcher.resume_kept)
    on_click("undo", editor.guard(undo))
    on_click("redo", editor.guard(redo))
    on_click("notice-close", view.hide_notice)
    on_click("notice-action", view.run_notice_action)
    on_event(window, "storage", lambda event: switcher.on_storage(_text(event.key), _text(event.newValue)))
    shown = list(notices) + list(start.notices) + list(storage.take_notices())  # the last: refused settings
    if shown:
        view.show_notice(" ".join(shown))
    if start.shared is not None:
        forget_option(window, LINK_PARAM)  # a reload goes back to the game; the link still opens the replay
        forget_option(window, LINK_MOVE_PARAM)
        replay.view.open(start.shared, "Shared game", start.shared_move, deciders_known=False)  # moves only

    document.getElementById("runtime-line").textContent = runtime_line(sys.implementation)
    document.getElementById("loading").hidden = True
    document.body.setAttribute("data-python-start-ms", f"{PYTHON_START_MS:.0f}")
    document.body.setAttribute("data-imported-ms", f"{IMPORTED_MS:.0f}")
    document.body.setAttribute("data-ready-ms", f"{window.performance.now():.0f}")
    document.body.setAttribute("data-ready", "true")
    # The worker has been loading its own interpreter since the page opened; the AI buttons come alive
    # when it answers.
    _keep_alive.append(asyncio.create_task(controls.connect()))
    return session


def replay_parts(
    session: PlaySession,
    saved: SavedGames,
    switcher: GameSwitcher,
    controls: AiControls,
    client: AiClient,
    explorer: Explorer,
) -> tuple[Replays, GamesPanel]:
    """The replay dialog and the "Your games" panel, wired to the session, storage, AI and each other."""

    async def explain_board(board: int) -> dict:
        return await client.explain(explorer.request_for(controls.panel.settings.request(to_rows(board))))

    def show_games() -> None:
        panel.show_games(saved.finished.summaries())
        notices = saved.take_notices()
        if notices:
            panel.say(" ".join(notices))

    def date_text(ms: Any) -> str:
        """A game's start in the browser's local time, ``YYYY-MM-DD HH:MM``."""
        if ms is None:
            return "\u2014"
        moment = window.Date.new(float(ms))
        parts = (moment.getMonth() + 1, moment.getDate(), moment.getHours(), moment.getMinutes())
        return f"{moment.getFullYear()}-" + "{:02d}-{:02d} {:02d}:{:02d}".format(*parts)

    replays = Replays(session, saved, lambda text: panel.say(text))
    panel = GamesPanel(document, create_proxy, replays.open, replays.read_file, replays.current, show_games, date_text)
    replays.panel = panel
    replays.view = ReplayView(
        document, create_proxy, lambda record, step: switcher.play_from(record, step, clock()), explain_board
    )
    session.listeners.append(lambda event, *_: show_games() if panel.is_open and event in ("over", "restart") else None)
    return replays, panel


def guarded_main() -> PlaySession | None:
    """``main`` over the browser's storage; if that fails, again over an empty one, with a notice."""
    try:
        return main(Storage(browser_backend(window)), str(window.location.search))
    except Exception as exc:  # noqa: BLE001 - the last guard: never leave the player on the spinner
        reason = f"{type(exc).__name__}: {str(exc)[:120]}"
    window.console.error(f"2048: the page could not start from this browser's data: {reason}")
    notice = (
        f"The page could not start from this browser's saved data ({reason}). A new game has "
        "started; it is not saved, and what is saved is left as it was."
    )
    try:
        return main(Storage(MemoryBackend()), "", (notice,))
    except Exception as exc:  # noqa: BLE001 - nothing left to try: say so where the spinner was
        document.querySelector("#loading p").textContent = f"The game could not start: {exc}. Please reload."
        document.querySelector("#loading .spinner").hidden = True
        return None


SESSION = guarded_main()
