"""SavedGames: the saved game round-trips; another tab's game is kept, never overwritten; the kept games are at hand.

The kept games' own rules and the tabs' ids and slots: ``test_app_slots``."""

from __future__ import annotations

import json
from pathlib import Path

from app.browser.storage import DISCARDED_KEY, GAME_KEY, MemoryBackend, Storage, live_key
from app.games.saved_games import SavedGames, describe, saved_form
from game2048 import board as B
from game2048.game import Game
from game2048.game_link import record_from_link
from game2048.game_record import decision


def played(seed: int, moves: int = 6) -> Game:
    game = Game.new(seed)
    for i in range(moves):
        game.play(("left", "up", "right", "down")[i % 4])
    return game


def _saved(backend: MemoryBackend | None = None) -> SavedGames:
    return SavedGames(Storage(backend or MemoryBackend()))


def test_a_saved_game_comes_back_with_its_generator():
    saved = _saved()
    game = played(8)
    assert saved.save(game)
    restored = _saved(saved.storage.backend).load()
    assert restored.to_dict() == game.to_dict()
    assert restored.play("up").spawn == game.play("up").spawn


def test_nothing_saved_is_no_game_and_no_notice():
    saved = _saved()
    assert saved.load() is None and saved.take_notices() == []


def test_unreadable_and_impossible_saves_are_discarded_with_the_reason():
    odd = Game.new(1).to_dict() | {"score": 3}
    for raw, words in (
        ("{not json", "not readable JSON"),
        (json.dumps([1, 2]), "not an object"),
        (json.dumps(odd), "odd"),
        ("[" * 50_000, "levels deep"),
    ):
        backend = MemoryBackend()
        backend.setItem(GAME_KEY, raw)
        saved = _saved(backend)
        assert saved.load() is None
        [notice] = saved.take_notices()
        assert words in notice and DISCARDED_KEY in notice
        assert backend.getItem(GAME_KEY) is None and backend.getItem(DISCARDED_KEY) == raw


def _tabs(backend: MemoryBackend) -> tuple[SavedGames, SavedGames]:
    """Two tabs of the page over one storage, each with its own id."""
    return SavedGames(Storage(backend), "mine", lambda: 1.0), SavedGames(Storage(backend), "theirs", lambda: 2.0)


def test_a_save_never_files_another_tabs_game_and_each_tab_keeps_its_own():
    backend = MemoryBackend()
    mine, theirs = _tabs(backend)
    mine.save(played(1))
    theirs.load()
    other = played(2, moves=9)
    theirs.save(other)  # the other tab's game is the one a new tab opens now
    assert json.loads(backend.getItem(GAME_KEY)) == {"live": "theirs"}
    game = played(1, moves=7)
    mine.save(game)
    assert json.loads(backend.getItem(GAME_KEY)) == {"live": "mine"}  # the game is stored once, in its slot
    assert mine.kept() == [] and mine.take_notices() == [] and theirs.take_notices() == []
    assert stored(backend, "mine") == saved_form(game)
    assert stored(backend, "theirs") == saved_form(other)


def stored(backend: MemoryBackend, tab: str) -> dict | None:
    """The saved form of tab ``tab``'s game as its slot and parts hold it."""
    found = SavedGames(Storage(backend), "reader").slot_data(tab)
    return None if found is None else found[0]


def test_a_reload_brings_back_this_tabs_game_whatever_another_tab_saved_since():
    backend = MemoryBackend()
    mine, theirs = _tabs(backend)
    game = played(1, moves=7)
    mine.save(game)
    theirs.save(played(2, moves=9))
    reloaded = SavedGames(Storage(backend), "mine")
    assert reloaded.restore_history(reloaded.load()).to_dict() == game.to_dict()
    assert SavedGames(Storage(backend), "new").load().to_dict() == played(2, moves=9).to_dict()  # a new tab


