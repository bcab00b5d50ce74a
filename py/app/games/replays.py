"""The replay's sources: the game in play, "Your games" and a lab file, each checked before the replay opens.

A finished game or a lab game is replayed from its saved record
(``GameRecord.from_dict``), so a record whose moves do not give its stored
result is refused here with a message, and the replay never opens on it.
A lab game's record is read again from its file when it is opened
(``LabFile.game_data``): the page keeps only the games' summaries.
"""

import asyncio

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

from app.games.lab_files import LabFile
from app.games.saved_games import SavedGames
from game2048.game_record import GameRecord, RecordError, record_of

NO_RECORD = (
    "This game cannot be replayed: it did not start from a seed in this page (a position set up by hand, "
    "or a game saved before games were recorded)."
)


class Replays:
    """Where the replay's games come from: the current game, "Your games", a lab file's games.

    ``say(text)`` tells the games panel what went wrong; ``view`` is the
    replay dialog (``app.games.replay_view.ReplayView``) and ``panel`` the games
    panel, both set once built.
    """

    def __init__(self, session: Any, saved: SavedGames, say: "Callable[[str], None]") -> None:
        self.session = session
        self.saved = saved
        self.say = say
        self.view: Any = None
        self.panel: Any = None
        self.review: Any = None  # the replay's review part (app.games.review_panel.ReviewPanel), set once built
        self.lab: LabFile | None = None  # the lab file read last, whose games open as "file"
        self.opening: Any = None  # the task reading a lab game's record, kept until it ends

    def use_file(self, lab: LabFile) -> None:
        """The lab file just read: its games are the ones "file" opens (``open``)."""
        self.lab = lab

    def current(self) -> None:
        """Replay the game in play, from its last position."""
        record = record_of(self.session.game)
        if record is None:
            self.session.view.show_notice(NO_RECORD)
            return
        self.view.open(GameRecord(record.seed, record.moves, record.decisions), "This game", len(record.moves))

    def review_current(self) -> None:
        """Replay the game in play and review it (the game-over's "Review this game")."""
        self.current()
        if self.view.is_open and self.review is not None:
            self.review.start()

    def open_reviewed(self, source: str, index: int) -> None:
        """Replay game ``index`` of "yours" and review it (a row's "Review" in Your games)."""
        self.open(source, index)
        if source == "yours" and self.view.is_open and self.review is not None:
            self.review.start()

    def open(self, source: str, index: int) -> None:
        """Replay game ``index`` of "yours" (newest first) or of the lab "file" shown."""
        if source == "yours":
            record = self.saved.finished.record(index)
            notices = self.saved.take_notices()
            if record is None:
                self.say(" ".join(notices) or "That game is no longer in your games.")
                return
            count = len(record.moves)
            title = f"Your game, {count} move{'' if count == 1 else 's'}"
        else:
            self.opening = asyncio.create_task(self.open_lab_game(index))
            return
        self.view.open(record, title)

    async def open_lab_game(self, index: int) -> None:
        """Replay game ``index`` of the lab file read last, its record read again from the file."""
        lab = self.lab
        if lab is None or not 0 <= index < len(lab.games):
            self.say("That game is no longer listed.")
            return
        label = lab.games[index].label
        try:
            record = GameRecord.from_dict(await lab.game_data(index))
        except RecordError as exc:
            self.say(f"The lab game {label} could not be replayed: {exc}.")
            return
        self.view.open(record, f"Lab game, {label}")
