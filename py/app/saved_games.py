"""The saved game and the kept games: what survives a reload, and nothing lost to a link or another tab.

``GAME_KEY`` holds the game a reload restores.  Other tabs of the page write
the same key, so a save first checks that the key still holds what this tab
last wrote there; if another tab's game is there instead, that game is kept
before this one replaces it.  Games set aside that way, or by a seed link
opened over a game in progress, go to ``KEPT_KEY``: a short list, newest
first, that the page's "Resume kept game" button cycles through.

A saved game carries its record (``game2048.game_record``) when it has one:
a reload, another tab or a kept game then brings the whole game back, undo
history included (``restore_history``, ``resume``).  Games that end go to
``app.finished_games``.
"""

import json

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from typing import Any
except ImportError:
    pass

from app.finished_games import FinishedGames
from app.outside_data import BadData, read_json
from app.storage import GAME_KEY, JSON_LIMITS, KEPT_KEY, Storage
from game2048.board import max_rank
from game2048.game import Game, SavedStateError
from game2048.game_record import RecordError, resume, saved_record

MAX_KEPT = 10
"""Kept games beyond this many are dropped, oldest first, with a notice (about 7 KB each)."""


RECORD_REFUSED = (
    "Your game's record could not be read ({}): the game goes on, but undo reaches back only to "
    "this position and the game will not be listed in your games."
)


def saved_form(game: Game) -> "dict[str, Any]":
    """What is saved of ``game``: ``Game.to_dict()``, and its record under ``"record"`` when it has one."""
    data = game.to_dict()
    record = saved_record(game)
    if record is not None:
        data["record"] = record
    return data


def encode(game: Game) -> str:
    """The text saved for ``game``."""
    return json.dumps(saved_form(game))


def with_record(data: Any, game: Game, notices: "list[str]") -> Game:
    """``game`` rebuilt from the record saved with it (``data["record"]``), or as it is (said in ``notices``)."""
    record = data.get("record") if isinstance(data, dict) else None
    if record is None:
        return game
    try:
        return resume(record, game)
    except RecordError as exc:
        notices.append(RECORD_REFUSED.format(exc))
        return game


def parse_game(data: Any) -> Game:
    """A saved game from its JSON value; ``BadData`` saying why it is refused."""
    try:
        return Game.from_dict(data)
    except SavedStateError as exc:
        raise BadData(str(exc)) from None


def worth_keeping(game: Game) -> bool:
    """A game someone played and can still play on: what the page never drops without asking."""
    return game.moves > 0 and not game.over


def describe(game: Game) -> str:
    """A game in a few words for a notice (not its seed: every game has one, most of them 19 digits long)."""
    return f"score {game.score}, {game.moves} moves, best tile {1 << max_rank(game.board)}"


def _count_of(count: int, kind: str) -> str:
    """The words for dropped games in the notice of a save that made room: "oldest kept game", "3 oldest ..."."""
    return f"oldest {kind} game" if count == 1 else f"{count} oldest {kind} games"


def _game_list(data: Any) -> list[Any]:
    if not isinstance(data, list):
        raise BadData(f"it is not a list but {type(data).__name__}")
    return data


