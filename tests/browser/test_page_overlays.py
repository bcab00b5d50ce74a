"""The win overlay with "Keep going" / "New game", and the game-over overlay with "Try again"."""

from __future__ import annotations

import json

from pagekit import read_board, read_score, replay, wait_settled

from game2048.board import from_rows, to_rows
from game2048.game import Game

GAME_KEY = "game2048:game"


def _saved(rows: list[list[int]], seed: int) -> tuple[Game, str]:
    """A game in progress on ``rows`` (its generator seeded with ``seed``), and its saved form."""
    game = Game.from_position(from_rows(rows), seed)
    return game, json.dumps(game.to_dict())


NEAR_WIN = [[1024, 1024, 0, 0], [0, 0, 0, 0], [2, 0, 0, 0], [0, 4, 0, 0]]


def test_win_overlay_then_keep_going(open_page):
    game, saved = _saved(NEAR_WIN, seed=21)
    run = open_page(storage={GAME_KEY: saved})
    page = run.page
    assert read_board(page) == NEAR_WIN
    assert not page.is_visible("#win-overlay")
    page.keyboard.press("ArrowLeft")
    replay(game, ["left"])
    assert read_board(page) == to_rows(game.board)
    assert page.is_visible("#win-overlay")
    assert "You win" in page.text_content("#win-overlay")
    page.keyboard.press("ArrowRight")  # paused on the overlay: nothing moves
    assert read_board(page) == to_rows(game.board)
    page.click("#keep-going")
    wait_settled(page)  # the click only queues "keep going"; the queue applies it on the next turn
    assert not page.is_visible("#win-overlay")
    game.continue_after_win()
    page.keyboard.press("ArrowRight")
    replay(game, ["right"])
    assert read_board(page) == to_rows(game.board)
    assert read_score(page) == game.score
    run.reload()  # "keep going" is part of the saved game
    assert not page.is_visible("#win-overlay")
    assert read_board(page) == to_rows(game.board)
    assert run.errors == []


def test_win_overlay_new_game(open_page):
    _, saved = _saved(NEAR_WIN, seed=22)
    run = open_page(storage={GAME_KEY: saved})
    page = run.page
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#win-overlay", state="visible")
    page.click("#win-new-game")
    board = read_board(page)
    assert sum(v > 0 for row in board for v in row) == 2
    assert read_score(page) == 0
    assert not page.is_visible("#win-overlay")


def _seed_that_ends_the_game(rows: list[list[int]], direction: str) -> int:
    """A generator seed whose spawn after ``direction`` leaves no legal move (found in CPython)."""
    for seed in range(100):
        game, _ = _saved(rows, seed)
        if game.play(direction).over:
            return seed
    raise AssertionError("no seed ends the game: pick another position")


NEAR_OVER = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 8, 8]]


def test_game_over_then_try_again(open_page):
    seed = _seed_that_ends_the_game(NEAR_OVER, "left")
    game, saved = _saved(NEAR_OVER, seed=seed)
    run = open_page(storage={GAME_KEY: saved})
    page = run.page
    page.keyboard.press("ArrowLeft")
    replay(game, ["left"])
    assert game.over
    assert read_board(page) == to_rows(game.board)
    assert page.is_visible("#over-overlay")
    assert "Game over" in page.text_content("#over-overlay")
    assert read_score(page) == game.score
    page.click("#try-again")
    board = read_board(page)
    assert sum(v > 0 for row in board for v in row) == 2
    assert read_score(page) == 0
    assert not page.is_visible("#over-overlay")
    assert int(page.text_content("#best")) == game.earned  # a set-up position: what its move earned, no more
    assert run.errors == []
