"""TabSlots through SavedGames: a duplicated tab takes an id of its own, a reload keeps its id, a closed tab's game
is kept once (or taken by the next new tab), and a tab takes back its game kept while it reloaded."""

from __future__ import annotations

from app.browser.storage import MemoryBackend, Storage
from app.games.saved_games import SavedGames, saved_form
from game2048.game import Game


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
