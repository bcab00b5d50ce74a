"""KeptGames: kept games cycle, at most MAX_KEPT of them, damaged entries dropped, a tab's game taken back."""

from __future__ import annotations

import json

from app.browser.storage import KEPT_KEY, MemoryBackend, Storage
from app.games.kept_games import MAX_KEPT, KeptGames
from app.games.saved_forms import describe, saved_form
from game2048.game import Game


def played(seed: int, moves: int = 6) -> Game:
    game = Game.new(seed)
    for i in range(moves):
        game.play(("left", "up", "right", "down")[i % 4])
    return game


def _kept(backend: MemoryBackend | None = None) -> KeptGames:
    return KeptGames(Storage(backend or MemoryBackend()))


def test_swap_cycles_through_the_kept_games():
    kept = _kept()
    a, b, current = played(1), played(2), played(3)
    kept.keep(a)
    kept.keep(b)
    taken = kept.swap(current)
    assert taken is not None
    assert taken.to_dict() == b.to_dict() and kept.entries() == [saved_form(a), saved_form(current)]
    assert kept.swap(taken).to_dict() == a.to_dict()
    assert kept.count == 2


def test_swap_does_not_keep_a_game_not_worth_keeping():
    kept = _kept()
    kept.keep(played(1))
    assert kept.swap(Game.new(5)) is not None and kept.entries() == [] and kept.count == 0
    assert kept.swap(Game.new(5)) is None


def test_at_most_max_kept_games_are_kept_and_a_dropped_one_is_said():
    kept = _kept()
    for seed in range(MAX_KEPT + 1):
        kept.keep(played(seed))
    assert len(kept.entries()) == MAX_KEPT and kept.entries()[0] == saved_form(played(MAX_KEPT))
    oldest = describe(played(0))
    assert any("oldest kept game" in n and oldest in n for n in kept.storage.take_notices())


def test_damaged_kept_games_are_dropped_one_by_one_and_the_list_set_aside_if_unreadable():
    backend = MemoryBackend()
    good = played(1).to_dict()
    backend.setItem(KEPT_KEY, json.dumps([good, {"version": 1}, 7]))
    kept = _kept(backend)
    assert kept.entries() == [good]
    assert len(kept.storage.take_notices()) == 2 and json.loads(backend.getItem(KEPT_KEY)) == [good]
    backend.setItem(KEPT_KEY, "{}")
    assert kept.entries() == [] and "not a list" in kept.storage.take_notices()[0]


def test_a_game_kept_for_a_tab_is_taken_back_by_that_tab_alone_without_its_id():
    kept = _kept()
    game = played(4)
    entry = saved_form(game) | {"tab": "a"}
    assert kept.keep(game, entry)
    kept.keep(played(5))
    assert kept.take_back("b") is None and kept.holds(saved_form(game))
    assert kept.take_back("a") == saved_form(game)
    assert kept.entries() == [saved_form(played(5))] and not kept.holds(saved_form(game))


def test_the_oldest_kept_games_go_first_to_make_room():
    kept = _kept()
    for seed in range(4):
        kept.keep(played(seed))
    assert kept.drop_oldest(3) == 3 and kept.entries() == [saved_form(played(3))]
    assert kept.drop_oldest(2) == 1 and kept.drop_oldest(1) == 0 and kept.count == 0
