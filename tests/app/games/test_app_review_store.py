"""Reviews kept with their games: read back as they were, found from a stored game's moves, bounded, and a damaged
one never shown."""

from __future__ import annotations

import json

from app.browser.storage import MemoryBackend, Storage, review_key
from app.games import review_store
from app.games.review_figures import GameReview
from app.games.review_store import ReviewStore, game_key, record_key, with_accuracy
from game2048.game_record import GameRecord
from game2048.search.review import GRADES

MOVES = [
    {"number": 1, "played": "up", "best": "up", "lost": 0.0, "grade": "best", "by_ai": False, "value": 812.0},
    {"number": 2, "played": "left", "best": "down", "lost": 2400.0, "grade": "mistake", "by_ai": False, "value": 9.0},
    {"number": 3, "played": "right", "best": "right", "lost": 0.0, "grade": "best", "by_ai": True, "value": 4.0},
]


def review() -> GameReview:
    return GameReview([dict(m) for m in MOVES], "learned", True, list(GRADES))


def test_a_kept_review_reads_back_as_it_was_to_whole_points_and_its_accuracy_alone():
    store = ReviewStore(Storage(MemoryBackend()))
    assert store.put("5:3:00000001", review())
    back = store.get("5:3:00000001")
    assert back is not None and back.moves == MOVES and (back.preset, back.points) == ("learned", True)
    assert store.accuracies() == {"5:3:00000001": 50.0}
    assert store.get("5:3:00000002") is None


def test_a_records_key_is_its_stored_moves_key():
    record = GameRecord(11, ["up", "left", "left", "down"])
    assert record_key(record) == game_key(11, record.to_dict()["moves"]) == game_key(11, "ulld")
    assert game_key(11, "ulld") != game_key(11, "uldl") and game_key(11, "ulld") != game_key(12, "ulld")


def test_your_games_rows_get_their_accuracy_or_none():
    entries = [GameRecord(seed, ["up", "left"], started=1.7e12).to_dict() for seed in (3, 4)]
    accuracies = {game_key(3, entries[0]["moves"]): 87.5}
    rows = with_accuracy(entries, accuracies)
    assert [row["accuracy"] for row in rows] == [87.5, None] and rows[0]["seed"] == 3
    assert with_accuracy(entries[1:], {game_key(4, entries[1]["moves"]): None})[0]["accuracy"] == "ai"


def test_the_newest_reviews_are_kept_within_the_budget(monkeypatch):
    monkeypatch.setattr(review_store, "MAX_REVIEWS", 3)
    store = ReviewStore(Storage(MemoryBackend()))
    for n in range(5):
        store.put(f"{n}:3:0", review())
    assert list(store.accuracies()) == ["4:3:0", "3:3:0", "2:3:0"]
    assert store.get("1:3:0") is None and store.storage.get(review_key("1:3:0")) is None  # dropped, key and all
    store.put("2:3:0", review())  # again: first, once
    assert list(store.accuracies()) == ["2:3:0", "4:3:0", "3:3:0"]


def test_a_full_storage_drops_the_oldest_reviews_to_make_room():
    class Small(MemoryBackend):
        def setItem(self, key, value):  # noqa: N802
            if sum(len(v) for k, v in self.items.items() if k != key) + len(value) > 700:
                raise RuntimeError("QuotaExceededError")
            super().setItem(key, value)

    store = ReviewStore(Storage(Small()))
    for n in range(4):
        assert store.put(f"{n}:3:0", review())
    kept = list(store.accuracies())
    assert kept[0] == "3:3:0" and len(kept) < 4 and store.get("3:3:0") is not None


def test_a_damaged_review_is_not_shown():
    backend = MemoryBackend()
    good = review_store.stored_form("a", review())
    bad = dict(good, key="b", moves=[[9, 0, 0, 0, 0, 0]])
    backend.setItem(review_key("a"), json.dumps(good))
    backend.setItem(review_key("b"), json.dumps(bad))
    backend.setItem(review_key("c"), json.dumps(dict(good)))  # another game's review under this key
    backend.setItem(review_key("d"), "[1, 2")
    store = ReviewStore(Storage(backend))
    assert store.get("b") is None and store.get("a") is not None and store.get("c") is None
    assert store.get("d") is None
