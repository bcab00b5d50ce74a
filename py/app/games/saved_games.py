"""The saved games: each tab's live game, the kept games, and nothing lost to a link or another tab.

Each tab saves its game under a key of its own (``live_key(tab)``, the tab's
id kept in sessionStorage), so tabs never write over each other's game, and a
reload brings back the tab's own game.  Each save also writes ``GAME_KEY``,
the game a new tab opens.  Another tab's save never files this tab's game:
a game is kept (``KEPT_KEY``, a short list, newest first, that "Resume kept
game" cycles through) only when its own tab leaves it (a new game, a link,
the editor, a switch), or when a new tab finds a game left in a tab closed
long ago (``collect_orphans``).  The same game (seed and start) is kept once.

A saved game carries its record (``game2048.game_record``) when it has one:
a reload, another tab or a kept game then brings the whole game back, undo
history included (``restore_history``, ``resume``).  Games that end go to
``app.games.finished_games``.
"""

import json

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

from app.games.finished_games import FinishedGames
from app.games.live_parts import LiveParts, encode_part, part_count
from app.browser.outside_data import BadData, read_json
from app.browser.storage import (
    GAME_KEY,
    KEPT_KEY,
    LIVE_PREFIX,
    PART_PREFIX,
    TAB_CHARS,
    Storage,
    live_key,
    open_key,
    part_key,
)
from game2048.board import max_rank
from game2048.game import Game, SavedStateError
from game2048.game_record import GameRecord, RecordError, join_parts, record_head, replay, resume, saved_record

MAX_KEPT = 10
"""Kept games beyond this many are dropped, oldest first, with a notice (about 7 KB each)."""
ORPHAN_MS = 30 * 60 * 1000.0
"""A tab's live game not saved for this long belongs to a tab closed since: a new tab keeps it (``collect_orphans``).
An open tab whose game waits longer only finds a copy among the kept games; its own slot is written again at its
next move."""


REBUILT = "Your saved game could not be read as it was ({}), so it was rebuilt from its moves."
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


def rebuilt_from_record(data: Any, refused: BadData) -> Game:
    """A saved game refused for a damaged field, rebuilt from the record saved with it if that replays to its board.

    The board, score and generator are redundant with the record: a record that reaches the saved board, in as many
    moves, gives them all back.  ``refused`` again when there is no such record.
    """
    try:
        record = GameRecord.from_dict(data.get("record") if isinstance(data, dict) else None)
        game = replay(record)
    except RecordError:
        raise refused from None
    shown = game.to_dict()
    if shown.get("rows") != data.get("rows") or shown.get("moves") != data.get("moves"):
        raise refused
    game.started = record.started
    return game


def worth_keeping(game: Game) -> bool:
    """A game someone played, or a position someone set up (its move count is not zero), that can still be played on:
    what the page never drops without asking."""
    return game.moves > 0 and not game.over


def describe(game: Game) -> str:
    """A game in a few words for a notice (not its seed: every game has one, most of them 19 digits long).

    The moves are those played: a set-up position's move count (``Game.from_position``) is made up to match its
    tiles, so a game that began on one counts from there, and says so.
    """
    tile = f"best tile {1 << max_rank(game.board)}"
    if not game.set_up:
        return f"score {game.score}, {_moves(game.moves)}, {tile}"
    played = game.played
    if played is None:  # saved before the moves played were kept apart from the position's
        return f"score {game.score}, from a set-up position, {tile}"
    return f"score {game.score}, {_moves(played)} from a set-up position, {tile}"


def _moves(count: int) -> str:
    return f"{count} move{'' if count == 1 else 's'}"


def _count_of(count: int, kind: str) -> str:
    """The words for dropped games in the notice of a save that made room: "oldest kept game", "3 oldest ..."."""
    return f"oldest {kind} game" if count == 1 else f"{count} oldest {kind} games"


