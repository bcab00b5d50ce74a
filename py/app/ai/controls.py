"""The AI's actions: Hint, AI step, Autoplay/Stop, and the worker's start, failures and restarts.

Every decision is asked of the worker through ``AiClient``; the main thread
only waits (``await``), so the page stays responsive whatever the think time.
The rules that matter for a person watching:

* the game is playable before the AI is: its buttons say "AI loading…" and
  stay disabled until the worker has built its tables, while the status line
  shows the loading stage and its seconds (``show_loading``, by the clock that
  only goes forward: ``app.browser.clock``); only a new stage
  is said in the live region, since a count read out every second would drown
  what the player does meanwhile;
* a manual move (any move key, swipe or drag, even one that changes nothing) or a new game
  stops autoplay; Stop takes effect before the
  next move (a decision that arrives after Stop is dropped, and an AI move
  still queued is discarded);
* autoplay pauses on the win overlay, and "Keep going" resumes it;
* a hint or a decision that arrives after the board changed is dropped;
* a hint or step asked for while the AI thinks, or loads, is answered once it
  is free (the last one asked), as move keys are queued;
* a failed decision is shown as a message, autoplay stops, the game is kept;
  a worker that died is restarted, and the buttons work again once it is up;
* the status line says the last thing that happened (``app.ai.hint_status``);
  a decision made while the explorer was closed is explained when it opens
  (``app.ai.explorer_link``).

Each decision is asked with the settings of ``AiPanel`` (``app.ai.panel``),
which also shows the status line (said through the view's live region, a
hint as "Hint: left") and the readout; the moves the AI plays are said by the
session, like a person's.
"""

from app.ai.client import LOADING_STAGES, SLOW_STEP_S, START_ATTEMPTS, START_TIMEOUT_S, AiClient
from app.ai.explorer_link import ExplorerLink
from app.ai.hint_status import Decision, ShownHint, ai_move_text
from app.ai.panel import AiPanel
from app.ai.split import AiTeam
from app.board.play import AI, HUMAN, Intent, PlaySession
from app.browser.announce import hint_sentence
from app.browser.clock import monotonic, sleep
from app.browser.wiring import Wiring
from game2048.board import to_rows
from game2048.game_record import RecordError, decision_from_answer

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

ACTIONS = ("hint", "step", "autoplay", "stop")
"""The actions the AI's controls run from a key (``app.board.inputs.KEY_ACTIONS`` maps keys to them)."""
"""Keyboard shortcuts (documented on the page): I hint, N one AI move, P autoplay/stop, Esc stop."""
PLAYED = "Played."
HINTED = "Shown as a hint: not played."
NOT_PLAYED_STOPPED = "Not played: autoplay was stopped while the AI thought."
NOT_PLAYED_MOVED = "Not played: the board changed while the AI thought."
NOT_PLAYED_EDITED = "Not played: the position was edited while the AI thought."
"""What became of an explained decision, said under the board the explorer explains."""


