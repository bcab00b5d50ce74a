"""Replays in the page: a shared link, a step through a game, a dropped lab file, a game from "Your games"."""

import json

import pytest
from pagekit import engine_rows, loaded_modules, read_board, wait_settled
from storage_kit import saved_game

from app.browser.page_options import MAX_QUERY_CHARS
from app.games.replay_view import LINK_LIMIT_BYTES
from game2048 import board as B
from game2048.game import Game
from game2048.game_link import encode_game
from game2048.game_record import GameRecord, decision, positions

AI = decision("alphabeta", "classic", 6, 99.0)


def recorded(seed: int, moves: int, every_ai: int = 2) -> GameRecord:
    record = GameRecord(seed)
    while len(record.moves) < moves:
        legal = B.legal_moves(record._replayed().board)
        record.append(legal[len(record.moves) % len(legal)], AI if len(record.moves) % every_ai else None)
    return record


def shown_rows(page) -> list[list[int]]:
    cells = page.eval_on_selector_all("#replay-board .mini-cell", "cells => cells.map(c => c.textContent)")
    values = [int(text) if text else 0 for text in cells]
    return [values[i : i + 4] for i in range(0, 16, 4)]


def test_a_shared_link_opens_its_replay_and_steps_with_keys_buttons_and_the_slider(open_page):
    record = recorded(61, 40)
    steps = positions(record)
    run = open_page(f"seed=5&game={encode_game(record.seed, record.moves)}")
    page = run.page
    page.wait_for_selector("#replay-view", state="visible")
    assert page.text_content("#replay-title") == "Shared game"
    assert shown_rows(page) == B.to_rows(steps[0][0]) and "game=" not in page.url  # a reload opens the game
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.click("#replay-forward")
    assert shown_rows(page) == B.to_rows(steps[3][0])
    assert page.text_content("#replay-status") == f"Move 3 of 40 \u00b7 score {steps[3][1]}"
    assert page.text_content("#replay-decision") == (  # a link made before links said who played does not say
        f"Move 3: played {record.moves[2]} (this link does not say who played: it was made before links did)."
    )
    page.keyboard.press("End")
    assert shown_rows(page) == B.to_rows(steps[40][0])
    page.click("#replay-back")
    page.fill("#replay-slider", "17")
    assert shown_rows(page) == B.to_rows(steps[17][0])
    page.select_option("#replay-speed", "20")
    page.click("#replay-play")
    page.wait_for_function("document.getElementById('replay-play').textContent === 'Play'")  # played to the end
    assert shown_rows(page) == B.to_rows(steps[40][0])
    page.keyboard.press("Escape")
    page.wait_for_selector("#replay-view", state="hidden")
    assert read_board(page) == B.to_rows(Game.new(5).board)  # the game underneath never moved
    assert run.errors == []


def test_a_bad_link_says_what_was_wrong_and_the_game_is_untouched(open_page):
    code = encode_game(61, recorded(61, 30).moves)
    run = open_page(f"seed=5&game={code[:-4]}")
    page = run.page
    assert "game link could not be opened: the link is cut short" in page.text_content("#notice")
    assert page.is_hidden("#replay-view") and read_board(page) == B.to_rows(Game.new(5).board)
    assert run.errors == []


def test_a_dropped_lab_file_lists_its_games_and_opens_one(open_page):
    lines = [json.dumps({"seed": seed, "record": recorded(seed, 25).to_dict()}) for seed in (71, 72)]
    text = "\n".join(lines + ['{"seed": 3, "max_tile": 512}', "{cut"])
    run = open_page("seed=5")
    page = run.page
    page.evaluate(
        """(text) => {
          const data = new DataTransfer();
          data.items.add(new File([text], "games.jsonl", {type: "application/json"}));
          document.body.dispatchEvent(new DragEvent("dragover", {dataTransfer: data, bubbles: true, cancelable: true}));
          document.body.dispatchEvent(new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true}));
        }""",
        text,
    )
    page.wait_for_selector("#games-table")
    notice = page.text_content("#games-notice")
    assert "games.jsonl: 2 games to replay" in notice and "1 line was written before" in notice
    assert "the last line is cut short" in notice
    assert page.eval_on_selector_all("#games-table tbody tr", "rows => rows.length") == 2
    page.click("#games-table tbody tr:nth-child(2) .games-open")
    page.wait_for_selector("#replay-view", state="visible")
    assert page.text_content("#replay-title") == "Lab game, seed 72"
    assert shown_rows(page) == B.to_rows(Game.new(72).board)
    page.keyboard.press("Escape")
    page.set_input_files(
        "#games-file", files=[{"name": "other.jsonl", "mimeType": "application/json", "buffer": lines[0].encode()}]
    )
    page.wait_for_function("document.getElementById('games-notice').textContent.startsWith('other.jsonl: 1 game')")
    assert run.errors == []


