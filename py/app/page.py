"""The page itself: its parts built and wired, like the original's ``application.js``, in short tasks.

``start`` runs once ``main.py`` has handed over, in a task of its own: PyScript's
start is one long task of the main thread, and the page's own work after it
is cut into steps of a few tens of milliseconds (``pause`` between them), so
a tap or a key is answered within one step even on a slow phone.  The game is
playable when the last step has run: ``<body data-ready="true">``, before (and
independently of) the AI worker.  If wiring the page fails whatever the
reason, it is wired again over an empty in-memory storage, so the page opens
on a fresh game with a notice instead of staying on its spinner.
"""

import asyncio
import sys

import js
from pyscript import document
from pyscript.ffi import create_proxy

from app.board.motion import MotionToggle
from app.board.play import SLIDE_SECONDS, Intent, PlaySession
from app.board.view import BoardView
from app.browser.clock import now_ms
from app.browser.page_options import forget_option
from app.browser.panel_focus import KeysBack
from app.browser.storage import TAB_CHARS, MemoryBackend, Storage, browser_backend, session_tab_id, set_session_tab_id
from app.browser.wiring import Wiring
from app.games.game_hold import GameHold
from app.games.game_switch import GameSwitcher
from app.games.saved_games import SavedGames
from app.games.startup import Start, choose_game, fresh_game
from game2048.board import to_rows
from game2048.game import fresh_seed
from game2048.game_link import LINK_MOVE_PARAM, LINK_PARAM

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Awaitable, Callable
    from typing import TYPE_CHECKING, Any
except ImportError:
    TYPE_CHECKING = False  # type: ignore[misc]  # MicroPython: typing.TYPE_CHECKING is absent
if TYPE_CHECKING:  # imported by ``main`` in the steps that build them (the explorer, the editor: at first use)
    from app.ai.client import AiClient
    from app.ai.coach import Coach
    from app.ai.controls import AiControls
    from app.ai.panel import AiPanel
    from app.ai.split import AiTeam
    from app.explorer.panel import Explorer
    from app.games.editor import PositionEditor
    from app.games.replays import Replays


# The window as a DOM object: MicroPython's ``pyscript.window`` is the global scope, and calling a
# method on it (addEventListener, matchMedia) fails with "Illegal invocation".
window = document.defaultView
IMPORTED_MS = window.performance.now()  # the page's modules loaded (precompiled: tools/precompile.py)
_keep_alive: list[object] = []  # event proxies that must live as long as the page


async def pause(step: str) -> None:
    """Give the browser the main thread after a step of the start (a new task: input, painting).

    The step's end is marked (``performance.mark("2048:<step>")``) for the benches.  The wait is
    ``guarded.js``'s ``nextTask()``: MicroPython's loop runs every task that is ready, a sleeping one
    too once its time has come, without leaving the browser's task, so ``asyncio.sleep`` (even of a
    millisecond, which a slow phone spends before the loop looks again) may not yield at all."""
    window.performance.mark("2048:" + step)
    await js.nextTask()


def on_event(target: Any, event: str, handler: Callable[[Any], None]) -> None:
    proxy = create_proxy(handler)
    _keep_alive.append(proxy)
    target.addEventListener(event, proxy)


def on_click(element_id: str, handler: Callable[[], None]) -> None:
    on_event(document.getElementById(element_id), "click", lambda _event: handler())


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
    """A new tab's id: a fresh random number in base 36 (``app.browser.storage.TAB_CHARS``)."""
    number, digits = fresh_seed(), []
    while number:
        number, digit = divmod(number, len(TAB_CHARS))
        digits.append(TAB_CHARS[digit])
    return "".join(digits) or "0"


class OnDemand:
    """A part of the page built at its first use, not at start: calling it builds it once, then gives it.

    The build is synchronous (the part's modules are in the interpreter's files from the start, precompiled;
    only their import and the part's elements wait), so a key or a click opens the part in the same task."""

    def __init__(self, build: Callable[[], Any]) -> None:
        self._build = build
        self.part: Any = None

    def __call__(self) -> Any:
        if self.part is None:
            self.part = self._build()
        return self.part