class SavedGames:
    """This tab's view of ``GAME_KEY`` and ``KEPT_KEY``; refusals and losses go to ``storage.notices``."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._written: str | None = None  # GAME_KEY as this tab last read or wrote it
        self._parked: dict[str, Any] | None = None  # this tab's game, kept when another tab replaced it
        self.kept_count = 0  # as last read or written
        self.finished = FinishedGames(storage)
        self._loaded: tuple | None = None  # (the game ``load`` returned, its saved record) until ``restore_history``

    # -- the current game ---------------------------------------------------------------------

    def best_score(self) -> int:
        return self.storage.best_score()

    def save_best_score(self, score: int) -> int:
        return self.storage.save_best_score(score)

    def take_notices(self) -> list[str]:
        return self.storage.take_notices()

    def load(self) -> Game | None:
        """The game a reload restores, or None (nothing saved, or refused with a notice).

        Its record is read later (``restore_history``): replaying a long game
        takes a moment, which the page spends after it has become playable.
        """
        self._loaded = None
        game = self.storage.read_json(GAME_KEY, self._parse_loaded)
        self._written = self.storage.get(GAME_KEY) if game is not None else None
        return game

    def _parse_loaded(self, data: Any) -> Game:
        game = parse_game(data)
        self._loaded = (game, data)
        return game

    def restore_history(self, game: Game) -> Game:
        """``game`` with every move in its history, if it is the game ``load`` returned and its record agrees."""
        loaded, self._loaded = self._loaded, None
        if loaded is None or loaded[0] is not game:
            return game
        return with_record(loaded[1], game, self.storage.notices)

    def finish(self, game: Game, ended: "float | None" = None) -> None:
        """Add ``game`` to the finished games (a game that has a record and at least one move)."""
        record = saved_record(game, ended)
        if record is not None and record["moves"]:
            self.finished.add(record)

    def save(self, game: Game) -> bool:
        """Save ``game`` for reloads, keeping first whatever another tab saved there; False if it failed.

        The game ``load`` returned keeps the record it was saved with until ``restore_history`` has read it.
        """
        data = saved_form(game)
        if self._loaded is not None and self._loaded[0] is game and "record" not in data:
            record = self._loaded[1].get("record")
            if record is not None:
                data["record"] = record
        raw = json.dumps(data)
        self._keep_other_tabs_game(raw)
        if not self.storage.set(GAME_KEY, raw) and not (self.storage.full and self._make_room_for(raw)):
            return False
        self._written = raw
        if self._parked is not None:  # this tab's game is saved again: its parked copy is stale
            self._remove_kept(self._parked)
            self._parked = None
        return True

    def _make_room_for(self, raw: str) -> bool:
        """Save ``raw`` after dropping the oldest finished games, then the oldest kept games, as few as it takes.

        The games go in growing batches (1, 2, 4, ...), so a full list makes room in a few writes; what was
        dropped is said.  False when even an empty list leaves no room: the last good save stays as it was.
        """
        dropped_finished = dropped_kept = 0
        saved = False
        batch = 1
        while not saved:
            gone = self.finished.drop_oldest(batch)
            if not gone:
                break
            dropped_finished += gone
            batch *= 2
            saved = self.storage.set(GAME_KEY, raw)
        batch = 1
        while not saved:
            entries = self.kept()
            if not entries:
                break
            gone = min(batch, len(entries))
            self._write_kept(entries[: len(entries) - gone])
            dropped_kept += gone
            batch *= 2
            saved = self.storage.set(GAME_KEY, raw)
        if dropped_finished or dropped_kept:
            what = [_count_of(n, kind) for n, kind in ((dropped_finished, "finished"), (dropped_kept, "kept")) if n]
            outcome = "Your game is saved" if saved else "Your game still could not be saved"
            self.storage.notices.append(
                f"This browser's storage was full. To make room, the {' and the '.join(what)} "
                f"{'was' if dropped_finished + dropped_kept == 1 else 'were'} dropped. {outcome}."
            )
        return saved

    def clear(self) -> None:
        """Forget the current game (a finished game is not restored, as in the original)."""
        self._keep_other_tabs_game()
        self.storage.remove(GAME_KEY)
        self._written = None

    def _keep_other_tabs_game(self, replacement: str | None = None) -> None:
        current = self.storage.get(GAME_KEY)
        if current is None or current in (self._written, replacement):
            return
        try:
            data = read_json(current, *JSON_LIMITS[GAME_KEY])
            other = parse_game(data)
        except BadData as exc:
            self.storage.discard(GAME_KEY, current, str(exc))
            return
        if worth_keeping(other):
            self.keep(other, data)  # as the other tab saved it, its record with it
            self.storage.notices.append(
                f"Another tab's game ({describe(other)}) was kept: \u201cResume kept game\u201d (B) brings it back."
            )

    # -- other tabs ---------------------------------------------------------------------------

    def replaced_elsewhere(self, new_raw: str | None, game: Game) -> bool:
        """Another tab wrote ``GAME_KEY`` (a ``storage`` event): True if this tab's game had to be kept.

        This tab's game is kept at once (the tab may be closed next); it is
        dropped from the kept games again if this tab saves it over the other.
        """
        if new_raw == self._written:
            return False
        if new_raw is None:  # the other tab's game ended: this tab's game is the one to restore
            self._written = None
            self.save(game)
            return False
        if not worth_keeping(game):
            return False
        self._parked = saved_form(game)
        self.keep(game)
        return True

    def take_saved(self) -> Game | None:
        """The game another tab saved, now this tab's (the caller has kept its own), with its history."""
        self._parked = None
        game = self.load()
        return None if game is None else self.restore_history(game)

    # -- kept games ---------------------------------------------------------------------------

    def kept(self) -> list[dict[str, Any]]:
        """The kept games' saved forms, newest first; entries that are not valid games are set aside."""
        entries = self.storage.read_json(KEPT_KEY, _game_list) or []
        valid = []
        for entry in entries:
            try:
                parse_game(entry)
                valid.append(entry)
            except BadData as exc:
                self.storage.notices.append(f"A kept game could not be used ({exc}) and was dropped.")
        self.kept_count = len(valid)
        if len(valid) != len(entries):
            self._write_kept(valid)
        return valid

    def keep(self, game: Game, entry: "dict[str, Any] | None" = None) -> None:
        """Put ``game`` first among the kept games (once), dropping the oldest beyond ``MAX_KEPT``.

        ``entry`` is ``game``'s saved form when it is already at hand (as another tab saved it).
        """
        if entry is None:
            entry = saved_form(game)
        entries = [entry] + [e for e in self.kept() if e != entry]
        for dropped in entries[MAX_KEPT:]:
            self.storage.notices.append(
                f"The oldest kept game ({describe(parse_game(dropped))}) was dropped: at most {MAX_KEPT} are kept."
            )
        self._write_kept(entries[:MAX_KEPT])

    def swap(self, game: Game) -> Game | None:
        """The newest kept game, taken out; ``game`` goes to the back of the list if it is worth keeping."""
        entries = self.kept()
        if not entries:
            return None
        data = entries.pop(0)
        taken = with_record(data, parse_game(data), self.storage.notices)
        if worth_keeping(game):
            entry = saved_form(game)
            entries = [e for e in entries if e != entry] + [entry]
        self._write_kept(entries)
        return taken

    def _remove_kept(self, entry: dict[str, Any]) -> None:
        entries = self.kept()
        if entry in entries:
            self._write_kept([e for e in entries if e != entry])

    def _write_kept(self, entries: list[dict[str, Any]]) -> None:
        if not entries:
            self.storage.remove(KEPT_KEY)
        elif not self.storage.set(KEPT_KEY, json.dumps(entries)):
            self.storage.notices.append("A game could not be kept: this browser's storage is full.")
            return
        self.kept_count = len(entries)
