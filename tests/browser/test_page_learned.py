"""The learned evaluation in the page: downloaded when chosen, in ranges, with its progress; kept once checked; a bad
file is refused."""

from __future__ import annotations

import re
import time
from pathlib import Path

from pagekit import choose_learned, wait_ai_ready, wait_decisions, wait_kept_networks

ROOT = Path(__file__).resolve().parents[2]
NETWORK = (ROOT / "networks" / "4x6.ntn").read_bytes()

WATCH_NETWORK_LINE = """() => { window.networkLines = [];
    new MutationObserver(() => window.networkLines.push(document.getElementById('ai-network').textContent))
        .observe(document.getElementById('ai-network'), {childList: true, characterData: true, subtree: true}); }"""


KEPT_JS = "async () => (await (await caches.open('2048-network')).keys()).map((request) => request.url)"


def _network_requests(run) -> list[str]:  # type: ignore[no-untyped-def]
    return [url for url in run.requests if "/networks/" in url and ".ntn" in url]


def test_choosing_learned_downloads_the_network_with_its_progress_then_the_ai_plays_it(open_page):
    run = open_page("seed=5")
    page = run.page
    wait_ai_ready(page)
    assert _network_requests(run) == []  # the first load does not fetch it
    assert "downloads its network" in page.text_content("#ai-preset option[value=learned]")
    page.evaluate(WATCH_NETWORK_LINE)
    # A line of 4 MB/s (a good phone connection): the download takes seconds, and shows how far it is.
    cdp = run.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 20, "downloadThroughput": 4_000_000, "uploadThroughput": 1_000_000},
    )
    page.click("#weights-panel summary")
    started = time.monotonic()
    page.select_option("#ai-preset", "learned")
    page.wait_for_function(
        "document.getElementById('ai-status').textContent.startsWith('Learned network ready')", timeout=120_000
    )
    downloaded_s = time.monotonic() - started
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    lines = page.evaluate("window.networkLines")
    total = f"of {round(len(NETWORK) / 1000):,} KB"
    assert any(s.startswith("Downloading the learned network: ") and total in s for s in lines), lines
    assert f"{len(NETWORK) / 1e6:.1f} MB" in page.text_content("#ai-status")
    asked = _network_requests(run)  # in ranges, all of one address
    assert len(set(asked)) == 1 and len(asked) >= 2
    page.keyboard.press("e")  # the explorer: the root values, and what the network sees after the move
    page.keyboard.press("n")
    wait_decisions(page, 1, timeout_ms=60_000)
    assert page.get_attribute("#ai-readout", "data-preset") == "learned"
    assert page.input_value("#ai-preset") == "learned"
    page.wait_for_selector("#explorer-patterns", state="visible", timeout=30_000)
    assert page.locator("#explorer-patterns td.heat").count() == 16
    assert "What the network sees after" in page.text_content("#explorer-patterns-title")
    # Kept once checked: the file, and its tables decoded beside it (the next load copies them, no xz to undo).
    wait_kept_networks(page, 2)  # written in the background while the AI plays
    assert sorted(page.evaluate(KEPT_JS)) == sorted([asked[0], asked[0] + "&tables=1"])
    # The choice is kept: after a reload the network comes back by itself, from the copy kept once checked.
    run.reload()
    wait_ai_ready(page)
    started = time.monotonic()
    page.wait_for_function(
        "document.getElementById('ai-status').textContent.startsWith('Learned network ready')", timeout=120_000
    )
    kept_s = time.monotonic() - started
    assert len(_network_requests(run)) == len(asked)
    print(  # for docs/results.md (pytest -s)
        f"\nlearned network, {len(NETWORK):,} bytes at 4 MB/s: ready {downloaded_s:.1f} s after the choice, "
        f"{len(asked)} range requests; after a reload, from the kept copy: ready {kept_s:.1f} s after the AI"
    )
    page.keyboard.press("n")
    wait_decisions(page, 1, timeout_ms=60_000)
    assert page.get_attribute("#ai-readout", "data-preset") == "learned"
    assert run.errors == []


