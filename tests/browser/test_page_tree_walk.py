"""Alpha-beta step by step in the page: open the explorer, build the tree, walk it with keys and buttons.

The walk tells the truth (#41): it says "cut" only where a branch is pruned, and draws each cut; its current
node and sentence stay in view on a laptop and a phone; it follows each newly explained board once the AI is
idle; with expectimax chosen it says that it shows alpha-beta, and why.
"""

from __future__ import annotations

import json

import pytest
from pagekit import read_board, wait_ai_ready, wait_decisions

from game2048 import board as B
from game2048.bench_positions import POSITIONS
from game2048.game import Game
from game2048.search import stepwise

# The hand-checked board of tests/test_stepwise.py: one empty cell, three legal moves, cuts at depth 2.
ROWS = [[16, 8, 16, 2], [2, 32, 2, 16], [16, 16, 4, 32], [2, 8, 0, 8]]
BUILT_TIMEOUT_MS = 30_000
SIZES = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
IN_VIEW = """() => {
    const nav = document.querySelector('#tree-walk .tw-nav').getBoundingClientRect();
    const shown = el => { const r = el.getBoundingClientRect();
        return r.top >= Math.max(0, nav.bottom) - 1 && r.bottom <= innerHeight + 1 && r.left >= -1
            && r.right <= innerWidth + 1; };
    const next = document.getElementById('tw-next').getBoundingClientRect();
    return shown(document.querySelector('#tw-path .tw-here')) && shown(document.getElementById('tw-explain'))
        && next.top >= 0 && next.bottom <= innerHeight;
}"""
"""The current node and its sentence fully on screen below the sticky step buttons, and Next on screen."""


def _open(open_page, rows=ROWS, **context):
    game = Game.from_position(B.from_rows(rows), 5)
    run = open_page(storage={"game2048:game": json.dumps(game.to_dict())}, **context)
    wait_ai_ready(run.page)
    page = run.page
    page.click("#explorer-toggle")
    assert page.is_visible("#tree-walk")
    page.wait_for_selector("#tw-build:not([disabled])", timeout=30_000)
    return run


def _builds(page) -> int:
    return int(page.get_attribute("#tree-walk", "data-builds") or 0)


def _build(page, built: int = 1) -> None:
    page.click("#tw-build")
    page.wait_for_function(
        "n => Number(document.getElementById('tree-walk').dataset.builds || 0) >= n",
        arg=built,
        timeout=BUILT_TIMEOUT_MS,
    )


def _leaves(page, variant: str) -> int:
    return int(page.text_content(f'#tw-counts tr[data-variant="{variant}"] td'))


def _cells(page, variant: str) -> list[str]:
    return page.eval_on_selector_all(
        f'#tw-counts tr[data-variant="{variant}"] td', "tds => tds.map(t => t.textContent)"
    )


def _step(page) -> int:
    return int(page.get_attribute("#tree-walk", "data-step"))


def _rows_of(text: str) -> list[list[int]]:
    return [[int(v) for v in row.split(",")] for row in text.split("/")]


def test_build_walk_with_keys_and_buttons_read_a_cut_then_minimax(open_page):
    run = _open(open_page)
    page = run.page
    _build(page)
    steps = len(stepwise.trace(B.from_rows(ROWS), 2, stepwise.evaluator(), ordering=True, pruning=True)["steps"])
    assert page.text_content("#tw-position") == f"Step 1 of {steps}"  # depth 2 prunes here: the default
    assert "\u03b1 = \u2212\u221e, \u03b2 = +\u221e" in page.text_content("#tw-path .tw-here")
    # Keys inside the section (reached with the keyboard) walk the tree and never move the tiles.
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
    focused = page.evaluate("() => document.activeElement && document.activeElement.id")
    assert focused in ("board", "tw-next")  # the walk never takes the focus the page hands back to the board
    # Walk on to the first cut: the reason, α and β, and the pruned branch greyed.
    page.focus("#tw-next")
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


