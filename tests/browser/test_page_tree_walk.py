"""Alpha-beta step by step in the page: open the explorer, build the tree, walk it with keys and buttons."""

from __future__ import annotations

import json

from pagekit import read_board, wait_ai_ready

from game2048 import board as B
from game2048.game import Game
from game2048.search import stepwise

# The hand-checked board of tests/test_stepwise.py: one empty cell, three legal moves, cuts at depth 2.
ROWS = [[16, 8, 16, 2], [2, 32, 2, 16], [16, 16, 4, 32], [2, 8, 0, 8]]
BUILT_TIMEOUT_MS = 30_000


def _open(open_page, **context):
    game = Game.from_position(B.from_rows(ROWS), 5)
    run = open_page(storage={"game2048:game": json.dumps(game.to_dict())}, **context)
    wait_ai_ready(run.page)
    page = run.page
    page.click("#explorer-toggle")
    assert page.is_visible("#tree-walk")
    page.wait_for_selector("#tw-build:not([disabled])", timeout=30_000)
    return run


def _build(page, built: int = 1) -> None:
    page.click("#tw-build")
    page.wait_for_function(
        "n => Number(document.getElementById('tree-walk').dataset.builds || 0) >= n",
        arg=built,
        timeout=BUILT_TIMEOUT_MS,
    )


def _leaves(page, variant: str) -> int:
    return int(page.text_content(f'#tw-counts tr[data-variant="{variant}"] td'))


def _step(page) -> int:
    return int(page.get_attribute("#tree-walk", "data-step"))


def test_build_walk_with_keys_and_buttons_read_a_cut_then_minimax(open_page):
    run = _open(open_page)
    page = run.page
    _build(page)
    steps = len(stepwise.trace(B.from_rows(ROWS), 2, stepwise.evaluator(), ordering=True, pruning=True)["steps"])
    assert page.text_content("#tw-position") == f"Step 1 of {steps}"
    assert "\u03b1 = \u2212\u221e, \u03b2 = +\u221e" in page.text_content("#tw-path .tw-here")
    # Keys inside the section walk the tree and never move the tiles.
    page.focus("#tw-next")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert _step(page) == 2
    page.keyboard.press("ArrowLeft")
    assert _step(page) == 1
    page.keyboard.press("ArrowUp")
    assert read_board(page) == ROWS
    page.click("#tw-next")
    assert _step(page) == 2
    # Walk on to the first cut: the reason, α and β, and the pruned branch greyed.
    while page.get_attribute("#tree-walk", "data-event") != "cut":
        page.keyboard.press("ArrowRight")
        assert _step(page) < steps - 1
    assert page.text_content("#tw-explain").startswith("Cut: \u03b1 \u2265 \u03b2 (\u03b1 = ")
    pruned = page.text_content("#tw-children .tw-pruned .tw-value")
    assert pruned.startswith("pruned: \u03b1 \u2265 \u03b2 (\u03b1 = ")
    assert page.eval_on_selector(
        "#tw-children .tw-pruned .tw-label", "e => getComputedStyle(e).textDecorationLine"
    ) == ("line-through")
    page.keyboard.press("End")
    assert page.text_content("#tw-explain").startswith("The root returns")
    page.keyboard.press("Home")
    assert _step(page) == 0
    # The counts side by side; pruning off is plain minimax, with more leaves.
    expected = {
        (v["ordering"], v["pruning"]): v["leaves"]
        for v in stepwise.variants(B.from_rows(ROWS), 2, stepwise.evaluator(), ordering=True, pruning=True)["variants"]
    }
    assert _leaves(page, "ordered-pruning") == expected[True, True]
    assert _leaves(page, "natural-pruning") == expected[False, True]
    assert _leaves(page, "natural-minimax") == expected[False, False] > expected[True, True]
    page.click("#tw-pruning")
    page.wait_for_function(
        "() => Number(document.getElementById('tree-walk').dataset.builds) >= 2", timeout=BUILT_TIMEOUT_MS
    )
    assert page.text_content("#tw-status").startswith("Minimax")
    assert page.locator("#tw-counts tr.tw-current").get_attribute("data-variant") == "natural-minimax"
    page.click("#tw-end")
    assert "pruned" not in page.text_content("#tw-children")
    assert read_board(page) == ROWS
    assert run.errors == []


def test_depth_3_and_no_sideways_scroll_on_a_360_px_screen(open_page):
    run = _open(open_page, viewport={"width": 360, "height": 740})
    page = run.page
    page.select_option("#tw-depth", "3")
    _build(page)
    page.click("#tw-end")
    page.click("#tw-back")
    width = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways at 360 px: {width}"
    box = page.locator("#tree-walk").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert run.errors == []


def test_the_tree_so_far_is_drawn_with_its_cuts_and_the_reductions_worth_is_counted(open_page):
    run = _open(open_page, viewport={"width": 1280, "height": 800})
    page = run.page
    _build(page)
    assert page.locator("#tw-outline li.tw-o").count() == 1  # the root, before any step
    page.focus("#tw-next")
    while page.get_attribute("#tree-walk", "data-event") != "cut":
        page.keyboard.press("ArrowRight")
    pruned = page.eval_on_selector_all("#tw-outline li.tw-o-pruned > .tw-o-value", "els => els.map(e => e.textContent)")
    assert pruned and all(text.startswith("pruned: \u03b1 \u2265 \u03b2 (\u03b1 = ") for text in pruned)
    assert page.locator("#tw-outline li.tw-o-here").count() == 1
    reached = page.locator("#tw-outline li.tw-o").count()
    page.keyboard.press("End")
    assert page.locator("#tw-outline li.tw-o").count() > reached
    # The same search over every placement, beside the reduced one.
    full = stepwise.unreduced(B.from_rows(ROWS), 2, stepwise.evaluator(), True, True)
    assert _leaves(page, "unreduced") == full["leaves"] >= _leaves(page, "ordered-pruning")
    assert run.errors == []
