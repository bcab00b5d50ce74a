"""Storage: every key read through the guard; a refused value is set aside with a notice; nothing raises."""

from __future__ import annotations

import pytest
from fakes import guarded_call

from app.browser.js_guard import JsCallError
from app.browser.outside_data import BadData, read_int
from app.browser.storage import (
    BEST_KEY,
    DISCARDED_KEY,
    GAME_KEY,
    SETTINGS_KEY,
    BrowserBackend,
    MemoryBackend,
    Storage,
    UnavailableStorage,
    browser_backend,
    discarded_key,
)


def _with(key: str, raw: str, backend: MemoryBackend | None = None) -> Storage:
    backend = backend or MemoryBackend()
    backend.setItem(key, raw)
    return Storage(backend)


def test_discarded_keys_sit_beside_their_key():
    assert DISCARDED_KEY == discarded_key(GAME_KEY) == "game2048:discarded-game"
    assert discarded_key(SETTINGS_KEY) == "game2048:discarded-settings"


def test_a_refused_value_is_moved_to_its_discarded_key_and_explained_once():
    storage = _with(BEST_KEY, "lots")
    assert storage.best_score() == 0
    assert storage.get(BEST_KEY) is None and storage.get(discarded_key(BEST_KEY)) == "lots"
    [notice] = storage.take_notices()
    assert "best score" in notice and "not a whole number" in notice and "game2048:discarded-best" in notice
    assert storage.take_notices() == [] and storage.best_score() == 0


def test_the_best_score_refuses_huge_and_negative_values():
    for raw in ("-5", "9" * 5000, str(10**12), "1e9", " 12 "):
        storage = _with(BEST_KEY, raw)
        expected = 12 if raw == " 12 " else 0
        assert storage.best_score() == expected, raw
        assert bool(storage.take_notices()) == (expected == 0), raw


def test_saving_a_best_score_keeps_a_higher_one_saved_by_another_tab():
    storage = _with(BEST_KEY, "9000")
    assert storage.save_best_score(200) == 9000 and storage.get(BEST_KEY) == "9000"
    assert storage.save_best_score(12000) == 12000 and storage.get(BEST_KEY) == "12000"


def test_settings_tolerate_junk_and_set_it_aside():
    for raw in (
        "[1]",
        "{not json",
        "[" * 50_000,
        '{"ai": {"think_ms": ' + "9" * 400 + "}}",
        "x" * 20_000,
        '{"ai": NaN}',
        '{"ai": 1e999}',
    ):
        storage = _with(SETTINGS_KEY, raw)
        assert storage.settings() == {}, raw[:40]
        assert storage.get(discarded_key(SETTINGS_KEY)) == raw and len(storage.take_notices()) == 1
    storage = Storage(MemoryBackend())
    storage.save_settings({"ai": {"think_ms": 20}})
    assert storage.settings() == {"ai": {"think_ms": 20}} and storage.take_notices() == []


class FullBackend(MemoryBackend):
    """A storage whose quota allows no new key: the copy of a refused value does not fit."""

    def setItem(self, key, value):  # noqa: N802
        if key not in self.items:
            raise RuntimeError("QuotaExceededError")
        super().setItem(key, value)


def test_a_copy_that_does_not_fit_is_not_claimed():
    backend = FullBackend()
    backend.items[BEST_KEY] = "lots"
    storage = Storage(backend)
    assert storage.best_score() == 0
    [notice] = storage.take_notices()
    assert "could not be kept" in notice and "discarded-best" not in notice


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
    assert storage.set(GAME_KEY, "x") is False
    storage.remove(GAME_KEY)
    assert storage.save_best_score(10) == 10
    assert storage.best_score() == 0 and storage.settings() == {}


def test_a_browser_that_refuses_storage_is_told_once():
    storage = Storage(UnavailableStorage())
    [notice] = storage.take_notices()
    assert "gone when you close the tab" in notice


def test_a_reader_that_raises_only_bad_data_is_guarded():
    storage = _with(BEST_KEY, "12")

    def refuse(raw: str) -> int:
        raise BadData("no")

    assert storage.read(BEST_KEY, refuse) is None
    assert storage.read(GAME_KEY, lambda raw: read_int(raw, 0, 1)) is None  # absent: no notice
    assert len(storage.take_notices()) == 1


class QuotaStore(MemoryBackend):
    """A localStorage that throws as a full one does, except for the start's probe."""

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        if key != "game2048:probe":
            raise RuntimeError("QuotaExceededError: The quota has been exceeded.")
        super().setItem(key, value)


class FakeWindow:
    def __init__(self, store: object) -> None:
        self.store = store
        self.guardedCall = guarded_call

    @property
    def localStorage(self) -> object:  # noqa: N802
        if isinstance(self.store, Exception):
            raise self.store
        return self.store


def test_the_browser_storage_goes_through_the_guard_so_a_full_one_is_a_failed_save():
    backend = browser_backend(FakeWindow(QuotaStore()))
    assert isinstance(backend, BrowserBackend)
    storage = Storage(backend)
    assert storage.set(GAME_KEY, "x") is False and storage.get(GAME_KEY) is None
    with pytest.raises(JsCallError, match="QuotaExceededError"):
        backend.setItem(GAME_KEY, "x")


def test_a_browser_that_refuses_storage_gets_the_memory_fallback():
    assert isinstance(browser_backend(FakeWindow(RuntimeError("SecurityError: denied"))), UnavailableStorage)
    working = browser_backend(FakeWindow(MemoryBackend()))
    assert Storage(working).set(GAME_KEY, "x") and working.getItem(GAME_KEY) == "x"


class FullStore(MemoryBackend):
    """A localStorage filled by another script: every write fails for room, reads work."""

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        raise RuntimeError("QuotaExceededError: The quota has been exceeded.")


def test_a_full_storage_is_still_read_not_taken_for_one_that_refuses_the_page():
    store = FullStore()
    store.items[GAME_KEY] = '{"a": 1}'
    backend = browser_backend(FakeWindow(store))
    assert isinstance(backend, BrowserBackend)
    storage = Storage(backend)
    assert storage.take_notices() == [] and storage.get(GAME_KEY) == '{"a": 1}'
    assert storage.set(GAME_KEY, "x") is False and storage.full
