"""Which game this tab plays: kept games brought back, and what other tabs of the page save.

Browsers tell every other tab of a site when one writes localStorage (the
``storage`` event); ``on_storage`` turns that into what a player expects:
a higher best score shows at once, and the kept games' button follows the
list.  Another tab's game never touches this tab's: each tab saves its own
(``app.games.saved_games``).
"Resume kept game" (button or B) swaps the current game with the newest
kept one; the current one is kept in its place if it is worth keeping.
"Play from here" in the replay (``play_from``) starts a game at a replayed
position the same way.
"""

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from typing import Any
except ImportError:
    pass

from app.board.play import Intent, PlaySession
from app.browser.storage import BEST_KEY, KEPT_KEY
from app.games.saved_games import SavedGames, describe, worth_keeping
from game2048.game_record import GameRecord, replay

KEPT_FOR_REPLAY = "Your game ({}) is kept: \u201cResume kept game\u201d (B) brings it back."


class GameSwitcher:
    """Handles the kept games' button and other tabs' storage events for one ``PlaySession``."""

    def __init__(self, session: PlaySession, saved: SavedGames, view: Any) -> None:
        self.session = session
        self.saved = saved
        self.view = view
        self.kept_count = len(saved.kept())
        view.show_kept_games(self.kept_count)
        session.listeners.append(lambda *_: self.refresh())

    def refresh(self) -> None:
        """Show the kept games' button if the count changed (read from storage only when it may have)."""
        count = self.saved.kept_count
        if count != self.kept_count:
            self.kept_count = count
            self.view.show_kept_games(count)

    def resume_kept(self) -> None:
        """Play the newest kept game; the current one takes its place among the kept."""
        game = self.saved.swap(self.session.game)
        self._report()
        self.refresh()
        if game is not None:
            self.session.submit(Intent.switch(game))

    def play_from(self, record: GameRecord, step: int, started: "float | None" = None) -> None:
        """Play on from move ``step`` of ``record``: a new game (started now) with the record's first moves as its own.

        Its seed is the record's, so its tiles come as they came then, and undo
        reaches back to the record's start.  The game it replaces is kept if
        it is worth keeping, and said so.
        """
        game = replay(record, step)
        game.started = started
        current = self.session.game
        notices = []
        if worth_keeping(current):
            self.saved.keep(current)
            notices.append(KEPT_FOR_REPLAY.format(describe(current)))
        notices.extend(self.saved.take_notices())
        self.refresh()
        self.session.submit(Intent.switch(game))
        if notices:
            self.view.show_notice(" ".join(notices))

    def on_storage(self, key: str | None, new_value: str | None) -> None:
        """Another tab wrote ``key`` (None: it cleared the page's storage); this tab's game is not touched.

        Another tab that writes this tab's own slot holds this tab's id (a copy made before this tab said it was
        open): this tab takes a new id and saves its game there, so neither loses a move.  A slot removed by
        another tab (taken for a closed tab's) is saved again, whole.
        """
        if key is not None and key == self.saved.live:
            if new_value is not None:
                self.saved.rekey()
            self.saved.parts.forget()
            self.saved.arrive()
            self.saved.save(self.session.game)
        if key == BEST_KEY or key is None:
            self.session.note_best(self.saved.best_score())
        if key in (KEPT_KEY, None):
            self.saved.kept()  # re-reads the count
        self._report()
        self.refresh()

    def _report(self) -> None:
        notices = self.saved.take_notices()
        if notices:
            self.view.show_notice(" ".join(notices))