def test_a_finished_game_clears_its_slot_and_leaves_another_tabs_game():
    backend = MemoryBackend()
    mine, theirs = _tabs(backend)
    mine.save(played(1))
    theirs.save(played(2))
    mine.clear()
    assert backend.getItem(live_key("mine")) is None
    assert json.loads(backend.getItem(GAME_KEY)) == {"live": "theirs"} and mine.kept() == []
    assert stored(backend, "theirs") == saved_form(played(2))
    assert not [key for key in backend.items if key.startswith("game2048:moves:mine")]  # its parts too
    theirs.clear()  # the last game saved, its own: a new tab starts afresh
    assert backend.getItem(GAME_KEY) is None


def test_a_damaged_slot_is_set_aside_and_the_tab_opens_the_last_game_saved():
    backend = MemoryBackend()
    mine, theirs = _tabs(backend)
    theirs.save(played(2))
    backend.setItem(live_key("mine"), '{"at": 1, "game": [1, 2]}')
    assert mine.load().to_dict() == played(2).to_dict()
    assert "This tab's saved game could not be used" in mine.take_notices()[0]


def test_the_kept_games_are_kept_and_swapped_through_the_saved_games():
    saved = _saved()
    a, current = played(1), played(3)
    assert saved.keep(a) and saved.kept() == [saved_form(a)] and saved.kept_count == 1
    taken = saved.swap(current)
    assert taken is not None and taken.to_dict() == a.to_dict() and saved.kept() == [saved_form(current)]


def test_a_game_reloaded_from_its_tab_and_then_lost_leaves_nothing_to_restore():
    backend = MemoryBackend()
    mine, _ = _tabs(backend)
    mine.save(played(1, moves=7))
    reloaded = SavedGames(Storage(backend), "mine")
    reloaded.load()
    reloaded.clear()  # the game ended at its next move
    assert backend.getItem(GAME_KEY) is None and backend.getItem(live_key("mine")) is None


def test_a_saved_game_with_a_damaged_score_is_rebuilt_from_its_record():
    backend = MemoryBackend()
    saved = _saved(backend)
    game = played(1, moves=9)
    saved.save(game)
    data = json.loads(backend.getItem(GAME_KEY))
    data["score"] += 2  # a redundant field damaged: the record still replays to the board
    backend.setItem(GAME_KEY, json.dumps(data))
    again = _saved(backend)
    loaded = again.restore_history(again.load())
    assert loaded.to_dict() == game.to_dict() and len(loaded.history) == 9
    assert "rebuilt from its moves" in again.take_notices()[0]
    data["rows"][0][0] = 4096  # a board the record does not reach: refused whole, as before
    backend.setItem(GAME_KEY, json.dumps(data))
    assert _saved(backend).load() is None


LONG_GAME = Path(__file__).resolve().parents[2] / "data" / "long_game.txt"


def long_game(moves: int) -> Game:
    """The first ``moves`` moves of the long seeded game of ``tests/data``, every third move without an AI's note."""
    record = record_from_link(LONG_GAME.read_text(encoding="utf-8").strip())
    game = Game.new(record.seed)
    for number, direction in enumerate(record.moves[:moves]):
        if game.paused_at_win:
            game.continue_after_win()
        game.play(direction, decision("expectimax", "classic", 3, 1.5) if number % 3 else None)
    return game


class CountingBackend(MemoryBackend):
    """A backend that counts the characters written."""

    def __init__(self) -> None:
        super().__init__()
        self.written = 0

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        self.written += len(key) + len(value)
        super().setItem(key, value)


def test_a_move_writes_one_part_and_the_slot_at_any_length_and_the_game_comes_back_whole():
    backend = CountingBackend()
    saved = SavedGames(Storage(backend), "mine", lambda: 1.0)
    costs = []
    for moves in (1, 1_200):
        game = long_game(moves)
        saved.save(game)
        backend.written = 0
        for direction in ("left", "down", "right", "up"):
            if game.play(direction).moved:
                break
        saved.save(game)
        costs.append(backend.written)
    assert costs[1] < costs[0] + 6_000  # a part of at most 250 moves more; the whole record is 15,000 characters
    reloaded = SavedGames(Storage(backend), "mine")
    restored = reloaded.restore_history(reloaded.load())
    assert saved_form(restored) == saved_form(game) and len(restored.history) == game.moves


