"""The last finished games ("Your games"): their records in ``GAMES_KEY``, newest first, within a fixed budget.

A game joins the list when it ends: lost, or left for a new game (a game with
moves that was not kept).  A game undone after its end and ended again
replaces its earlier entry (same seed and start time).  The list keeps at
most ``MAX_GAMES`` games and ``MAX_CHARS`` characters, dropping the oldest,
so the saved game and the settings always have room; when even that does not
fit, the oldest games go first until the newest does, and the current game,
saved under its own key, is never touched.  Entries are read without
replaying (``summary_of``); one that is damaged is dropped with a notice and
never takes the others with it.
"""

import json

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass

from app.browser.outside_data import BadData
from app.browser.storage import GAMES_KEY, Storage
from game2048.game_record import GameRecord, RecordError, summary_of

MAX_GAMES = 100
MAX_CHARS = 1_500_000
"""About 3 MB of a browser's 5–10 MB of local storage (a 1,000-move AI game takes about 20,000 characters)."""


def _entries(data: Any) -> "list[Any]":
    if not isinstance(data, list):
        raise BadData(f"it is not a list but {type(data).__name__}")
    return data


class FinishedGames:
    """This browser's finished games; refusals and losses go to ``storage.notices``."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def records(self) -> "list[dict[str, Any]]":
        """The saved records whose shape is sound, newest first; damaged ones are dropped (and said)."""
        entries = self.storage.read_json(GAMES_KEY, _entries) or []
        sound = []
        for number, entry in enumerate(entries, 1):
            try:
                summary_of(entry)
                sound.append(entry)
            except RecordError as exc:
                self.storage.notices.append(f"Finished game {number} could not be read ({exc}) and was dropped.")
        if len(sound) != len(entries):
            self._write(sound)
        return sound

    def summaries(self) -> "list[dict[str, Any]]":
        """``summary_of`` each record, newest first: the rows of the "Your games" table."""
        return [summary_of(entry) for entry in self.records()]

    def record(self, index: int) -> "GameRecord | None":
        """Record ``index`` (0 = newest), replayed and checked; None (with a notice, and dropped) if it is damaged."""
        entries = self.records()
        if not 0 <= index < len(entries):
            return None
        try:
            return GameRecord.from_dict(entries[index])
        except RecordError as exc:
            self.storage.notices.append(f"That game could not be replayed ({exc}); it was dropped from your games.")
            self._write(entries[:index] + entries[index + 1 :])
            return None

    def add(self, data: "dict[str, Any]") -> bool:
        """Put a record's saved form first (replacing the same game's earlier end); False if it could not be kept."""
        key = (data.get("seed"), data.get("started"))
        entries = [data] + [e for e in self.records() if (e.get("seed"), e.get("started")) != key]
        kept: list[dict[str, Any]] = []
        used = 2
        for entry in entries[:MAX_GAMES]:
            used += len(json.dumps(entry)) + 2
            if kept and used > MAX_CHARS:
                break
            kept.append(entry)
        entries = kept
        while entries:
            if self._write(entries):
                return True
            entries = entries[:-1]  # the storage is full: older games make room for the newest
        self.storage.notices.append("This game could not be added to your games: this browser's storage is full.")
        return False

    def drop_oldest(self, count: int) -> int:
        """Drop the ``count`` oldest finished games to make room (``SavedGames.save``); how many were dropped."""
        entries = self.records()
        dropped = min(count, len(entries))
        if dropped and not self._write(entries[: len(entries) - dropped]):
            return 0
        return dropped

    def _write(self, entries: "list[Any]") -> bool:
        if not entries:
            self.storage.remove(GAMES_KEY)
            return True
        return self.storage.set(GAMES_KEY, json.dumps(entries))
