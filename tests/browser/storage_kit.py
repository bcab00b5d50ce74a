"""Reading the page's storage in a test the way the page reads it (``tools/page_storage.py``, from a live page)."""

from __future__ import annotations

from typing import Any

import page_storage

from app.browser.storage import GAME_KEY, LIVE_PREFIX

SAVED_MOVES_JS = f"""n => {{ const p = JSON.parse(localStorage.getItem('{GAME_KEY}'));
  const slot = p && p.live && JSON.parse(localStorage.getItem('{LIVE_PREFIX}' + p.live));
  return !!(slot && slot.record && slot.record.result.moves === n); }}"""
"""``page.wait_for_function(SAVED_MOVES_JS, arg=n)``: until the game saved last has ``n`` moves in its record."""


def storage_items(page: Any) -> dict[str, str]:
    """Every item of the page's localStorage."""
    return page.evaluate(page_storage.STORAGE_ITEMS_JS)  # type: ignore[no-any-return]


def saved_game(page: Any) -> dict[str, Any] | None:
    """The saved form of the game saved last (with its record), or None (``page_storage.saved_game``)."""
    return page_storage.saved_game(storage_items(page))


def live_games(page: Any) -> dict[str, dict[str, Any]]:
    """Each tab's live game by its tab id, as saved forms (``page_storage.live_games``)."""
    return page_storage.live_games(storage_items(page))
