"""The flow of play: intents in, engine updated, view told, game saved; one at a time, in order.

This is the part of the original ``GameManager`` that the pure engine leaves
to the page.  Every intent (a move from a key, a swipe, the AI; a restart;
"keep going") goes into one FIFO queue and is applied to the engine in
arrival order, so presses that land during a slide are neither lost nor
doubled.  The engine is applied first and the view animates afterwards:
the engine state is the truth, and once the queue is empty the view has
settled on exactly that state.  Each applied intent is also told in words
(``app.browser.announce``) to the view's live region, for a screen reader.

No browser import here: the view and the storage are handed in, and the
pacing is ``app.browser.clock.sleep`` (the browser's timer in the page,
``asyncio.sleep`` in CPython), so the same code runs in the page and in CPython
tests with fakes.
"""

import asyncio
import gc

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

from app.browser import announce
from app.browser.clock import sleep
from game2048.board import Direction, direction_named
from game2048.game import Game, MoveOutcome

SLIDE_SECONDS = 0.1
# With this many intents still waiting, slides are cut short so a burst of keys drains quickly.
BACKLOG_FAST = 2
FAST_SLIDE_SECONDS = 0.02

HUMAN = "human"
AI = "ai"

GC_THRESHOLD = 64 << 20
"""Bytes allocated between two collections of MicroPython's heap, at most half of what is free (``pace_collector``)."""


