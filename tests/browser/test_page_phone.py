"""A phone that fits the thumb (issue 54, items 4 and 5), at 390×844 with touch, as a student reads the page.

Every control is at least 44×44 CSS px (WCAG 2.5.5) in every panel; the explanation starts within one screen
of the Hint button; a Stop is on screen wherever the page was scrolled while autoplay runs; the walk's sticky
step buttons never cover the step's sentence.
"""

from __future__ import annotations

import json

import pytest
from pagekit import read_board, wait_ai_ready, wait_decisions, wait_settled

from game2048 import board as B
from game2048.game import Game

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
TARGET = 44
"""WCAG 2.5.5's target size, in CSS px."""
NEAR_WIN = "rows=1024,1024,0,0/0,0,0,0/2,0,0,0/0,4,0,0"
LOST = "rows=2,4,2,4/4,2,4,2/2,4,2,4/4,2,4,2"
WALK_ROWS = [[16, 8, 16, 2], [2, 32, 2, 16], [16, 16, 4, 32], [2, 8, 0, 8]]
"""tests/browser/test_page_tree_walk.py's board: a depth-3 walk of many steps."""

SMALL_TARGETS_JS = """min => {
    const interactive = 'button, select, textarea, input:not([type="hidden"]), summary, a[href], '
        + '[role="button"], [role="link"], [tabindex]:not([tabindex="-1"])';
    const name = el => el.id ? '#' + el.id
        : el.getAttribute('aria-label') ? `${el.tagName.toLowerCase()} "${el.getAttribute('aria-label')}"`
        : el.tagName.toLowerCase() + (el.className && typeof el.className === 'string'
            ? '.' + el.className.trim().split(/\\s+/).join('.') : '')
          + ' "' + (el.textContent || el.value || '').trim().replace(/\\s+/g, ' ').slice(0, 30) + '"';
    const round = n => Math.round(n * 10) / 10;
    const found = [];
    for (const el of document.querySelectorAll(interactive)) {
        // A word of a sentence that shows its meaning: WCAG 2.5.5's exception for a target inline in text.
        if (el.matches('.term')) continue;
        if (!el.checkVisibility({visibilityProperty: true})) continue;
        let box = el.getBoundingClientRect(), via = '';
        if (box.width === 0 && box.height === 0) continue;
        if (el.matches('input[type="checkbox"], input[type="radio"], input[type="file"]')) {
            // A box met through its label: the label is what the finger taps, the box inside it.
            const label = el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`));
            if (label) {
                const outer = label.getBoundingClientRect();
                const inside = outer.left <= box.left + 0.5 && outer.right >= box.right - 0.5
                    && outer.top <= box.top + 0.5 && outer.bottom >= box.bottom - 0.5;
                if (inside || el.type === 'file') { box = outer; via = ' (its label)'; }
            }
        }
        if (box.width < min - 0.5 || box.height < min - 0.5)
            found.push(`${name(el)}${via}: ${round(box.width)}\u00d7${round(box.height)}`);
    }
    return found;
}"""
"""Every visible interactive element smaller than ``min`` CSS px across or down, one line each."""


class SmallTargets:
    """The small targets seen in each state of the page, named by the state they were seen in."""

    def __init__(self) -> None:
        self.seen: dict[str, str] = {}

    def check(self, page, state: str) -> None:
        for line in page.evaluate(SMALL_TARGETS_JS, TARGET):
            self.seen.setdefault(line.split(":")[0], f"{line}  [{state}]")

    def report(self) -> str:
        return "\n".join(self.seen.values())


def _saved(rows: list[list[int]], seed: int = 5) -> dict[str, str]:
    return {"game2048:game": json.dumps(Game.from_position(B.from_rows(rows), seed).to_dict())}


def _explained(page, count: int = 1) -> None:
    page.wait_for_function(
        "n => Number(document.querySelector('#explorer-decision').dataset.explained || 0) >= n", arg=count
    )


