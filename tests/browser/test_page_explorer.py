"""The search explorer in the page: opened with its button or E, it shows why each AI decision was made."""

from __future__ import annotations

from pagekit import decisions, read_board, wait_ai_ready, wait_decisions

from game2048 import board as B

EXPLAINED = "#explorer-decision[data-explained]"


def _explained(page, count: int) -> None:
    page.wait_for_function(
        "n => Number(document.querySelector('#explorer-decision').dataset.explained || 0) >= n", arg=count
    )


def _root(page) -> dict[str, dict[str, str]]:
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#explorer-root .root-move')].map(li => [
            li.dataset.move,
            {cls: li.className, exact: li.dataset.exact || '', value: li.querySelector('.root-value').textContent}]))"""
    )


def test_the_open_explorer_shows_root_values_iterations_and_the_line_of_an_ai_step(open_page):
    run = open_page("seed=41")
    page = run.page
    assert page.is_hidden("#explorer")
    page.click("#explorer-toggle")
    assert page.is_visible("#explorer") and page.get_attribute("#explorer-toggle", "aria-expanded") == "true"
    wait_ai_ready(page)
    before = read_board(page)
    page.keyboard.press("n")
    wait_decisions(page, 1)
    _explained(page, 1)
    move = page.text_content("#readout-move")
    root = _root(page)
    assert set(root) == {"up", "right", "down", "left"}
    assert "chosen" in root[move]["cls"]
    for direction, entry in root.items():
        legal = B.move(B.from_rows(before), direction)[0] != B.from_rows(before)
        assert ("illegal" in entry["cls"]) == (not legal)
        if legal and entry["exact"] == "false":
            assert entry["value"].startswith("\u2264")  # a bound says which
    # Iterations: one row per completed depth, the last one the readout's depth.
    depths = page.eval_on_selector_all(
        "#explorer-iterations tbody tr:not(.abandoned) td:first-child", "cells => cells.map(c => +c.textContent)"
    )
    assert depths == list(range(1, int(page.text_content("#readout-depth")) + 1))
    # The principal variation starts with the move played and alternates with the computer's placements.
    labels = page.eval_on_selector_all("#explorer-pv .pv-label", "els => els.map(e => e.textContent)")
    assert labels[0] == f"1. {move}" and " at row " in labels[1] and len(labels) >= 6
    assert page.locator("#explorer-pv .mini-board").count() == len(labels)
    # The reduction: kept / possible, and the heat map says it in words too.
    kept = page.text_content("#explorer-kept")
    assert " of " in kept and "placements" in kept
    words = page.eval_on_selector_all("#explorer-heat td.heat", "tds => tds.map(td => td.getAttribute('aria-label'))")
    assert words and all("a 2 scores" in w and "a 4 scores" in w for w in words)
    assert "Plain minimax" in page.text_content("#explorer-pruning")
    assert run.errors == []


def test_exact_values_replace_the_bounds_and_the_explorer_stays_open_after_a_reload(open_page):
    run = open_page("seed=42")
    page = run.page
    page.keyboard.press("e")
    wait_ai_ready(page)
    for hint in range(1, 6):  # a position where alpha-beta leaves at least one move as a bound
        page.click("#ai-hint")
        wait_decisions(page, hint)
        _explained(page, hint)
        if page.locator("#explorer-exact").count():
            break
        page.keyboard.press("ArrowDown" if hint % 2 else "ArrowLeft")
    assert page.locator("#explorer-exact").count(), "no bound in five positions"
    shown = int(page.get_attribute("#explorer-decision", "data-explained"))
    page.click("#explorer-exact")
    _explained(page, shown + 1)
    root = _root(page)
    assert all(e["exact"] == "true" for e in root.values() if "illegal" not in e["cls"])
    assert any("searched again" in e["value"] for e in root.values())
    assert decisions(page) == shown  # exact values are not a decision: nothing was played
    run.reload()
    assert page.is_visible("#explorer")
    page.keyboard.press("e")
    assert page.is_hidden("#explorer")
    assert run.errors == []


def test_the_explorer_fits_a_phone_and_is_reachable_by_keyboard(open_page):
    run = open_page("seed=43", viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = run.page
    page.focus("#explorer-toggle")
    page.keyboard.press("Enter")
    assert page.is_visible("#explorer")
    wait_ai_ready(page)
    page.click("#ai-hint")
    wait_decisions(page, 1)
    _explained(page, 1)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    assert run.errors == []


def test_exact_values_after_an_ai_step_come_for_the_board_it_explained(open_page):
    run = open_page("seed=9")
    page = run.page
    wait_ai_ready(page)
    page.keyboard.press("e")
    for step in range(1, 8):  # AI steps until one leaves a bound to make exact
        page.keyboard.press("n")
        wait_decisions(page, step)
        _explained(page, step)
        if page.locator("#explorer-exact").count():
            break
    assert page.locator("#explorer-exact").count(), "no bound in seven AI steps"
    shown = int(page.get_attribute("#explorer-decision", "data-explained"))
    page.click("#explorer-exact")
    _explained(page, shown + 1)
    root = _root(page)
    assert all(e["exact"] == "true" for e in root.values() if "illegal" not in e["cls"])
    assert "board changed" not in page.text_content("#explorer-status")
    assert run.errors == []
