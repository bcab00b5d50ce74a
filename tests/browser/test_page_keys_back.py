"""The keyboard stays the player's: after a mouse click (or a tap) on any control, the arrows move the board.

A control reached with Tab keeps its own keys (a slider's arrows, the walk's steps).
"""

from __future__ import annotations

import pytest
from pagekit import read_board, wait_ai_ready, wait_decisions, wait_settled

from game2048 import board as B

VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


def _press_a_legal_arrow(page) -> None:
    """Press the arrow of a legal move (ArrowLeft when it is one) and see the board change."""
    wait_settled(page)
    before = read_board(page)
    board = B.from_rows(before)
    arrows = (("ArrowLeft", "left"), ("ArrowUp", "up"), ("ArrowRight", "right"), ("ArrowDown", "down"))
    key = next(name for name, direction in arrows if B.move(board, direction)[0] != board)
    page.keyboard.press(key)
    wait_settled(page)
    assert read_board(page) != before, f"{key} did not move the board"


def _use(page, selector: str, phone: bool) -> None:
    """A person's pointer on the control: a click (a tap on the phone); a slider at its current value."""
    control = page.locator(selector)
    control.scroll_into_view_if_needed()
    kind = control.evaluate("el => el.tagName + ':' + (el.type || '')")
    if kind == "INPUT:range":  # where its thumb is: the click changes nothing
        box = control.bounding_box()
        fraction = control.evaluate("el => (el.value - el.min) / (el.max - el.min)")
        x, y = box["x"] + 8 + fraction * (box["width"] - 16), box["y"] + box["height"] / 2
        if phone:
            page.touchscreen.tap(x, y)
        else:
            page.mouse.click(x, y)
        return
    if phone:
        control.tap()
    else:
        control.click()
    if kind.startswith("SELECT"):  # the list opened by the pointer, an option chosen
        values = control.evaluate("el => [...el.options].filter(o => !o.disabled).map(o => o.value)")
        current = control.evaluate("el => el.value")
        control.select_option(next((v for v in values if v != current), current))


CONTROLS = (
    "#reduce-motion",
    "#ai-think",
    "#ai-pause",
    "#ai-algorithm",
    "#ai-algorithm",  # back to alpha-beta, whose exact-values box shows
    "#weights-panel summary",
    "#ai-weights input[type=range] >> nth=0",
    "#ai-weights-reset",
    "#explorer-exact-default",
    "#glossary summary",
    "#tw-build",
    "#tw-ordering",
    "#tw-pruning",
    "#tw-depth",
)


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_after_a_click_on_each_control_the_arrows_move_the_board(open_page, device):
    run = open_page("seed=41", **VIEWPORTS[device])
    page = run.page
    phone = device == "phone"
    wait_ai_ready(page)
    page.click("#explorer-toggle")
    for selector in CONTROLS:
        _use(page, selector, phone)
        if selector == "#tw-build":
            page.wait_for_selector("#tw-tree:not([hidden])")
        assert page.evaluate("document.activeElement.id") == "board", f"the focus stayed after {selector}"
        _press_a_legal_arrow(page)
    # The AI's buttons and the walk's step button too.
    for selector in ("#ai-hint", "#tw-next"):
        _use(page, selector, phone)
        if selector == "#ai-hint":
            wait_decisions(page, 1)
        _press_a_legal_arrow(page)
    assert run.errors == []


def test_a_control_reached_with_tab_keeps_its_own_keys(open_page):
    run = open_page("seed=41", **VIEWPORTS["desktop"])
    page = run.page
    wait_ai_ready(page)
    page.focus("#ai-think")  # as Tab would: no pointer went down on it
    value = page.evaluate("document.getElementById('ai-think').value")
    before = read_board(page)
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.getElementById('ai-think').value") != value  # the slider took the key
    assert read_board(page) == before
    assert page.evaluate("document.activeElement.id") == "ai-think"
    assert run.errors == []