def test_every_control_in_every_panel_is_at_least_44_px_on_a_phone(open_page):
    small = SmallTargets()
    run = open_page(storage=_saved(WALK_ROWS), **PHONE)
    page = run.page
    wait_ai_ready(page)
    small.check(page, "first screen")
    page.click("#weights-panel summary")
    small.check(page, "weights open")
    page.click("#explorer-toggle")
    page.click("#ai-hint")
    wait_decisions(page, 1)
    _explained(page)
    small.check(page, "explorer after a hint")
    page.click("#glossary summary")
    small.check(page, "glossary open")
    page.wait_for_selector("#tw-build:not([disabled])", timeout=30_000)
    page.select_option("#tw-depth", "3")
    page.click("#tw-build")
    page.wait_for_selector("#tree-walk[data-builds]", state="attached", timeout=30_000)
    page.click("#tw-next")
    small.check(page, "the walk")
    page.click("#explorer-toggle")
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight"):
        page.keyboard.press(key)
    wait_settled(page)
    page.click("#edit-toggle")
    page.wait_for_selector("#editor-cells", state="visible")
    page.click("#editor-share summary")
    small.check(page, "the editor, its share box open")
    page.fill("#editor-paste", "2 4 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 8")
    page.click("#editor-paste-apply")
    page.click("#editor-play")  # a set-up position over a game in progress: the notice says where it went
    page.wait_for_selector("#notice", state="visible")
    small.check(page, "a notice")
    run.goto("seed=12")
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown") * 2:
        page.keyboard.press(key)
    wait_settled(page)
    page.click("#new-game")  # the game just left is listed in Your games
    page.click("#games-toggle")
    page.wait_for_selector("#games-table")
    small.check(page, "Your games")
    page.click("#games-table .games-open")
    page.wait_for_selector("#replay-view", state="visible")
    page.click("#replay-copy-link")
    page.wait_for_selector("#replay-link", state="visible")
    small.check(page, "the replay")
    page.click("#replay-close")
    run.goto(LOST)
    page.wait_for_selector("#over-overlay", state="visible")
    small.check(page, "game over")
    run.goto(NEAR_WIN)
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#win-overlay", state="visible")
    small.check(page, "the win")
    if small.seen:
        pytest.fail(f"controls under {TARGET}\u00d7{TARGET} CSS px at 390\u00d7844:\n{small.report()}")
    assert run.errors == []


# -- the explanation next to its controls ---------------------------------------------------------------------

FIRST_LINE_JS = """() => {
    const hint = document.getElementById('ai-hint').getBoundingClientRect();
    const sentence = document.querySelector('#explorer-decision p');
    const range = document.createRange();
    range.selectNodeContents(sentence);
    const line = range.getClientRects()[0];
    return {hint: hint.top + scrollY, line: line.bottom + scrollY, text: sentence.textContent.slice(0, 60)};
}"""
"""Where the Hint button starts and the explanation's first sentence ends its first line, in the page."""


def test_the_explanations_first_line_is_within_one_screen_of_the_hint_button(open_page):
    run = open_page("seed=41", **PHONE)
    page = run.page
    wait_ai_ready(page)
    page.tap("#explorer-toggle")
    page.tap("#ai-hint")
    wait_decisions(page, 1)
    _explained(page)
    where = page.evaluate(FIRST_LINE_JS)
    screen = PHONE["viewport"]["height"]
    assert where["line"] - where["hint"] <= screen, (
        f"the explanation's first line ({where['text']!r}) ends {where['line'] - where['hint']:.0f} px below the "
        f"top of Hint: more than a screen ({screen} px)"
    )
    # The AI's settings and its last decision stay on the page, after the explanation.
    for selector in ("#ai-algorithm", "#ai-think", "#ai-readout", "#games-toggle"):
        assert page.is_visible(selector), selector
    assert page.locator("#ai-think").bounding_box()["y"] > page.locator("#explorer-decision").bounding_box()["y"]
    assert run.errors == []


# -- a Stop under the thumb -------------------------------------------------------------------------------------

ON_SCREEN_JS = """selector => { const r = document.querySelector(selector).getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }"""


