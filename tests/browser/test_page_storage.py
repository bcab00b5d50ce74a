"""Reload restores the game and the best score; damaged saves and bad URLs give a notice, not a crash."""

from __future__ import annotations

import json

from pagekit import engine_rows, read_best, read_board, read_score, replay

from game2048.board import to_rows
from game2048.game import Game

GAME_KEY = "game2048:game"


def test_reload_restores_the_game_and_its_generator(open_page):
    run = open_page("seed=5")
    page = run.page
    played = ["left", "down", "left", "down", "right", "down"]
    for direction in played:
        page.keyboard.press(f"Arrow{direction.title()}")
    board, score = read_board(page), read_score(page)
    assert board == engine_rows(5, played)
    run.reload()
    assert read_board(page) == board
    assert read_score(page) == score
    assert read_best(page) == score
    page.keyboard.press("ArrowUp")  # the restored generator spawns what the engine would
    assert read_board(page) == engine_rows(5, played + ["up"])
    assert run.errors == []


def test_new_game_keeps_the_best_score(open_page):
    run = open_page("seed=6")
    page = run.page
    for key in ("ArrowLeft", "ArrowDown", "ArrowLeft", "ArrowDown", "ArrowLeft"):
        page.keyboard.press(key)
    read_board(page)
    best = read_best(page)
    page.keyboard.press("r")
    assert read_board(page) == engine_rows(6)  # R restarts the seeded game
    assert read_score(page) == 0 and read_best(page) == best


def _assert_fresh_game_with_notice(run, words: str) -> None:
    page = run.page
    assert page.is_visible("#notice")
    assert words in page.text_content("#notice")
    board = read_board(page)
    assert sum(v > 0 for row in board for v in row) == 2
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")
    read_board(page)
    assert run.errors == []


def test_unreadable_saved_game_is_replaced_with_a_notice(open_page):
    run = open_page(storage={GAME_KEY: "{not json", "game2048:best": "64"})
    _assert_fresh_game_with_notice(run, "not readable JSON")
    assert read_best(run.page) == 64


def test_impossible_saved_game_is_replaced_with_a_notice(open_page):
    game = Game.new(4)
    data = game.to_dict()
    data["score"] = 7  # every merge scores an even number: hand-edited
    run = open_page(storage={GAME_KEY: json.dumps(data)})
    _assert_fresh_game_with_notice(run, "odd")


def test_saved_game_from_another_version_is_replaced_with_a_notice(open_page):
    data = Game.new(4).to_dict()
    data["version"] = 999
    run = open_page(storage={GAME_KEY: json.dumps(data)})
    _assert_fresh_game_with_notice(run, "another version")


def test_bad_seed_in_the_url_is_ignored_with_a_notice(open_page):
    run = open_page("seed=banana")
    _assert_fresh_game_with_notice(run, "seed")


def test_a_restored_game_continues_after_a_saved_state_is_seeded(open_page):
    game = replay(Game.new(12), ["left", "up", "left"])
    run = open_page(storage={GAME_KEY: json.dumps(game.to_dict())})
    assert read_board(run.page) == to_rows(game.board)
    assert not run.page.is_visible("#notice")
    run.page.keyboard.press("ArrowDown")
    assert read_board(run.page) == to_rows(replay(game, ["down"]).board)


def test_a_set_up_position_raises_best_only_by_what_its_moves_earn(open_page):
    run = open_page("rows=2048,1024,512,256/0,0,0,0/0,0,0,0/0,0,2,2")
    page = run.page
    assert read_score(page) > 30_000  # the position's own score, as a game that reached it would have
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("Number(document.getElementById('score').textContent) > 30000")
    page.wait_for_selector('#board[data-settled="true"]', state="attached")
    assert read_best(page) <= 4
    run.reload()
    assert read_best(page) <= 4
    assert run.errors == []


FILL_STORAGE = """() => {  // another script of the same site fills localStorage to the last character
    let chunk = "x".repeat(1 << 20), n = 0;
    while (chunk.length) {
        try { localStorage.setItem("other-script:" + n++, chunk); }
        catch (e) { chunk = chunk.slice(0, chunk.length >> 1); }
    }
}"""


def test_a_full_storage_keeps_the_last_saved_game_and_says_so_not_that_storage_is_refused(open_page):
    run = open_page("seed=12")
    page = run.page
    for direction in ["left", "down", "left", "down", "right", "down", "left", "down", "right", "up"]:
        page.keyboard.press(f"Arrow{direction.title()}")
    read_board(page)
    page.evaluate(FILL_STORAGE)
    for index in range(50):
        page.keyboard.press(("ArrowLeft", "ArrowDown", "ArrowRight", "ArrowUp")[index % 4])
    read_board(page)
    assert "could not be saved" in page.text_content("#notice-text")
    # A save that no longer fits leaves the last one that did; a reload brings this tab's back.
    last = json.loads(
        page.evaluate("() => localStorage.getItem(Object.keys(localStorage).find(k => k.startsWith('game2048:live:')))")
    )["game"]
    assert last["moves"] >= 9  # the ten keys before the fill make nine moves (one changes nothing)
    run.reload()
    assert read_board(page) == last["rows"] and read_score(page) == last["score"]
    assert "does not let the page keep data" not in (page.text_content("#notice-text") or "")
    assert run.errors == []