def pace_collector() -> "int | None":
    """Let MicroPython collect after ``GC_THRESHOLD`` bytes allocated (at most half the free heap); the threshold set.

    At MicroPython's own pace (a collection every 16 KB allocated) a long game's history, which keeps each move's
    position for undo, was walked every few moves, so a move cost the more the longer the game; with the threshold
    a collection comes about once in a thousand moves.  None in CPython, which has no threshold.
    """
    if not hasattr(gc, "threshold") or not hasattr(gc, "mem_free"):
        return None
    threshold = max(1 << 20, min(GC_THRESHOLD, gc.mem_free() // 2))  # type: ignore[attr-defined]
    gc.threshold(threshold)
    return threshold


class Intent:
    """What the player (or the AI) wants: a move, a restart, to keep going after the win, or another game.

    ``kind`` is "move", "restart", "keep_going", "switch", "undo", "redo" or
    "restore" (the page's own: rebuild the restored game's undo history from
    its record); ``game`` is the game to play from now on, for "switch";
    ``note`` goes with a move into the game's history (the AI's decision summary).
    """

    def __init__(
        self,
        kind: str,
        direction: Direction | None = None,
        source: str = HUMAN,
        game: Game | None = None,
        note: Any = None,
    ) -> None:
        self.kind = kind
        self.direction = direction
        self.source = source
        self.game = game
        self.note = note

    @classmethod
    def move(cls, direction: Direction, source: str = HUMAN, note: Any = None) -> "Intent":
        return cls("move", direction_named(direction), source, note=note)

    @classmethod
    def switch(cls, game: Game) -> "Intent":
        return cls("switch", game=game)


NOT_SAVED = (
    "Your game could not be saved: this browser's storage is full or blocked. "
    "It goes on in this tab; a reload goes back to the last position that was saved."
)


class PlaySession:
    """Owns the current ``Game`` and the intent queue; tells listeners what happened.

    ``view`` draws (``app.board.view.BoardView`` in the page): ``render(game)``,
    ``slide(outcome)``, ``settle(game, outcome)``, ``show_score(score, best,
    added=0)``, ``show_overlays(game)``, ``set_settled(settled)``,
    ``show_notice(text, error=False)``, ``end_game_notice()`` (a new game:
    the notice goes unless it is an error), ``announce(text)`` and
    ``show_history(game)`` (the undo and redo buttons).  ``storage``
    saves (``app.games.saved_games.SavedGames``): ``save(game) -> bool``,
    ``clear()``, ``finish(game, ended)``, ``restore_history(game) -> Game``,
    ``best_score()``, ``save_best_score(score) -> int`` and
    ``take_notices() -> list[str]``.  Each listener is called as
    ``listener(event, intent, payload)``.  ``clock()`` is the time in ms
    since 1970 (or None) that a finished game's record keeps.
    """

    def __init__(
        self,
        game: Game,
        view: Any,
        storage: Any,
        new_game: Callable[[], Game],
        slide_seconds: float = SLIDE_SECONDS,
        clock: "Callable[[], float | None] | None" = None,
    ) -> None:
        self.game = game
        self.view = view
        self.storage = storage
        self.new_game = new_game
        self.slide_seconds = slide_seconds
        self.clock = clock or (lambda: None)
        self.best = max(storage.best_score(), game.earned)
        self.unsaved = False  # the last save failed, and the player was told
        self.queue: list[Intent] = []  # applied from the front
        self.listeners: list[Callable[[str, Intent, Any], None]] = []
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task[None] | None = None

    # -- public -------------------------------------------------------------------------------

    def start(self) -> None:
        """Draw the current game (restored or new) without waiting for anything."""
        pace_collector()
        self.view.render(self.game)
        self.view.show_score(self.game.score, self.best)
        self.view.show_overlays(self.game)
        self.view.show_history(self.game)

    def restore_history(self) -> None:
        """Queue the rebuilding of the restored game's undo history (first, before any move; after start)."""
        self.submit(Intent("restore", source="page"))

    def submit(self, intent: Intent) -> None:
        """Queue an intent; the queue is drained in order by one task.

        Listeners hear ``"submitted"`` at once, before the intent is applied: a key
        pressed during autoplay must stop it even when that move turns out to change
        nothing, and before the AI's next move.
        """
        self.queue.append(intent)
        self._notify("submitted", intent, None)
        if self._task is None or self._task.done():
            self._idle.clear()
            self.view.set_settled(False)
            self._task = asyncio.create_task(self._drain())

    def discard_queued(self, source: str) -> int:
        """Drop queued, not yet applied intents from ``source`` (Stop must beat an AI move in flight)."""
        kept = [intent for intent in self.queue if intent.source != source]
        dropped = len(self.queue) - len(kept)
        self.queue = kept
        return dropped

    @property
    def busy(self) -> bool:
        """Intents are waiting or an animation is running."""
        return not self._idle.is_set()

    async def wait_idle(self) -> None:
        """Until every queued intent is applied and the view has settled."""
        await self._idle.wait()

    def note_best(self, best: int) -> None:
        """Another tab saved a best score: show it if it is higher."""
        if best > self.best:
            self.best = best
            self.view.show_score(self.game.score, self.best)

    def accepts_moves(self) -> bool:
        """A move can change the game now (not over, not paused on the win overlay)."""
        return not self.game.over and not self.game.paused_at_win

    # -- the queue ----------------------------------------------------------------------------

    async def _drain(self) -> None:
        try:
            while self.queue:
                intent = self.queue.pop(0)
                if intent.kind == "move":
                    await self._move(intent)
                elif intent.kind == "restart":
                    self._restart(intent)
                elif intent.kind == "keep_going":
                    self._keep_going(intent)
                elif intent.kind == "switch":
                    self._switch(intent)
                elif intent.kind == "undo":
                    self._undo(intent)
                elif intent.kind == "redo":
                    await self._redo(intent)
                elif intent.kind == "restore":
                    self._restore()
        finally:
            self.view.set_settled(True)
            self._idle.set()

    async def _move(self, intent: Intent) -> None:
        if not self.accepts_moves():
            return
        direction = intent.direction
        assert direction is not None  # a move intent always names its direction
        outcome = self.game.play(direction, intent.note)
        if not outcome.moved:
            if intent.source == HUMAN:
                self.view.announce(announce.blocked_sentence(outcome.direction))
            return
        await self._show_move(intent, outcome)

    def _restore(self) -> None:
        game = self.storage.restore_history(self.game)
        if game is not self.game:
            self.game = game
            self.view.show_history(game)
        self._report()

    def _undo(self, intent: Intent) -> None:
        taken = self.game.undo()
        if taken is None:
            self.view.announce(announce.NOTHING_TO_UNDO)
            return
        self._save()  # a finished game, cleared from storage, is open again
        self.view.render(self.game)
        self.view.show_score(self.game.score, self.best)
        self.view.show_overlays(self.game)
        self.view.show_history(self.game)
        self.view.announce(announce.undo_sentence(taken, self.game))
        self._notify("undo", intent, taken)

    async def _redo(self, intent: Intent) -> None:
        if not self.game.undone or not self.accepts_moves():
            self.view.announce(announce.NOTHING_TO_REDO)
            return
        outcome = self.game.redo()
        if outcome is not None:  # it is: a move was taken back
            await self._show_move(intent, outcome)

    async def _show_move(self, intent: Intent, outcome: MoveOutcome) -> None:
        """Save, slide and settle a move the game has made (``outcome``), and tell the listeners."""
        if self.game.earned > self.best:
            self.best = self.storage.save_best_score(self.game.earned)
        if self.game.over:
            self.storage.finish(self.game, self.clock())
            self.storage.clear()  # as the original: a finished game is not restored
            self._report()
        else:
            self._save()
        self.view.slide(outcome)
        self.view.show_score(self.game.score, self.best, outcome.points)
        self.view.show_history(self.game)
        self._notify("move", intent, outcome)
        pause = FAST_SLIDE_SECONDS if len(self.queue) >= BACKLOG_FAST else self.slide_seconds
        await sleep(pause)
        self.view.settle(self.game, outcome)
        self.view.show_overlays(self.game)
        self.view.announce(announce.move_sentence(outcome, self.game, by_ai=intent.source == AI))
        if outcome.won_now:
            self._notify("won", intent, outcome)
        if outcome.over:
            self._notify("over", intent, outcome)

    def _restart(self, intent: Intent) -> None:
        self.view.end_game_notice()  # what was said of the old game goes with it; errors stay
        if self.game.moves and not self.game.over:  # a lost game was listed when it ended
            self.storage.finish(self.game, self.clock())
        self._replace(self.new_game())
        self.view.announce(announce.game_sentence(self.game, "New game."))
        self._notify("restart", intent, None)

    def _switch(self, intent: Intent) -> None:
        if intent.game is not None:
            self._replace(intent.game)
            self.view.announce(announce.game_sentence(self.game, "Another game on the board."))
            self._notify("switch", intent, None)

    def _replace(self, game: Game) -> None:
        self.game = game
        if game.earned > self.best:  # a kept game may score more than any saved best
            self.best = self.storage.save_best_score(game.earned)
        self._save()
        self.view.render(self.game)
        self.view.show_score(self.game.score, self.best)
        self.view.show_overlays(self.game)
        self.view.show_history(self.game)

    def _keep_going(self, intent: Intent) -> None:
        if not self.game.paused_at_win:
            return
        self.game.continue_after_win()
        self._save()
        self.view.show_overlays(self.game)
        self.view.announce(announce.keep_going_sentence())
        self._notify("keep_going", intent, None)

    def _save(self) -> None:
        """Save the game; say once that saving fails, and anything the save had to keep."""
        saved = self.storage.save(self.game)
        if not saved and not self.unsaved:
            self.view.show_notice(NOT_SAVED, error=True)
        self.unsaved = not saved
        self._report()

    def _report(self) -> None:
        notices = self.storage.take_notices()
        if notices:
            self.view.show_notice(" ".join(notices))

    def _notify(self, event: str, intent: Intent, payload: Any) -> None:
        for listener in list(self.listeners):
            listener(event, intent, payload)