def test_a_finished_game_opens_from_your_games_and_play_from_here_goes_on_from_it(open_page):
    run = open_page("seed=81")
    page = run.page
    for key in ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"] * 3:
        page.keyboard.press(key)
    wait_settled(page)
    played = saved_game(page)["record"]
    page.keyboard.press("r")
    wait_settled(page)
    page.keyboard.press("g")
    page.wait_for_selector("#games-table")
    assert "1 game, 0 won" in page.text_content("#games-list")
    page.click("#games-table .games-open")
    page.wait_for_selector("#replay-view", state="visible")
    record = GameRecord.from_dict(played)
    count = len(record.moves)
    assert page.text_content("#replay-status").startswith(f"Move 0 of {count}")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    page.click("#replay-from-here")
    page.wait_for_selector("#replay-view", state="hidden")
    wait_settled(page)
    assert read_board(page) == B.to_rows(positions(record)[5][0])
    page.keyboard.press("u")  # the replayed moves are the new game's own: undo reaches into them
    wait_settled(page)
    assert read_board(page) == B.to_rows(positions(record)[4][0])
    assert run.errors == []


def test_the_replay_fits_a_small_phone(open_page):
    record = recorded(91, 12)
    run = open_page(
        f"game={encode_game(record.seed, record.moves)}",
        viewport={"width": 320, "height": 480},
        is_mobile=True,
        has_touch=True,
    )
    page = run.page
    page.wait_for_selector("#replay-view", state="visible")
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    page.tap("#replay-forward")
    assert page.text_content("#replay-status").startswith("Move 1 of 12")
    page.tap("#replay-close")
    page.wait_for_selector("#replay-view", state="hidden")
    assert run.errors == []


def test_copy_link_gives_a_link_that_opens_the_replay_at_the_move_shown(open_page):
    record = recorded(62, 30)
    steps = positions(record)
    run = open_page(f"seed=5&game={encode_game(record.seed, record.moves)}")
    page = run.page
    page.wait_for_selector("#replay-view", state="visible")
    page.fill("#replay-slider", "12")
    page.click("#replay-copy-link")
    page.wait_for_selector("#replay-link", state="visible")  # headless Chromium may refuse the clipboard
    link = page.input_value("#replay-link")
    assert link.endswith("&move=12")
    page.goto(link)
    page.wait_for_selector("#replay-view", state="visible")
    assert shown_rows(page) == B.to_rows(steps[12][0])
    assert page.text_content("#replay-status").startswith("Move 12 of 30")
    assert "move=" not in page.url and run.errors == []


def test_play_from_here_brings_the_board_into_view_with_the_keys(open_page):
    record = recorded(63, 20)
    run = open_page(f"game={encode_game(record.seed, record.moves)}", viewport={"width": 390, "height": 844})
    page = run.page
    page.wait_for_selector("#replay-view", state="visible")
    page.fill("#replay-slider", "8")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the player had scrolled down to the replay
    page.click("#replay-from-here")
    page.wait_for_selector("#replay-view", state="hidden")
    wait_settled(page)
    assert page.evaluate("document.activeElement.id") == "board"
    box = page.evaluate(
        "(() => { const r = document.getElementById('board').getBoundingClientRect(); return [r.top, r.bottom]; })()"
    )
    assert box[0] >= 0 and box[1] <= 844, box
    page.keyboard.press("ArrowLeft")
    wait_settled(page)
    assert run.errors == []


def test_your_games_opens_at_its_heading_and_closing_gives_the_board_the_keys(open_page):
    run = open_page("seed=5", viewport={"width": 390, "height": 844})
    page = run.page
    wait_settled(page)
    page.keyboard.press("g")
    assert page.is_visible("#games-panel")
    assert page.evaluate("() => document.activeElement.id") == "games-heading"
    in_view = "el => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"
    assert page.eval_on_selector("#games-heading", in_view)
    page.keyboard.press("g")
    assert page.is_hidden("#games-panel")
    assert page.evaluate("() => document.activeElement.id") == "board"
    before = read_board(page)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")
    assert read_board(page) != before
    assert run.errors == []


def test_the_open_replay_keeps_the_keyboard_so_the_editor_cannot_open_behind_it(open_page):
    run = open_page("seed=8")
    page = run.page
    for key in ("ArrowLeft", "ArrowDown", "ArrowRight"):
        page.keyboard.press(key)
    wait_settled(page)
    page.keyboard.press("v")
    assert page.is_visible("#replay-view")
    outside = """() => { const a = document.activeElement;  // past the dialog's last control: the browser's own UI
        return a && a !== document.body && !document.getElementById('replay-view').contains(a) ? a.id : null; }"""
    for _ in range(40):  # Tab all the way round: no control of the page behind the dialog takes the focus
        page.keyboard.press("Tab")
        assert page.evaluate(outside) is None
    assert page.get_attribute("#edit-toggle", "aria-pressed") == "false"
    page.keyboard.press("Escape")
    assert page.is_hidden("#replay-view") and page.is_hidden("#editor-bar")
    assert page.evaluate("() => document.querySelectorAll('[inert]').length") == 0
    before = read_board(page)
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowLeft")
    assert read_board(page) != before
    assert run.errors == []


