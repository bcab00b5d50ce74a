"""The saved games: this tab's live game, saved for reloads and new tabs, with the kept games and the other tabs.

``SavedGames`` is the one object the page holds.  It saves and loads the live game itself: in this tab's slot, its
moves in parts (``app.games.live_parts``), with ``GAME_KEY`` naming the slot of the game saved last, the game a new
tab opens.  The kept games and the tabs' ids and slots (``app.games.slots``) are its parts; games that end go to
``app.games.finished_games``.  A reload, another tab or a kept game brings the whole game back, undo history
included (``restore_history``); a full storage makes room by dropping the oldest finished games, then the oldest
kept games, and says so.
"""

import json

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

from app.browser.outside_data import BadData
from app.browser.storage import GAME_KEY, Storage, live_key, part_key
from app.games.finished_games import FinishedGames
from app.games.live_parts import LiveParts, encode_part, part_count
from app.games.record_parts import record_head
from app.games.saved_forms import (
    RECORD_REFUSED,
    covers,
    describe,
    encode,
    parse_game,
    rebuilt_from_record,
    same_game,
    saved_form,
    with_record,
    worth_keeping,
)
from app.games.slots import MAX_KEPT, ORPHAN_MS, KeptGames, TabSlots, is_tab_id, pointer_to
from game2048.game import Game
from game2048.game_record import saved_record

__all__ = [  # the names the page, its tests and its tools import from here, wherever they are defined
    "MAX_KEPT",
    "ORPHAN_MS",
    "REBUILT",
    "RECORD_REFUSED",
    "SavedGames",
    "covers",
    "describe",
    "encode",
    "is_tab_id",
    "parse_game",
    "pointer_to",
    "rebuilt_from_record",
    "same_game",
    "saved_form",
    "with_record",
    "worth_keeping",
]

REBUILT = "Your saved game could not be read as it was ({}), so it was rebuilt from its moves."


def _count_of(count: int, kind: str) -> str:
    """The words for dropped games in the notice of a save that made room: "oldest kept game", "3 oldest ..."."""
    return f"oldest {kind} game" if count == 1 else f"{count} oldest {kind} games"


