"""PlaySession: intents applied in order, none lost or doubled, view settled on the engine's state."""

from __future__ import annotations

from app_async import run_async
from fakes import FakeView

from app.board.play import AI, HUMAN, NOT_SAVED, Intent, PlaySession
from app.browser.storage import BEST_KEY, GAME_KEY, MemoryBackend, Storage
from app.games.saved_games import SavedGames
from game2048.board import from_rows, legal_moves, to_rows
from game2048.game import Game


def _session(game: Game, seed: int | None = 1, backend=None) -> tuple[PlaySession, FakeView, SavedGames]:
    view, storage = FakeView(), SavedGames(Storage(backend or MemoryBackend()))
    session = PlaySession(game, view, storage, new_game=lambda: Game.new(seed), slide_seconds=0.001)
    session.start()
    return session, view, storage


def _reference(seed: int, directions: list[str]) -> Game:
    game = Game.new(seed)
    for direction in directions:
        if not (game.over or game.paused_at_win):
            game.play(direction)
    return game


def test_a_burst_of_moves_is_applied_in_order_and_the_view_ends_on_the_engine_state():
    async def scenario():
        session, view, _ = _session(Game.new(5))
        burst = ["left", "up", "right", "down", "left", "left", "up", "down"] * 5
        for direction in burst:
            session.submit(Intent.move(direction))
        assert view.settled is False
        await session.wait_idle()
        return session, view, burst

    session, view, burst = run_async(scenario)
    reference = _reference(5, burst)
    assert session.game.board == reference.board and session.game.score == reference.score
    assert view.settled_rows == to_rows(reference.board) and view.settled is True
    assert view.calls.count("settle") == reference.moves == session.game.moves
    assert sum(c.startswith("slide") for c in view.calls) == reference.moves


def test_a_move_that_changes_nothing_draws_nothing():
    async def scenario():
        game = Game.new(1)
        game.board = from_rows([[2, 4, 0, 0], [0] * 4, [0] * 4, [0] * 4])
        session, view, _ = _session(game)
        session.submit(Intent.move("left"))
        session.submit(Intent.move("up"))
        await session.wait_idle()
        return session, view

    session, view = run_async(scenario)
    assert session.game.moves == 0 and view.calls == ["render"]


def test_moves_wait_on_the_win_overlay_until_keep_going():
    async def scenario():
        game = Game.from_position(from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0] * 4]), seed=3)
        session, view, _ = _session(game)
        session.submit(Intent.move("left"))
        session.submit(Intent.move("right"))  # ignored: paused at the win
        await session.wait_idle()
        paused = (session.game.paused_at_win, session.game.moves, view.overlays)
        session.submit(Intent("keep_going"))
        session.submit(Intent.move("right"))
        await session.wait_idle()
        return paused, session

    (paused, moves, overlays), session = run_async(scenario)
    assert paused and moves == 1023 and overlays == (True, False)
    assert session.game.keep_playing and session.game.moves == 1024


def test_restart_starts_the_seeded_game_and_keeps_the_best_score():
    async def scenario():
        session, view, storage = _session(Game.new(9), seed=9)
        for direction in ["left", "down", "left", "down", "right"]:
            session.submit(Intent.move(direction))
        session.submit(Intent("restart"))
        await session.wait_idle()
        return session, view, storage

    session, view, storage = run_async(scenario)
    assert session.game.board == Game.new(9).board and session.game.score == 0
    best = _reference(9, ["left", "down", "left", "down", "right"]).score
    assert session.best == best == storage.best_score()
    assert view.calls[-1] == "render"


def test_each_move_is_saved_and_a_finished_game_is_not():
    async def scenario():
        session, _, storage = _session(Game.new(2))
        session.submit(Intent.move("left"))
        await session.wait_idle()
        saved = storage.load()
        # A board one move from the end: left merges the 8s, and (for this generator) the spawn ends it.
        for seed in range(100):
            game = Game.from_position(from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 8, 8]]), seed)
            probe = Game.from_dict(game.to_dict())
            if probe.play("left").over:
                break
        session2, _, storage2 = _session(game)
        storage2.save(game)
        session2.submit(Intent.move("left"))
        await session2.wait_idle()
        return saved, session, session2, storage2

    saved, session, session2, storage2 = run_async(scenario)
    assert saved is not None and saved.board == session.game.board
    assert session2.game.over
    assert storage2.storage.get(GAME_KEY) is None
    assert storage2.best_score() == session2.game.earned == 16  # a set-up position: only what its move earned


def test_discard_queued_drops_only_that_source():
    async def scenario():
        session, _, _ = _session(Game.new(4))
        session.submit(Intent.move("left", source=HUMAN))
        session.submit(Intent.move("up", source=AI))
        session.submit(Intent.move("right", source=HUMAN))
        session.submit(Intent.move("down", source=AI))
        dropped = session.discard_queued(AI)
        await session.wait_idle()
        return dropped, session

    dropped, session = run_async(scenario)
    assert dropped == 2
    assert session.game.board == _reference(4, ["left", "right"]).board


