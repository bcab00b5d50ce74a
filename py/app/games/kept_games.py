"""The kept games: games left in play (a new game, a link, the editor, a switch) that "Resume kept game" brings back.

A short list in ``KEPT_KEY``, newest first, of saved forms (``app.games.saved_forms``).  The same game (seed and
start) is kept once: the entry that holds the most of its moves stays.  An entry left by a closed tab carries that
tab's id, so the tab takes its game back if it was only reloading (``app.games.tab_slots``).
"""

import json

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass

from app.browser.outside_data import BadData
from app.browser.storage import KEPT_KEY, Storage
from app.games.saved_forms import (
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
