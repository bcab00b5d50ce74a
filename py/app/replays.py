"""The replay's sources: the game in play, "Your games" and a lab file, each checked before the replay opens.

A finished game or a lab game is replayed from its saved record
(``GameRecord.from_dict``), so a record whose moves do not give its stored
result is refused here with a message, and the replay never opens on it.
"""

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

from app.lab_files import read_lab_file
from app.saved_games import SavedGames
from game2048.game_record import GameRecord, RecordError, record_of, summary_of

REPLAY_KEY = "v"
"""The key that replays the game in play."""
NO_RECORD = (
    "This game cannot be replayed: it did not start from a seed in this page (a position set up by hand, "
    "or a game saved before games were recorded)."
)


class Replays:
    """Where the replay's games come from: the current game, "Your games", a lab file's games.

    ``say(text)`` tells the games panel what went wrong; ``view`` is the
    replay dialog (``app.replay_view.ReplayView``) and ``panel`` the games
    panel (``show_file``), both set once built.
    """

    def __init__(self, session: Any, saved: SavedGames, say: "Callable[[str], None]") -> None:
        self.session = session
        self.saved = saved
        self.say = say
        self.view: Any = None
        self.panel: Any = None
        self.lab_games: list[tuple[str, dict[str, Any]]] = []  # the opened lab file's (label, saved record)

    def read_file(self, name: str, text: str) -> None:
        """A lab file's text: its games listed in the panel, and what was read and skipped said."""
        lab = read_lab_file(text, name)
        self.lab_games = lab.games
        self.panel.show_file(name, [summary_of(data) for _label, data in lab.games], lab.notice())

    def current(self) -> None:
        """Replay the game in play, from its last position."""
        record = record_of(self.session.game)
        if record is None:
            self.session.view.show_notice(NO_RECORD)
            return
        self.view.open(GameRecord(record.seed, record.moves, record.decisions), "This game", len(record.moves))

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
            label, data = self.lab_games[index]
            try:
                record = GameRecord.from_dict(data)
            except RecordError as exc:
                self.say(f"The lab game {label} could not be replayed: {exc}.")
                return
            title = f"Lab game, {label}"
        self.view.open(record, title)
