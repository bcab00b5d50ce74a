"""The shared-storage soak (``tools/soak.py --tabs N``): N tabs of one browser autoplaying together.

The first tab keeps three games by following ``?seed=`` links over a game in
progress and starts autoplay; then N - 1 more tabs open, each on its own
``?seed=`` link, and start autoplay as soon as their page is ready, while the
others play and their own workers start: all autoplay together on one storage.  Checked: every board each tab
shows follows the one before by a legal move (``soak_page.check_transition``); no
tab's autoplay stops and no worker is restarted; the three kept games are
still stored at the end; each tab's game comes back when it is reloaded;
no console errors.
"""

from __future__ import annotations

import json
import time
from typing import Any

from browser import READY_SELECTOR, launch_chromium, watch_page
from serve import REPO_ROOT, start_server
from soak_page import RECORDER_JS, Tab

KEPT_KEY = "game2048:kept-games"
KEPT_SEEDS = (100, 101, 102, 103)
"""The games the first tab keeps: each ``?seed=`` link it follows keeps the game it leaves."""
STATUS_JS = """
(() => {
  window.__restarts = 0;
  const status = document.getElementById('ai-status');
  new MutationObserver(() => {
    if (/restart/i.test(status.textContent)) window.__restarts += 1;
  }).observe(status, {childList: true, characterData: true, subtree: true});
})()
"""


def _ready(page: Any) -> None:
    page.wait_for_selector(READY_SELECTOR, state="attached", timeout=120_000)


def _read_rows(page: Any) -> list[list[int]]:
    return page.evaluate(  # type: ignore[no-any-return]
        """() => { const rows = [[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]];
        for (const t of document.querySelectorAll('#board .tile'))
          rows[Number(t.dataset.row)][Number(t.dataset.col)] += Number(t.textContent);
        return rows; }"""
    )


def _kept_seeds(page: Any) -> list[int]:
    kept = json.loads(page.evaluate(f"localStorage.getItem('{KEPT_KEY}')") or "[]")
    return sorted(game.get("seed") for game in kept)


def soak_tabs(tabs: int, seconds: float, think_ms: int, base_url: str | None = None) -> int:
    """Run the shared-storage soak on the page at ``base_url`` (a server of its own when None); print its
    figures; 0 when every check passed, else 1."""
    from playwright.sync_api import sync_playwright

    settings = json.dumps({"ai": {"think_ms": think_ms, "pause_ms": 0}})
    server = None
    if base_url is None:
        server, base_url = start_server(REPO_ROOT, port=0)
    problems: list[str] = []
    runs: list[Tab] = []
    restarts = 0
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            context = browser.new_context(viewport={"width": 900, "height": 1300})
            context.add_init_script(
                script="if (!localStorage.getItem('game2048:settings'))"
                f" localStorage.setItem('game2048:settings', {json.dumps(settings)});"
            )
            first = context.new_page()
            watch_page(first, [])
            first.goto(f"{base_url}/index.html?seed=100")
            _ready(first)
            for seed in (*KEPT_SEEDS[1:], 104):
                for key in ("ArrowLeft", "ArrowDown", "ArrowRight", "ArrowDown"):
                    first.keyboard.press(key)
                first.wait_for_selector('#board[data-settled="true"]', state="attached")
                first.goto(f"{base_url}/index.html?seed={seed}")
                _ready(first)
            kept_before = _kept_seeds(first)
            runs.append(Tab(first, "tab 1"))
            started = time.perf_counter()
            for n in range(1, tabs + 1):
                if n > 1:
                    page = context.new_page()
                    watch_page(page, [])
                    page.goto(f"{base_url}/index.html?seed={200 + n}")
                    _ready(page)
                    runs.append(Tab(page, f"tab {n}"))
                runs[-1].page.evaluate(RECORDER_JS)
                runs[-1].page.evaluate(STATUS_JS)
                runs[-1].page.keyboard.press("p")  # autoplay waits for the tab's AI, then plays
            for run in runs:
                run.page.wait_for_function("document.body.dataset.autoplay !== 'off'", timeout=180_000)
            while time.perf_counter() - started < seconds:
                for run in runs:
                    run.take_boards()
                    if not run.keep_playing():
                        run.page.keyboard.press("p")  # noted; it plays on
                first.wait_for_timeout(500)
            boards = []
            for run in runs:
                run.page.keyboard.press("Escape")
                run.page.wait_for_function("document.body.dataset.autoplay === 'off'", timeout=30_000)
                run.page.wait_for_selector('#board[data-settled="true"]', state="attached")
                run.take_boards()
                restarts += run.page.evaluate("window.__restarts")
                boards.append(_read_rows(run.page))
            kept_after = _kept_seeds(first)
            missing = sorted(set(kept_before) - set(kept_after))
            if sorted(kept_before) != list(KEPT_SEEDS) or missing:
                problems.append(f"kept games: {kept_before} before, {kept_after} after (lost: {missing})")
            if restarts:
                problems.append(f"{restarts} AI worker restart(s)")
            for run, rows in zip(runs, boards, strict=True):
                run.page.reload()
                _ready(run.page)
                if _read_rows(run.page) != rows:
                    problems.append(f"{run.name}: its game did not come back on reload")
            for run in runs:
                problems.extend(run.problems)
                problems.extend(f"{run.name}: {error}" for error in run.page.console_errors)
            browser.close()
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()
    print(
        f"soak, {tabs} tabs on one storage for {seconds:.0f} s at {think_ms} ms: moves checked "
        + ", ".join(f"{run.name} {run.moves}" for run in runs)
        + f"; worker restarts {restarts}; kept games {len(KEPT_SEEDS)} stored before"
    )
    print(f"illegal or unexplained transitions / stops / lost games / console errors: {len(problems)}")
    for problem in problems[:20]:
        print("  -", problem)
    return 1 if problems else 0