class SavedGames:
    """This tab's view of ``GAME_KEY`` and ``KEPT_KEY``; refusals and losses go to ``storage.notices``."""

    def __init__(self, storage: Storage, tab: str = "", clock: "Any" = None) -> None:
        """``tab``: this tab's id (its live slot; "" for none, as in tests of one tab); ``clock()``: ms now."""
        self.storage = storage
        self.clock = clock or (lambda: None)
        self._written: str | None = None  # GAME_KEY as this tab last read or wrote it
        self.finished = FinishedGames(storage)
        self.kept_games = KeptGames(storage)
        self.tabs = TabSlots(storage, tab, self.clock, self.kept_games, self._taken)
        self._loaded: tuple | None = None  # (the game ``load`` returned, its saved record) until ``restore_history``
        self.parts = LiveParts()  # which parts of the live game's moves this tab's keys hold
        self._parts_read: tuple | None = None  # (the part texts ``load`` read, whether from this tab's keys)

    @property
    def tab(self) -> str:
        """This tab's id ("" for none)."""
        return self.tabs.tab

    @property
    def live(self) -> "str | None":
        """This tab's slot's key (None without a tab)."""
        return self.tabs.live

    @property
    def copied_from(self) -> "str | None":
        """The id this tab had when it was a copy of an open tab (``claim``)."""
        return self.tabs.copied_from

    # -- the current game ---------------------------------------------------------------------

    def best_score(self) -> int:
        return self.storage.best_score()

    def save_best_score(self, score: int) -> int:
        return self.storage.save_best_score(score)

    def take_notices(self) -> list[str]:
        return self.storage.take_notices()

    def load(self) -> Game | None:
        """The game a reload restores, or None (nothing saved, or refused with a notice).

        This tab's own slot first; else the game saved last (``GAME_KEY``: another tab's slot it points to, or a
        whole saved game as older pages saved it).  Its record is read later (``restore_history``): replaying a
        long game takes a moment, which the page spends after it has become playable.
        """
        self._loaded = None
        self._parts_read = None
        if self.live is not None:
            game = self._load_slot(self.tab, True)
            if game is not None:
                if self.storage.get(GAME_KEY) == pointer_to(self.tab):  # this tab saved last: it clears it at the end
                    self._written = pointer_to(self.tab)
                return game
            if self.copied_from is not None:  # a copy of an open tab opens that tab's game as it is now
                game = self._load_slot(self.copied_from, False)
                if game is not None:
                    return game
            game = self._take_back_kept()
            if game is not None:
                return game
        value = self.storage.read_json(GAME_KEY, self._game_or_pointer)
        if isinstance(value, str):
            game = self._load_slot(value, False) if value != self.tab else None
        else:
            game = value
        self._written = self.storage.get(GAME_KEY) if game is not None else None
        return game

    def _game_or_pointer(self, data: Any) -> Any:
        """``GAME_KEY``'s value: the id of the tab whose slot holds the game saved last, or (older) that game."""
        if isinstance(data, dict) and "live" in data and "rows" not in data:
            if not is_tab_id(data["live"]):
                raise BadData("it names no tab")
            return data["live"]
        return self._parse_loaded(data)

    def _load_slot(self, tab: str, own: bool) -> Game | None:
        """The game in tab ``tab``'s slot (this tab's if ``own``), its record kept for ``restore_history``."""
        found = self.slot_data(tab)
        if found is None:
            return None
        try:
            game = self._parse_loaded(found[0])
        except BadData as exc:
            key = live_key(tab)
            self.storage.discard(key, self.storage.get(key) or "", str(exc))
            return None
        self._parts_read = (found[1], own)
        return game

    def _parse_loaded(self, data: Any) -> Game:
        try:
            game = parse_game(data)
        except BadData as exc:
            game = rebuilt_from_record(data, exc)
            self.storage.notices.append(REBUILT.format(exc))
        self._loaded = (game, data)
        return game

    def restore_history(self, game: Game) -> Game:
        """``game`` with every move in its history, if it is the game ``load`` returned and its record agrees."""
        loaded, self._loaded = self._loaded, None
        read, self._parts_read = self._parts_read, None
        if loaded is None or loaded[0] is not game:
            return game
        restored = with_record(loaded[1], game, self.storage.notices)
        if restored is not game and self.live is not None:
            if read is not None and read[0]:
                self.parts.seed(restored, read[0], read[1])  # the parts read are not encoded again
            else:  # a whole saved game (as older pages saved it): its parts made now, in the restore's own task
                count = part_count(len(restored.history), self.parts.size)
                texts = [encode_part(restored, index, self.parts.size) for index in range(count)]
                self.parts.seed(restored, texts, False)
        return restored

    def finish(self, game: Game, ended: "float | None" = None) -> None:
        """Add ``game`` to the finished games (a game that has a record and at least one move)."""
        record = saved_record(game, ended)
        if record is not None and record["moves"]:
            self.finished.add(record)

    def save(self, game: Game) -> bool:
        """Save ``game`` for reloads, keeping first whatever another tab saved there; False if it failed.

        The game ``load`` returned is stored where it was read until ``restore_history`` has read its record:
        saving it is nothing to do.  With a tab, the game goes to its slot (the moves in parts, of which a move
        writes the last, ``app.games.live_parts``) and ``GAME_KEY`` names the slot: a game is stored once.
        """
        if self.live is None:
            return self._save_whole(game)
        if self._loaded is not None and self._loaded[0] is game:
            return True
        head = record_head(game)
        writes, count = self.parts.changes(game) if head is not None else ([], 0)
        for index, text in writes:
            if not self._write(part_key(self.tab, index), text):
                return False
            self.parts.written(game, index, text)
        slot = {"at": self.clock() or 0, "game": game.to_dict(), "record": head, "parts": count}
        if not self._write(self.live, json.dumps(slot)):
            return False
        for index in self.parts.trimmed(count):
            self.storage.remove(part_key(self.tab, index))
        pointer = pointer_to(self.tab)
        if self.storage.get(GAME_KEY) != pointer:
            self._write(GAME_KEY, pointer)  # if it fails, a new tab opens an older game; this one is saved
        self._written = pointer
        return True

    def _save_whole(self, game: Game) -> bool:
        """Save ``game`` whole in ``GAME_KEY`` (no tab: one tab's tests, as the page saved before tabs)."""
        data = saved_form(game)
        if self._loaded is not None and self._loaded[0] is game and "record" not in data:
            record = self._loaded[1].get("record")
            if record is not None:
                data["record"] = record
        raw = json.dumps(data)
        if not self._write(GAME_KEY, raw):
            return False
        self._written = raw
        return True

    def _write(self, key: str, raw: str) -> bool:
        return self.storage.set(key, raw) or (self.storage.full and self._make_room_for(key, raw))

    def _make_room_for(self, key: str, raw: str) -> bool:
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
            saved = self.storage.set(key, raw)
        batch = 1
        while not saved:
            gone = self.kept_games.drop_oldest(batch)
            if not gone:
                break
            dropped_kept += gone
            batch *= 2
            saved = self.storage.set(key, raw)
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
        if self.live is not None:
            self.storage.remove(self.live)
            self.remove_parts(self.tab)
            self.parts.forget()
        if self.storage.get(GAME_KEY) == self._written:  # not if another tab saved its game there since
            self.storage.remove(GAME_KEY)
        self._written = None

    def _take_back_kept(self) -> Game | None:
        """This tab's game, if another tab kept it while this one reloaded (``fold``): taken out of the kept games."""
        entry = self.kept_games.take_back(self.tab)
        if entry is None:
            return None
        game = self._parse_loaded(entry)
        self._parts_read = None
        return game

    def _taken(self) -> None:
        """This tab took another id (``TabSlots.claim``, ``rekey``): its parts and its ``GAME_KEY`` are not the new
        slot's."""
        self.parts.forget()
        self._written = None

    # -- other tabs (``app.games.slots.TabSlots``) --------------------------------------------

    def slot_data(self, tab: str) -> "tuple[dict[str, Any], list[str]] | None":
        """``TabSlots.slot_data``: tab ``tab``'s game as its slot and parts hold it, and the parts' texts."""
        return self.tabs.slot_data(tab)

    def remove_parts(self, tab: str) -> None:
        """``TabSlots.remove_parts``."""
        self.tabs.remove_parts(tab)

    def collect_orphans(self) -> None:
        """``TabSlots.collect_orphans``: the games of tabs closed since are kept."""
        self.tabs.collect_orphans()

    def fold(self, tab: str, open_tabs: "list[str] | None" = None) -> None:
        """``TabSlots.fold``: closed tab ``tab``'s game kept, its slot freed."""
        self.tabs.fold(tab, open_tabs)

    def claim(self, fresh_id: "Callable[[], str]", remember: "Callable[[str], None]") -> None:
        """``TabSlots.claim``: this tab's id made its own, the tab said open."""
        self.tabs.claim(fresh_id, remember)

    def rekey(self) -> bool:
        """``TabSlots.rekey``: a new id, as another tab wrote this one's slot."""
        return self.tabs.rekey()

    def arrive(self) -> None:
        """``TabSlots.arrive``: this tab is open."""
        self.tabs.arrive()

    def leave(self) -> None:
        """``TabSlots.leave``: this tab goes."""
        self.tabs.leave()

    # -- kept games (``app.games.slots.KeptGames``) -------------------------------------------

    @property
    def kept_count(self) -> int:
        """How many games are kept, as last read or written."""
        return self.kept_games.count

    def kept(self) -> "list[dict[str, Any]]":
        """``KeptGames.entries``: the kept games' saved forms, newest first."""
        return self.kept_games.entries()

    def keep(self, game: Game, entry: "dict[str, Any] | None" = None) -> bool:
        """``KeptGames.keep``: ``game`` first among the kept games; True if no move of it was kept already."""
        return self.kept_games.keep(game, entry)

    def swap(self, game: Game) -> "Game | None":
        """``KeptGames.swap``: the newest kept game, taken out; ``game`` kept last if it is worth keeping."""
        return self.kept_games.swap(game)