def test_a_network_cut_short_is_refused_with_a_message_and_the_ai_keeps_its_preset(open_page):
    def cut(context) -> None:  # type: ignore[no-untyped-def]
        context.route(
            "**/networks/4x6.ntn*",
            lambda route: route.fulfill(status=200, body=NETWORK[:100_000], content_type="application/octet-stream"),
        )

    run = open_page("seed=6", prepare=cut)
    page = run.page
    wait_ai_ready(page)
    page.click("#weights-panel summary")
    page.select_option("#ai-preset", "learned")
    page.wait_for_function(
        "document.getElementById('ai-status').textContent.includes('could not be used')", timeout=60_000
    )
    status = page.text_content("#ai-status")
    assert "cut at 100,000 bytes" in status and "The AI plays classic meanwhile" in status, status
    assert page.input_value("#ai-preset") == "classic"
    assert not page.is_disabled("#ai-preset")
    page.keyboard.press("i")
    wait_decisions(page, 1)
    assert page.get_attribute("#ai-readout", "data-preset") == "classic"
    assert run.errors == []


def test_the_learned_network_is_drawn_where_it_is_named_and_its_words_are_explained(open_page):
    for viewport in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        run = open_page("seed=5", viewport=viewport)
        page = run.page
        wait_ai_ready(page)
        choose_learned(page)
        # The preset's one slider says what it changes.
        assert "scales what the patterns add" in page.text_content("#ai-weights-note")
        assert "network" in page.get_attribute("#ai-weights .weight-name", "data-tip")
        page.keyboard.press("e")
        page.keyboard.press("n")
        wait_decisions(page, 1, timeout_ms=60_000)
        page.wait_for_selector("#explorer-patterns", state="visible", timeout=30_000)
        # The four patterns, each drawn with its number: six cells of sixteen filled.
        shapes = page.eval_on_selector_all(
            "#explorer-pattern-shapes .pattern-glyph",
            "gs => gs.map(g => [g.dataset.pattern, g.querySelectorAll('.pg-on').length, g.textContent])",
        )
        assert [s[0] for s in shapes] == ["1", "2", "3", "4"] and all(s[1] == 6 for s in shapes), shapes
        # Wherever a pattern is named (why, its terms, the strongest), it is drawn with that number.
        text = page.inner_text("#explorer-decision")
        named = {m for m in ("pattern 1", "pattern 2", "pattern 3", "pattern 4") if m in text}
        assert named
        for part in ("#explorer-terms", "#explorer-patterns-top", "#explorer-why"):
            if page.locator(part).count() == 0:
                continue
            pairs = page.eval_on_selector_all(
                f"{part} .pattern-glyph",
                "gs => gs.map(g => [g.dataset.pattern, g.nextSibling && g.nextSibling.textContent])",
            )
            words = page.inner_text(part)
            for number in "1234":
                if f"pattern {number}" in words:
                    assert any(p[0] == number for p in pairs), (part, number, pairs)
        box = page.locator("#explorer-pattern-shapes .pattern-glyph").first.bounding_box()
        assert box["width"] > 20 and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        # The words: network, pattern, weight and a cell's share, each explained by the glossary.
        for key in ("n-tuple-network", "pattern", "network-weight", "cell-share"):
            assert page.locator(f'#explorer-decision [aria-describedby="gloss-{key}"]').count(), key
            assert page.text_content(f"#gloss-{key}")
        # The glossary is at hand near the top of the explorer.
        page.click("#explorer-glossary-link")
        assert page.evaluate("document.getElementById('glossary').open")
        assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
        assert run.errors == []


WORKERS_MB = r"each using up to (\d+) MB of memory"
HOLDS_ONCE_MB = 300
"""A worker that reads the network's decoded copy holds its 134 MB of tables and Pyodide, not the 32 MB file too
(342 MB when it decoded the file at every load)."""


def test_after_a_reload_each_worker_holds_the_network_once(open_page):
    run = open_page("seed=5&workers=2")
    page = run.page
    wait_ai_ready(page)
    choose_learned(page)
    wait_kept_networks(page, 2)
    run.reload()  # the saved choice comes back from the kept decoded copy, in both workers
    wait_ai_ready(page)
    page.wait_for_function(
        "document.getElementById('ai-status').textContent.startsWith('Learned network ready')", timeout=120_000
    )
    page.focus("#board")
    for played in range(1, 6):  # expectimax decisions start the helper, which loads the network too
        page.keyboard.press("n")
        wait_decisions(page, played, timeout_ms=60_000)
    page.wait_for_function(
        "/in 2 of 2 workers, each using up to/.test(document.getElementById('ai-workers').textContent)",
        timeout=120_000,
    )
    said = page.text_content("#ai-workers") or ""
    print(f"\nafter a reload, from the decoded copy: {said}")  # for docs/results.md (pytest -s)
    found = re.search(WORKERS_MB, said)
    assert found and int(found.group(1)) < HOLDS_ONCE_MB, said
    assert page.get_attribute("#ai-readout", "data-preset") == "learned"
    assert run.errors == []
