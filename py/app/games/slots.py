"""The storage a tab's live game is not: the kept games' list and the tabs' slots.

``KeptGames``: games left in play (a new game, a link, the editor, a switch) that "Resume kept game" brings back.
A short list in ``KEPT_KEY``, newest first, of saved forms (``app.games.saved_forms``).  The same game (seed and
start) is kept once: the entry that holds the most of its moves stays.  An entry left by a closed tab carries that
tab's id, so the tab takes its game back if it was only reloading (``KeptGames.take_back``).

``TabSlots``: which id is this tab's, which tabs are open, and what a closed tab left.  Each tab saves its game under
a key of its own (``live_key(tab)``, the tab's id kept in sessionStorage), so tabs never write over each other's
game, and a reload brings back the tab's own game; an open tab says so under ``open_key(tab)``.  Another tab's save
never files this tab's game: a game is kept only when its own tab leaves it, or when a new tab finds a game left in
a tab closed since (``collect_orphans``).  A duplicated tab (sessionStorage copied) takes an id of its own
(``claim``).
"""

import json

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

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
from app.games.record_parts import join_parts
from app.games.saved_forms import (
    RECORD_REFUSED,
    covers,
    describe,
    parse_game,
    same_game,
    saved_form,
    with_record,
    without_tab,
    worth_keeping,
)
from game2048.game import Game
from game2048.game_record import RecordError

MAX_KEPT = 10
"""Kept games beyond this many are dropped, oldest first, with a notice (about 7 KB each)."""


def _game_list(data: Any) -> "list[Any]":
    if not isinstance(data, list):
        raise BadData(f"it is not a list but {type(data).__name__}")
    return data


class KeptGames:
    """This browser's kept games; refusals and losses go to ``storage.notices``."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.count = 0  # as last read or written

    def entries(self) -> "list[dict[str, Any]]":
        """The kept games' saved forms, newest first; entries that are not valid games are set aside."""
        entries = self.storage.read_json(KEPT_KEY, _game_list) or []
        valid = []
        for entry in entries:
            try:
                parse_game(entry)
                valid.append(entry)
            except BadData as exc:
                self.storage.notices.append(f"A kept game could not be used ({exc}) and was dropped.")
        self.count = len(valid)
        if len(valid) != len(entries):
            self.write(valid)
        return valid

    def keep(self, game: Game, entry: "dict[str, Any] | None" = None) -> bool:
        """Put ``game`` first among the kept games, the oldest beyond ``MAX_KEPT`` dropped; True if no move of it was
        kept already.  Kept once: an earlier entry whose moves it holds goes; if an earlier entry holds all of its
        moves, that one stays, first (two tabs that played on from one game keep two games).

        ``entry`` is ``game``'s saved form when it is already at hand (as another tab saved it).
        """
        if entry is None:
            entry = saved_form(game)
        earlier = self.entries()
        holder = [e for e in earlier if covers(e, entry)]
        first = holder[0] if holder else entry
        entries = [first] + [e for e in earlier if e is not first and not covers(first, e)]
        for dropped in entries[MAX_KEPT:]:
            self.storage.notices.append(
                f"The oldest kept game ({describe(parse_game(dropped))}) was dropped: at most {MAX_KEPT} are kept."
            )
        self.write(entries[:MAX_KEPT])
        return not any(same_game(e, entry) for e in earlier)

    def swap(self, game: Game) -> "Game | None":
        """The newest kept game, taken out; ``game`` goes to the back of the list if it is worth keeping."""
        entries = self.entries()
        if not entries:
            return None
        data = entries.pop(0)
        taken = with_record(data, parse_game(data), self.storage.notices)
        if worth_keeping(game):
            entry = saved_form(game)
            entries = [e for e in entries if not same_game(e, entry)] + [entry]
        self.write(entries)
        return taken

    def take_back(self, tab: str) -> "dict[str, Any] | None":
        """Tab ``tab``'s game if another tab kept it while ``tab`` reloaded: taken out, without the tab's id."""
        entries = self.entries()
        for index, entry in enumerate(entries):
            if entry.get("tab") == tab:
                del entries[index]
                self.write(entries)
                return without_tab(entry)
        return None

    def holds(self, data: "dict[str, Any]") -> bool:
        """Whether a kept game holds every move of saved form ``data``."""
        return any(covers(entry, data) for entry in self.entries())

    def drop_oldest(self, count: int) -> int:
        """Drop up to ``count`` of the oldest kept games (to make room for the live game); how many went."""
        entries = self.entries()
        gone = min(count, len(entries))
        if gone:
            self.write(entries[: len(entries) - gone])
        return gone

    def write(self, entries: "list[dict[str, Any]]") -> None:
        """Store ``entries`` as the kept games (none: the key goes); a full storage keeps the list as it was, said."""
        if not entries:
            self.storage.remove(KEPT_KEY)
        elif not self.storage.set(KEPT_KEY, json.dumps(entries)):
            self.storage.notices.append("A game could not be kept: this browser's storage is full.")
            return
        self.count = len(entries)


ORPHAN_MS = 30 * 60 * 1000.0
"""A tab's live game not saved for this long belongs to a tab closed since: a new tab keeps it (``collect_orphans``).
An open tab whose game waits longer only finds a copy among the kept games; its own slot is written again at its
next move."""


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


def _part(data: Any) -> "dict[str, Any]":
    if not isinstance(data, dict):
        raise BadData("it is not a part of a game's moves")
    return data


def pointer_to(tab: str) -> str:
    """``GAME_KEY``'s text when tab ``tab`` saved last: the game is in that tab's slot, stored once."""
    return json.dumps({"live": tab})


def is_tab_id(tab: Any) -> bool:
    """Whether ``tab`` is a tab's id as ``app.browser.storage.session_tab_id`` makes them."""
    return isinstance(tab, str) and 0 < len(tab) <= 40 and all(char in TAB_CHARS for char in tab)


class TabSlots:
    """This tab's id and slot among the other tabs'; refusals and losses go to ``storage.notices``."""

    def __init__(
        self, storage: Storage, tab: str, clock: "Callable[[], Any]", kept: KeptGames, on_take: "Callable[[], None]"
    ) -> None:
        """``tab``: this tab's id ("" for none, as in tests of one tab); ``clock()``: ms now; ``on_take()``: this tab
        took another id, so what it knew of its own slot is void."""
        self.storage = storage
        self.tab = tab
        self.live = live_key(tab) if tab else None
        self.clock = clock
        self.kept = kept
        self.on_take = on_take
        self.copied_from: str | None = None  # the id this tab had when it was a copy of an open tab (``claim``)
        self._fresh_id: Callable[[], str] | None = None
        self._remember: Callable[[str], None] = lambda _tab: None

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
                    entry["tab"] = tab  # the tab takes it back if it was only reloading (``KeptGames.take_back``)
                    if self.kept.keep(game, entry):
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
        return self.kept.holds(data)

    # -- this tab among the others ------------------------------------------------------------

    def claim(self, fresh_id: "Callable[[], str]", remember: "Callable[[str], None]") -> None:
        """Make this tab's id its own before anything is saved, and say that the tab is open (``leave``: it went).

        A tab whose id another open tab holds (a duplicated tab, a window opened by ``window.open``: both copy
        sessionStorage) takes a new id, ``fresh_id()``, kept by ``remember(id)``, and opens that tab's game as it
        is (``SavedGames.load``).  A new tab (no slot of its own) whose game is the one saved last, left in the slot
        of a closed tab, takes that tab's id: the game stays stored once, and its parts need no copy.
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
        self.on_take()
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