def _slot(data: Any) -> "dict[str, Any]":
    """A tab's live slot: ``{"at": ms when saved, "game": Game.to_dict(), "record": its record's head, "parts": how
    many parts hold its moves}`` (``app.games.live_parts``); an older slot's ``"game"`` is the whole saved form."""
    if not isinstance(data, dict) or not isinstance(data.get("game"), dict):
        raise BadData("it is not a tab's saved game")
    at = data.get("at")
    if isinstance(at, bool) or not isinstance(at, (int, float)):
        raise BadData("it has no time of saving")
    parts = data.get("parts", 0)
    if isinstance(parts, bool) or not isinstance(parts, int) or not 0 <= parts <= 1000:
        raise BadData("it does not say how many parts hold its moves")
    return data


def pointer_to(tab: str) -> str:
    """``GAME_KEY``'s text when tab ``tab`` saved last: the game is in that tab's slot, stored once."""
    return json.dumps({"live": tab})


def is_tab_id(tab: Any) -> bool:
    """Whether ``tab`` is a tab's id as ``app.browser.storage.session_tab_id`` makes them."""
    return isinstance(tab, str) and 0 < len(tab) <= 40 and all(char in TAB_CHARS for char in tab)


def _part(data: Any) -> "dict[str, Any]":
    if not isinstance(data, dict):
        raise BadData("it is not a part of a game's moves")
    return data


def same_game(a: "dict[str, Any]", b: "dict[str, Any]") -> bool:
    """Whether two saved forms are one game (its seed and start, from the record), at any two of its moves."""
    if a == b:
        return True
    ra, rb = a.get("record"), b.get("record")
    if not isinstance(ra, dict) or not isinstance(rb, dict):
        return False
    return ra.get("seed") == rb.get("seed") and ra.get("started") == rb.get("started") and "started" in ra


def covers(a: "dict[str, Any]", b: "dict[str, Any]") -> bool:
    """Whether saved form ``a`` holds every move of ``b``: the same game, ``b``'s moves the first of ``a``'s.

    Two tabs that played on from one game (a duplicated tab) hold two games: neither covers the other.
    """
    if not same_game(a, b):
        return False
    if a == b or _without_tab(a) == _without_tab(b):
        return True
    ma, mb = a["record"].get("moves"), b["record"].get("moves")
    return isinstance(ma, str) and isinstance(mb, str) and ma.startswith(mb)


def _without_tab(entry: "dict[str, Any]") -> "dict[str, Any]":
    """A kept game without the id of the tab it was left in (``SavedGames.fold``)."""
    if "tab" not in entry:
        return entry
    plain = dict(entry)
    del plain["tab"]
    return plain


def _game_list(data: Any) -> list[Any]:
    if not isinstance(data, list):
        raise BadData(f"it is not a list but {type(data).__name__}")
    return data


