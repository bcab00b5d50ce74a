"""The live coach: each move the player makes graded in the background, a short mark shown, and at game over the
move where the game was lost.

Off by default; the "Coach" checkbox turns it on and is kept in the saved settings under ``"coach"``.  A player's
move (a key, a swipe, a redo of their own move; never the AI's) is queued with the board before it, and one task
sends the queue to the worker's ``review`` (``grade``, the same request as the game review's, a run of
consecutive moves at most ``BATCH_MOVES`` long), so the session never waits for a grade: moves go on at once.
While the AI thinks (``busy`` names why) nothing is sent, so the coach never slows the AI; the mark says it
waits.  An answer is kept only for a move the game still has (same number, board and move: an undo or a new game
drops the rest), and its mark is shown only if no later mark is; each mark names its move.  The mark's element is a
polite live region: a screen reader hears it.  At game over, once every queued move is graded, the costliest one is
said in the game-over overlay beside its "Review this game" (``coach_marks.verdict_text``); a game the coach graded
whole (every move the player's, one preset) is kept as its review (``coached_review``), which that button then shows
at once.
"""

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Awaitable, Callable
    from typing import Any
except ImportError:
    pass

from app.ai.coach_marks import KEPT_NOTE, mark_text, units_note, verdict_text
from app.board.play import HUMAN
from app.browser.clock import sleep
from app.browser.wiring import Wiring
from app.games.review_figures import GameReview, graded_move
from app.games.review_store import record_key
from game2048.game_record import record_of

SETTING = "coach"
BATCH_MOVES = 4
"""Moves one request grades at most: the queue after a burst of keys, a few at a time, so that a hint asked
meanwhile waits for at most a short batch (a move the network's playouts measure takes a few tenths of a
second in the worker)."""
BUSY_POLL_S = 0.1
"""How often a waiting coach looks whether the AI has finished thinking."""


