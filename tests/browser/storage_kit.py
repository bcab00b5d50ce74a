"""Reading the page's storage the way the page reads it: the game saved last lives in a tab's slot, in parts.

``game2048:game`` names the tab whose slot holds the game saved last (``{"live": <tab>}``); the slot holds the
game and its record's head, and the moves are in parts (``app.live_parts``).  ``saved_game`` puts them together
with the page's own reader, so a test reads the saved form (``app.saved_games.saved_form``) whatever the layout.
"""

from __future__ import annotations

import json
from typing import Any

from app.saved_games import SavedGames
from app.storage import GAME_KEY, MemoryBackend, Storage

SAVED_MOVES_JS = """n => { const p = JSON.parse(localStorage.getItem('game2048:game'));
  const slot = p && p.live && JSON.parse(localStorage.getItem('game2048:live:' + p.live));
  return !!(slot && slot.record && slot.record.result.moves === n); }"""
"""``page.wait_for_function(SAVED_MOVES_JS, arg=n)``: until the game saved last has ``n`` moves in its record."""


def storage_items(page: Any) -> dict[str, str]:
    """Every item of the page's localStorage."""
    return page.evaluate("() => Object.assign({}, localStorage)")  # type: ignore[no-any-return]


def reader(items: dict[str, str]) -> SavedGames:
    """The page's reader over a copy of ``items`` (as a tab of its own that saves nothing)."""
    backend = MemoryBackend()
    backend.items = dict(items)
    return SavedGames(Storage(backend), "reader")


def saved_game(page: Any) -> dict[str, Any] | None:
    """The saved form of the game saved last (with its record), or None."""
    items = storage_items(page)
    raw = items.get(GAME_KEY)
    if raw is None:
        return None
    value = json.loads(raw)
    if "live" not in value:
        return value  # type: ignore[no-any-return]
    found = reader(items).slot_data(value["live"])
    return None if found is None else found[0]


def live_games(page: Any) -> dict[str, dict[str, Any]]:
    """Each tab's live game by its tab id, as saved forms."""
    items = storage_items(page)
    read = reader(items)
    games = {}
    for key in items:
        if key.startswith("game2048:live:"):
            found = read.slot_data(key[len("game2048:live:") :])
            if found is not None:
                games[key[len("game2048:live:") :]] = found[0]
    return games
