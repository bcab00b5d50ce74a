"""Accessibility: axe-core finds nothing in the page's main states, and the keyboard alone plays a game
whose every move the live region announces.

axe-core comes from npm (pinned in package.json) and is injected by the test alone: the page never
loads it.  A violation is reported with its rule, its nodes and axe's own summary, so a failure says
what to fix.
"""

from __future__ import annotations

import json

import pytest
from conftest import ROOT
from pagekit import (
    choose_learned,
    heard,
    listen_to_live_region,
    live_region_lines,
    read_board,
    wait_ai_ready,
    wait_decisions,
    wait_heard,
    wait_settled,
)

from app.browser import announce
from game2048 import board as B
from game2048.board import from_rows, to_rows
from game2048.game import Game

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
GAME_KEY = "game2048:game"
SETTINGS_KEY = "game2048:settings"
NEAR_WIN = [[1024, 1024, 0, 0], [0, 0, 0, 0], [2, 0, 0, 0], [0, 4, 0, 0]]
LOST = "rows=2,4,2,4/4,2,4,2/2,4,2,4/4,2,4,2"
KEYS = {"left": "ArrowLeft", "up": "ArrowUp", "right": "ArrowRight", "down": "ArrowDown"}


def _axe_violations(page) -> list[str]:
    """axe-core's violations on the page as it is now, one readable line each."""
    if not AXE.is_file():
        pytest.skip("node_modules/axe-core is missing: run npm ci (or make test)")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    violations = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} -- "
        + "; ".join(f"{node['target']}: {' '.join(node['failureSummary'].split())[25:190]}" for node in v["nodes"][:40])
        for v in violations
    ]


def _assert_no_violations(page) -> None:
    violations = _axe_violations(page)
    assert not violations, "axe-core found:\n" + "\n".join(violations)


def _saved(rows: list[list[int]], seed: int) -> tuple[Game, dict[str, str]]:
    game = Game.from_position(from_rows(rows), seed)
    return game, {GAME_KEY: json.dumps(game.to_dict())}


def test_a_new_game_has_no_axe_violations(open_page):
    run = open_page("seed=3")
    _assert_no_violations(run.page)
    assert run.errors == []


def test_the_ai_panel_and_the_explorer_with_a_hint_have_no_axe_violations(open_page):
    run = open_page("seed=4")
    page = run.page
    wait_ai_ready(page)
    page.click("#weights-panel summary")  # the preset and its weight sliders
    page.keyboard.press("e")
    page.wait_for_selector("#explorer", state="visible")
    page.keyboard.press("i")
    wait_decisions(page, 1)
    page.wait_for_selector("#explorer-decision[data-explained]", state="attached")
    _assert_no_violations(page)
    assert run.errors == []


def test_expectimax_in_the_explorer_with_its_chance_node_and_an_open_glossary_has_no_axe_violations(open_page):
    run = open_page("seed=4", viewport={"width": 1280, "height": 800})
    page = run.page
    wait_ai_ready(page)
    page.select_option("#ai-algorithm", "expectimax")
    page.keyboard.press("e")
    page.keyboard.press("i")
    wait_decisions(page, 1)
    page.wait_for_selector("#explorer-chance", state="attached")
    page.click("#glossary summary")
    page.focus("#explorer-iterations .term")  # a term's tooltip on show
    assert page.is_visible("#term-tip")
    _assert_no_violations(page)
    assert run.errors == []


def test_the_learned_network_in_the_explorer_with_its_patterns_drawn_has_no_axe_violations(open_page):
    run = open_page("seed=4", viewport={"width": 1280, "height": 800})
    page = run.page
    wait_ai_ready(page)
    choose_learned(page)
    page.keyboard.press("e")
    page.keyboard.press("i")
    wait_decisions(page, 1)
    page.wait_for_selector("#explorer-pattern-shapes .pattern-glyph", state="attached")
    _assert_no_violations(page)
    assert run.errors == []


# A late position (bench middle-s1-m195): the explorer's line and the step-by-step tree draw small tiles up to 256.
LATE = "rows=0,2,4,16/0,0,16,128/0,4,8,256/2,0,0,4"


