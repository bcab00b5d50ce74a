"""The page's keys in localStorage (with an in-memory fallback): read through one guard, written without loss.

Like the original's ``LocalStorageManager``: when storage is unavailable
(private mode, disabled cookies, a sandboxed frame) the page keeps working
from memory.  Everything read back is distrusted: each key is parsed by
``app.browser.outside_data`` within its own limits, and a value that is refused is
moved, as it was, to its "discarded" key (where it fits) and explained in a
notice that the page shows once (``take_notices``).  Writes report failure
instead of raising: a full storage must not stop the game.

The logic takes a small key/value backend, so it runs in CPython tests with
``MemoryBackend``; only ``browser_backend()`` touches the browser.
"""

import json

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

from app.browser.js_guard import JsCallError, js_call
from app.browser.outside_data import BadData, read_int, read_json

PREFIX = "game2048:"
GAME_KEY = PREFIX + "game"
KEPT_KEY = PREFIX + "kept-games"
BEST_KEY = PREFIX + "best"
SETTINGS_KEY = PREFIX + "settings"
GAMES_KEY = PREFIX + "games"
REVIEWS_KEY = PREFIX + "reviews"
"""The index of the games' reviews (``app.games.review_store``): each game's key and accuracy, newest first."""
REVIEW_PREFIX = PREFIX + "review:"
"""One game's review, ``game2048:review:<game key>`` (``review_key``), kept apart from the games so a review never
costs a game its place, and read alone when its game is opened."""


def review_key(game: str) -> str:
    """The key of the review of the game whose key is ``game`` (``app.games.review_store.game_key``)."""
    return REVIEW_PREFIX + game


LIVE_PREFIX = PREFIX + "live:"
"""Each tab's own live game: ``game2048:live:<tab>`` (``live_key``), so tabs never write over each other's game."""
PART_PREFIX = PREFIX + "moves:"
"""The moves of a tab's live game, in parts (``app.games.live_parts``): ``game2048:moves:<tab>:<part>``
(``part_key``)."""
OPEN_PREFIX = PREFIX + "open:"
"""``game2048:open:<tab>`` while tab ``<tab>`` is open (``open_key``): written at its start, removed when it goes
(``pagehide``, a reload included).  A tab that finds its id there at its start is a copy of an open tab."""
TAB_KEY = PREFIX + "tab"
"""The tab's id, in sessionStorage: it survives the tab's reloads and no other tab has it."""
TAB_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz"
"""What a tab's id is written with (a stored id with anything else is replaced)."""


def live_key(tab: str) -> str:
    """The key of the live game of tab ``tab``."""
    return LIVE_PREFIX + tab


def open_key(tab: str) -> str:
    """The key that says tab ``tab`` is open."""
    return OPEN_PREFIX + tab


def part_key(tab: str, index: int) -> str:
    """The key of part ``index`` of the moves of tab ``tab``'s live game."""
    return PART_PREFIX + tab + ":" + str(index)


def discarded_key(key: str) -> str:
    """Where a refused value of ``key`` is kept as it was (the last one only): ``game2048:discarded-<name>``."""
    return PREFIX + "discarded-" + (key[len(PREFIX) :] if key.startswith(PREFIX) else key)


DISCARDED_KEY = discarded_key(GAME_KEY)

JSON_LIMITS: dict[str, tuple[int, int]] = {
    GAME_KEY: (1_000_000, 6),
    KEPT_KEY: (4_000_000, 7),
    SETTINGS_KEY: (16_000, 6),
    GAMES_KEY: (4_000_000, 6),
    REVIEWS_KEY: (20_000, 3),
}
"""(most characters, deepest nesting) of each JSON key: several times what the page writes, far below harm.

A saved game carries its record (about 20 characters a move of the AI's, 2 of a person's): a game
of 10,000 moves fits in ``GAME_KEY``; ``app.games.finished_games`` keeps ``GAMES_KEY`` well below its limit."""


REVIEW_LIMITS = (400_000, 4)
"""One game's review: about 20 characters a move."""
PART_LIMITS = (100_000, 4)
"""A part of a live game's moves: about 20 characters a move of the AI's, a few hundred moves."""


