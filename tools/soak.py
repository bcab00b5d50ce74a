"""Soak run: autoplay in Chromium for many moves, checking every move shown and the page's memory.

Autoplay runs at 20 ms think time (and no pause) through as many games as
it takes to play ``--moves`` moves (1,000 by default): at a win it presses
"Keep going", at game over "Try again" and Autoplay again.  Along the way:

* every board the page settles on is recorded in the page (a MutationObserver
  on ``#board[data-settled]`` reads the ``.tile`` elements, i.e. what a person
  sees) and checked here against the engine's rules: one legal move, then one
  spawned 2 or 4 on an empty cell, and the score grown by the merged values;
* console errors and uncaught page errors are collected;
* the page's JS heap (CDP ``Performance.getMetrics``, after a forced GC) is
  read at the start and the end; growth must stay under 50 MB.

    python tools/soak.py [--moves 1000] [--think-ms 20]

``--tabs N`` (2 or more) is the shared-storage soak instead: one tab keeps
three games from ``?seed=`` links over a game in progress, then N tabs of one
browser autoplay together at ``--think-ms`` (100 by default here) for
``--seconds``.  It checks every tab's moves as above, that no tab's autoplay
stops or its worker is restarted, that the kept games are all still stored,
and that each tab's game comes back on reload.

    python tools/soak.py --tabs 3 [--seconds 120]

Exit status 0 when all checks pass, 1 otherwise; the figures are printed either way.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "py"))
from browser import READY_SELECTOR, launch_chromium, watch_page  # noqa: E402
from serve import REPO_ROOT, start_server  # noqa: E402
from soak_page import RECORDER_JS, Tab  # noqa: E402
from soak_tabs import soak_tabs  # noqa: E402

HEAP_LIMIT_MB = 50.0


def heap_mb(cdp) -> float:
    cdp.send("HeapProfiler.collectGarbage")
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return metrics["JSHeapUsedSize"] / 2**20


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--think-ms", type=int, default=None, help="20 by default; 100 with --tabs")
    parser.add_argument("--timeout-s", type=float, default=1800.0)
    parser.add_argument("--tabs", type=int, default=1, help="tabs autoplaying together on one storage (default 1)")
    parser.add_argument("--seconds", type=float, default=120.0, help="how long the tabs autoplay (with --tabs)")
    args = parser.parse_args(argv)
    if args.tabs > 1:
        return soak_tabs(args.tabs, args.seconds, args.think_ms or 100)
    args.think_ms = args.think_ms or 20
    from playwright.sync_api import sync_playwright

    settings = json.dumps({"ai": {"think_ms": args.think_ms, "pause_ms": 0}})
    server, base_url = start_server(REPO_ROOT, port=0)
    problems: list[str] = []
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            context = browser.new_context(viewport={"width": 900, "height": 1300})
            context.add_init_script(
                script="if (!sessionStorage.getItem('soak')) { sessionStorage.setItem('soak', '1');"
                f" localStorage.clear(); localStorage.setItem('game2048:settings', {json.dumps(settings)}); }}"
            )
            page = context.new_page()
            watch_page(page, [])
            page.goto(f"{base_url}/index.html?seed=2048")
            page.wait_for_selector(READY_SELECTOR, state="attached", timeout=120_000)
            page.wait_for_selector("#ai-hint:not([disabled])", state="attached", timeout=180_000)
            if page.text_content("#ai-think-value") != f"{args.think_ms} ms":
                problems.append(f"think time shows {page.text_content('#ai-think-value')}, not {args.think_ms} ms")
            cdp = context.new_cdp_session(page)
            cdp.send("Performance.enable")
            heap_start = heap_mb(cdp)
            page.evaluate(RECORDER_JS)
            started = time.perf_counter()
            page.keyboard.press("p")
            tab = Tab(page)
            while tab.moves < args.moves:
                if time.perf_counter() - started > args.timeout_s:
                    problems.append(f"timed out after {args.timeout_s:.0f} s")
                    break
                page.wait_for_timeout(1000)
                tab.take_boards()
                if not tab.keep_playing():
                    break
            page.keyboard.press("Escape")
            elapsed = time.perf_counter() - started
            heap_end = heap_mb(cdp)
            problems.extend(tab.problems)
            problems.extend(page.console_errors)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    growth = heap_end - heap_start
    if growth >= HEAP_LIMIT_MB:
        problems.append(f"JS heap grew by {growth:.1f} MB (limit {HEAP_LIMIT_MB:.0f} MB)")
    print(
        f"soak: {tab.moves} moves checked in {elapsed:.0f} s ({tab.moves / elapsed:.1f} moves/s) over "
        f"{tab.games} game(s), {tab.wins} win(s), largest tile {tab.max_tile}, think time {args.think_ms} ms"
    )
    print(
        f"JS heap (after GC): {heap_start:.1f} MB at start, {heap_end:.1f} MB at end, growth {growth:+.1f} MB "
        f"(limit {HEAP_LIMIT_MB:.0f} MB)"
    )
    print(f"illegal or unexplained transitions / console errors / other problems: {len(problems)}")
    for problem in problems[:20]:
        print("  -", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