GAMES_MODULES = {"app.games.panel", "app.games.lab_files", "app.games.replays", "app.games.replay_view"}
"""What "Your games" and the replay alone import: none of it before either is first used."""


@pytest.mark.parametrize("opened_by", ["g", "#games-toggle", "v", "#replay-current"])
def test_your_games_and_the_replay_are_built_at_first_use_by_their_keys_and_buttons(open_page, opened_by):
    run = open_page("seed=50")
    page = run.page
    page.keyboard.press("ArrowLeft")
    assert read_board(page) == engine_rows(50, ["left"])
    before = loaded_modules(page)
    assert "app.page" in before and before & GAMES_MODULES == set(), "built before it was used"
    assert page.locator("#games-list *").count() == 0
    if opened_by.startswith("#"):
        page.click(opened_by)
    else:
        page.keyboard.press(opened_by)
    # Open at once, in the same event, with its content and focus as before.
    if opened_by in ("g", "#games-toggle"):
        assert page.is_visible("#games-panel") and page.get_attribute("#games-toggle", "aria-expanded") == "true"
        assert page.evaluate("document.activeElement.id") == "games-heading"
        assert "No finished games yet" in page.text_content("#games-list")
        page.keyboard.press("g")
        assert page.is_hidden("#games-panel") and page.evaluate("document.activeElement.id") == "board"
    else:
        assert page.is_visible("#replay-view") and page.text_content("#replay-title") == "This game"
        assert page.evaluate("document.activeElement.id") == "replay-play"
        assert shown_rows(page) == engine_rows(50, ["left"])
        page.keyboard.press("ArrowDown")  # the dialog keeps the keys: the game does not move
        page.keyboard.press("Escape")
        assert page.is_hidden("#replay-view")
    assert GAMES_MODULES <= loaded_modules(page)
    page.click("#games-toggle")  # once built, its button opens and closes the panel once a click
    assert page.is_visible("#games-panel")
    page.click("#games-toggle")
    assert page.is_hidden("#games-panel")
    page.click("#replay-current")
    assert page.is_visible("#replay-view")
    page.keyboard.press("Escape")
    assert page.is_hidden("#replay-view") and read_board(page) == engine_rows(50, ["left"])
    assert run.errors == []


def test_a_game_whose_link_would_be_too_long_is_offered_as_a_file_that_opens_again(open_page, server_url, tmp_path):
    """Issue 53: a 1 MB ?game= link got the server's bare 414; static hosts refuse links from about 8 KB.  An
    option the page keeps in its links pads the address (a game long enough would take hours to play): the query
    the page opens with is within what it reads (``MAX_QUERY_CHARS``), the link it would make is not."""
    record = recorded(64, 30)
    code = encode_game(record.seed, record.moves)
    pad = "p" * (MAX_QUERY_CHARS - 2 - len(f"seed=5&pad=&game={code}"))
    link = f"{server_url}/index.html?pad={pad}&game={code}"  # what Copy link would make: seed= goes
    assert len(link) > LINK_LIMIT_BYTES
    run = open_page(f"seed=5&pad={pad}&game={code}")
    page = run.page
    page.wait_for_selector("#replay-view", state="visible")
    page.click("#replay-copy-link")
    page.wait_for_selector("#replay-save-file", state="visible")
    assert page.text_content("#replay-copy-status").startswith(
        f"This game is too long to share as a link: its link would be {len(link):,} bytes"
    )
    assert page.is_hidden("#replay-link") and page.input_value("#replay-link") == ""
    with page.expect_download() as downloading:
        page.click("#replay-save-file")
    download = downloading.value
    assert download.suggested_filename == "2048-game-64.jsonl"
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    assert GameRecord.from_dict(json.loads(path.read_text())["record"]).moves == record.moves
    page.keyboard.press("Escape")
    page.wait_for_selector("#replay-view", state="hidden")
    page.keyboard.press("g")
    page.set_input_files("#games-file", str(path))
    page.wait_for_selector("#games-table")
    page.click("#games-table tbody tr:nth-child(1) .games-open")
    page.wait_for_selector("#replay-view", state="visible")
    assert page.text_content("#replay-title") == "Lab game, seed 64"
    page.keyboard.press("End")
    assert shown_rows(page) == B.to_rows(positions(record)[30][0])
    assert run.errors == []