def limits_of(key: str) -> tuple[int, int]:
    """``JSON_LIMITS`` of ``key``; a tab's live game is a saved game in a small wrapper, one level deeper, and a part
    of its moves holds at most ``app.games.live_parts.PART_MOVES`` of them."""
    if key.startswith(PART_PREFIX):
        return PART_LIMITS
    if key.startswith(REVIEW_PREFIX):
        return REVIEW_LIMITS
    if key.startswith(LIVE_PREFIX):
        max_chars, max_depth = JSON_LIMITS[GAME_KEY]
        return max_chars + 100, max_depth + 1
    return JSON_LIMITS[key]


MAX_BEST = 10**9
"""Above any score a game can reach (about 3.9 million with a 65536 tile): a larger best is refused."""

WHAT = {
    GAME_KEY: "Your saved game",
    LIVE_PREFIX: "This tab's saved game",
    PART_PREFIX: "A part of a saved game's moves",
    KEPT_KEY: "Your kept games",
    BEST_KEY: "Your best score",
    SETTINGS_KEY: "Your saved AI settings",
    GAMES_KEY: "Your list of finished games",
    REVIEWS_KEY: "The list of your games' reviews",
}


class MemoryBackend:
    """Web Storage in a dict: the fallback, and the backend of tests."""

    def __init__(self) -> None:
        self.items: dict[str, str] = {}

    def getItem(self, key: str) -> str | None:  # noqa: N802
        return self.items.get(key)

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        self.items[key] = str(value)

    def removeItem(self, key: str) -> None:  # noqa: N802
        self.items.pop(key, None)

    @property
    def length(self) -> int:
        return len(self.items)

    def key(self, index: int) -> str | None:
        keys = sorted(self.items)
        return keys[index] if 0 <= index < len(keys) else None


class UnavailableStorage(MemoryBackend):
    """The fallback when the browser refuses localStorage: the game works, and is gone with the tab."""


class BrowserBackend:
    """``window.localStorage`` through ``js_call``: each refusal is a ``JsCallError`` the page can catch."""

    def __init__(self, window: Any, store: Any) -> None:
        self.window = window
        self.store = store

    def getItem(self, key: str) -> str | None:  # noqa: N802
        return js_call(self.window, self.store, "getItem", key)

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        js_call(self.window, self.store, "setItem", key, value)

    def removeItem(self, key: str) -> None:  # noqa: N802
        js_call(self.window, self.store, "removeItem", key)

    @property
    def length(self) -> int:
        return int(js_call(self.window, self.store, "length"))

    def key(self, index: int) -> str | None:
        name = js_call(self.window, self.store, "key", index)
        return name if isinstance(name, str) else None


def is_full(error: object) -> bool:
    """Whether a failed write failed for lack of room (``QuotaExceededError``), not because storage is refused."""
    return "QuotaExceeded" in str(error)


def session_tab_id(window: Any, fresh_id: Callable[[], str]) -> str:
    """This tab's id, kept in sessionStorage across its reloads; ``fresh_id()`` for a new tab (or no storage)."""
    try:
        store = js_call(window, window, "sessionStorage")
        tab = js_call(window, store, "getItem", TAB_KEY)
        if isinstance(tab, str) and 0 < len(tab) <= 40 and all(char in TAB_CHARS for char in tab):
            return tab
        tab = fresh_id()
        js_call(window, store, "setItem", TAB_KEY, tab)
        return tab
    except JsCallError:
        return fresh_id()


def set_session_tab_id(window: Any, tab: str) -> None:
    """Keep ``tab`` as this tab's id in sessionStorage (a tab that took a new one: its reloads keep it)."""
    try:
        js_call(window, js_call(window, window, "sessionStorage"), "setItem", TAB_KEY, tab)
    except JsCallError:
        pass


def browser_backend(window: Any) -> Any:
    """The window's localStorage if it works, else an ``UnavailableStorage``.

    It works when it can be read and a write either succeeds or fails only for lack of room: a full storage
    still holds the saved game, which the page must read (and saves make room, ``SavedGames.save``).
    """
    try:
        backend = BrowserBackend(window, js_call(window, window, "localStorage"))
        backend.getItem(PREFIX + "probe")
    except JsCallError:  # SecurityError: keep playing from memory
        return UnavailableStorage()
    try:
        backend.setItem(PREFIX + "probe", "1")
        backend.removeItem(PREFIX + "probe")
    except JsCallError as exc:
        if not is_full(exc):
            return UnavailableStorage()
    return backend