def build_explorer(
    controls: "AiControls", client: Any, session: PlaySession, storage: Storage, ai_panel: "AiPanel"
) -> "Explorer":
    """The search explorer and its step-by-step tree, their modules imported now, wired to the AI: it explains
    each decision while open (``controls.explorer``), and the tree follows each explained board."""
    from app.explorer.panel import Explorer
    from app.explorer.tree_walk import TreeWalk

    explorer = Explorer(document, client, session, storage, create_proxy, controls.fail)
    tree_walk = TreeWalk(
        document,
        client,
        session,
        create_proxy,
        evaluation=lambda: ai_panel.settings.request([]),
        on_worker_failed=controls.fail,
        explained_board=explorer.explained_board,
        busy=lambda: controls.autoplaying or controls.thinking,  # a tree is built only while the AI is idle
    )
    explorer.on_shown.append(tree_walk.explained)  # a built walk follows each newly explained board
    controls.on_connected.append(tree_walk.refresh)  # its build button waits for the worker too
    controls.explorer = explorer
    _keep_alive.append(tree_walk)
    return explorer


def wire_story(ai_panel: "AiPanel", show_entry: Callable[[str], None]) -> None:
    """The learned network's story by the preset, shown while it is the player's choice; its glossary words open
    the explorer's glossary at their entry (``show_entry``: the explorer built first if it is not yet)."""
    from app.ai.story_panel import NetworkStory

    story = NetworkStory(document, create_proxy, show_entry)
    ai_panel.on_settings_shown.append(lambda: story.show(ai_panel.network_chosen()))
    story.show(ai_panel.network_chosen())
    _keep_alive.append(story)


def at_first_use(part: OnDemand, name: str, view: BoardView, use: Callable[..., None]) -> Callable[..., None]:
    """``use(part, *args)``, the part built first if it is not yet (a failure said in the notice, naming ``name``)."""

    def act(*args: Any) -> None:
        try:
            built = part()
        except Exception as exc:  # noqa: BLE001 - a module that cannot load: the game plays on without the panel
            view.show_notice(f"The {name} could not open: {type(exc).__name__}: {exc}", error=True)
            return
        use(built, *args)

    return act


def until_built(part: OnDemand, target: Any, event: str, handler: Callable[[Any], None]) -> None:
    """``handler(event)`` for ``target``'s ``event`` until ``part`` is built: the part then listens itself.

    The event that builds it does not reach that new listener (a listener added while an event is dispatched is not
    called for that event), so the event is handled once."""
    on_event(target, event, lambda fired: handler(fired) if part.part is None else None)


def toggle_at_first_use(part: OnDemand, button_id: str, name: str, view: BoardView) -> Callable[[], None]:
    """What a panel's key and, until the panel is built, its button do: the part opened or closed (its
    ``toggle()``), built first if it is not yet."""
    toggle = at_first_use(part, name, view, lambda built: built.toggle())
    until_built(part, document.getElementById(button_id), "click", lambda _event: toggle())
    return toggle


def build_editor(
    session: PlaySession, view: BoardView, saved: SavedGames, controls: "AiControls", from_link: bool
) -> "PositionEditor":
    """The position editor, its module imported now: its cells over the board and its bar, hidden until it opens
    (``from_link``: the game is the address's position, which the editor drops from the address)."""
    from app.games.editor import PositionEditor

    return PositionEditor(document, session, view, saved, create_proxy, controls.hold, from_link)


def asked(session: PlaySession, name: str) -> Callable[[], None]:
    """What a game key or button does: ask ``name`` (restart, keep_going, undo, redo) of the session, in order."""
    return lambda: session.submit(Intent(name))


def move_in(session: PlaySession) -> Callable[[Any], None]:
    """What a move key, a swipe or a drag does: the move asked of the session, in order."""
    return lambda direction: session.submit(Intent.move(direction))


class AiSide:
    """The AI's parts the rest of the page is wired to: the workers (``client``), the settings panel, the controls,
    the search explorer built at its first use, and what the AI's keys do (``actions``, by action name)."""

    def __init__(
        self, client: "AiTeam", panel: "AiPanel", controls: "AiControls", explorer: OnDemand, actions: dict
    ) -> None:
        self.client = client
        self.panel = panel
        self.controls = controls
        self.explorer = explorer
        self.actions = actions


def open_saved_games(storage: Storage) -> SavedGames:
    """This tab's saved games over ``storage``, under this tab's own id, left when the page is hidden and taken
    back when it is shown again from the back-forward cache."""
    saved = SavedGames(storage, session_tab_id(window, new_tab_id), clock)
    saved.claim(new_tab_id, lambda tab: set_session_tab_id(window, tab))  # a duplicated tab takes an id of its own
    on_event(window, "pagehide", lambda _event: saved.leave())
    on_event(window, "pageshow", lambda event: saved.arrive() if event.persisted else None)
    return saved