class AiControls:
    """Binds the AI panel's DOM to the worker client and the play session."""

    def __init__(
        self,
        document: Any,
        session: PlaySession,
        view: Any,
        client: AiClient | AiTeam,
        panel: AiPanel,
        create_proxy: Callable[[Callable[..., Any]], Any],
    ) -> None:
        self.document = document
        self.session = session
        self.view = view
        self.client = client
        self.panel = panel
        self._wiring = Wiring(create_proxy)
        self.autoplaying = False
        self.waiting_at_win = False
        self.thinking = False
        self.pending: str | None = None  # "hint" or "step", asked for while busy
        self.link = ExplorerLink()  # the explorer (``explorer``): explains decisions while open, or after
        self.hints = ShownHint()  # the hint on screen, until its board changes
        self.on_connected: list[Callable[[], None]] = []  # other users of the worker, told when it is up or not
        self._run = 0  # autoplay generation: a stopped loop never plays again
        self._held = 0  # hold generation: a hint or step asked before ``hold`` is not shown or played
        self._loading = False  # the worker is starting: ``show_loading`` shows its progress
        el = document.getElementById
        self.hint_button = el("ai-hint")
        self.step_button = el("ai-step")
        self.autoplay_button = el("ai-autoplay")
        session.listeners.append(self._on_session_event)
        self._wiring.listen(self.hint_button, "click", lambda _e: self.hint())
        self._wiring.listen(self.step_button, "click", lambda _e: self.step())
        self._wiring.listen(self.autoplay_button, "click", lambda _e: self.toggle_autoplay())
        self._set_status("AI loading\u2026")
        self._update_buttons()

    # -- wiring -------------------------------------------------------------------------------

    @property
    def explorer(self) -> Any:
        return self.link.explorer

    @explorer.setter
    def explorer(self, explorer: Any) -> None:
        """The explorer, set by ``page`` when it is built: it is handed the last decision it did not explain."""
        self.link.attach(explorer)

    def shortcut(self, action: str) -> Callable[[], None]:
        """The handler of one of ``ACTIONS``."""
        return {
            "hint": self.hint,
            "step": self.step,
            "autoplay": self.toggle_autoplay,
            "stop": self.stop,
        }[action]

    async def connect(self, restart: bool = False) -> None:
        """Start the worker (or a new one); enable the controls, or show why the AI is unavailable.

        ``on_connected`` callbacks run after, whatever the outcome.
        """
        try:
            await self._connect(restart)
        finally:
            for callback in self.on_connected:
                callback()

    async def _connect(self, restart: bool) -> None:
        if restart:
            self.panel.worker_gone()  # and with it what it downloaded: the new worker's download is said anew
        self._update_buttons()
        self._loading = True
        self._wiring.spawn(show_loading(self.client, lambda: self._loading, self._set_status))
        try:
            connected = await (self.client.restart() if restart else self.client.connect())
        finally:
            self._loading = False
        if not connected:
            self.pending = None
            message = self.client.error or "The AI is unavailable."
            self._set_status(message, error=True)
            self.view.show_notice(message, error=True)
            self._update_buttons()
            return
        self.panel.worker_ready()
        self._set_status("AI ready again" if restart else "AI ready")
        if restart:
            self.view.show_notice("The AI had stopped answering and was restarted; your game is kept.")
        self._update_buttons()
        self._run_pending()

    # -- actions ------------------------------------------------------------------------------

    def hint(self) -> None:
        if self.autoplaying or self._defer("hint"):
            return
        self._wiring.spawn(self._decide(play=False))

    def step(self) -> None:
        if self.autoplaying or self._defer("step"):
            return
        game = self.session.game
        if game.paused_at_win:
            self._set_status("The game is paused at 2048: press \u201cKeep going\u201d first, or start a new game.")
        elif game.over:
            self._set_status("Game over: there is no move left to play.")
        else:
            self._wiring.spawn(self._decide(play=True))

    def _defer(self, action: str) -> bool:
        """Keep ``action`` for later when the AI is busy or still starting; True if it was kept (or refused)."""
        if self.client.error and not self.client.needs_restart:
            self._set_status(self.client.error, error=True)
            return True
        if self.thinking or not self.client.ready:
            self.pending = action
            if not self.thinking:
                self._set_status(f"The AI is not ready yet: the {action} comes when it is.")
            return True
        return False

    def _run_pending(self) -> None:
        """Answer the hint, step or autoplay asked for while busy, once the moves already queued are drawn."""
        action, self.pending = self.pending, None
        if action is not None:
            self._wiring.spawn(self._when_idle(action))

    async def _when_idle(self, action: str) -> None:
        await self.session.wait_idle()
        if not self.autoplaying:
            self.shortcut(action)()

    def toggle_autoplay(self) -> None:
        if self.autoplaying or self.waiting_at_win:
            self.stop_autoplay()
        else:
            self.start_autoplay()

    def start_autoplay(self) -> None:
        if self.autoplaying:
            return
        if not self.client.ready:  # asked while the AI starts: it starts when the AI is ready; asked again, not
            if self.pending == "autoplay":
                self.pending = None
                self._set_status("Autoplay will not start.")
            else:
                self._defer("autoplay")
            return
        if self.session.game.over:
            self._set_status("Game over: start a new game to autoplay.")
            return
        if self.session.game.paused_at_win:
            self.waiting_at_win = True
            self._set_status("Autoplay waits: press \u201cKeep going\u201d to go on past 2048.")
            self._update_buttons()
            return
        self.autoplaying = True
        self.waiting_at_win = False
        self._run += 1
        self.view.hide_hint()
        self._set_status("Autoplay\u2026")
        self._update_buttons()
        self._wiring.spawn(self._autoplay(self._run))

    def stop(self) -> None:
        """The Stop key: autoplay stops, or an autoplay asked for while the AI starts will not start."""
        if self.pending == "autoplay":
            self.pending = None
            self._set_status("Autoplay will not start.")
        self.stop_autoplay()

    def stop_autoplay(self, status: str = "Autoplay stopped.") -> None:
        if not (self.autoplaying or self.waiting_at_win):
            return
        self.autoplaying = False
        self.waiting_at_win = False
        self._run += 1
        self.session.discard_queued(AI)
        self._set_status(status)
        self._update_buttons()

    def hold(self, status: str = "Autoplay stopped.") -> None:
        """Stop autoplay, forget a hint or step asked for, and drop any decision still being thought.

        For the position editor: nothing the AI decided about the board before
        it was edited may show up or play after.
        """
        said = self.hints.after("edit")
        if said:
            self._set_status(said, say="")
        self.stop_autoplay(status)
        self.pending = None
        self._held += 1
        self.view.hide_hint()

    # -- deciding -----------------------------------------------------------------------------

    async def _ask(self) -> tuple[dict[str, Any], dict[str, Any], int, Any]:
        """One decision on the current board: (answer, request, board it was asked for, game it belongs to).

        With the explorer open, the decision comes with its explanation, which the explorer draws.
        """
        game = self.session.game
        board = game.board
        request = self.panel.settings.request(to_rows(board))
        return await self.link.ask(self.client, request, board), request, board, game

    def _still_current(self, board: int, game: Any) -> bool:
        return self.session.game is game and game.board == board

    async def _decide(self, play: bool) -> None:
        self.thinking = True
        self._update_buttons()
        held = self._held
        try:
            answer, request, board, game = await self._ask()
        finally:
            self.thinking = False
            self._update_buttons()
        if held != self._held:
            self.link.fate(NOT_PLAYED_EDITED)
            self._run_pending()
            return  # held while the AI thought (the position editor opened): not shown, not played
        if not answer.get("ok"):
            self.fail(answer)
            return
        self.panel.show_readout(answer)
        self._decided(answer, request, board, game, play)
        self._run_pending()

    def _decided(self, answer: dict[str, Any], request: dict[str, Any], board: int, game: Any, play: bool) -> None:
        move = answer.get("move")
        if move is None:
            self._set_status("No move left: the game is over.")
            return
        if not self._still_current(board, game):
            self.link.fate(NOT_PLAYED_MOVED)
            return  # the board moved on while the AI thought
        if play:
            self._play("AI step", answer, request, board, game)
        else:
            self.link.fate(HINTED, answer, request, board)
            self.view.show_hint(move)
            self._set_status(self.hints.show(Decision(answer, request), board, game), say=hint_sentence(move))

    def _play(self, by: str, answer: dict[str, Any], request: dict[str, Any], board: int, game: Any) -> None:
        """Play the AI's move; the status says it with its depth, and what it was to the hint on its board."""
        self.link.fate(PLAYED, answer, request, board)
        hint, played = self.hints.take(board, game), Decision(answer, request)
        text = ai_move_text(by, played, hint)
        self._set_status(text, say=text if hint is not None and hint.move != played.move else "")
        self.session.submit(ai_move(answer))

    async def _autoplay(self, run: int) -> None:
        try:
            while self.autoplaying and run == self._run:
                await self.session.wait_idle()
                if not (self.autoplaying and run == self._run):
                    return
                game = self.session.game
                if game.paused_at_win:
                    self.autoplaying = False
                    self.waiting_at_win = True
                    self._set_status("Autoplay paused at 2048: \u201cKeep going\u201d resumes it.")
                    return
                if game.over:
                    self.stop_autoplay("Autoplay finished: game over.")
                    return
                answer, request, board, game = await self._ask()
                if not (self.autoplaying and run == self._run):
                    self.link.fate(NOT_PLAYED_STOPPED)
                    return  # Stop was pressed while the AI thought: this decision is not played
                if not answer.get("ok"):
                    self.fail(answer)
                    return
                self.panel.show_readout(answer)
                if not self._still_current(board, game):
                    self.link.fate(NOT_PLAYED_MOVED)
                    continue
                if answer.get("move") is None:
                    self.stop_autoplay("Autoplay finished: game over.")
                    return
                self._play("Autoplay", answer, request, board, game)
                if self.panel.settings.pause_ms:
                    await sleep(self.panel.settings.pause_ms / 1000)
        finally:
            self._update_buttons()

    def fail(self, answer: dict[str, Any]) -> None:
        """A failed worker answer, ours or another panel's: say it, stop autoplay, restart a worker that died."""
        message = str(answer.get("error") or "the AI failed without saying why")
        if self.autoplaying or self.waiting_at_win:
            self.stop_autoplay()
        self.pending = None
        if answer.get("restart"):
            self.view.show_notice(f"AI error: {message}. Your game is kept; the AI is restarting.", error=True)
            self._set_status("The AI is restarting\u2026", error=True)
            self._wiring.spawn(self.connect(restart=True))
            return
        self._set_status(f"AI error: {message}", error=True)
        self.view.show_notice(f"AI error: {message}. Autoplay stopped; your game is kept.", error=True)

    def _on_session_event(self, event: str, intent: Intent, _payload: Any) -> None:
        said = self.hints.after(event, intent)  # the hint's board changed: what the status says now
        if said:
            self._set_status(said, say="")
        if event in ("submitted", "move") and intent.kind == "move" and intent.source == HUMAN:
            self.stop_autoplay("Autoplay stopped by your move.")
        elif event == "submitted" and intent.kind in ("undo", "redo"):
            self.stop_autoplay(f"Autoplay stopped: {intent.kind}.")
        elif event in ("restart", "switch"):
            self.stop_autoplay("Autoplay stopped: new game.")
        elif event == "keep_going" and self.waiting_at_win:
            self.waiting_at_win = False
            self.start_autoplay()

    # -- display ------------------------------------------------------------------------------

    def _update_buttons(self) -> None:
        ready = self.client.ready
        self.hint_button.disabled = not ready or self.autoplaying or self.thinking
        self.step_button.disabled = not ready or self.autoplaying or self.thinking
        self.autoplay_button.disabled = not ready
        running = self.autoplaying or self.waiting_at_win
        self.autoplay_button.textContent = "Stop" if running else "Autoplay"
        self.autoplay_button.setAttribute("aria-pressed", "true" if running else "false")
        self.document.body.setAttribute(
            "data-autoplay", "on" if self.autoplaying else "waiting" if self.waiting_at_win else "off"
        )

    def _set_status(self, text: str, error: bool = False, say: str | None = None) -> None:
        self.panel.set_status(text, error, say)