def test_letters_pressed_in_the_walk_are_the_pages(open_page):
    run = _open(open_page)
    page = run.page
    _build(page)
    page.focus("#tw-next")
    page.keyboard.press("ArrowRight")
    assert _step(page) == 1
    page.keyboard.press("e")  # the explorer's own key closes it from inside the walk too
    page.wait_for_selector("#explorer", state="hidden")
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


# -- a walk that tells the truth (#41, items 2-3) -----------------------------------------------------------------

QUIET = min(
    (
        p.board
        for p in POSITIONS
        if stepwise.trace(p.board, 2, stepwise.evaluator(), ordering=True, pruning=True)["no_cut"]
    ),
    key=lambda board: len(stepwise.trace(board, 3, stepwise.evaluator(), ordering=True, pruning=True)["steps"]),
)
"""The bench board with the shortest depth-3 walk of those where alpha-beta prunes nothing at depth 2 (most of
their computer nodes have a single most annoying placement)."""
OPENING = POSITIONS[0].board
"""An early board, with room for a few AI moves."""


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_a_walk_to_the_end_says_cut_only_where_it_prunes_and_draws_every_cut(open_page, size):
    run = _open(open_page, rows=B.to_rows(QUIET), viewport=SIZES[size])
    page = run.page
    _build(page)
    expected = stepwise.variants(QUIET, None, stepwise.evaluator(), ordering=True, pruning=True)
    depth, counts = expected["trace"]["depth"], expected["trace"]["counts"]
    # Depth 2 prunes nothing on this board: the walk's default is the smallest depth that does, and says why.
    assert depth == 3 and counts["cuts"] > 0
    assert page.get_attribute("#tree-walk", "data-depth") == "3"
    note = page.text_content("#tw-depth-note")
    assert note.startswith("At depth 2 alpha-beta prunes nothing on this board. Nothing was pruned: ")
    assert "had a single most annoying placement" in note
    shown_cuts = int(_cells(page, "ordered-pruning")[2])
    assert shown_cuts == counts["cuts"]
    page.focus("#tw-next")
    said_cut = 0
    pruned_said = 0
    total = len(expected["trace"]["steps"])
    while True:
        text = page.text_content("#tw-explain")
        event = page.get_attribute("#tree-walk", "data-event")
        if "cut" in text.lower():
            assert shown_cuts > 0, text
        if event == "cut":
            said_cut += 1
            count = int(text.rsplit(". ", 1)[1].split(" ")[0])  # "... 2 more moves are pruned."
            assert page.locator("#tw-children .tw-pruned").count() == count  # greyed among the children
            pruned_said += count
            assert page.locator("#tw-outline li.tw-o-pruned").count() == pruned_said  # and in the tree so far
        if _step(page) == total - 1:
            break
        page.keyboard.press("ArrowRight")
    assert said_cut == counts["cuts"]
    greyed = page.eval_on_selector_all(
        "#tw-outline li.tw-o-pruned > .tw-o-label", "els => els.map(e => getComputedStyle(e).textDecorationLine)"
    )
    assert greyed == ["line-through"] * pruned_said
    # The counts say how they compare with the AI's own search (the explorer's Iterations table).
    search = expected["search"]
    assert _cells(page, "search")[1:] == [str(search["nodes"]), str(search["cutoffs"])]
    assert page.text_content("#tw-counts-note").startswith(
        "The last row is the explorer\u2019s Iterations table\u2019s row for depth 3."
    )
    assert run.errors == []


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_the_current_node_and_its_sentence_stay_in_view_at_every_step(open_page, size):
    run = _open(open_page, viewport=SIZES[size])
    page = run.page
    page.select_option("#tw-depth", "3")
    _build(page)
    for press in range(15):
        if press < 8:
            page.click("#tw-next")  # with the mouse: the page hands the keys back to the board
        else:
            page.focus("#tw-next")  # with the keyboard, as after Tab
            page.keyboard.press("ArrowRight")
        assert _step(page) == press + 1
        page.wait_for_function(IN_VIEW, timeout=3000)
    page.click("#tw-end")  # the deepest node and the last sentence too
    page.wait_for_function(IN_VIEW, timeout=3000)
    for _ in range(3):
        page.click("#tw-back")
        page.wait_for_function(IN_VIEW, timeout=3000)
    assert read_board(page) == ROWS
    assert run.errors == []


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_the_walk_follows_the_explained_board_once_the_ai_is_idle(open_page, size):
    run = _open(open_page, rows=B.to_rows(OPENING), viewport=SIZES[size])
    page = run.page
    _build(page)
    assert _rows_of(page.get_attribute("#tree-walk", "data-root")) == B.to_rows(OPENING)
    page.focus("#board")
    for step in (1, 2):
        page.keyboard.press("n")
        wait_decisions(page, step)
    page.wait_for_function("() => document.querySelector('#explorer-decision').dataset.explained >= 2", timeout=30_000)
    page.wait_for_function(
        """() => { const walk = document.getElementById('tree-walk'), board = document.getElementById('explorer-board');
                   return walk.dataset.stale === 'false' && board && walk.dataset.root === board.dataset.rows; }""",
        timeout=BUILT_TIMEOUT_MS,
    )
    explained = _rows_of(page.get_attribute("#explorer-board", "data-rows"))
    assert explained != B.to_rows(OPENING) and read_board(page) != explained  # the board before the AI's second move
    root = page.eval_on_selector_all("#tw-path .tw-here .mini-cell", "cells => cells.map(c => +c.textContent)")
    assert [root[i : i + 4] for i in range(0, 16, 4)] == explained  # step 1 shows the root: the explained board
    assert "for the board explained above" in page.text_content("#tw-status")
    # Its count of the AI's own search is the explorer's Iterations row at the walk's depth, when that completed.
    depth = page.get_attribute("#tree-walk", "data-depth")
    iterations = page.eval_on_selector_all(
        "#explorer-iterations tbody tr:not(.abandoned)",
        "rows => rows.map(r => [...r.querySelectorAll('td')].map(td => td.textContent.replace(/,/g, '')))",
    )
    row = next((r for r in iterations if r[0] == depth), None)
    if row is not None:
        assert _cells(page, "search")[1:] == [row[3], row[4]]  # nodes and cutoffs
    # Autoplay keeps the worker for the AI: no tree is built until it stops.
    built = _builds(page)
    page.click("#ai-autoplay")
    wait_decisions(page, 6, timeout_ms=60_000)
    assert _builds(page) == built
    page.click("#ai-autoplay")  # stop
    page.wait_for_function(
        """n => { const walk = document.getElementById('tree-walk'), board = document.getElementById('explorer-board');
                  return Number(walk.dataset.builds) > n && walk.dataset.stale === 'false'
                      && walk.dataset.root === board.dataset.rows; }""",
        arg=built,
        timeout=BUILT_TIMEOUT_MS,
    )
    assert run.errors == []


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_with_expectimax_chosen_the_walk_says_it_shows_alpha_beta_and_why(open_page, size):
    run = _open(open_page, viewport=SIZES[size])
    page = run.page
    page.select_option("#ai-algorithm", "expectimax")
    assert page.is_visible("#tw-algorithm")  # said before any tree too
    _build(page)
    note = page.text_content("#tw-algorithm")
    assert page.is_visible("#tw-algorithm")
    assert note.startswith("The AI plays expectimax, but this walk shows alpha-beta, with the reduction")
    assert "none can be cut with \u03b1 and \u03b2" in note and "may differ from the one expectimax chose" in note
    assert "with expectimax\u2019s evaluation (rows)" in note
    assert "Iterations table above is expectimax\u2019s" in page.text_content("#tw-counts-note")
    page.select_option("#ai-algorithm", "alphabeta")  # the walk is built again with alpha-beta's evaluation
    page.wait_for_function(
        "() => Number(document.getElementById('tree-walk').dataset.builds) >= 2", timeout=BUILT_TIMEOUT_MS
    )
    assert page.is_hidden("#tw-algorithm")
    assert page.get_attribute("#tree-walk", "data-stale") == "false"
    assert run.errors == []
