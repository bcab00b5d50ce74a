"""Whatever the browser holds, the page opens, says what it set aside, and loses nothing it could keep.

Each case is one a hostile (or unlucky) browser produced: values in storage
that crashed the start for good, a URL that did, a worker file that does not
load, a storage that is full, a second tab, a seed link over a game.
"""

from __future__ import annotations

import json

import pytest
from pagekit import (
    assert_keys_move,
    engine_rows,
    read_best,
    read_board,
    read_score,
    replay,
    wait_ai_ready,
    wait_settled,
)

from app.browser.storage import BEST_KEY, GAME_KEY, KEPT_KEY, SETTINGS_KEY
from game2048 import board as B
from game2048.game import Game


def _tiles(page) -> int:
    return sum(v > 0 for row in read_board(page) for v in row)


def _notice(page) -> str:
    assert page.is_visible("#notice"), "no notice shown"
    return page.text_content("#notice-text")


def _won_without_2048() -> str:
    game = Game.new(7)
    game.play("left")
    return json.dumps(game.to_dict() | {"won": True})


def _score_beyond_the_tiles() -> str:
    game = Game.new(7)
    game.play("left")
    return json.dumps(game.to_dict() | {"score": 10_000_000})


def _zero_generator() -> str:
    game = Game.new(7)
    game.play("left")
    return json.dumps(game.to_dict() | {"rng": [3, [0] * 625, None]})


