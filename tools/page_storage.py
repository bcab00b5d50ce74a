"""The page's localStorage read as the page reads it, for tools and tests that drive the page in Chromium.

``game2048:game`` names the tab whose slot holds the game saved last (``{"live": <tab>}``; older pages kept the
whole game there); the slot holds the game and its record's head, and its moves are in parts
(``app.games.live_parts``).  ``saved_game`` puts them together with the page's own reader
(``app.games.saved_games``), so a tool reads the saved form (``app.games.saved_games.saved_form``) whatever the
layout.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))
from app.browser.storage import GAME_KEY, LIVE_PREFIX, MemoryBackend, Storage  # noqa: E402
from app.games.saved_games import SavedGames  # noqa: E402

STORAGE_ITEMS_JS = "() => Object.assign({}, localStorage)"
"""``page.evaluate(STORAGE_ITEMS_JS)``: every item of the page's localStorage."""


def reader(items: dict[str, str]) -> SavedGames:
    """The page's reader over a copy of ``items`` (as a tab of its own that saves nothing)."""
    backend = MemoryBackend()
    backend.items = dict(items)
    return SavedGames(Storage(backend), "reader")


def saved_game(items: dict[str, str]) -> dict[str, Any] | None:
    """The saved form of the game saved last (with its record), or None."""
    raw = items.get(GAME_KEY)
    if raw is None:
        return None
    value = json.loads(raw)
    if "live" not in value:
        return value  # type: ignore[no-any-return]
    found = reader(items).slot_data(value["live"])
    return None if found is None else found[0]


def live_games(items: dict[str, str]) -> dict[str, dict[str, Any]]:
    """Each tab's live game by its tab id, as saved forms."""
    read = reader(items)
    games = {}
    for key in items:
        if key.startswith(LIVE_PREFIX):
            found = read.slot_data(key[len(LIVE_PREFIX) :])
            if found is not None:
                games[key[len(LIVE_PREFIX) :]] = found[0]
    return games