def test_an_undo_below_a_parts_end_rewrites_that_part_and_drops_those_beyond():
    backend = MemoryBackend()
    saved = SavedGames(Storage(backend), "mine", lambda: 1.0)
    game = long_game(510)
    saved.save(game)
    assert backend.getItem("game2048:moves:mine:2") is not None
    for _ in range(20):
        game.undo()
    for direction in ("up", "right", "down", "left"):
        if game.play(direction).moved:
            break
    saved.save(game)
    assert backend.getItem("game2048:moves:mine:2") is None  # 491 moves: two parts
    reloaded = SavedGames(Storage(backend), "mine")
    assert saved_form(reloaded.restore_history(reloaded.load())) == saved_form(game)


def test_a_new_tab_opens_the_last_game_without_copying_it_and_copies_its_parts_when_it_moves():
    backend = CountingBackend()
    theirs = SavedGames(Storage(backend), "theirs", lambda: 1.0)
    game = long_game(300)
    theirs.save(game)
    mine = SavedGames(Storage(backend), "mine", lambda: 2.0)
    opened = mine.load()
    backend.written = 0
    assert mine.save(opened) and backend.written == 0  # as it was opened: stored once, in the other tab's slot
    opened = mine.restore_history(opened)
    assert saved_form(opened) == saved_form(game)
    for direction in ("left", "down", "right", "up"):
        if opened.play(direction).moved:
            break
    mine.save(opened)
    assert stored(backend, "mine") == saved_form(opened)


def test_a_missing_part_leaves_the_game_without_its_record_and_says_so():
    backend = MemoryBackend()
    saved = SavedGames(Storage(backend), "mine", lambda: 1.0)
    game = long_game(300)
    saved.save(game)
    backend.removeItem("game2048:moves:mine:0")
    reloaded = SavedGames(Storage(backend), "mine")
    restored = reloaded.restore_history(reloaded.load())
    assert restored.to_dict() == game.to_dict() and restored.history == []
    assert "part 1 of its moves is missing" in " ".join(reloaded.take_notices())


def test_a_whole_saved_game_is_cut_in_parts_when_restored_so_its_first_move_encodes_one():
    backend = CountingBackend()
    game = long_game(600)
    backend.setItem(GAME_KEY, json.dumps(saved_form(game)))  # as older pages saved it
    tab = SavedGames(Storage(backend), "t", lambda: 1.0)
    restored = tab.restore_history(tab.load())
    assert all(part[2] for part in tab.parts.known) and len(tab.parts.known) == 3
    restored.play(next(d for d in ("left", "down", "right", "up") if Game.from_dict(restored.to_dict()).play(d).moved))
    assert tab.save(restored)
    assert stored(backend, "t") == saved_form(restored)


def test_a_set_up_game_is_described_by_the_moves_played_on_it():
    """Issue 41: "a set-up game is listed with invented move counts ('1921 moves' after one move)"."""
    game = Game.from_position(B.from_rows([[2048, 1024, 512, 256], [0] * 4, [0] * 4, [0, 0, 2, 2]]), 3)
    game.play("left")
    assert describe(game) == "score 35588, 1 move from a set-up position, best tile 2048"
    again = _saved()
    again.save(game)
    assert describe(again.load()) == describe(game)  # the count of moves played is saved with the game
    one = played(2, 1)
    assert describe(one) == f"score {one.score}, 1 move, best tile 4" and ", 6 moves, " in describe(played(2))
    older = game.to_dict()
    del older["start_moves"]  # saved before the moves played were kept apart: their count is not made up
    assert describe(Game.from_dict(older)) == "score 35588, from a set-up position, best tile 2048"
