"""Two tabs over one storage: best scores merge, a replaced game is kept and said, kept games come back."""

from __future__ import annotations

from app_async import run_async
from fakes import FakeView

from app.game_switch import TAKE_OTHER, GameSwitcher
from app.play import Intent, PlaySession
from app.saved_games import SavedGames
from app.storage import BEST_KEY, GAME_KEY, MemoryBackend, Storage
from game2048.board import legal_moves
from game2048.game import Game
from game2048.game_record import GameRecord, decision, replay


class Tab:
    """One tab of the page: its own session, view and switcher, over the shared backend."""

    def __init__(self, backend: MemoryBackend, seed: int) -> None:
        self.view = FakeView()
        self.saved = SavedGames(Storage(backend))
        game = self.saved.load() or Game.new(seed)
        self.session = PlaySession(game, self.view, self.saved, new_game=lambda: Game.new(seed), slide_seconds=0.001)
        self.saved.save(game)
        self.session.start()
        self.switcher = GameSwitcher(self.session, self.saved, self.view)

    async def play(self, *directions: str) -> None:
        for direction in directions:
            self.session.submit(Intent.move(direction))
        await self.session.wait_idle()


def test_two_tabs_never_lose_a_game_or_the_best_score():
    async def scenario():
        backend = MemoryBackend()
        a = Tab(backend, seed=1)
        await a.play("left", "up", "left", "up", "right")
        b = Tab(backend, seed=2)
        assert b.session.game.to_dict() == a.session.game.to_dict()  # b restored a's game
        await b.session.wait_idle()
        b.session.submit(Intent("restart"))  # b starts its own game: a's game is replaced in storage
        await b.play("down", "left", "down", "left", "down", "left", "down", "left")
        a.switcher.on_storage(GAME_KEY, backend.getItem(GAME_KEY))
        a_notice, a_action = a.view.notices[-1], a.view.action
        a.switcher.on_storage(BEST_KEY, backend.getItem(BEST_KEY))
        await a.play("left")  # a plays on: its game is saved again, b's is kept
        return backend, a, b, a_notice, a_action

    backend, a, b, a_notice, a_action = run_async(scenario)
    assert "Another tab" in a_notice and a_action[0] == TAKE_OTHER and a.session.game.moves == 6
    kept = SavedGames(Storage(backend)).kept()
    assert Game.from_dict(kept[0]).to_dict() == b.session.game.to_dict()
    assert Storage(backend).best_score() == max(a.session.game.score, b.session.game.score) == a.session.best
    assert a.view.kept == 1


def test_taking_the_other_tabs_game_and_resuming_the_kept_one():
    async def scenario():
        backend = MemoryBackend()
        a = Tab(backend, seed=1)
        await a.play("left", "up")
        b = Tab(backend, seed=2)
        b.session.submit(Intent("restart"))
        await b.play("down", "left")
        mine = a.session.game
        a.switcher.on_storage(GAME_KEY, backend.getItem(GAME_KEY))
        a.view.action[1]()  # "Play the other tab's game"
        await a.session.wait_idle()
        took = a.session.game.to_dict() == b.session.game.to_dict()
        a.switcher.resume_kept()
        await a.session.wait_idle()
        return a, mine, took

    a, mine, took = run_async(scenario)
    assert took and a.session.game.to_dict() == mine.to_dict()
    assert a.view.kept == 1  # the other tab's game took the place of mine among the kept


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
