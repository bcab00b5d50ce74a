"""Tabs over one storage: each plays and reloads its own game, best scores merge, kept games come back."""

from __future__ import annotations

from app_async import run_async
from fakes import FakeView

from app.board.play import Intent, PlaySession
from app.browser.storage import BEST_KEY, GAME_KEY, MemoryBackend, Storage, live_key
from app.games.game_switch import GameSwitcher
from app.games.saved_games import ORPHAN_MS, SavedGames
from game2048.board import legal_moves
from game2048.game import Game
from game2048.game_record import GameRecord, decision, replay


class Tab:
    """One tab of the page: its own id, session, view and switcher, over the shared backend."""

    def __init__(self, backend: MemoryBackend, seed: int, tab: str = "", now: float = 1_000_000.0) -> None:
        self.view = FakeView()
        self.saved = SavedGames(Storage(backend), tab, lambda: now)
        self.saved.claim(lambda: tab + "2", lambda _tab: None)
        self.saved.collect_orphans()
        game = self.saved.load() or Game.new(seed)
        self.session = PlaySession(game, self.view, self.saved, new_game=lambda: Game.new(seed), slide_seconds=0.001)
        self.saved.save(game)
        self.session.start()
        self.switcher = GameSwitcher(self.session, self.saved, self.view)

    async def play(self, *directions: str) -> None:
        for direction in directions:
            self.session.submit(Intent.move(direction))
        await self.session.wait_idle()


def _played(seed: int, moves: int) -> Game:
    game = Game.new(seed)
    game.started = 1000.0 * seed
    while game.moves < moves and not game.over:
        game.play(legal_moves(game.board)[game.moves % len(legal_moves(game.board))])
    return game


def test_two_tabs_play_side_by_side_and_each_reload_brings_back_its_own_game():
    async def scenario():
        backend = MemoryBackend()
        a = Tab(backend, seed=1, tab="a")
        await a.play("left", "up", "left", "up", "right")
        b = Tab(backend, seed=2, tab="b")
        assert b.session.game.to_dict() == a.session.game.to_dict()  # a new tab opens the last game saved
        b.session.submit(Intent.switch(Game.new(2)))  # b plays a game of its own
        await b.play("down", "left", "down", "left", "down", "left", "down", "left")
        a.switcher.on_storage(GAME_KEY, backend.getItem(GAME_KEY))
        a.switcher.on_storage(BEST_KEY, backend.getItem(BEST_KEY))
        await a.play("left")
        return backend, a, b

    backend, a, b = run_async(scenario)
    assert a.view.notices == [] and a.session.game.moves == 6  # another tab's save says nothing, files nothing
    for tab, game in (("a", a.session.game), ("b", b.session.game)):
        assert SavedGames(Storage(backend), tab).load().to_dict() == game.to_dict()  # each reload: its own game
    assert SavedGames(Storage(backend)).kept() == []
    assert Storage(backend).best_score() == max(a.session.game.score, b.session.game.score) == a.session.best


def test_two_tabs_playing_together_leave_the_kept_games_as_they_were():
    async def scenario():
        backend = MemoryBackend()
        first = SavedGames(Storage(backend))
        for seed in (11, 12, 13):  # three games kept from links over a game in progress
            first.keep(_played(seed, 10))
        a, b = Tab(backend, seed=1, tab="a"), Tab(backend, seed=2, tab="b")
        b.session.submit(Intent.switch(Game.new(2)))
        for n in range(30):  # both on autoplay: each save is the other's storage event
            await a.play(("left", "up", "right", "down")[n % 4])
            b.switcher.on_storage(GAME_KEY, backend.getItem(GAME_KEY))
            await b.play(("down", "left", "up", "right")[n % 4])
            a.switcher.on_storage(GAME_KEY, backend.getItem(GAME_KEY))
        return backend, a, b

    backend, a, b = run_async(scenario)
    kept = SavedGames(Storage(backend)).kept()
    assert [entry["record"]["seed"] for entry in kept] == [13, 12, 11]
    assert a.view.notices == [] == b.view.notices