class SavedGames:
    """This tab's view of ``GAME_KEY`` and ``KEPT_KEY``; refusals and losses go to ``storage.notices``."""

    def __init__(self, storage: Storage, tab: str = "", clock: "Any" = None) -> None:
        """``tab``: this tab's id (its live slot; "" for none, as in tests of one tab); ``clock()``: ms now."""
        self.storage = storage
        self.tab = tab
        self.live = live_key(tab) if tab else None
        self.clock = clock or (lambda: None)
        self._written: str | None = None  # GAME_KEY as this tab last read or wrote it
        self.kept_count = 0  # as last read or written
        self.finished = FinishedGames(storage)
        self._loaded: tuple | None = None  # (the game ``load`` returned, its saved record) until ``restore_history``
        self.parts = LiveParts()  # which parts of the live game's moves this tab's keys hold
        self._parts_read: tuple | None = None  # (the part texts ``load`` read, whether from this tab's keys)
        self.copied_from: str | None = None  # the id this tab had when it was a copy of an open tab (``claim``)
        self._fresh_id: Callable[[], str] | None = None
        self._remember: Callable[[str], None] = lambda _tab: None

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

    def slot_data(self, tab: str) -> "tuple[dict[str, Any], list[str]] | None":
        """(the saved form of tab ``tab``'s live game, with its record put together; the texts of its parts).

        None when there is no slot (or it is refused, with a notice); a record whose parts are missing or
        damaged is left out, and said.
        """
        slot = self.storage.read_json(live_key(tab), _slot)
        if slot is None:
            return None
        data = dict(slot["game"])
        texts: list[str] = []
        head = slot.get("record")
        if head is None or "record" in data:
            return data, texts
        parts = []
        for index in range(slot.get("parts", 0)):
            key = part_key(tab, index)
            part = self.storage.read_json(key, _part)
            if part is None:
                self.storage.notices.append(RECORD_REFUSED.format(f"part {index + 1} of its moves is missing"))
                return data, []
            parts.append(part)
            texts.append(self.storage.get(key) or "")
        try:
            data["record"] = join_parts(head, parts)
        except RecordError as exc:
            self.storage.notices.append(RECORD_REFUSED.format(exc))
            return data, []
        return data, texts

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
            entries = self.kept()
            if not entries:
                break
            gone = min(batch, len(entries))
            self._write_kept(entries[: len(entries) - gone])
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

    def remove_parts(self, tab: str) -> None:
        """Remove every part of tab ``tab``'s moves."""
        for key in self.storage.keys(PART_PREFIX + tab + ":"):
            self.storage.remove(key)

    # -- other tabs ---------------------------------------------------------------------------

    def collect_orphans(self) -> None:
        """Fold the slots of closed tabs into the kept games (``fold``): at once for a tab that said it went
        (``leave``), after ``ORPHAN_MS`` for one that did not (its browser ended it).  The slot of the game saved
        last stays: it is the game a new tab opens (and takes, ``claim``)."""
        now = self.clock()
        slots = self.storage.keys(LIVE_PREFIX)
        last = self._last_tab()
        tabs = [key[len(LIVE_PREFIX) :] for key in slots if key != self.live]
        closed = []
        for tab in tabs:
            if tab == last:
                continue
            mark = self.storage.get(open_key(tab))
            if mark is None:
                closed.append(tab)
                continue
            slot = self.storage.read_json(live_key(tab), _slot)
            if slot is not None and now is not None and now - float(slot["at"]) >= ORPHAN_MS:
                closed.append(tab)
        for tab in closed:
            self.fold(tab, [other for other in tabs if other != tab and other not in closed])

    def fold(self, tab: str, open_tabs: "list[str] | None" = None) -> None:
        """Keep the game in closed tab ``tab``'s slot if it is worth keeping and no other stored game holds all of it
        (an open tab's, a kept one), said in a notice; then free the slot and its parts."""
        found = self.slot_data(tab)
        if found is not None:
            try:
                game = parse_game(found[0])
                if worth_keeping(game) and not self._held_elsewhere(found[0], open_tabs or []):
                    entry = dict(found[0])
                    entry["tab"] = tab  # the tab takes it back if it was only reloading (``load``)
                    if self.keep(game, entry):
                        self.storage.notices.append(
                            f"A game left in a tab closed earlier ({describe(game)}) is kept: "
                            "\u201cResume kept game\u201d (B) brings it back."
                        )
            except BadData as exc:
                key = live_key(tab)
                self.storage.discard(key, self.storage.get(key) or "", str(exc))
        self.storage.remove(live_key(tab))
        self.storage.remove(open_key(tab))
        self.remove_parts(tab)

    def _held_elsewhere(self, data: "dict[str, Any]", open_tabs: "list[str]") -> bool:
        """Whether an open tab's game or a kept game holds every move of ``data`` (then it is a copy)."""
        for other in open_tabs:
            found = self.slot_data(other)
            if found is not None and covers(found[0], data):
                return True
        return any(covers(entry, data) for entry in self.kept())

    # -- this tab among the others ------------------------------------------------------------

    def claim(self, fresh_id: "Callable[[], str]", remember: "Callable[[str], None]") -> None:
        """Make this tab's id its own before anything is saved, and say that the tab is open (``leave``: it went).

        A tab whose id another open tab holds (a duplicated tab, a window opened by ``window.open``: both copy
        sessionStorage) takes a new id, ``fresh_id()``, kept by ``remember(id)``, and opens that tab's game as it
        is (``load``).  A new tab (no slot of its own) whose game is the one saved last, left in the slot of a
        closed tab, takes that tab's id: the game stays stored once, and its parts need no copy.
        """
        if self.live is None:
            return
        self._fresh_id, self._remember = fresh_id, remember
        if self.storage.get(open_key(self.tab)) is not None:
            self.copied_from = self.tab
            self._take(fresh_id())
        elif self.storage.get(self.live) is None:
            last = self._last_tab()
            if last is not None and last != self.tab and self.storage.get(open_key(last)) is None:
                if self.storage.get(live_key(last)) is not None:
                    self._take(last)
        self.arrive()

    def rekey(self) -> bool:
        """Another tab wrote this tab's slot, so it holds this tab's id: take a new one (the caller saves again).

        False when this tab has no id to change (one tab's tests).
        """
        if self.live is None or self._fresh_id is None:
            return False
        self._take(self._fresh_id())
        self.arrive()
        return True

    def arrive(self) -> None:
        """Say that this tab is open (at its start, and when it comes back from the back-forward cache)."""
        if self.live is not None:
            self.storage.set(open_key(self.tab), str(self.clock() or 0))

    def leave(self) -> None:
        """This tab goes (``pagehide``: closed, reloaded or left): its slot is a closed tab's until it is back."""
        if self.live is not None:
            self.storage.remove(open_key(self.tab))

    def _take(self, tab: str) -> None:
        self.tab = tab
        self.live = live_key(tab)
        self.parts.forget()
        self._written = None
        self._remember(tab)

    def _last_tab(self) -> "str | None":
        """The tab whose slot holds the game saved last, if ``GAME_KEY`` names one."""
        raw = self.storage.get(GAME_KEY)
        if raw is None or len(raw) > 200:
            return None
        try:
            value = read_json(raw, 200, 2)
        except BadData:
            return None
        tab = value.get("live") if isinstance(value, dict) else None
        return tab if is_tab_id(tab) else None

    def _take_back_kept(self) -> Game | None:
        """This tab's game, if another tab kept it while this one reloaded (``fold``): taken out of the kept games."""
        entries = self.kept()
        for index, entry in enumerate(entries):
            if entry.get("tab") == self.tab:
                del entries[index]
                self._write_kept(entries)
                game = self._parse_loaded(_without_tab(entry))
                self._parts_read = None
                return game
        return None

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

    def keep(self, game: Game, entry: "dict[str, Any] | None" = None) -> bool:
        """Put ``game`` first among the kept games, the oldest beyond ``MAX_KEPT`` dropped; True if no move of it was
        kept already.  Kept once: an earlier entry whose moves it holds goes; if an earlier entry holds all of its
        moves, that one stays, first (two tabs that played on from one game keep two games).

        ``entry`` is ``game``'s saved form when it is already at hand (as another tab saved it).
        """
        if entry is None:
            entry = saved_form(game)
        earlier = self.kept()
        holder = [e for e in earlier if covers(e, entry)]
        first = holder[0] if holder else entry
        entries = [first] + [e for e in earlier if e is not first and not covers(first, e)]
        for dropped in entries[MAX_KEPT:]:
            self.storage.notices.append(
                f"The oldest kept game ({describe(parse_game(dropped))}) was dropped: at most {MAX_KEPT} are kept."
            )
        self._write_kept(entries[:MAX_KEPT])
        return not any(same_game(e, entry) for e in earlier)

    def swap(self, game: Game) -> Game | None:
        """The newest kept game, taken out; ``game`` goes to the back of the list if it is worth keeping."""
        entries = self.kept()
        if not entries:
            return None
        data = entries.pop(0)
        taken = with_record(data, parse_game(data), self.storage.notices)
        if worth_keeping(game):
            entry = saved_form(game)
            entries = [e for e in entries if not same_game(e, entry)] + [entry]
        self._write_kept(entries)
        return taken

    def _write_kept(self, entries: list[dict[str, Any]]) -> None:
        if not entries:
            self.storage.remove(KEPT_KEY)
        elif not self.storage.set(KEPT_KEY, json.dumps(entries)):
            self.storage.notices.append("A game could not be kept: this browser's storage is full.")
            return
        self.kept_count = len(entries)