class Storage:
    """Guarded reads and failure-reporting writes over a Web-Storage-like backend.

    The backend has the three calls of ``window.localStorage`` that the page
    uses: ``getItem(key)`` (a str, or None or JavaScript's null when absent),
    ``setItem(key, value)`` and ``removeItem(key)``; any of them may raise.
    """

    def __init__(self, backend: Any) -> None:
        self.backend = backend
        self.notices: list[str] = []
        self.full = False  # the last failed write failed for lack of room (``is_full``)
        if isinstance(backend, UnavailableStorage):
            self.notices.append(
                "This browser does not let the page keep data: your game and best score "
                "will be gone when you close the tab."
            )

    def take_notices(self) -> list[str]:
        """What was refused or lost since the last call, for the page's notice."""
        taken, self.notices = self.notices, []
        return taken

    # -- raw access ---------------------------------------------------------------------------

    def get(self, key: str) -> str | None:
        try:
            value = self.backend.getItem(key)
        except Exception:
            return None
        # JavaScript's null comes back as a proxy (``pyscript.ffi.jsnull``), not None.
        return value if isinstance(value, str) else None

    def set(self, key: str, value: str) -> bool:
        """Write ``key``; False when the browser refused (``full`` says whether for lack of room)."""
        try:
            self.backend.setItem(key, value)
            return True
        except Exception as exc:  # quota or a storage that went away: the game goes on unsaved
            self.full = is_full(exc)
            return False

    def remove(self, key: str) -> None:
        try:
            self.backend.removeItem(key)
        except Exception:
            pass

    def keys(self, prefix: str = PREFIX) -> list[str]:
        """The stored keys that start with ``prefix`` (none when the storage cannot list them)."""
        try:
            count = int(self.backend.length)
            names = [self.backend.key(index) for index in range(count)]
        except Exception:
            return []
        return [name for name in names if isinstance(name, str) and name.startswith(prefix)]

    # -- guarded reads ------------------------------------------------------------------------

    def read(self, key: str, parse: Callable[[str], Any]) -> Any:
        """``parse(raw)`` of the key's value; ``None`` when absent or refused (``BadData`` from ``parse``)."""
        raw = self.get(key)
        if raw is None:
            return None
        try:
            return parse(raw)
        except BadData as exc:
            self.discard(key, raw, str(exc))
            return None

    def read_json(self, key: str, check: Callable[[Any], Any]) -> Any:
        """The key's JSON, within its ``JSON_LIMITS``, passed through ``check`` (which raises ``BadData``)."""
        max_chars, max_depth = limits_of(key)
        return self.read(key, lambda raw: check(read_json(raw, max_chars, max_depth)))

    def discard(self, key: str, raw: str, reason: str) -> None:
        """Move a refused value to its discarded key, and say so (truthfully, when the copy does not fit)."""
        self.remove(key)  # first: the copy then fits wherever the original did
        kept_as = discarded_key(key)
        where = (
            f" A copy is kept in this browser's storage as {kept_as!r}."
            if self.set(kept_as, raw)
            else " It could not be kept: this browser's storage is full."
        )
        kind = LIVE_PREFIX if key.startswith(LIVE_PREFIX) else PART_PREFIX if key.startswith(PART_PREFIX) else key
        what = WHAT.get(kind, key)
        self.notices.append(f"{what} could not be used ({reason}), so it was set aside.{where}")

    # -- best score and settings --------------------------------------------------------------

    def best_score(self) -> int:
        best = self.read(BEST_KEY, lambda raw: read_int(raw, 0, MAX_BEST))
        return best or 0

    def save_best_score(self, score: int) -> int:
        """Merge ``score`` into the saved best (another tab may have saved a higher one); the merged best."""
        best = max(self.best_score(), score)
        self.set(BEST_KEY, str(best))  # a failure shows as the game's "not saved" notice
        return best

    def settings(self) -> dict[str, Any]:
        """The saved settings as a dict (empty when missing or refused; the caller validates values)."""
        return self.read_json(SETTINGS_KEY, _object) or {}

    def save_settings(self, settings: dict[str, Any]) -> bool:
        return self.set(SETTINGS_KEY, json.dumps(settings))


def _object(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BadData(f"it is not an object but {type(data).__name__}")
    return data