def test_the_explorer_and_the_tree_with_big_tiles_have_no_axe_violations(open_page):
    run = open_page(LATE)
    page = run.page
    wait_ai_ready(page)
    page.keyboard.press("e")
    page.keyboard.press("i")
    wait_decisions(page, 1)
    page.wait_for_selector("#explorer-decision[data-explained]", state="attached")
    shown = page.eval_on_selector_all("#explorer-pv .mini-cell", "cells => cells.map(c => c.textContent)")
    assert {"16", "128", "256"} <= set(shown)
    page.click("#tw-build")
    page.wait_for_selector("#tree-walk[data-builds]", timeout=30_000)
    _assert_no_violations(page)
    page.focus("#tw-next")
    for _ in range(60):  # walk until a pruned branch shows, then check again
        if page.locator("#tree-walk .tw-pruned").count():
            break
        page.keyboard.press("ArrowRight")
    assert page.locator("#tree-walk .tw-pruned").count()
    _assert_no_violations(page)
    assert run.errors == []


def test_the_win_overlay_has_no_axe_violations(open_page):
    _, storage = _saved(NEAR_WIN, seed=21)
    run = open_page(storage=storage)
    page = run.page
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#win-overlay", state="visible")
    wait_settled(page)
    page.wait_for_timeout(700)  # the overlay fades in: axe measures contrast on its final colours
    _assert_no_violations(page)
    assert run.errors == []


def test_the_game_over_overlay_has_no_axe_violations(open_page):
    run = open_page(LOST)
    page = run.page
    page.wait_for_selector("#over-overlay", state="visible")
    page.wait_for_timeout(700)
    _assert_no_violations(page)
    assert run.errors == []


def _in_order(expected: list[str], said: list[str]) -> bool:
    """``expected`` appears in ``said`` in this order (other sentences, like the AI's status, may come between)."""
    rest = iter(said)
    return all(any(text == sentence for text in rest) for sentence in expected)


def _tab_to(page, element_id: str, limit: int = 80) -> None:
    """Press Tab until ``element_id`` has the focus, as a keyboard user reaches a control."""
    for _ in range(limit):
        if page.evaluate("() => document.activeElement && document.activeElement.id") == element_id:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"#{element_id} is not reachable with Tab")


def _cell_labels(page) -> list[list[str]]:
    labels = page.eval_on_selector_all('#board [role="gridcell"]', "els => els.map(e => e.getAttribute('aria-label'))")
    return [labels[4 * row : 4 * row + 4] for row in range(4)]


def test_the_keyboard_alone_plays_and_the_live_region_says_each_move(open_page):
    seed = 12
    run = open_page(f"seed={seed}")
    page = run.page
    listen_to_live_region(page)
    game, expected = Game.new(seed), []
    for direction in ("left", "up", "right", "down", "left", "up"):
        blocked = [d for d in KEYS if B.move(game.board, d)[0] == game.board]
        for tried in blocked[:1]:  # a key that moves nothing is said too
            page.keyboard.press(KEYS[tried])
            expected.append(announce.blocked_sentence(tried))
        page.keyboard.press(KEYS[direction])
        outcome = game.play(direction)
        said = announce.move_sentence(outcome, game) if outcome.moved else announce.blocked_sentence(direction)
        expected.append(said)
        wait_settled(page)
    assert any(text.startswith("No tiles can move") for text in expected), "no blocked key in this game"
    assert _in_order(expected, heard(page)), (expected, heard(page))
    assert read_board(page) == to_rows(game.board)
    assert _cell_labels(page) == [[announce.cell_label(v) for v in row] for row in to_rows(game.board)]
    # New Game by keyboard: Tab to the button, Enter; the new board is said, tile by tile.
    _tab_to(page, "new-game")
    assert page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") != "none"
    page.keyboard.press("Enter")
    wait_settled(page)
    wait_heard(page, "heard => heard.some(t => t.startsWith('New game. Tiles: '))")
    assert run.errors == []


# Tiles in the top-left corner: neither left nor up moves anything.
CORNER = "rows=2,4,0,0/8,0,0,0/0,0,0,0/0,0,0,0"


