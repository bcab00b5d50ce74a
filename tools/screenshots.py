"""README's pictures of the search explorer, taken from the real page: ``python tools/screenshots.py``.

Opens the page in Chromium (the project's server, Debian's chromium), plays
a fixed seed to a middle position, opens the explorer and asks a hint, then
opens a position link, builds its step-by-step tree and walks it to its
first cut; then the whole page after one AI step with the explorer open, at
1280×800 and on a 390×844 phone, for alpha-beta and for expectimax; then the
explanation of an expectimax hint with ``rows`` and with ``learned``.  Writes
``docs/images/explorer.png``, ``docs/images/tree-walk.png``,
``docs/images/page-<width>-<algorithm>.png`` and
``docs/images/explorer-<preset>.png``; the numbers in them vary with
the machine's speed (the searches are timed), the tree does not.
"""

from __future__ import annotations

import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
REPO_ROOT = TOOLS.parent
sys.path.insert(0, str(TOOLS))

from browser import READY_SELECTOR, launch_chromium  # noqa: E402
from serve import start_server  # noqa: E402

OUT = REPO_ROOT / "docs" / "images"
SEED = 41
MOVES = ["ArrowLeft", "ArrowDown", "ArrowLeft", "ArrowDown", "ArrowRight", "ArrowDown"]
TREE_ROWS = "0,0,2,0/0,0,0,0/256,32,16,0/2,4,4,8"
"""The bench position middle-s7-m144, opened by a position link: its depth-2 tree prunes 22 of 37 leaves."""
PAGE_SIZES = ((1280, 800), (390, 844))
"""A laptop's window and a phone's screen."""


def main() -> int:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    server, base_url = start_server(REPO_ROOT, port=0)
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            page = browser.new_page(viewport={"width": 560, "height": 1000}, device_scale_factor=1)
            page.goto(f"{base_url}/index.html?seed={SEED}")
            page.wait_for_selector(READY_SELECTOR, state="attached", timeout=90_000)
            page.click("#explorer-toggle")
            page.wait_for_function("!document.getElementById('ai-hint').disabled", timeout=90_000)
            for key in MOVES:
                page.keyboard.press(key)
                page.wait_for_selector('#board[data-settled="true"]')
            page.click("#ai-hint")
            page.wait_for_selector("#explorer-decision[data-explained]", timeout=30_000)
            page.locator("#explorer-decision").screenshot(path=str(OUT / "explorer.png"))
            page.goto(f"{base_url}/index.html?rows={TREE_ROWS}")  # the explorer stays open: a saved setting
            page.wait_for_selector(READY_SELECTOR, state="attached", timeout=90_000)
            page.wait_for_selector("#tw-build:not([disabled])", timeout=90_000)
            page.click("#tw-build")
            page.wait_for_selector("#tree-walk[data-builds]", timeout=30_000)
            page.focus("#tw-next")
            for _ in range(200):  # walk to the first cut
                if page.locator("#tree-walk .tw-pruned").count():
                    break
                page.keyboard.press("ArrowRight")
            page.locator("#tree-walk").screenshot(path=str(OUT / "tree-walk.png"))
            for width, height in PAGE_SIZES:
                for algorithm in ("alphabeta", "expectimax"):
                    page_after_an_ai_step(browser, base_url, width, height, algorithm)
            for preset in ("rows", "learned"):
                expectimax_explained(browser, base_url, preset)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    print(f"wrote explorer.png, tree-walk.png, the page-*.png and the explorer-*.png in {OUT}")
    return 0


def page_after_an_ai_step(browser, base_url: str, width: int, height: int, algorithm: str) -> None:
    """The page as a person sees it after one AI step with the explorer open (E, then N)."""
    context = browser.new_context(viewport={"width": width, "height": height}, service_workers="block")
    page = context.new_page()
    page.goto(f"{base_url}/index.html?seed={SEED}")
    page.wait_for_selector(READY_SELECTOR, state="attached", timeout=90_000)
    page.wait_for_function("!document.getElementById('ai-hint').disabled", timeout=90_000)
    if algorithm != "alphabeta":
        page.select_option("#ai-algorithm", algorithm)
    for key in MOVES:
        page.keyboard.press(key)
        page.wait_for_selector('#board[data-settled="true"]')
    page.keyboard.press("e")
    page.keyboard.press("n")
    page.wait_for_selector("#explorer-decision[data-explained]", timeout=30_000)
    page.wait_for_selector('#board[data-settled="true"]')
    page.screenshot(path=str(OUT / f"page-{width}-{algorithm}.png"))
    context.close()


def expectimax_explained(browser, base_url: str, preset: str) -> None:
    """The explorer's account of an expectimax hint with ``preset`` (its expected terms; learned's patterns)."""
    context = browser.new_context(viewport={"width": 560, "height": 1000}, service_workers="block")
    page = context.new_page()
    page.goto(f"{base_url}/index.html?seed={SEED}")
    page.wait_for_selector(READY_SELECTOR, state="attached", timeout=90_000)
    page.wait_for_function("!document.getElementById('ai-hint').disabled", timeout=90_000)
    page.select_option("#ai-algorithm", "expectimax")
    if preset != "rows":
        page.click("#weights-panel summary")
        page.select_option("#ai-preset", preset)
        page.wait_for_function(
            "document.getElementById('ai-status').textContent.startsWith('Learned network ready')", timeout=120_000
        )
    for key in MOVES:
        page.keyboard.press(key)
        page.wait_for_selector('#board[data-settled="true"]')
    page.keyboard.press("e")
    page.focus("#ai-think")
    page.keyboard.press("End")  # 2 s: the explanation's expectations fit whatever the machine
    page.focus("#board")
    for hint in range(1, 9):  # a position where one move beats the other (not two mirror images worth the same)
        page.keyboard.press("i")
        page.wait_for_function(
            "n => Number(document.getElementById('explorer-decision').dataset.explained || 0) >= n",
            arg=hint,
            timeout=60_000,
        )
        if "decides most" in (page.text_content("#explorer-why") or ""):
            break
        page.keyboard.press(MOVES[hint % len(MOVES)])
        page.wait_for_selector('#board[data-settled="true"]')
    page.locator("#explorer-decision").screenshot(path=str(OUT / f"explorer-{preset}.png"))
    context.close()


if __name__ == "__main__":
    raise SystemExit(main())