def test_listeners_hear_moves_with_their_source():
    heard: list[tuple[str, str]] = []

    async def scenario():
        session, _, _ = _session(Game.new(6))
        session.listeners.append(
            lambda event, intent, _p: heard.append((event, intent.source)) if event != "submitted" else None
        )
        session.submit(Intent.move("left", source=AI))
        session.submit(Intent.move("right"))
        session.submit(Intent("restart"))
        await session.wait_idle()

    run_async(scenario)
    assert heard == [("move", AI), ("move", HUMAN), ("restart", HUMAN)]


def test_listeners_hear_every_submitted_intent_at_once_even_a_move_that_changes_nothing():
    heard: list[tuple[str, str]] = []

    async def scenario():
        game = Game.new(1)
        game.board = from_rows([[2, 4, 0, 0], [0] * 4, [0] * 4, [0] * 4])
        session, _, _ = _session(game)
        session.listeners.append(lambda event, intent, _p: heard.append((event, intent.direction)))
        session.submit(Intent.move("left"))  # changes nothing
        assert heard == [("submitted", "left")]  # heard before any await
        await session.wait_idle()

    run_async(scenario)
    assert heard == [("submitted", "left")]


class FullBackend(MemoryBackend):
    """A storage whose quota is used up: reads work, every write fails."""

    def setItem(self, key, value):  # noqa: N802
        raise RuntimeError("QuotaExceededError")


def test_a_save_that_fails_is_said_once_and_the_game_goes_on():
    async def scenario():
        session, view, _ = _session(Game.new(2), backend=FullBackend())
        for direction in ["left", "up", "right", "down"]:
            session.submit(Intent.move(direction))
        await session.wait_idle()
        return session, view

    session, view = run_async(scenario)
    assert session.game.moves == _reference(2, ["left", "up", "right", "down"]).moves > 0
    assert view.notices == [NOT_SAVED]


def test_the_best_score_is_the_highest_any_tab_saved():
    async def scenario():
        backend = MemoryBackend()
        session, view, _ = _session(Game.new(9), backend=backend)
        backend.setItem(BEST_KEY, "50000")  # another tab, meanwhile
        for direction in ["left", "down", "left", "down", "right"]:
            session.submit(Intent.move(direction))
        await session.wait_idle()
        return session, view, backend

    session, view, backend = run_async(scenario)
    assert 0 < session.game.score < 50000
    assert backend.getItem(BEST_KEY) == "50000" and session.best == 50000 and view.best == 50000


def test_undo_and_redo_in_the_queue_take_back_and_replay_the_same_tiles_and_save():
    async def scenario():
        session, view, storage = _session(Game.new(6))
        for direction in ("left", "up", "right", "down", "left"):
            session.submit(Intent.move(direction))
        await session.wait_idle()
        after_five = (session.game.board, session.game.score)
        for _ in range(3):
            session.submit(Intent("undo"))
        await session.wait_idle()
        after_two = (session.game.board, session.game.score, storage.load().board)
        for _ in range(3):
            session.submit(Intent("redo"))
        session.submit(Intent("redo"))  # nothing left to play again
        await session.wait_idle()
        return session, view, after_five, after_two

    session, view, after_five, after_two = run_async(scenario)
    reference = _reference(6, ["left", "up", "right", "down", "left"])
    assert reference.moves == 5  # every move of the script changes the board
    two = _reference(6, ["left", "up"])
    assert after_two[:2] == (two.board, two.score) and after_two[2] == two.board  # saved as undone
    assert (session.game.board, session.game.score) == after_five == (reference.board, reference.score)
    assert session.game.undos == 3 and view.history == (5, 0, 3)
    assert any("Took back the move left" in said for said in view.announced)
    assert view.announced[-1].startswith("Nothing to play again")


def test_undo_after_game_over_reopens_the_game_and_undo_with_nothing_to_take_back_says_so():
    async def scenario():
        game = Game.from_position(from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 8, 8]]), seed=2)
        session, view, storage = _session(game)
        session.submit(Intent("undo"))  # a position set up by hand has no move to take back
        await session.wait_idle()
        said_first = view.announced[-1]
        while not session.game.over:
            session.submit(Intent.move(legal_moves(session.game.board)[0]))
            await session.wait_idle()
        over = session.game.over
        session.submit(Intent("undo"))
        await session.wait_idle()
        return session, view, storage, said_first, over

    session, view, storage, said_first, over = run_async(scenario)
    assert said_first.startswith("Nothing to take back")
    assert over and not session.game.over and view.overlays == (False, False)
    assert storage.load() is not None and storage.load().board == session.game.board  # open again, and saved


def test_a_new_game_takes_away_the_old_games_notice_but_not_an_error_that_is_still_true():
    """Issue 41: "notices stay after R"."""

    async def scenario():
        session, view, _ = _session(Game.new(2))
        session.submit(Intent.move("left"))
        await session.wait_idle()
        view.show_notice("Your game in progress (score 4, 3 moves, best tile 4) is kept.")
        session.submit(Intent("restart"))
        await session.wait_idle()
        cleared = view.notice
        session.submit(Intent.move("left"))
        await session.wait_idle()
        view.show_notice("The AI is unavailable.", error=True)
        session.submit(Intent("restart"))  # the AI is no better for a new game: what the error says is still true
        await session.wait_idle()
        return cleared, view

    cleared, view = run_async(scenario)
    assert cleared is None and view.notice == ("The AI is unavailable.", True)