def build_session(
    storage: Storage, saved: SavedGames, view: BoardView, start: Start
) -> tuple[PlaySession, GameSwitcher]:
    """The game chosen at start, in play on the board (its saved record replayed once the page is playable), the
    switcher between games, the reduce-motion switch, and the arrows given back to the board after a click."""
    session = PlaySession(start.game, view, saved, new_game=lambda: fresh_game(start.seed, clock()), clock=clock)
    session.start()
    session.restore_history()  # replays the saved game's record once the page is playable
    switcher = GameSwitcher(session, saved, view)

    def pace(reduced: bool) -> None:
        session.slide_seconds = 0 if reduced else SLIDE_SECONDS

    system_reduces = bool(window.matchMedia("(prefers-reduced-motion: reduce)").matches)
    _keep_alive.append(MotionToggle(document, storage, create_proxy, pace, system_reduces))
    _keep_alive.append(KeysBack(document, Wiring(create_proxy)))  # after any click on a control, the arrows play
    return session, switcher


async def build_ai(
    storage: Storage, query: str, start_ai_worker: Callable[[int], Any], session: PlaySession, view: BoardView
) -> AiSide:
    """The AI side, in the start's steps ``ai-modules``, ``ai-panel`` and (the explorer left open) ``explorer``:
    its modules, the team of workers (connected last, by ``main``), its panel, its controls, the coach, and the
    explorer with the network's story, built at first use."""
    from app.ai.controls import ACTIONS, AiControls
    from app.ai.panel import AiPanel
    from app.ai.split import AiTeam, team_size

    await pause("ai-modules")  # the AI's parts next
    workers, workers_notice = team_size(query, window.navigator)
    if workers_notice:
        view.show_notice(workers_notice)
    client = AiTeam(start_ai_worker, workers)
    ai_panel = AiPanel(document, client, storage, view, create_proxy)
    workers_line = document.getElementById("ai-workers")

    def show_team() -> None:
        workers_line.textContent = client.describe()

    client.listeners.append(show_team)
    show_team()
    await pause("ai-panel")  # the AI's settings; its buttons next
    controls = AiControls(document, session, view, client, ai_panel, create_proxy)
    ai_panel.on_failure = controls.fail  # a network download that killed the worker restarts it
    _keep_alive.append(build_coach(controls, client, session, storage, view))
    explorer = OnDemand(lambda: build_explorer(controls, client, session, storage, ai_panel))
    toggle_explorer = toggle_at_first_use(explorer, "explorer-toggle", "search explorer", view)
    wire_story(ai_panel, at_first_use(explorer, "search explorer", view, lambda built, key: built.show_entry(key)))
    if storage.settings().get("explorer"):  # left open: built now, and shown as it was left
        explorer()
        await pause("explorer")
    actions = {"explorer": toggle_explorer}
    actions.update({name: controls.shortcut(name) for name in ACTIONS})
    return AiSide(client, ai_panel, controls, explorer, actions)


async def build_panels(
    session: PlaySession, view: BoardView, saved: SavedGames, switcher: GameSwitcher, ai: AiSide, from_link: bool
) -> GameHold:
    """The position editor and Your games with the replay, each built at its first use (its key or its button);
    the editor at once, in the step ``editor``, for a position opened from a link, which it drops from the address."""
    editor = OnDemand(lambda: build_editor(session, view, saved, ai.controls, from_link))
    toggle_editor = toggle_at_first_use(editor, "edit-toggle", "position editor", view)
    if from_link:  # the editor drops the link's position from the address: the game is that position now
        editor()
        await pause("editor")
    games = OnDemand(lambda: build_games(session, saved, switcher, ai.controls, ai.client, ai.explorer))
    toggle_games, replay_current = games_at_first_use(games, view)
    return GameHold(editor, games, toggle_editor, toggle_games, replay_current)


def key_handlers(
    key_actions: "dict[str, str]", session: PlaySession, switcher: GameSwitcher, ai: AiSide, hold: GameHold
) -> "tuple[dict[str, Callable[[], None]], dict[str, Callable[[], None]]]":
    """What each game key does (``key_actions``: a key's action name) and the history keys (Ctrl/Cmd+Z,
    Ctrl+Shift+Z, Ctrl+Y), none while a position is edited or a replay is open; but the editor's own key, which
    also plays the edited position."""
    undo, redo = asked(session, "undo"), asked(session, "redo")
    actions = {"restart": asked(session, "restart"), "resume kept": switcher.resume_kept, "undo": undo, "redo": redo}
    actions.update({"games": hold.toggle_games, "replay": hold.replay_current})
    actions.update(ai.actions)
    game_keys = {key: hold.guard(actions[name]) for key, name in key_actions.items() if name in actions}
    edit = next(key for key, name in key_actions.items() if name == "edit")  # it plays the edited position too:
    game_keys[edit] = lambda: None if hold.replaying() else hold.toggle_editor()  # not guarded by the editing
    return game_keys, {"undo": hold.guard(undo), "redo": hold.guard(redo)}


