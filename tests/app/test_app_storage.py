"""Storage: games round-trip; damaged, foreign or impossible saves are discarded with a notice; nothing raises."""

from __future__ import annotations

import json

from app.storage import BEST_KEY, DISCARDED_KEY, GAME_KEY, SETTINGS_KEY, MemoryBackend, Storage
from game2048.game import Game


def test_a_saved_game_comes_back_with_its_generator():
    storage = Storage(MemoryBackend())
    game = Game.new(8)
    game.play("left")
    storage.save_game(game)
    restored, notice = storage.load_game()
    assert notice is None and restored.to_dict() == game.to_dict()
    assert restored.play("up").spawn == game.play("up").spawn


def test_nothing_saved_is_no_game_and_no_notice():
    assert Storage(MemoryBackend()).load_game() == (None, None)


def _with(raw: str) -> Storage:
    backend = MemoryBackend()
    backend.setItem(GAME_KEY, raw)
    return Storage(backend)


def test_unreadable_saves_are_discarded_with_a_notice():
    storage = _with("{not json")
    game, notice = storage.load_game()
    assert game is None and "damaged" in notice
    assert storage.backend.getItem(GAME_KEY) is None
    assert storage.backend.getItem(DISCARDED_KEY) == "{not json" and DISCARDED_KEY in notice


def test_foreign_and_impossible_saves_are_discarded_with_the_reason():
    other = Game.new(1).to_dict() | {"version": 7}
    odd = Game.new(1).to_dict() | {"score": 3}
    for data, words in ((other, "another version"), (odd, "odd"), ([1, 2], "not an object")):
        storage = _with(json.dumps(data))
        game, notice = storage.load_game()
        assert game is None and words in notice, notice
        assert json.loads(storage.backend.getItem(DISCARDED_KEY)) == data


def test_best_score_and_settings_tolerate_junk():
    backend = MemoryBackend()
    storage = Storage(backend)
    assert storage.best_score() == 0
    backend.setItem(BEST_KEY, "lots")
    assert storage.best_score() == 0
    storage.save_best_score(2048)
    assert storage.best_score() == 2048
    backend.setItem(SETTINGS_KEY, "[1]")
    assert storage.settings() == {}
    storage.save_settings({"ai": {"think_ms": 20}})
    assert storage.settings() == {"ai": {"think_ms": 20}}


class BrokenBackend(MemoryBackend):
    """A storage that refuses every write and read (quota full, storage disabled mid-game)."""

    def getItem(self, key):  # noqa: N802
        raise RuntimeError("SecurityError")

    def setItem(self, key, value):  # noqa: N802
        raise RuntimeError("QuotaExceededError")

    def removeItem(self, key):  # noqa: N802
        raise RuntimeError("SecurityError")


def test_a_failing_storage_never_stops_the_game():
    storage = Storage(BrokenBackend())
    assert storage.load_game() == (None, None)
    assert storage.save_game(Game.new(1)) is False
    storage.clear_game()
    storage.save_best_score(10)
    assert storage.best_score() == 0 and storage.settings() == {}
