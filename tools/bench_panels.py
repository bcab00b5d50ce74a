"""How long a panel takes to open the first time, from the player's key (or click) to the frame that shows it.

The start builds some panels only when first opened (the explorer, the AI's
weight sliders; issue 44), so their first opening does the build.  Each load
is a fresh browser context (no cache, no saved game) of ``index.html?sw=off``,
with the CPU slowed by Chrome's throttling (CDP
``Emulation.setCPUThrottlingRate``: 4 is a mid-range phone); once the page is
playable and the AI ready, each panel is opened once, in ``PANELS``' order.
The time runs from the event's own ``timeStamp`` (the key or the pointer as the
browser received it) to the first animation frame after the panel's element
is shown: what the player waits for.  The summary gives the median per panel
and slowdown, against the goals (``GOALS``: 100 ms at ×1, 300 ms at ×4).

    python tools/bench_panels.py [--runs 5] [--cpu 1 --cpu 4] [--root DIR]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_load import run_line  # noqa: E402
from browser import READY_SELECTOR, served_chromium  # noqa: E402
from serve import REPO_ROOT  # noqa: E402

LOAD_TIMEOUT_MS = 120_000
GOALS: dict[int, float] = {1: 100.0, 4: 300.0}
"""The longest median first opening, in ms, at each CPU slowdown (issue 44)."""

PANELS: tuple[tuple[str, str, str], ...] = (
    ("the search explorer (E)", "key:e", "#explorer"),
    ("Your games (G)", "key:g", "#games-panel"),
    ("the position editor (T)", "key:t", "#editor-bar"),
    ("the weights (click)", "click:#weights-panel summary", "#ai-weights input[type=range]"),
)
"""Each panel: its name, how the player opens it, and the element that shows it open."""

# Resolves to the ms from the opening event to the frame after ``selector`` is shown; armed before the event.
ARM_JS = """([kind, selector]) => {
  window.__panelOpened = new Promise((resolve) => {
    let started = null;
    addEventListener(kind, (event) => { started = event.timeStamp; }, { capture: true, once: true });
    const shown = () => {
      const element = document.querySelector(selector);
      return element !== null && !element.hidden && element.getClientRects().length > 0;
    };
    const look = () => {
      if (started !== null && shown()) requestAnimationFrame(() => resolve(performance.now() - started));
      else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
}"""

AI_READY_JS = "() => (document.getElementById('ai-status') || {}).textContent?.includes('AI ready')"
CLOSE_KEYS = {"key:e": "e", "key:g": "g", "key:t": "t"}


def summarize(times: Mapping[tuple[str, int], Sequence[float]]) -> dict[tuple[str, int], float]:
    """The median of each (panel, slowdown)'s openings."""
    return {key: statistics.median(values) for key, values in times.items() if values}


def goal_lines(medians: Mapping[tuple[str, int], float]) -> list[str]:
    """One line per slowdown with a goal: the slowest panel's median against it, met or not."""
    lines = []
    for rate, limit in sorted(GOALS.items()):
        at_rate = {panel: ms for (panel, cpu), ms in medians.items() if cpu == rate}
        if not at_rate:
            continue
        panel, slowest = max(at_rate.items(), key=lambda item: item[1])
        verdict = "met" if slowest <= limit else "not met"
        lines.append(f"- CPU x{rate}: the slowest first opening, {panel}, {slowest:.0f} ms ≤ {limit:.0f} ms: {verdict}")
    return lines


def markdown_table(times: Mapping[tuple[str, int], Sequence[float]], rates: Sequence[int]) -> str:
    """Rows of panels, a column per slowdown: the median and every opening, in ms."""
    medians = summarize(times)
    header = "| panel, first opening | " + " | ".join(f"CPU x{rate}, median (each load)" for rate in rates) + " |"
    lines = [header, "| --- |" + " --- |" * len(rates)]
    for name, _how, _selector in PANELS:
        cells = []
        for rate in rates:
            values = times.get((name, rate), [])
            if not values:
                cells.append("–")
                continue
            each = ", ".join(f"{value:.0f}" for value in values)
            cells.append(f"{medians[(name, rate)]:.0f} ms ({each})")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def open_once(page: Any, how: str, selector: str) -> float:
    """Open one panel as the player does and return the ms until it is shown; then close it again."""
    kind, _, what = how.partition(":")
    page.evaluate(ARM_JS, ["keydown" if kind == "key" else "pointerdown", selector])
    if kind == "key":
        page.keyboard.press(what)
    else:
        page.click(what)
    elapsed = float(page.evaluate("window.__panelOpened"))
    if how in CLOSE_KEYS:
        page.keyboard.press(CLOSE_KEYS[how])  # the same key closes it (T: the edited position, unchanged, plays)
    return elapsed


def one_load(browser: Any, base_url: str, rate: int) -> dict[str, float]:
    """A fresh context at ``rate``: every panel's first opening, in ms."""
    context = browser.new_context(service_workers="block", viewport={"width": 900, "height": 1000})
    try:
        page = context.new_page()
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
        page.goto(f"{base_url}/index.html?sw=off&seed=7")
        page.wait_for_selector(READY_SELECTOR, state="attached", timeout=LOAD_TIMEOUT_MS)
        page.wait_for_function(AI_READY_JS, timeout=LOAD_TIMEOUT_MS)
        return {name: open_once(page, how, selector) for name, how, selector in PANELS}
    finally:
        context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="loads at each slowdown (5)")
    parser.add_argument("--cpu", type=int, action="append", help="CPU slowdown, repeatable (default: 1 and 4)")
    parser.add_argument("--root", type=Path, default=REPO_ROOT, help="the checkout to serve (default: this one)")
    args = parser.parse_args(argv)
    rates = args.cpu or [1, 4]
    times: dict[tuple[str, int], list[float]] = {}
    with served_chromium(args.root) as (browser, base_url):
        chromium = browser.version
        for number in range(1, args.runs + 1):
            for rate in rates:
                opened = one_load(browser, base_url, rate)
                for name, ms in opened.items():
                    times.setdefault((name, rate), []).append(ms)
                shown = ", ".join(f"{name} {ms:.0f} ms" for name, ms in opened.items())
                print(f"load {number}/{args.runs}, CPU x{rate}: {shown}", flush=True)
    print("\n" + run_line("bench_panels.py", argv, chromium))
    print("\n" + markdown_table(times, rates))
    print("\n" + "\n".join(goal_lines(summarize(times))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
