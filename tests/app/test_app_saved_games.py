"""SavedGames: the saved game round-trips; another tab's game is kept, never overwritten; kept games cycle."""

from __future__ import annotations

import json

from app.saved_games import MAX_KEPT, SavedGames, describe, encode, saved_form
from app.storage import DISCARDED_KEY, GAME_KEY, KEPT_KEY, MemoryBackend, Storage
from game2048.game import Game


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


def test_a_save_keeps_the_game_another_tab_saved_meanwhile():
    backend = MemoryBackend()
    mine, theirs = _saved(backend), _saved(backend)
    mine.save(played(1))
    theirs.load()
    other = played(2, moves=9)
    theirs.save(other)  # the other tab replaced my game in GAME_KEY
    game = played(1, moves=7)
    mine.save(game)
    assert json.loads(backend.getItem(GAME_KEY)) == saved_form(game)
    assert mine.kept() == [saved_form(other)]
    assert "Another tab's game" in mine.take_notices()[0]
    mine.save(played(1, moves=8))  # no other tab since: nothing more is kept
    assert mine.kept() == [saved_form(other)] and mine.take_notices() == []


def test_a_finished_game_clears_the_slot_but_keeps_another_tabs_game():
    backend = MemoryBackend()
    mine, theirs = _saved(backend), _saved(backend)
    mine.save(played(1))
    theirs.load()
    theirs.save(played(2))
    mine.clear()
    assert backend.getItem(GAME_KEY) is None and mine.kept() == [saved_form(played(2))]


def _replaced_by_another_tab() -> tuple[MemoryBackend, SavedGames, Game]:
    """My tab saved ``played(1)``; another tab, opened on it, then saved ``played(2)`` over it."""
    backend = MemoryBackend()
    mine, theirs = _saved(backend), _saved(backend)
    game = played(1)
    mine.save(game)
    theirs.load()
    theirs.save(played(2))
    return backend, mine, game


def test_a_tab_replaced_by_another_keeps_its_game_at_once_and_drops_the_copy_when_it_saves_again():
    backend, mine, game = _replaced_by_another_tab()
    assert mine.replaced_elsewhere(backend.getItem(GAME_KEY), game) is True
    assert mine.kept() == [saved_form(game)]  # safe even if this tab is closed now
    game.play("left")
    mine.save(game)  # playing on: mine is saved again, theirs is kept, my stale copy is gone
    assert json.loads(backend.getItem(GAME_KEY)) == saved_form(game)
    assert mine.kept() == [saved_form(played(2))]


def test_taking_the_other_tabs_game_leaves_mine_kept():
    backend, mine, game = _replaced_by_another_tab()
    mine.replaced_elsewhere(backend.getItem(GAME_KEY), game)
    taken = mine.take_saved()
    assert taken.to_dict() == played(2).to_dict()
    mine.save(taken)
    assert mine.kept() == [saved_form(game)] and mine.take_notices() == []


def test_events_that_change_nothing_keep_nothing():
    backend = MemoryBackend()
    saved = _saved(backend)
    game = played(1)
    saved.save(game)
    assert saved.replaced_elsewhere(encode(game), game) is False  # the same game
    backend.removeItem(GAME_KEY)
    assert saved.replaced_elsewhere(None, game) is False  # the other tab's game ended: mine is saved again
    assert backend.getItem(GAME_KEY) == encode(game)
    fresh = Game.new(3)
    assert saved.replaced_elsewhere(encode(played(2)), fresh) is False  # nothing played here to keep
    assert saved.kept() == []


def test_swap_cycles_through_the_kept_games():
    saved = _saved()
    a, b, current = played(1), played(2), played(3)
    saved.keep(a)
    saved.keep(b)
    taken = saved.swap(current)
    assert taken.to_dict() == b.to_dict() and saved.kept() == [saved_form(a), saved_form(current)]
    assert saved.swap(taken).to_dict() == a.to_dict()
    assert saved.kept_count == 2


def test_swap_does_not_keep_a_game_not_worth_keeping():
    saved = _saved()
    saved.keep(played(1))
    assert saved.swap(Game.new(5)) is not None and saved.kept() == [] and saved.kept_count == 0
    assert saved.swap(Game.new(5)) is None


def test_at_most_max_kept_games_are_kept_and_a_dropped_one_is_said():
    saved = _saved()
    for seed in range(MAX_KEPT + 1):
        saved.keep(played(seed))
    assert len(saved.kept()) == MAX_KEPT and saved.kept()[0] == saved_form(played(MAX_KEPT))
    oldest = describe(played(0))
    assert any("oldest kept game" in n and oldest in n for n in saved.take_notices())


def test_damaged_kept_games_are_dropped_one_by_one_and_the_list_set_aside_if_unreadable():
    backend = MemoryBackend()
    good = played(1).to_dict()
    backend.setItem(KEPT_KEY, json.dumps([good, {"version": 1}, 7]))
    saved = _saved(backend)
    assert saved.kept() == [good]
    assert len(saved.take_notices()) == 2 and json.loads(backend.getItem(KEPT_KEY)) == [good]
    backend.setItem(KEPT_KEY, "{}")
    assert saved.kept() == [] and "not a list" in saved.take_notices()[0]