def test_two_sentences_said_in_one_turn_are_both_in_the_live_region_when_the_browser_reads_it(open_page):
    """Two keys that move nothing, pressed in one task, are answered in one turn of the page's loop.

    The browser reads the live region once that turn ends: both sentences must still be there, as
    a screen reader only hears what the region holds then (a text replaced in the same turn is lost).
    """
    run = open_page(CORNER)
    page = run.page
    wait_ai_ready(page)  # its loading stages are said too: none may come between
    page.evaluate(
        """() => { for (const key of ['ArrowLeft', 'ArrowUp'])
            document.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true})); }"""
    )
    wait_settled(page)
    lines = live_region_lines(page)
    assert lines[-2:] == [announce.blocked_sentence("left"), announce.blocked_sentence("up")], lines
    listen_to_live_region(page)
    page.keyboard.press("ArrowLeft")  # the same sentence again is a new line, read again
    wait_heard(page, "heard => heard.length > 0")
    assert live_region_lines(page)[-3:] == [announce.blocked_sentence(d) for d in ("left", "up", "left")]
    assert run.errors == []


def test_a_win_is_said_and_its_overlay_buttons_work_from_the_keyboard(open_page):
    _, storage = _saved(NEAR_WIN, seed=21)
    run = open_page(storage=storage)
    page = run.page
    listen_to_live_region(page)
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#win-overlay", state="visible")
    wait_heard(page, "(heard, w) => heard.some(t => t.endsWith(w))", announce.won_sentence())
    assert page.evaluate("document.activeElement.id") == "keep-going"  # the overlay took the focus
    page.keyboard.press("Enter")
    page.wait_for_selector("#win-overlay", state="hidden")
    wait_heard(page, "(heard, t) => heard.includes(t)", announce.keep_going_sentence())
    assert run.errors == []


def test_a_lost_game_focuses_try_again_and_enter_starts_a_new_game(open_page):
    run = open_page(LOST)
    page = run.page
    page.wait_for_selector("#over-overlay", state="visible")
    assert page.evaluate("document.activeElement.id") == "try-again"
    page.keyboard.press("Enter")
    page.wait_for_selector("#over-overlay", state="hidden")
    assert sum(v != 0 for row in read_board(page) for v in row) == 2
    assert run.errors == []


def test_the_ai_says_its_hint_and_its_moves(open_page):
    run = open_page("seed=13")
    page = run.page
    wait_ai_ready(page)
    listen_to_live_region(page)
    page.keyboard.press("i")
    wait_decisions(page, 1)
    hint = page.text_content("#readout-move")
    wait_heard(page, "(heard, t) => heard.includes(t)", announce.hint_sentence(hint))
    page.keyboard.press("n")
    wait_decisions(page, 2)
    wait_settled(page)
    wait_heard(page, "heard => heard.some(t => t.startsWith('AI moved '))")
    assert run.errors == []


def test_reduce_motion_is_a_saved_checkbox_and_follows_the_system(open_page):
    run = open_page("seed=14")
    page = run.page
    assert page.evaluate("() => getComputedStyle(document.querySelector('.tile')).transitionDuration") != "0s"
    _tab_to(page, "reduce-motion")
    page.keyboard.press("Space")
    assert page.get_attribute("html", "data-motion") == "reduced"
    assert page.evaluate("() => getComputedStyle(document.querySelector('.tile')).transitionDuration") == "0s"
    assert json.loads(page.evaluate(f"() => localStorage.getItem('{SETTINGS_KEY}')"))["reduce_motion"] is True
    run.reload()
    assert page.is_checked("#reduce-motion") and page.get_attribute("html", "data-motion") == "reduced"
    page.keyboard.press("ArrowLeft")
    wait_settled(page)
    assert run.errors == []


def test_the_system_preference_turns_animations_off(open_page):
    run = open_page("seed=15", reduced_motion="reduce")
    page = run.page
    assert not page.is_checked("#reduce-motion")
    assert page.evaluate("() => getComputedStyle(document.querySelector('.tile')).transitionDuration") == "0s"
    assert page.evaluate("() => getComputedStyle(document.querySelector('.tile-inner')).animationName") == "none"
    assert run.errors == []


def test_your_games_and_the_replay_have_no_axe_violations(open_page):
    run = open_page("seed=12")
    page = run.page
    for key in ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"] * 2:
        page.keyboard.press(key)
    page.keyboard.press("r")  # the game just left is listed
    page.keyboard.press("g")
    page.wait_for_selector("#games-table")
    _assert_no_violations(page)
    page.click("#games-table .games-open")
    page.wait_for_selector("#replay-view", state="visible")
    page.keyboard.press("ArrowRight")
    page.click("#replay-copy-link")
    page.wait_for_selector("#replay-link", state="visible")
    _assert_no_violations(page)
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.classList.contains('games-open')")  # the focus came back
    assert run.errors == []
