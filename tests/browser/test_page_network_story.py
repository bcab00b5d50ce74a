"""The learned network's story on the page (issue 54, item 2): where `learned` is chosen and from the explorer.

The page said one sentence of how the network was made, named its shape nowhere explained, and linked the
glossary's "TD learning" from no word.  Now, with `learned` chosen, "How this network was made" opens by the
preset: its patterns, stages, runs, games, curve and rates, read from the manifest; each technical word leads to
its glossary entry; on a phone nothing scrolls sideways and every control is a finger's size.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pagekit import wait_ai_ready
from test_page_accessibility import _axe_violations
from test_page_phone import SMALL_TARGETS_JS, TARGET

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = json.loads((ROOT / "networks" / "4x6.json").read_text())
SIZES = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "laptop": {"viewport": {"width": 1280, "height": 800}},
}
OVERFLOW_JS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
IN_VIEW_JS = """selector => { const r = document.querySelector(selector).getBoundingClientRect();
    return r.width > 0 && r.left >= -1 && r.right <= innerWidth + 1 && r.top >= -1 && r.bottom <= innerHeight + 1; }"""
"""Whether the element is wholly on screen (to a pixel: a scroll lands on fractions)."""


def _no_network(context) -> None:  # type: ignore[no-untyped-def]
    """The network file itself is not what this test reads (32 MB): refused, so the AI plays on without it."""
    context.route("**/networks/4x6.ntn*", lambda route: route.fulfill(status=503, body="busy"))


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_networks_story_is_told_where_learned_is_chosen_and_its_words_lead_to_the_glossary(open_page, size):
    run = open_page("seed=5", prepare=_no_network, **SIZES[size])
    page = run.page
    wait_ai_ready(page)
    assert page.is_hidden("#network-story") and page.is_hidden("#explorer-story-row")  # not chosen: not told
    assert not [url for url in run.requests if "/networks/" in url]  # nor fetched
    page.click("#weights-panel summary")
    page.select_option("#ai-preset", "learned")
    page.wait_for_selector("#network-story", state="visible")
    page.click("#network-story summary")
    page.wait_for_selector('#network-story-body[data-state="ready"]', state="attached", timeout=10_000)

    # What it is, how it was trained, how strong it is: the manifest's numbers.
    assert page.text_content("#story-games") == "373,000 games"
    assert page.locator("#story-runs > li").count() == len(MANIFEST["story"]["runs"]) == 1
    assert "4x6-16" in page.inner_text("#story-what")
    assert "Every board" in page.inner_text("#story-stages") and "16 values a cell" in page.inner_text("#story-stages")
    strength = page.inner_text("#story-strength")
    greedy = MANIFEST["greedy"]
    assert f"{greedy['rate_16384'] * 100:.1f} %" in strength and "1,000 games (seed 1)" in strength
    glyphs = page.locator("#story-patterns .pattern-glyph")
    assert glyphs.count() == 4 and page.locator("#story-patterns .pg-on").count() == 24
    points = sum(len(r["curve"]) for r in MANIFEST["story"]["runs"])
    assert page.locator("#story-curve circle").count() == points and page.locator("#story-curve rect").count() == 1
    curve = page.locator("#story-curve").bounding_box()
    viewport = SIZES[size]["viewport"]
    assert curve["width"] > 300 and curve["x"] >= 0 and curve["x"] + curve["width"] <= viewport["width"]
    assert "rose from 44,896" in page.text_content("#story-curve-summary")  # the chart's words
    page.click("#story-curve-numbers summary")
    assert page.locator("#story-curve-numbers tbody tr").count() == points

    # Readable on a phone: nothing scrolls sideways, every control a finger's size; and for axe-core, nothing amiss.
    assert page.evaluate(OVERFLOW_JS) <= 0
    if size == "phone":
        assert page.evaluate(SMALL_TARGETS_JS, TARGET) == []
    assert _axe_violations(page) == []

    # A word followed: the explorer opens at its glossary entry, with the focus there.
    page.click('#network-story-body a[data-gloss="td-learning"]')
    page.wait_for_function("document.activeElement && document.activeElement.id === 'gloss-td-learning'")
    assert page.is_visible("#explorer") and page.evaluate("document.getElementById('glossary').open")
    assert "How the network was trained" in page.text_content("#gloss-td-learning")
    assert page.evaluate(IN_VIEW_JS, "#gloss-td-learning")
    word = page.evaluate("document.getElementById('gloss-td-learning').previousElementSibling.textContent")
    assert word == "TD learning" and page.evaluate(IN_VIEW_JS, "#glossary-list dt:has(+ #gloss-td-learning)")
    assert page.evaluate(OVERFLOW_JS) <= 0

    # And from the explorer, back to the story: its link shows while learned is chosen.
    page.click("#explorer-story-link")
    assert page.evaluate("document.activeElement.closest('#network-story') !== null")
    assert page.evaluate("document.getElementById('network-story').open")
    if size == "phone":
        assert page.evaluate(SMALL_TARGETS_JS, TARGET) == []
    page.select_option("#ai-preset", "classic")  # another preset: the story and the explorer's link go
    assert page.is_hidden("#network-story") and page.is_hidden("#explorer-story-row")
    assert run.errors == []