HOSTILE = {
    "deep JSON in every key": (
        {
            GAME_KEY: "[" * 20_000 + "]" * 20_000,
            SETTINGS_KEY: '{"a":' * 5000 + "1" + "}" * 5000,
            KEPT_KEY: "[" * 20_000,
        },
        "",
        "levels deep",
    ),
    "a think time of 400 digits": (
        {SETTINGS_KEY: '{"ai": {"think_ms": ' + "9" * 400 + ', "pause_ms": 1e999}}'},
        "",
        "AI settings",
    ),
    "a seed of 5000 digits": ({}, "seed=" + "7" * 5000, "seed"),
    "a win with no 2048": ({GAME_KEY: _won_without_2048()}, "", "no tile reached 2048"),
    "a score beyond the tiles": ({GAME_KEY: _score_beyond_the_tiles(), BEST_KEY: "100"}, "", "does not match"),
    "an all-zero generator": ({GAME_KEY: _zero_generator()}, "", "all zero"),
    "a best score of three million digits": ({BEST_KEY: "9" * 3_000_000}, "", "3,000,000 characters long"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_storage_or_url_gives_a_playable_page_that_says_what_it_set_aside(open_page, name):
    storage, query, words = HOSTILE[name]
    run = open_page(query, storage=storage)
    page = run.page
    assert words in _notice(page)
    assert _tiles(page) == 2 and not page.is_visible("#win-overlay")
    assert read_best(page) <= 100  # an impossible score never becomes the best
    assert_keys_move(page)
    run.reload()  # what was refused from storage was set aside: the next start meets it no more
    assert page.is_visible("#notice") == bool(query)  # a bad link is still a bad link
    assert run.errors == []


def test_the_game_starts_without_the_ai_workers_file_and_says_why_the_ai_does_not(open_page):
    run = open_page(
        "seed=3",
        prepare=lambda context: context.route(
            "**/app/ai/worker.py", lambda route: route.fulfill(status=404, body="missing")
        ),
    )
    page = run.page
    assert read_board(page) == engine_rows(3)
    page.keyboard.press("ArrowLeft")
    assert read_board(page) == engine_rows(3, ["left"])
    page.wait_for_function(
        "document.getElementById('ai-status').textContent.includes('could not start')", timeout=30_000
    )
    status = page.text_content("#ai-status")
    assert "HTTP 404" in status and "game still works" in status
    assert "apply" not in status and "JsException" not in status
    page.keyboard.press("i")  # the AI key says why instead of doing nothing
    assert "could not start" in page.text_content("#ai-status")
    page.keyboard.press("ArrowUp")
    assert read_board(page) == engine_rows(3, ["left", "up"])
    assert not any("ai/worker.py" in url and "/py/app/ai/worker.py" not in url for url in run.requests)


FULL_STORAGE = """
(() => {
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    if (key === 'game2048:probe') return setItem.call(this, key, value);
    throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  };
})();
"""


def test_a_full_storage_is_said_and_the_game_goes_on(open_page):
    run = open_page("seed=4", prepare=lambda context: context.add_init_script(script=FULL_STORAGE))
    page = run.page
    page.keyboard.press("ArrowLeft")
    assert read_board(page) == engine_rows(4, ["left"])
    assert "could not be saved" in _notice(page)
    page.keyboard.press("ArrowUp")
    assert read_board(page) == engine_rows(4, ["left", "up"])


def test_a_seed_link_keeps_the_game_in_progress_and_brings_it_back(open_page):
    run = open_page("seed=8")
    page = run.page
    played = ["left", "up", "left", "up"]
    for direction in played:
        page.keyboard.press(f"Arrow{direction.title()}")
    mine = read_board(page)
    assert mine == engine_rows(8, played)
    run.goto("seed=9")
    assert read_board(page) == engine_rows(9)
    assert "kept" in _notice(page)
    assert page.is_visible("#kept-games")
    page.keyboard.press("b")  # back to the kept game
    assert read_board(page) == mine and read_score(page) == replay(Game.new(8), played).score
    assert not page.is_visible("#kept-games")  # the link's game, never played, was not worth keeping
    assert run.errors == []


def test_two_tabs_keep_the_higher_best_and_each_its_own_game(open_page):
    run = open_page("seed=10")
    first = run.page
    second = run.new_tab()  # a new tab opens the last game saved
    for key in ("ArrowLeft", "ArrowDown") * 6:
        first.keyboard.press(key)
    wait_settled(first)
    high = read_score(first)
    assert high > 0
    second.wait_for_function(
        "n => Number(document.getElementById('best').textContent) === n", arg=high, timeout=10_000
    )  # the other tab's best shows at once
    second.keyboard.press("r")
    second.keyboard.press("ArrowUp")
    wait_settled(second)
    assert read_score(second) < high
    mine, theirs = read_board(first), read_board(second)
    assert first.evaluate(f"localStorage.getItem('{BEST_KEY}')") == str(high)
    first.keyboard.press("ArrowRight")  # each tab saves over the other's last save: nothing is filed
    wait_settled(first)
    mine = read_board(first)
    assert first.evaluate(f"localStorage.getItem('{KEPT_KEY}')") is None
    assert not first.is_visible("#notice") and not first.is_visible("#kept-games")
    for page, board in ((first, mine), (second, theirs)):  # each reload brings back the tab's own game
        page.reload()
        page.wait_for_selector('body[data-ready="true"]', state="attached", timeout=30_000)
        assert read_board(page) == board
    assert read_best(first) == read_best(second) >= high


def test_ai_step_on_the_win_overlay_says_why_and_ai_keys_during_a_think_are_answered(open_page):
    near_win = [[1024, 1024, 0, 0], [0, 0, 0, 0], [2, 0, 0, 0], [0, 4, 0, 0]]
    game = Game.from_position(B.from_rows(near_win), seed=21)
    run = open_page(
        storage={GAME_KEY: json.dumps(game.to_dict()), SETTINGS_KEY: json.dumps({"ai": {"think_ms": 1000}})}
    )
    page = run.page
    wait_ai_ready(page)
    page.keyboard.press("i")
    page.keyboard.press("i")  # during the first one's second of thought
    page.wait_for_function("Number(document.getElementById('ai-readout').dataset.decisions) >= 2", timeout=30_000)
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#win-overlay", state="visible")
    page.keyboard.press("n")
    assert "Keep going" in page.text_content("#ai-status")


def test_the_ai_buttons_are_on_screen_on_a_small_phone(open_page):
    run = open_page("seed=2", viewport={"width": 320, "height": 480}, has_touch=True, is_mobile=True)
    page = run.page
    for selector in ("#ai-hint", "#ai-step", "#ai-autoplay", "#board"):
        box = page.locator(selector).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 480, (selector, box)


def test_a_worker_that_dies_is_restarted_and_a_hint_asked_meanwhile_is_answered(open_page):
    run = open_page("seed=3")
    page = run.page
    wait_ai_ready(page)
    page.evaluate("document.querySelector('script[name=ai]').xworker.terminate()")  # the worker dies
    page.keyboard.press("i")
    page.wait_for_function("document.getElementById('ai-status').textContent.includes('restarting')", timeout=20_000)
    assert "did not answer" in _notice(page) and "your game is kept" in _notice(page).lower()
    page.keyboard.press("i")  # asked while the new worker starts: answered once it is up
    page.wait_for_function("Number(document.getElementById('ai-readout').dataset.decisions) >= 1", timeout=60_000)
    assert page.is_visible("#hint-arrow") and "restarted" in _notice(page)
    page.click("#ai-step")
    page.wait_for_function("Number(document.getElementById('ai-readout').dataset.decisions) >= 2", timeout=30_000)