def wire_buttons(session: PlaySession, switcher: GameSwitcher, view: BoardView, hold: GameHold) -> None:
    """The game's buttons (undo and redo do nothing while a position is edited), the notice's, and the saved games
    another tab of this page changed."""
    restart, undo, redo = asked(session, "restart"), asked(session, "undo"), asked(session, "redo")
    on_click("new-game", restart)
    on_click("win-new-game", restart)
    on_click("try-again", restart)
    on_click("keep-going", asked(session, "keep_going"))
    on_click("kept-games", switcher.resume_kept)
    on_click("undo", lambda: None if hold.editing() else undo())
    on_click("redo", lambda: None if hold.editing() else redo())
    on_click("notice-close", view.hide_notice)
    on_click("notice-action", view.run_notice_action)
    on_event(window, "storage", lambda event: switcher.on_storage(_text(event.key), _text(event.newValue)))


def show_start(view: BoardView, notices: "list[str]", start: Start, hold: GameHold) -> None:
    """What the start has to say (``notices``, in one notice), and the shared game a link opened, in the replay."""
    if notices:
        view.show_notice(" ".join(notices))
    if start.shared is not None:
        forget_option(window, LINK_PARAM)  # a reload goes back to the game; the link still opens the replay
        forget_option(window, LINK_MOVE_PARAM)
        hold.games().view.open(start.shared, "Shared game", start.shared_move, deciders_known=False)  # moves only


def mark_ready() -> None:
    """The page is playable: the footer names the interpreters, the spinner goes, and the body says so
    (``data-ready``, which the tests and benches wait for, with when the modules were loaded and when it was)."""
    document.getElementById("runtime-line").textContent = runtime_line(sys.implementation)
    document.getElementById("loading").hidden = True
    document.body.setAttribute("data-imported-ms", f"{IMPORTED_MS:.0f}")
    document.body.setAttribute("data-ready-ms", f"{window.performance.now():.0f}")
    document.body.setAttribute("data-ready", "true")


async def main(
    storage: Storage, query: str, start_ai_worker: Callable[[int], Any], notices: tuple[str, ...] = ()
) -> PlaySession:
    """Build and wire the page over ``storage`` for the address ``query``, in steps; the game's session."""
    await pause("modules")  # the page's first modules are loaded; the board next
    saved = open_saved_games(storage)
    view = BoardView(document)
    start = choose_game(query, saved, clock)
    await pause("game")  # the saved games are read and the game chosen; the board next
    session, switcher = build_session(storage, saved, view, start)
    await pause("board")  # the board is drawn; the AI's modules next
    ai = await build_ai(storage, query, start_ai_worker, session, view)
    await pause("ai")  # the modules of the keys next
    from app.board.inputs import KEY_ACTIONS, InputRouter
    from app.explorer.glossary import TermTips, mark_terms

    await pause("key-modules")  # the keys next
    hold = await build_panels(session, view, saved, switcher, ai, start.from_link)
    game_keys, history_keys = key_handlers(KEY_ACTIONS, session, switcher, ai, hold)
    router = InputRouter(document, view.board_el, hold.guard(move_in(session)), game_keys, history_keys)
    await pause("keys")
    mark_terms(document)  # the readout's and the settings' words explain themselves (app.explorer.glossary)
    _keep_alive.extend([ai.controls, ai.panel, hold.editor, router, hold.games, TermTips(document, create_proxy)])
    wire_buttons(session, switcher, view, hold)
    shown = list(notices) + list(start.notices) + list(storage.take_notices())  # the last: refused settings
    show_start(view, shown, start, hold)
    mark_ready()
    # The worker has been loading its own interpreter since the page opened; the AI buttons come alive
    # when it answers.
    _keep_alive.append(asyncio.create_task(ai.controls.connect()))
    return session


