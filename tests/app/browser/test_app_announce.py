"""The words the live region says: moves, blocked moves, win, game over, a whole game, a hint, a cell."""

from __future__ import annotations

from app_async import run_async
from fakes import FakeView

from app.board.play import AI, Intent, PlaySession
from app.browser import announce
from app.browser.storage import MemoryBackend, Storage
from app.games.saved_games import SavedGames
from game2048.board import from_rows
from game2048.game import Game, MoveOutcome

NEAR_WIN = [[1024, 1024, 0, 0], [0, 0, 0, 0], [2, 0, 0, 0], [0, 4, 0, 0]]


def _game(rows: list[list[int]], seed: int = 3) -> Game:
    return Game.from_position(from_rows(rows), seed)


def test_a_move_with_merges_says_direction_merges_points_new_tile_and_score():
    game = _game([[2, 2, 4, 4], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 8]])
    outcome = game.play("left")
    cell, rank = outcome.spawn
    row, col = divmod(cell, 4)
    assert announce.move_sentence(outcome, game) == (
        f"Moved left: merged into 4 and 8, +12 points. New {1 << rank} in row {row + 1}, column {col + 1}. "
        f"Score {game.score}."
    )


def test_a_move_without_merge_and_an_ai_move_say_so():
    game = _game([[0, 0, 0, 2], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]])
    sentence = announce.move_sentence(game.play("left"), game, by_ai=True)
    assert sentence.startswith("AI moved left, no merge. New ") and sentence.endswith(f" Score {game.score}.")


def test_a_winning_move_and_a_losing_move_end_with_win_and_game_over():
    game = _game(NEAR_WIN, seed=21)
    outcome = game.play("left")
    assert outcome.won_now and announce.move_sentence(outcome, game).endswith(announce.won_sentence())
    assert "2048" in announce.won_sentence()
    over = MoveOutcome(game.play("down").direction, True, 0, over=True)
    assert announce.move_sentence(over, game).endswith(f"Game over: no move is left. Final score {game.score}.")


def test_blocked_hint_and_cell_wording():
    assert announce.blocked_sentence("left") == "No tiles can move left."
    assert announce.hint_sentence("up") == "Hint: up"
    assert announce.cell_label(0) == "empty" and announce.cell_label(256) == "256"


def test_a_whole_game_lists_few_tiles_and_counts_many():
    few = _game([[0, 0, 2, 0], [0, 0, 0, 0], [0, 0, 0, 0], [4, 0, 0, 0]])
    assert announce.game_sentence(few, "New game.") == (
        f"New game. Tiles: 2 in row 1, column 3; 4 in row 4, column 1. Score {few.score}."
    )
    many = _game([[2, 4, 8, 16], [32, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    assert announce.game_sentence(many, "Another game on the board.") == (
        f"Another game on the board. 5 tiles, the largest 32. Score {many.score}."
    )
    lost = _game([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    assert announce.game_sentence(lost, "New game.").endswith(announce.over_sentence(lost))


def test_the_session_announces_each_move_a_blocked_move_a_restart_and_keep_going():
    async def scenario():
        view = FakeView()
        saved = SavedGames(Storage(MemoryBackend()))
        session = PlaySession(_game(NEAR_WIN, 21), view, saved, new_game=lambda: Game.new(1), slide_seconds=0.001)
        session.start()
        session.submit(Intent.move("up"))  # the 1024s and the 2 move up; nothing blocks
        session.submit(Intent.move("left", AI))
        await session.wait_idle()
        session.submit(Intent("keep_going"))
        await session.wait_idle()
        return session, view

    session, view = run_async(scenario)
    assert view.announced[0].startswith("Moved up")
    assert view.announced[1].startswith("AI moved left: merged into 2048") and view.announced[1].endswith(
        announce.won_sentence()
    )
    assert view.announced[2] == announce.keep_going_sentence()


def test_a_move_that_changes_nothing_is_announced_for_a_person_only():
    async def scenario():
        view = FakeView()
        saved = SavedGames(Storage(MemoryBackend()))
        game = _game([[2, 0, 0, 0], [4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
        session = PlaySession(game, view, saved, new_game=lambda: Game.new(1), slide_seconds=0.001)
        session.submit(Intent.move("left"))
        session.submit(Intent.move("left", AI))
        session.submit(Intent("restart"))
        await session.wait_idle()
        return view

    view = run_async(scenario)
    assert view.announced[0] == "No tiles can move left."
    assert view.announced[1].startswith("New game. Tiles: ") and len(view.announced) == 2
