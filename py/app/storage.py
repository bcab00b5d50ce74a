"""The saved game, the best score and the settings, in localStorage with an in-memory fallback.

Like the original's ``LocalStorageManager``: when storage is unavailable
(private mode, disabled cookies, a sandboxed frame) the page keeps working
from memory.  Everything read back is distrusted: a saved game that is not
JSON, comes from another version or describes an impossible position is
discarded, and the reason comes back as a short notice for the player
(``Game.from_dict`` does the checking and says why).

The logic takes a small key/value backend, so it runs in CPython tests with
``MemoryBackend``; only ``browser_backend()`` touches the browser.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from game2048.game import Game, SavedStateError

GAME_KEY = "game2048:game"
BEST_KEY = "game2048:best"
SETTINGS_KEY = "game2048:settings"
DISCARDED_KEY = "game2048:discarded-game"
"""Where a saved game that could not be restored is kept, as it was, so that nothing is lost for good."""


KEPT = f" A copy of it is kept in this browser's storage as {DISCARDED_KEY!r}."


class Backend(Protocol):
    """The three calls of ``window.localStorage`` that the page uses."""

    def getItem(self, key: str) -> str | None: ...  # noqa: N802 - the Web Storage names
    def setItem(self, key: str, value: str) -> None: ...  # noqa: N802
    def removeItem(self, key: str) -> None: ...  # noqa: N802


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


def browser_backend() -> Any:
    """``window.localStorage`` if it works (a write and a delete succeed), else a ``MemoryBackend``."""
    try:
        from pyscript import window  # browser only

        store = window.localStorage
        store.setItem("game2048:probe", "1")
        store.removeItem("game2048:probe")
        return store
    except Exception:  # SecurityError, QuotaExceededError, no window: keep playing from memory
        return MemoryBackend()


class Storage:
    """Saved game, best score and settings over a Web-Storage-like backend."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    def _get(self, key: str) -> str | None:
        try:
            value = self.backend.getItem(key)
        except Exception:
            return None
        # Pyodide hands JavaScript's null back as ``pyodide.ffi.jsnull``, not None.
        return value if isinstance(value, str) else None

    def _set(self, key: str, value: str) -> bool:
        try:
            self.backend.setItem(key, value)
            return True
        except Exception:  # quota or a storage that went away: the game goes on unsaved
            return False

    def load_game(self) -> tuple[Game | None, str | None]:
        """The saved game, or (None, notice) when there was one that could not be restored.

        The refused save is moved, untouched, to ``DISCARDED_KEY`` (the last one
        only): the new game must not overwrite the only copy of a player's game
        that a future version, or a person, might still recover.
        """
        raw = self._get(GAME_KEY)
        if raw is None:
            return None, None
        try:
            data = json.loads(raw)
        except ValueError:
            self._discard(raw)
            return None, "Your saved game was damaged (not readable), so a new game has started." + KEPT
        try:
            game = Game.from_dict(data)
        except SavedStateError as exc:
            self._discard(raw)
            return None, f"Your saved game could not be restored ({exc}), so a new game has started." + KEPT
        return game, None

    def _discard(self, raw: str) -> None:
        self._set(DISCARDED_KEY, raw)
        self.clear_game()

    def save_game(self, game: Game) -> bool:
        return self._set(GAME_KEY, json.dumps(game.to_dict(), separators=(",", ":")))

    def clear_game(self) -> None:
        try:
            self.backend.removeItem(GAME_KEY)
        except Exception:
            pass

    def best_score(self) -> int:
        raw = self._get(BEST_KEY)
        try:
            value = int(raw) if raw is not None else 0
        except ValueError:
            return 0
        return max(value, 0)

    def save_best_score(self, score: int) -> None:
        self._set(BEST_KEY, str(int(score)))

    def settings(self) -> dict[str, Any]:
        """The saved settings as a dict (empty when missing or unreadable; the caller validates values)."""
        raw = self._get(SETTINGS_KEY)
        if raw is None:
            return {}
        try:
            data = json.loads(raw)
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}

    def save_settings(self, settings: dict[str, Any]) -> None:
        self._set(SETTINGS_KEY, json.dumps(settings, separators=(",", ":")))