def games_at_first_use(games: OnDemand, view: BoardView) -> "tuple[Callable[[], None], Callable[[], None]]":
    """What ``G`` and ``V`` do: "Your games" opened or closed, and the game in play replayed, both built first if they
    are not yet.  Until they are built, their buttons do the same, and a file dragged over or dropped on the page
    builds them and is handed to the panel."""
    toggle = at_first_use(games, "games panel", view, lambda built: built.panel.toggle())
    until_built(games, document.getElementById("games-toggle"), "click", lambda _event: toggle())
    replay = at_first_use(games, "replay", view, lambda built: built.current())
    until_built(games, document.getElementById("replay-current"), "click", lambda _event: replay())
    review = at_first_use(games, "replay", view, lambda built: built.review_current())
    until_built(games, document.getElementById("over-review"), "click", lambda _event: review())
    drag = at_first_use(games, "games panel", view, lambda built, event: built.panel.drag_over(event))
    until_built(games, document, "dragover", drag)  # without its preventDefault the browser opens the file itself
    drop = at_first_use(games, "games panel", view, lambda built, event: built.panel.dropped(event))
    until_built(games, document, "drop", drop)
    return toggle, replay


def build_games(
    session: PlaySession,
    saved: SavedGames,
    switcher: GameSwitcher,
    controls: "AiControls",
    client: "AiClient | AiTeam",
    explorer: "OnDemand",
) -> "Replays":
    """The replay dialog and the "Your games" panel (``.view`` and ``.panel`` of the ``Replays`` given), their
    modules imported now, wired to the session, storage, AI and each other (``app.games.replay_parts``)."""
    from app.games.replay_parts import build_replays

    async def explain_board(board: int) -> dict:
        return await client.explain(explorer().request_for(controls.panel.settings.request(to_rows(board))))

    panel_ai = controls.panel
    return build_replays(
        document,
        create_proxy,
        on_event,
        session,
        saved,
        lambda record, step: switcher.play_from(record, step, clock()),
        explain_board,
        move_grader(client, panel_ai),
        lambda: panel_ai.network_ready,
        panel_ai.fetch_network,
        client.review_lanes,
    )


def move_grader(client: "AiClient | AiTeam", panel: "AiPanel") -> "Callable[[dict], Awaitable[dict]]":
    """A batch of moves graded by the worker's ``review`` (the game review's and the coach's): by the preset the
    batch names (``learned``: the network, in points), else by the preset the AI plays now, with its weights."""
    from app.games.review_figures import REVIEW_MS_PER_MOVE

    async def grade(batch: dict) -> dict:
        if batch.get("preset") is None:  # the AI's own preset and weights; the learned network has none
            settings = panel.settings.request([])
            for name in ("preset", "weights"):
                batch[name] = settings[name]
        return await client.call("review", batch, REVIEW_MS_PER_MOVE * len(batch["played"]))

    return grade


def build_coach(
    controls: "AiControls", client: "AiClient | AiTeam", session: PlaySession, storage: Storage, view: BoardView
) -> "Coach":
    """The live coach, grading the player's moves as the review does: with the learned network if it is in (never
    downloaded for the coach), else with the AI's own preset, and only while the AI is not thinking."""
    from app.ai.coach import Coach
    from app.games.review_store import ReviewStore

    grade = move_grader(client, controls.panel)

    async def grade_move(batch: dict) -> dict:
        batch["preset"] = "learned" if controls.panel.network_ready else None
        return await grade(batch)

    def busy() -> str:
        if controls.autoplaying or controls.thinking:
            return "the AI is thinking"
        if client.ready:
            return ""
        return "the AI is not available (its line says why)" if client.error else "the AI is not ready yet"

    store = ReviewStore(storage)  # a game the coach graded whole is kept as its review
    return Coach(document, create_proxy, session, storage, grade_move, busy, view.announce, controls.fail, store)


async def start(start_ai_worker: Callable[[int], Any]) -> PlaySession | None:
    """``main`` over the browser's storage; if that fails, again over an empty one, with a notice.

    ``start_ai_worker(attempt)`` starts the AI worker (``main.py``)."""
    try:
        return await main(Storage(browser_backend(window)), str(window.location.search), start_ai_worker)
    except Exception as exc:  # noqa: BLE001 - the last guard: never leave the player on the spinner
        reason = f"{type(exc).__name__}: {str(exc)[:120]}"
    window.console.error(f"2048: the page could not start from this browser's data: {reason}")
    notice = (
        f"The page could not start from this browser's saved data ({reason}). A new game has "
        "started; it is not saved, and what is saved is left as it was."
    )
    try:
        return await main(Storage(MemoryBackend()), "", start_ai_worker, (notice,))
    except Exception as exc:  # noqa: BLE001 - nothing left to try: say so where the spinner was
        document.querySelector("#loading p").textContent = f"The game could not start: {exc}. Please reload."
        document.querySelector("#loading .spinner").hidden = True
        return None
