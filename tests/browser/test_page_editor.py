"""The position editor in the page, driven as a person does: clicks, taps, typing, pasting, links, the AI on it."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from pagekit import engine_rows, loaded_modules, read_board, wait_ai_ready, wait_decisions, wait_settled

from game2048 import board as B
from game2048.game import Game

EDIT_CELLS = "#editor-cells .editor-cell"


def _cell(row: int, col: int) -> str:
    return f'#editor-cells [data-row="{row}"][data-col="{col}"]'


def read_edited(page) -> list[list[int]]:
    """The board being edited, as its cell buttons show it."""
    texts = page.eval_on_selector_all(EDIT_CELLS, "els => els.map(e => e.textContent.trim())")
    assert len(texts) == 16
    values = [int(t) if t else 0 for t in texts]
    return [values[i : i + 4] for i in range(0, 16, 4)]


def _status(page) -> str:
    return page.text_content("#editor-status")


def _edit(page) -> None:
    page.click("#edit-toggle")
    page.wait_for_selector("#editor-cells", state="visible")
    assert page.get_attribute("#edit-toggle", "aria-pressed") == "true"


def _played_from(before: list[list[int]], direction: str, after: list[list[int]]) -> bool:
    """``after`` is ``before`` moved in ``direction`` plus one spawned 2 or 4."""
    moved = B.to_rows(B.move(B.from_rows(before), direction)[0])
    changed = [(a, m) for ra, rm in zip(after, moved, strict=True) for a, m in zip(ra, rm, strict=True) if a != m]
    return len(changed) == 1 and changed[0][1] == 0 and changed[0][0] in (2, 4)


def test_a_position_set_by_clicks_and_typing_is_played_from_here(open_page):
    run = open_page("seed=41")
    page = run.page
    _edit(page)
    assert read_edited(page) == read_board(page)  # the cells start from the game's board
    page.click("#editor-clear")
    assert read_edited(page) == [[0] * 4] * 4
    page.click(_cell(0, 0))
    page.click(_cell(0, 0))
    page.click(_cell(0, 1), modifiers=["Shift"])  # back from empty: 32768
    page.click(_cell(3, 3), button="right")  # back too
    assert read_edited(page)[0][:2] == [4, 32768] and read_edited(page)[3][3] == 32768
    assert page.get_attribute(_cell(0, 0), "aria-label") == "row 1, column 1: 4"
    page.click(_cell(3, 3))  # 32768 -> empty
    # Typing on a focused cell; arrows move between cells.
    page.focus(_cell(0, 1))
    page.keyboard.type("1024")
    page.keyboard.press("ArrowRight")
    page.keyboard.type("8")
    page.keyboard.press("Enter")
    edited = read_edited(page)
    assert edited[0][1] == 1024 and edited[0][2] == 8, edited
    # A value the engine refuses is refused, and the message says why.
    page.keyboard.press("ArrowRight")
    page.keyboard.type("6")
    page.keyboard.press("Enter")
    assert "6 is not a power of two" in _status(page) and read_edited(page)[0][3] == 0
    page.keyboard.type("7")
    assert "7 is not a power of two" in _status(page)
    page.fill("#editor-value", "65536")
    page.keyboard.press("Enter")
    assert "65536 is above 32768, the largest tile the engine holds" in _status(page)
    page.fill("#editor-value", "16")
    page.keyboard.press("Enter")
    expected = [[4, 1024, 8, 16], [0] * 4, [0] * 4, [0] * 4]
    assert read_edited(page) == expected
    # Game keys do nothing while editing.
    page.focus("#editor-play")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("r")
    page.click("#editor-play")
    page.wait_for_selector("#editor-cells", state="hidden")
    assert read_board(page) == expected and page.get_attribute("body", "data-editing") == "off"
    page.keyboard.press("ArrowDown")
    wait_settled(page)
    assert _played_from(expected, "down", read_board(page))
    assert run.errors == []


def test_backspace_delete_and_zero_clear_a_cell_and_one_tile_is_not_a_game(open_page):
    run = open_page("seed=42")
    page = run.page
    page.keyboard.press("t")  # the key enters edit mode, focused on a cell
    page.wait_for_selector("#editor-cells", state="visible")
    page.click("#editor-clear")
    page.focus(_cell(0, 0))
    for clear in ("Backspace", "Delete", "0"):
        page.keyboard.type("2")
        if clear == "0":
            page.keyboard.press("Enter")  # (a 0 typed after a 2 goes on to 2048)
        assert read_edited(page)[0][0] == 2
        page.keyboard.press(clear)
        assert read_edited(page)[0][0] == 0, clear
    page.keyboard.type("2")
    page.keyboard.press("t")  # T again plays the position: refused, editing goes on
    assert "at least two tiles, this board has 1" in _status(page)
    assert page.is_visible("#editor-cells")
    assert run.errors == []


def test_cancel_leaves_the_game_as_it_was(open_page):
    run = open_page("seed=43")
    page = run.page
    page.keyboard.press("ArrowLeft")
    before, score = read_board(page), page.text_content("#score")
    _edit(page)
    page.click("#editor-clear")
    page.click(_cell(1, 1))
    page.click("#editor-cancel")
    page.wait_for_selector("#editor-cells", state="hidden")
    assert read_board(page) == before and page.text_content("#score") == score
    assert page.is_hidden("#kept-games")
    assert run.errors == []


def test_a_pasted_position_gets_a_hint_and_the_game_it_replaced_is_kept(open_page):
    run = open_page("seed=44")
    page = run.page
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")
    wait_settled(page)
    _edit(page)
    page.click("#editor-share summary")
    page.fill("#editor-paste", "0 2 4 8\n0 0 0 65536\n0 0 0 0\n2 0 0 0")
    page.click("#editor-paste-apply")
    assert "65536 is above 32768" in _status(page) and "row 2, column 4" in _status(page)
    position = [[2, 4, 8, 16], [0, 0, 0, 32], [0, 0, 0, 64], [0, 0, 2, 128]]
    page.fill("#editor-paste", "2,4,8,16 / . . . 32 / - - - 64 / 0 0 2 128")
    page.click("#editor-paste-apply")
    assert read_edited(page) == position
    page.click("#editor-play")
    assert read_board(page) == position
    assert "is kept" in page.text_content("#notice-text") and page.is_visible("#kept-games")
    wait_ai_ready(page)
    page.click("#ai-hint")
    wait_decisions(page, 1)
    page.wait_for_selector("#hint-arrow", state="visible")
    direction = page.get_attribute("#hint-arrow", "data-direction")
    board = B.from_rows(position)
    assert B.move(board, direction)[0] != board, "the hint is not a legal move of the edited position"
    assert read_board(page) == position
    assert run.errors == []


def test_a_position_link_opens_it_and_a_reload_goes_on_with_it(open_page):
    rows = [[0, 2, 4, 8], [0, 0, 0, 0], [0, 0, 128, 0], [2, 0, 0, 0]]
    run = open_page("rows=" + quote("0,2,4,8/0,0,0,0/0,0,128,0/2,0,0,0"))
    page = run.page
    assert read_board(page) == rows and page.is_hidden("#notice")
    assert "rows=" not in page.url  # the position is now the game: a reload goes on playing it
    page.keyboard.press("ArrowLeft")
    played = read_board(page)
    assert _played_from(rows, "left", played)
    run.reload()
    assert read_board(page) == played and page.is_hidden("#notice")
    assert run.errors == []


def test_a_lost_position_opens_as_a_lost_game_and_a_bad_one_says_why(open_page):
    run = open_page("rows=2,4,2,4/4,2,4,2/2,4,2,4/4,2,4,2")
    page = run.page
    page.wait_for_selector("#over-overlay", state="visible")
    assert read_board(page) == [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]
    assert "no legal move" in page.text_content("#notice-text")
    for raw, words in (
        ("2,6,0,0/0,0,0,0/0,0,0,0/0,0,0,0", "6 is not a power of two"),
        ("2,65536,0,0/0,0,0,0/0,0,0,0/0,0,0,0", "65536 is above 32768"),
        ("2,0,0,0/0,0,0,0/0,0,0,0", "has 3 rows"),
        ("2,0,0,0/0,0,0,0/0,0,0,0/0,0,0,0", "at least two tiles"),
        ("<script>", "not a number"),
    ):
        run.goto("rows=" + quote(raw) + "&seed=45")
        assert words in page.text_content("#notice-text"), raw
        assert read_board(page) == B.to_rows(Game.new(45).board)
        assert page.is_hidden("#over-overlay")
    assert run.errors == []


def test_copy_link_round_trip(open_page):
    run = open_page("seed=46", permissions=["clipboard-read", "clipboard-write"])
    page = run.page
    _edit(page)
    page.click("#editor-clear")
    page.click(_cell(2, 1))
    page.click(_cell(2, 1))
    page.focus(_cell(3, 3))
    page.keyboard.type("2048")
    position = read_edited(page)
    assert position[2][1] == 4 and position[3][3] == 2048
    page.click("#editor-share summary")
    page.click("#editor-copy-link")
    page.wait_for_function("document.getElementById('editor-status').textContent.includes('copied')")
    link = page.input_value("#editor-link")
    assert "?rows=" in link and page.evaluate("navigator.clipboard.readText()") == link
    run.goto(link.split("?", 1)[1])
    assert read_board(page) == position
    assert page.is_hidden("#win-overlay")  # a 2048 set by hand is no win to celebrate
    assert run.errors == []


def test_the_editor_fits_a_phone_and_works_by_touch(open_page):
    run = open_page("seed=47", viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True)
    page = run.page
    page.tap("#edit-toggle")
    page.wait_for_selector("#editor-cells", state="visible")
    page.tap("#editor-clear")
    page.tap(_cell(0, 0))
    page.tap(_cell(3, 3))
    page.tap(_cell(3, 3))
    page.tap("#editor-share summary")
    widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1] == 360, widths
    controls = ("#editor-play", "#editor-cancel", "#editor-clear", "#editor-copy-link", "#editor-link", _cell(3, 3))
    for selector in controls:
        box = page.locator(selector).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360, (selector, box)
    assert read_edited(page)[0][0] == 2 and read_edited(page)[3][3] == 4
    page.tap("#editor-play")
    assert read_board(page)[0][0] == 2 and read_board(page)[3][3] == 4
    assert run.errors == []


def test_an_ai_step_still_thinking_when_edit_opens_never_moves_the_game(open_page):
    run = open_page("seed=44")
    page = run.page
    wait_ai_ready(page)
    page.focus("#ai-think")
    page.keyboard.press("End")  # the longest think time, so the step is still thinking when Edit opens
    page.locator("#ai-think").blur()
    before = read_board(page)
    page.keyboard.press("n")
    page.wait_for_function("document.getElementById('ai-step').disabled")  # thinking
    _edit(page)
    page.wait_for_function("!document.getElementById('ai-step').disabled", timeout=30_000)  # the answer came
    page.wait_for_timeout(300)
    assert read_edited(page) == before
    page.click("#editor-cancel")
    wait_settled(page)
    assert read_board(page) == before
    assert run.errors == []


EDITOR_MODULES = {"app.games.editor", "app.games.edited_board", "app.games.editor_share"}
"""What the position editor alone imports: none of it before the editor is first opened."""


@pytest.mark.parametrize("opened_by", ["key", "button"])
def test_the_editor_is_built_when_first_opened_by_its_key_or_its_button_then_works_as_before(open_page, opened_by):
    run = open_page("seed=49")
    page = run.page
    before = loaded_modules(page)
    assert "app.page" in before and before & EDITOR_MODULES == set(), "the editor was imported before it was opened"
    assert page.locator("#editor-cells").count() == 0 and page.locator("#editor-bar > *").count() == 0
    page.keyboard.press("ArrowLeft")  # with no editor built, nothing is being edited: moves, undo and redo work
    moved = engine_rows(49, ["left"])
    assert read_board(page) == moved
    page.click("#undo")
    assert read_board(page) == engine_rows(49)
    page.click("#redo")
    assert read_board(page) == moved

    if opened_by == "key":
        page.keyboard.press("t")
    else:
        page.click("#edit-toggle")
    # Open at once, in the same event: the cells hold the game's board, the focus on the first, as before.
    assert page.get_attribute("#edit-toggle", "aria-pressed") == "true" and page.is_visible("#editor-cells")
    assert page.get_attribute("body", "data-editing") == "on" and page.is_visible("#editor-play")
    assert page.evaluate("document.activeElement.dataset.cell") == "0"
    assert read_edited(page) == moved and "Play from here" in _status(page)
    assert EDITOR_MODULES <= loaded_modules(page)
    page.keyboard.press("u")  # the game's keys wait while a position is edited
    page.click("#undo")
    page.keyboard.press("t")  # plays the (unchanged) position: the game goes on
    assert page.get_attribute("#edit-toggle", "aria-pressed") == "false" and page.is_hidden("#editor-cells")
    assert read_board(page) == moved

    page.click("#edit-toggle")  # once built, its button opens it once a click
    assert page.get_attribute("#edit-toggle", "aria-pressed") == "true"
    page.click("#edit-toggle")
    assert page.get_attribute("#edit-toggle", "aria-pressed") == "false"
    assert page.locator("#editor-cells").count() == 1 and page.locator("#editor-play").count() == 1  # built once
    page.keyboard.press("u")
    assert read_board(page) == engine_rows(49)
    assert run.errors == []
