"""The live coach in the page (issue 55, item 3): "Coach's mark after a move".

A person turns Coach on, plays by key and reads a mark after each move of theirs: the grade the engine gives that
move with the preset the coach names (the learned network is never downloaded for it), in a polite live region.
The moves never wait for it: each key moves the board at once, also while the AI thinks (the coach then says it
waits).  Coach off shows no mark.  At game over the coach says where the game was lost, beside "Review this game".
"""

from __future__ import annotations

import json
import time

from pagekit import read_board, replay, wait_ai_ready
from test_page_accessibility import _axe_violations
from test_page_overlays import NEAR_OVER, _saved, _seed_that_ends_the_game
from test_page_review import _no_network

from app.ai.coach_marks import mark_text, verdict_text
from game2048 import board as B
from game2048.evaluation import presets
from game2048.game import Game
from game2048.search.review import grade_move

KEYS = {"up": "ArrowUp", "right": "ArrowRight", "down": "ArrowDown", "left": "ArrowLeft"}
AT_ONCE_S = 1.0
"""A key's move is on the board within this (a slide is 0.1 s); the AI's think time below is twice as long."""
GAME_KEY = "game2048:game"
SETTINGS_KEY = "game2048:settings"


def mark_of(page, number: int) -> str:  # type: ignore[no-untyped-def]
    """The coach's mark once it grades move ``number``."""
    page.wait_for_function(
        "n => document.getElementById('coach-mark').textContent.startsWith(`Move ${n}: `)", arg=number, timeout=30_000
    )
    return page.text_content("#coach-mark")


def play_at_once(page, game: Game, count: int) -> list[tuple[int, str]]:  # type: ignore[no-untyped-def]
    """``count`` moves by key, each on the board within ``AT_ONCE_S``; (board before, move) of each."""
    played = []
    for _ in range(count):
        direction = B.legal_moves(game.board)[0]
        played.append((game.board, direction))
        started = time.monotonic()
        page.keyboard.press(KEYS[direction])
        replay(game, [direction])
        assert read_board(page) == B.to_rows(game.board)
        assert time.monotonic() - started < AT_ONCE_S
    return played


def test_coachs_mark_after_a_move_is_the_engines_grade_and_never_delays_the_next(open_page):
    run = open_page("seed=31", prepare=_no_network)
    page = run.page
    wait_ai_ready(page)
    assert not page.is_checked("#coach") and page.is_hidden("#coach-mark")  # off by default
    assert "grade each of my moves" in page.text_content("label:has(#coach)")
    page.check("#coach")
    game = Game.new(31)
    played = play_at_once(page, game, 3)
    said = mark_of(page, 3)
    note = page.text_content("#coach-note")
    preset = note.split("Graded by the ")[1].split(" evaluation")[0]
    assert "its units are not points" in note  # the network is not in, and the coach never downloads it
    board, direction = played[-1]
    graded = grade_move(3, board, direction, presets.get(preset).make()).to_dict()
    assert said == mark_text(graded, False)
    assert page.get_attribute("#coach-mark", "data-grade") == graded["grade"]
    assert page.get_attribute("#coach-mark", "aria-live") == "polite"  # a screen reader hears it

    # While the AI thinks (a hint of 2 s), a key still moves at once; the coach waits, then marks the move.
    page.eval_on_selector("#ai-think", "e => { e.value = '13'; e.dispatchEvent(new Event('input')); }")
    page.keyboard.press("i")
    page.wait_for_function("() => document.getElementById('ai-hint').disabled")  # thinking
    play_at_once(page, game, 1)
    assert page.text_content("#coach-mark").startswith("Coach waits: the AI is thinking; move 4 is graded")
    mark_of(page, 4)
    assert _axe_violations(page) == []
    assert not any("/networks/" in url for url in run.requests)
    run.reload()
    assert page.is_checked("#coach")  # kept with the settings
    assert run.errors == []


def test_coach_off_shows_no_mark(open_page):
    run = open_page("seed=32", prepare=_no_network)
    page = run.page
    wait_ai_ready(page)
    play_at_once(page, Game.new(32), 3)
    page.wait_for_timeout(1500)  # time enough for a grade to come back, were one asked
    assert page.is_hidden("#coach-mark") and page.text_content("#coach-mark") == ""
    assert run.errors == []


def test_at_game_over_the_coach_says_where_the_game_was_lost_beside_review_this_game(open_page):
    seed = _seed_that_ends_the_game(NEAR_OVER, "left")
    game, saved = _saved(NEAR_OVER, seed=seed)
    storage = {GAME_KEY: saved, SETTINGS_KEY: json.dumps({"coach": True})}
    run = open_page(storage=storage, prepare=_no_network)
    page = run.page
    wait_ai_ready(page)
    assert page.is_checked("#coach")
    board, number = game.board, game.moves + 1
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#coach-verdict", state="visible", timeout=30_000)
    preset = page.text_content("#coach-note").split("Graded by the ")[1].split(" evaluation")[0]
    graded = grade_move(number, board, "left", presets.get(preset).make()).to_dict()
    assert page.text_content("#coach-verdict") == verdict_text([graded], False, "best")
    assert page.is_visible("#over-review")  # the review, one click away
    page.click("#try-again")
    page.wait_for_selector("#coach-verdict", state="hidden")
    assert run.errors == []