def ai_move(answer: "dict[str, Any]") -> Intent:
    """The intent to play the worker's move, with its decision summary for the game's record."""
    try:
        note = decision_from_answer(answer)
    except RecordError:  # not a search's answer: played all the same, recorded as if a person chose
        note = None
    return Intent.move(answer["move"], AI, note)


def loading_status(stage: str, attempt: int, seconds: int, step_seconds: int) -> "tuple[str, str] | None":
    """The status line for the worker's ``stage`` at start ``attempt``, and its sentence to say; None off stage.

    ``seconds`` count from the start, ``step_seconds`` from when this stage of this attempt began: a stage that
    lasts ``SLOW_STEP_S`` or more is said to be unusually slow.
    """
    if stage not in LOADING_STAGES:
        return None
    step = LOADING_STAGES.index(stage) + 1
    again = ", trying again" if attempt > 1 else ""
    text = f"AI loading{again}, step {step} of {len(LOADING_STAGES)}: {stage}"
    slow = ""
    if step_seconds >= SLOW_STEP_S:
        slow = (
            f" \u2013 unusually slow (the server or this device); tried again after {START_TIMEOUT_S:g} s"
            if attempt < START_ATTEMPTS
            else f" \u2013 unusually slow; given up after {START_TIMEOUT_S:g} s"
        )
    return f"{text}\u2026 {seconds} s{slow}", text + (" (unusually slow)" if slow else "")


async def show_loading(
    client: "AiClient | AiTeam", loading: "Callable[[], bool]", set_status: "Callable[..., None]"
) -> None:
    """While ``loading()``, ``client``'s stage on the status line (``set_status(text, say=...)``) once a second.

    The seconds are read from ``monotonic()``: a clock set back or forward meanwhile changes nothing."""
    started = monotonic()
    said = ""
    step_started = started
    step_of = ("", 0)  # (stage, attempt) the step's seconds count for
    while loading():
        now = monotonic()
        stage, attempt = client.stage, client.attempts
        if (stage, attempt) != step_of:
            step_of, step_started = (stage, attempt), now
        status = loading_status(stage, attempt, int(now - started + 0.5), int(now - step_started + 0.5))
        if status is not None:
            text, said_now = status
            set_status(text, say=said_now if said_now != said else "")
            said = said_now
        await sleep(1)