def test_a_game_left_in_a_tab_closed_long_ago_is_kept_by_the_next_new_tab_once():
    backend = MemoryBackend()
    old = SavedGames(Storage(backend), "old", lambda: 0.0)
    old.arrive()  # open, and never said it went: its browser ended it
    old.save(_played(21, 12))
    recent = SavedGames(Storage(backend), "recent", lambda: ORPHAN_MS)
    recent.arrive()
    recent.save(_played(22, 12))
    new = Tab(backend, seed=3, tab="new", now=ORPHAN_MS + 60_000.0)
    kept = new.saved.kept()
    assert [entry["record"]["seed"] for entry in kept] == [21]  # the one closed 31 minutes ago, not the other
    said = " ".join(new.view.notices + new.saved.take_notices())
    assert said.count("tab closed earlier") == 1
    assert Storage(backend).get(live_key("old")) is None and Storage(backend).get(live_key("recent")) is not None
    again = Tab(backend, seed=4, tab="newer", now=ORPHAN_MS + 120_000.0)
    assert len(again.saved.kept()) == 1


def test_the_same_game_is_kept_once_whatever_move_it_was_kept_at():
    saved = SavedGames(Storage(MemoryBackend()))
    game = _played(31, 5)
    assert saved.keep(game)
    game.play(legal_moves(game.board)[0])
    assert not saved.keep(game)
    assert len(saved.kept()) == 1 and saved.kept()[0]["moves"] == 6


def test_a_higher_best_from_another_tab_shows_at_once():
    backend = MemoryBackend()
    a = Tab(backend, seed=1)
    backend.setItem(BEST_KEY, "4096")
    a.switcher.on_storage(BEST_KEY, "4096")
    assert a.session.best == 4096 and a.view.best == 4096
    backend.setItem(BEST_KEY, "junk")
    a.switcher.on_storage(BEST_KEY, "junk")
    assert a.session.best == 4096 and "best score" in a.view.notices[-1]


def test_play_from_here_starts_the_replayed_position_with_its_moves_and_keeps_the_current_game():
    note = decision("alphabeta", "classic", 5, 80.0)
    record = GameRecord(31)
    for n in range(20):
        record.append(legal_moves(record._replayed().board)[0], note if n % 2 else None)

    async def scenario():
        tab = Tab(MemoryBackend(), 6)
        await tab.play("left", "up", "right")
        tab.switcher.play_from(record, 12, started=99.0)
        await tab.session.wait_idle()
        return tab

    tab = run_async(scenario)
    game, saved, view = tab.session.game, tab.saved, tab.view
    assert game.seed == 31 and game.moves == 12 and game.started == 99.0 and game.board == replay(record, 12).board
    assert [entry[2] for entry in game.history] == record.decisions[:12] and game.undos == 0
    assert saved.kept()[0]["seed"] == 6 and "is kept" in view.notices[-1]
    for _ in range(12):
        game.undo()
    assert game.board == replay(record, 0).board


def test_a_tab_whose_slot_another_tab_writes_saves_its_game_under_a_new_id():
    async def scenario():
        backend = MemoryBackend()
        a = Tab(backend, seed=1, tab="a")
        await a.play("left", "up")
        other = SavedGames(Storage(backend), "a", lambda: 2.0)  # a copy that did not see "a" open
        other.save(Game.new(5))
        a.switcher.on_storage(live_key("a"), backend.getItem(live_key("a")))
        return backend, a

    backend, a = run_async(scenario)
    assert a.saved.tab == "a2"
    assert SavedGames(Storage(backend), "a2").load().to_dict() == a.session.game.to_dict()
    assert SavedGames(Storage(backend), "a").load().to_dict() == Game.new(5).to_dict()
