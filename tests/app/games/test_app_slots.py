"""app.games.slots: KeptGames (kept games cycle, at most MAX_KEPT of them, damaged entries dropped, a tab's game
taken back) and TabSlots through SavedGames (a duplicated tab takes an id of its own, a reload keeps its id, a closed
tab's game is kept once or taken by the next new tab, and a tab takes back its game kept while it reloaded)."""

from __future__ import annotations

import json

from app.browser.storage import KEPT_KEY, MemoryBackend, Storage
from app.games.saved_forms import describe, saved_form
from app.games.saved_games import SavedGames
from app.games.slots import MAX_KEPT, KeptGames
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


# -- TabSlots, through SavedGames ----------------------------------------------------------


def _open_tab(backend: MemoryBackend, tab: str, fresh: str, now: float = 5.0) -> tuple[SavedGames, list[str]]:
    """A tab starting over ``backend`` with ``tab`` in its sessionStorage; ``fresh`` the id it would draw."""
    remembered: list[str] = []
    saved = SavedGames(Storage(backend), tab, lambda: now)
    saved.claim(lambda: fresh, remembered.append)
    saved.collect_orphans()
    return saved, remembered


def _move(game: Game, *directions: str) -> Game:
    for direction in directions:
        game.play(direction)
    return game


def test_a_duplicated_tab_takes_an_id_of_its_own_and_opens_its_sources_game():
    backend = MemoryBackend()
    source, _ = _open_tab(backend, "a", "unused")
    game = _move(Game.new(7), "left", "up", "left")
    source.save(game)
    copy, remembered = _open_tab(backend, "a", "b")  # sessionStorage copied: the same id, and "a" is open
    assert copy.tab == "b" and remembered == ["b"] and copy.copied_from == "a"
    opened = copy.restore_history(copy.load())
    assert saved_form(opened) == saved_form(game)
    _move(opened, "down", "right")
    copy.save(opened)
    _move(game, "right")
    source.save(game)
    for tab, played in (("a", game), ("b", opened)):  # each reload brings back its own game
        reloaded = SavedGames(Storage(backend), tab)
        assert saved_form(reloaded.restore_history(reloaded.load())) == saved_form(played)


def test_a_tab_that_finds_its_slot_written_by_another_takes_a_new_id():
    backend = MemoryBackend()
    mine, _ = _open_tab(backend, "a", "c")
    assert mine.rekey() and mine.tab == "c" and backend.getItem("game2048:open:c") is not None


def test_a_reload_keeps_the_tabs_id_and_a_closed_tabs_game_is_taken_by_the_next_new_tab_stored_once():
    backend = MemoryBackend()
    first, _ = _open_tab(backend, "a", "unused")
    game = _move(Game.new(8), "left", "up", "left", "up")
    first.save(game)
    first.leave()  # a reload
    again, remembered = _open_tab(backend, "a", "unused")
    assert again.tab == "a" and remembered == []
    again.leave()  # closed
    new, remembered = _open_tab(backend, "n", "unused")
    assert new.tab == "a" and remembered == ["a"]  # the closed tab's game and slot, not a copy of them
    assert saved_form(new.restore_history(new.load())) == saved_form(game)
    assert sorted(k for k in backend.items if k.startswith("game2048:live:")) == ["game2048:live:a"]


def test_a_closed_tabs_game_is_kept_at_the_next_start_unless_another_game_holds_all_its_moves():
    backend = MemoryBackend()
    a, _ = _open_tab(backend, "a", "unused")
    b, _ = _open_tab(backend, "b", "unused")
    c, _ = _open_tab(backend, "c", "unused")
    shared = _move(Game.new(9), "left", "up")
    shared.started = 5.0
    a.save(shared)
    c.save(_move(Game.new(10), "left", "up"))
    longer = Game.new(9)
    longer.started = 5.0
    _move(longer, "left", "up", "right")
    b.save(longer)  # b played on from a's game: a's slot is a copy of its first moves; b saved last
    c.leave()
    a.leave()
    d, _ = _open_tab(backend, "d", "unused")  # opens b's game (b is open): folds a's and c's slots
    kept = d.kept()
    assert [entry["record"]["seed"] for entry in kept] == [10]  # c's game; a's was a copy of b's moves
    assert [k for k in backend.items if k.startswith(("game2048:live:", "game2048:moves:a", "game2048:open:a"))] == [
        "game2048:live:b"
    ]
    said = " ".join(d.take_notices())
    assert said.count("tab closed earlier") == 1


def test_a_tab_whose_slot_was_kept_while_it_reloaded_takes_its_game_back():
    backend = MemoryBackend()
    a, _ = _open_tab(backend, "a", "unused")
    game = _move(Game.new(11), "left", "up", "left")
    a.save(game)
    b, _ = _open_tab(backend, "b", "unused")
    b.save(_move(Game.new(12), "left", "up"))  # the game saved last
    a.leave()  # a reloads; a new tab starts meanwhile and keeps a's game
    _open_tab(backend, "n", "unused")
    assert [entry["record"]["seed"] for entry in SavedGames(Storage(backend)).kept()] == [11]
    back, _ = _open_tab(backend, "a", "unused")
    assert saved_form(back.restore_history(back.load())) == saved_form(game)
    assert back.kept() == []


def test_the_slot_of_the_game_saved_last_stays_for_the_next_new_tab_when_its_tab_closed():
    backend = MemoryBackend()
    a, _ = _open_tab(backend, "a", "unused")
    b, _ = _open_tab(backend, "b", "unused")
    b.save(_move(Game.new(13), "left", "up"))
    game = _move(Game.new(14), "left", "up", "left")
    a.save(game)
    a.leave()
    b.leave()
    _open_tab(backend, "b", "unused")  # b reloads: a's slot holds the game saved last, and stays
    new, _ = _open_tab(backend, "n", "unused")
    assert new.tab == "a" and saved_form(new.restore_history(new.load())) == saved_form(game)
    assert new.kept() == []