class Coach:
    """Binds ``#coach`` (the checkbox), ``#coach-mark`` (the live mark), ``#coach-note`` (the units) and
    ``#coach-verdict`` (in the game-over overlay) to the session's moves and the worker.

    ``grade(request)`` answers as the worker's ``review``; ``busy()`` is why the AI cannot grade now ("" when it
    can); ``say(text)`` speaks through the page's announcer; ``on_failure(answer)`` hears an answer of a worker
    that died (the AI's controls restart it); ``store`` (``review_store.ReviewStore``) keeps a game the coach
    graded whole as its review."""

    def __init__(
        self,
        document: Any,
        create_proxy: "Callable[[Callable[..., Any]], Any]",
        session: Any,
        storage: Any,
        grade: "Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]",
        busy: "Callable[[], str]",
        say: "Callable[[str], None]",
        on_failure: "Callable[[dict[str, Any]], None] | None" = None,
        store: Any = None,
    ) -> None:
        self.session = session
        self.store = store
        self.storage = storage
        self.grade = grade
        self.busy = busy
        self.say = say
        self.on_failure = on_failure
        el = document.getElementById
        self.checkbox = el("coach")
        self.mark = el("coach-mark")
        self.note = el("coach-note")
        self.verdict = el("coach-verdict")
        self.enabled = storage.settings().get(SETTING) is True
        self.waiting: list[dict[str, Any]] = []  # moves to send: number, board (16 hex digits), played
        self.moves: dict[int, tuple[str, str]] = {}  # the game's moves of the player: number -> (board, played)
        self.graded: dict[int, dict[str, Any]] = {}  # their grades, by number
        self.points = False  # the last answer's values were points (the learned network)
        self.grades = ["best"]  # the worker's grades, read from its answers
        self.best_grade = "best"  # the first of them
        self.shown = 0  # the number of the move whose mark is shown (0: none)
        self.sending = False
        self.over = False  # the game is over: the verdict is said once every queued move is graded
        self._wiring = Wiring(create_proxy)
        self.checkbox.checked = self.enabled
        self._wiring.listen(self.checkbox, "change", lambda _e: self.choose(bool(self.checkbox.checked)))
        session.listeners.append(self.on_session_event)
        self._clear()

    def choose(self, enabled: bool) -> None:
        """The player turned the coach on or off: saved, and off takes its marks and its queue away."""
        self.enabled = enabled
        settings = self.storage.settings()
        settings[SETTING] = enabled
        self.storage.save_settings(settings)
        if not enabled:
            self.waiting = []
            self._clear()

    def on_session_event(self, event: str, intent: Any, outcome: Any) -> None:
        game = self.session.game
        if event == "move" and self.enabled and self._players(intent, game):
            self._queue(game.moves, game.history[-1][1][0], str(outcome.direction))
        elif event == "undo":
            self._forget_above(game.moves)
        elif event in ("restart", "switch"):
            self._forget_above(0)
        elif event == "over" and self.enabled:
            self.over = True
            self._say_verdict()

    @staticmethod
    def _players(intent: Any, game: Any) -> bool:
        """A move of the player's: a key or swipe, or a redo of a move the AI did not choose (its note is None)."""
        if intent.source != HUMAN:
            return False
        return intent.kind == "move" or (intent.kind == "redo" and game.history[-1][2] is None)

    def _queue(self, number: int, board: int, played: str) -> None:
        board_hex = f"{board:016x}"
        self.moves[number] = (board_hex, played)
        self.waiting.append({"number": number, "board": board_hex, "played": played})
        if not self.sending:
            self.sending = True
            self._wiring.spawn(self._send())

    def _forget_above(self, number: int) -> None:
        """The game has ``number`` moves now (an undo, a new game): the grades, marks and queue past it go."""
        self.moves = {n: move for n, move in self.moves.items() if n <= number}
        self.graded = {n: move for n, move in self.graded.items() if n <= number}
        self.waiting = [item for item in self.waiting if item["number"] <= number]
        self.over = False
        self.verdict.hidden = True
        if self.shown > number:
            self._show_mark("", "")

    async def _send(self) -> None:
        """Send the queue, a run of moves at a time, whenever the AI is free; then the verdict, if it is due."""
        try:
            said_wait = False
            while self.waiting and self.enabled:
                reason = self.busy()
                if reason:
                    if not said_wait:
                        said_wait = True
                        number = self.waiting[-1]["number"]
                        self._show_mark(f"Coach waits: {reason}; move {number} is graded once it is free.", "")
                    await sleep(BUSY_POLL_S)
                    continue
                said_wait = False
                batch = next_batch(self.waiting)
                self.waiting = self.waiting[len(batch) :]
                answer = await self.grade(request_for(batch))
                if self.enabled:
                    self._took(answer, batch[0]["number"])
        finally:
            self.sending = False
        self._say_verdict()

    def _took(self, answer: "dict[str, Any]", first: int) -> None:
        if not answer.get("ok"):
            if answer.get("restart") and self.on_failure is not None:
                self.on_failure(answer)
            self._show_mark(f"Coach: move {first} could not be graded ({answer.get('error') or 'no answer'}).", "")
            return
        self.points = bool(answer.get("points"))
        self.grades = [str(grade) for grade in answer.get("grades") or [self.best_grade]]
        self.best_grade = self.grades[0]
        self.note.textContent = units_note(str(answer.get("preset")), self.points)
        self.note.hidden = False
        newest = None
        for move in answer.get("moves") or []:
            number = int(move["number"])
            if self.moves.get(number) == (move["board"], move["played"]):  # still the game's move
                self.graded[number] = dict(move, preset=answer.get("preset"), points=self.points)
                newest = move
        if newest is not None and newest["number"] >= self.shown:
            self._show_mark(mark_text(newest, self.points), str(newest["grade"]), int(newest["number"]))

    def _say_verdict(self) -> None:
        """At game over with nothing left to grade: where the game was lost, in the overlay and aloud."""
        if not self.over or self.sending or self.waiting or not self.enabled:
            return
        self.over = False  # said once
        graded = [self.graded[n] for n in sorted(self.graded)]
        if not graded:
            return  # the AI played every move: nothing of the player's to say
        text = verdict_text(graded, self.points, self.best_grade)
        whole = coached_review(self.session.game, self.graded, self.grades)
        if whole is not None and self.store is not None and self.store.put(*whole):
            text += " " + KEPT_NOTE
        self.verdict.textContent = text
        self.verdict.hidden = False
        self.say(text)

    def _show_mark(self, text: str, grade: str, number: int = 0) -> None:
        """The mark's line says ``text`` (none: hidden), coloured by ``grade``; ``number``: the move it grades."""
        self.shown = number
        self.mark.textContent = text
        self.mark.setAttribute("data-grade", grade)
        self.mark.hidden = not text

    def _clear(self) -> None:
        self._show_mark("", "")
        self.note.hidden = True
        self.verdict.hidden = True


def coached_review(game: Any, graded: "dict[int, dict[str, Any]]", grades: "list[str]") -> "tuple[str, Any] | None":
    """(key, ``GameReview``) of ``game`` made of the coach's grades, when they cover every move of a game played
    from its seed by the player alone, all by one preset; None otherwise (the review then grades it itself)."""
    record = record_of(game)
    if record is None:
        return None
    numbers = range(1, len(record.moves) + 1)
    if not record.moves or any(number not in graded for number in numbers):
        return None  # a move of the AI's, or one played with the coach off
    moves = [graded[number] for number in numbers]
    if len({move["preset"] for move in moves}) != 1:
        return None  # graded by two presets (the network came in meanwhile): the review grades it again
    review = GameReview([graded_move(move) for move in moves], str(moves[0]["preset"]), moves[0]["points"], grades)
    return record_key(record), review


def next_batch(waiting: "list[dict[str, Any]]", size: int = BATCH_MOVES) -> "list[dict[str, Any]]":
    """The first run of consecutive moves in ``waiting`` (an AI move between two of the player's ends a run)."""
    batch = waiting[:1]
    for item in waiting[1:size]:
        if item["number"] != batch[-1]["number"] + 1:
            break
        batch.append(item)
    return batch


def request_for(batch: "list[dict[str, Any]]") -> "dict[str, Any]":
    """The worker's ``review`` request for a run of the player's moves (the page adds the preset)."""
    return {
        "boards": [item["board"] for item in batch],
        "played": [item["played"] for item in batch],
        "by_ai": [False] * len(batch),
        "first": batch[0]["number"],
        "preset": None,
    }