def test_while_autoplay_runs_stop_is_on_screen_wherever_the_page_is_scrolled_and_stops_it(open_page):
    run = open_page("seed=7", **PHONE)
    page = run.page
    wait_ai_ready(page)
    page.tap("#explorer-toggle")
    page.tap("#ai-autoplay")
    wait_decisions(page, 3)
    _explained(page)
    # Reading the explanation's end, far below the AI's buttons.
    page.evaluate(
        """() => { const end = document.getElementById('explorer-decision').getBoundingClientRect().bottom;
                   scrollTo(0, scrollY + end - innerHeight); }"""
    )
    assert page.evaluate("() => document.getElementById('ai-hint').getBoundingClientRect().bottom") < 0
    assert page.evaluate(ON_SCREEN_JS, "#ai-autoplay"), "no Stop on screen at the explanation's end"
    assert page.text_content("#ai-autoplay") == "Stop"
    # At the page's very end it covers none of the page's last lines.
    page.evaluate("() => scrollTo(0, document.documentElement.scrollHeight)")
    stop = page.locator("#ai-autoplay").bounding_box()
    assert page.evaluate(ON_SCREEN_JS, "#ai-autoplay")
    assert page.locator(".footer").bounding_box()["y"] + page.locator(".footer").bounding_box()["height"] <= stop["y"]
    page.touchscreen.tap(stop["x"] + stop["width"] / 2, stop["y"] + stop["height"] / 2)  # where it is: no scroll
    page.wait_for_selector('body[data-autoplay="off"]', state="attached", timeout=10_000)
    assert page.text_content("#ai-autoplay") == "Autoplay"
    board = read_board(page)
    page.wait_for_timeout(1000)  # several autoplay pauses: nothing more is played
    assert read_board(page) == board
    assert run.errors == []


# -- the walk's sticky step buttons ---------------------------------------------------------------------------

SENTENCE_CLEAR_JS = """() => {
    const nav = document.querySelector('#tree-walk .tw-nav').getBoundingClientRect();
    const here = document.querySelector('#tw-path .tw-here').getBoundingClientRect();
    const said = document.getElementById('tw-explain').getBoundingClientRect();
    const clear = r => r.top >= nav.bottom - 0.5 || r.bottom <= nav.top + 0.5;
    return clear(here) && clear(said) && said.top >= 0 && said.bottom <= innerHeight;
}"""
"""The current node and its sentence overlap none of the sticky step buttons' box, and the sentence is on screen."""


@pytest.mark.parametrize("text", ["default", "larger"])
def test_after_a_next_the_sticky_step_buttons_cover_none_of_the_steps_sentence(open_page, text):
    run = open_page(storage=_saved(WALK_ROWS), **PHONE)
    page = run.page
    wait_ai_ready(page)
    if text == "larger":  # a reader's text at 200 % (WCAG 1.4.4): the step buttons wrap to more rows
        page.add_style_tag(content="#tree-walk .tw-nav, #tree-walk .tw-nav .button { font-size: 28px; }")
    page.tap("#explorer-toggle")
    page.wait_for_selector("#tw-build:not([disabled])", timeout=30_000)
    page.select_option("#tw-depth", "3")
    page.tap("#tw-build")
    page.wait_for_selector("#tree-walk[data-builds]", state="attached", timeout=30_000)
    for step, scrolled in enumerate((0, 0, 150, 300, 450, 600, -200, 700, 900)):
        page.evaluate("dy => scrollBy(0, dy)", scrolled)  # read on, by hand
        if step % 2:
            page.tap("#tw-next")
        else:
            page.focus("#tw-next")
            page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "n => document.getElementById('tree-walk').dataset.step === String(n)", arg=step + 1, timeout=3000
        )
        try:
            page.wait_for_function(SENTENCE_CLEAR_JS, timeout=3000)
        except Exception:  # noqa: BLE001 -- said with the boxes
            boxes = page.evaluate(
                """() => ['#tree-walk .tw-nav', '#tw-path .tw-here', '#tw-explain'].map(s => {
                    const r = document.querySelector(s).getBoundingClientRect(); return [s, r.top, r.bottom]; })"""
            )
            pytest.fail(f"step {step + 1}, scrolled {scrolled} px: the step buttons cover the step: {boxes}")
    assert run.errors == []
