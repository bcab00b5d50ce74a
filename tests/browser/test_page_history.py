"""Undo and redo in the page: keys, buttons and Ctrl+Z take moves back with their tiles, and bring them again."""

import json

from pagekit import engine_rows, read_board, read_score, replay, wait_ai_ready, wait_decisions, wait_settled
from storage_kit import SAVED_MOVES_JS, saved_game

from game2048 import board as B
from game2048.game import Game

PLAYED = ["left", "up", "right", "down", "left"]


def _press(page, directions):
    for direction in directions:
        page.keyboard.press(f"Arrow{direction[0].upper()}{direction[1:]}")


def test_undo_three_moves_and_redo_them_brings_the_same_tiles(open_page):
    run = open_page("seed=21")
    page = run.page
    assert page.is_disabled("#undo") and page.is_disabled("#redo")
    wait_ai_ready(page)  # its status is said in the same live region: read ours after it
    _press(page, PLAYED)
    assert read_board(page) == engine_rows(21, PLAYED)
    for _ in range(3):
        page.keyboard.press("u")
    assert read_board(page) == engine_rows(21, PLAYED[:2])
    assert read_score(page) == replay(Game.new(21), PLAYED[:2]).score
    assert page.text_content("#undo-count") == "3" and page.is_enabled("#redo")
    assert "Took back the move right" in page.text_content("#announcer")
    for _ in range(3):
        page.keyboard.press("y")
    assert read_board(page) == engine_rows(21, PLAYED)  # the same tiles came again
    assert page.is_disabled("#redo")
    page.keyboard.press("Control+z")  # the editing shortcut, and the button
    page.click("#undo")
    assert read_board(page) == engine_rows(21, PLAYED[:3])
    _press(page, PLAYED[3:])  # the same moves played again by hand: the same tiles too
    assert read_board(page) == engine_rows(21, PLAYED)
    assert page.text_content("#undo-count") == "5" and page.is_disabled("#redo")
    assert run.errors == []


def test_undo_after_game_over_reopens_the_game(open_page):
    position = B.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 8, 8]])
    game = Game.from_position(position, seed=0)
    run = open_page(storage={"game2048:game": json.dumps(game.to_dict())})
    page = run.page
    page.keyboard.press("ArrowLeft")  # merges the 8s, and the new tile leaves no move
    page.wait_for_selector("#over-overlay", state="visible")
    page.click("#undo")
    wait_settled(page)
    assert page.is_hidden("#over-overlay")
    assert read_board(page) == B.to_rows(position)
    page.reload()  # the reopened game was saved again
    page.wait_for_selector('body[data-ready="true"]', state="attached")
    assert read_board(page) == B.to_rows(position)
    assert run.errors == []


def test_undo_during_autoplay_stops_it(open_page):
    run = open_page("seed=22")
    page = run.page
    wait_ai_ready(page)
    page.keyboard.press("p")
    wait_decisions(page, 3)
    page.keyboard.press("u")
    page.wait_for_function("document.getElementById('ai-autoplay').getAttribute('aria-pressed') === 'false'")
    assert "Autoplay stopped: undo" in page.text_content("#ai-status")
    wait_settled(page)
    assert run.errors == []


def _saved_game(page) -> dict:
    return saved_game(page)


def test_the_saved_game_holds_its_record_and_undo_reaches_back_after_a_reload(open_page):
    run = open_page("seed=23")
    page = run.page
    wait_ai_ready(page)
    _press(page, PLAYED[:2])
    wait_settled(page)
    page.keyboard.press("n")  # one AI move: its decision goes into the record
    page.wait_for_function(SAVED_MOVES_JS, arg=3)
    wait_settled(page)
    record = _saved_game(page)["record"]
    assert record["seed"] == 23 and len(record["moves"]) == 3 == replay(Game.new(23), PLAYED[:2]).moves + 1
    assert record["decisions"][:2] == [None, None] and record["deciders"][0][0] == "alphabeta"
    assert record["started"] > 1.7e12
    page.reload()
    page.wait_for_selector('body[data-ready="true"]', state="attached")
    page.wait_for_function("!document.getElementById('undo').disabled")  # rebuilt from the record after the start
    for _ in range(3):
        page.click("#undo")
    wait_settled(page)
    assert read_board(page) == engine_rows(23)
    assert page.is_disabled("#undo") and page.text_content("#undo-count") == "3"
    assert run.errors == []


def test_a_game_left_for_a_new_one_is_listed_with_its_record(open_page):
    run = open_page("seed=24")
    page = run.page
    _press(page, PLAYED)
    wait_settled(page)
    page.keyboard.press("r")
    wait_settled(page)
    [finished] = json.loads(page.evaluate("localStorage.getItem('game2048:games')"))
    assert finished["seed"] == 24 and finished["result"]["moves"] == replay(Game.new(24), PLAYED).moves
    assert finished["result"]["outcome"] == "unfinished" and finished["ended"] >= finished["started"]
    assert _saved_game(page)["record"]["seed"] == 24  # "New game" on a seed link plays that seed again
    assert run.errors == []
