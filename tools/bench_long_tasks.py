"""Long tasks of the page's main thread from navigation to AI ready: the longest, and the time they block.

Each load is a cold visit in a new browser context (no cache, no service
worker, no saved game) of ``index.html?sw=off``, with the CPU slowed by
Chrome's own throttling (CDP ``Emulation.setCPUThrottlingRate``; 4 is a
mid-range phone).  A ``PerformanceObserver`` for ``longtask`` (any task over
50 ms), registered before the page's first script, records every task until
``#ai-status`` says "AI ready".  Per load: the longest task, the total
blocking time (the sum of each long task's time over 50 ms, as Lighthouse
counts it) and the number of long tasks; the summary gives their medians per
checkout and slowdown.

``--root`` may be given more than once, e.g. a checkout of an earlier commit
(``git worktree add /tmp/before <commit>``, with ``node_modules`` linked in):
the checkouts' loads alternate in one run, so before and after meet the same
machine.  ``--bare`` adds the bare PyScript page (``bare_page.py``) to the
alternation: the page's two interpreters started without any of its code, the
floor under the page's own tasks; the summary then gives each checkout's
difference from it (page − bare, of the medians) at each slowdown.

    python tools/bench_long_tasks.py [--runs 5] [--cpu 1 --cpu 4] [--root . --root /tmp/before] [--bare]
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bare_page import LABEL, temporary_bare_page  # noqa: E402
from bench_load import describe_run, git_commit, machine  # noqa: E402
from browser import READY_SELECTOR, launch_chromium  # noqa: E402
from serve import REPO_ROOT, start_server  # noqa: E402

LONG_TASKS_JS = """
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__longTasks.push([entry.startTime, entry.duration]);
}).observe({type: "longtask", buffered: true});
"""
MARKS_JS = "performance.getEntriesByType('mark').map(m => m.name + '@' + Math.round(m.startTime)).join(', ')"
AI_READY_JS = "/AI ready/.test(document.getElementById('ai-status').textContent)"
TIMEOUT_MS = 240_000


def blocking_ms(tasks: Sequence[Sequence[float]]) -> float:
    """Total blocking time: each long task's time over 50 ms, summed."""
    return sum(max(0.0, duration - 50.0) for _, duration in tasks)


@dataclass
class Loads:
    """The numbers of one checkout's loads at one slowdown, a value per load: longest task and total blocking
    time (ms), and how many long tasks."""

    longest: list[float] = field(default_factory=list)
    blocking: list[float] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)

    def add(self, tasks: Sequence[Sequence[float]]) -> None:
        self.longest.append(max((duration for _, duration in tasks), default=0.0))
        self.blocking.append(blocking_ms(tasks))
        self.counts.append(len(tasks))

    def medians(self) -> tuple[float, float, float]:
        """Longest task, total blocking time, count."""
        return statistics.median(self.longest), statistics.median(self.blocking), statistics.median(self.counts)


def _signed(value: float) -> str:
    return f"{round(value) + 0:+}"


def summary_table(
    labels: Sequence[str], slowdowns: Sequence[float], loads: Mapping[tuple[int, float], Loads], bare: int | None
) -> list[str]:
    """The Markdown summary: a row per checkout (``labels``' index) and slowdown; with the bare page's index,
    then a row per other checkout and slowdown of page − bare, each number's median less the bare page's."""
    lines = [
        "| checkout | CPU | longest task, median (runs) | total blocking time, median | long tasks, median | loads |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for index, label in enumerate(labels):
        for slowdown in slowdowns:
            these = loads[(index, slowdown)]
            longest, blocking, count = these.medians()
            shown_runs = ", ".join(f"{value:.0f}" for value in these.longest)
            lines.append(
                f"| {label} | x{slowdown:g} | {longest:.0f} ms ({shown_runs}) | {blocking:.0f} ms | {count:g} | "
                f"{len(these.longest)} |"
            )
    if bare is None:
        return lines
    for index, label in enumerate(labels):
        if index == bare:
            continue
        for slowdown in slowdowns:
            page, floor = loads[(index, slowdown)].medians(), loads[(bare, slowdown)].medians()
            longest, blocking, count = (mine - theirs for mine, theirs in zip(page, floor))
            lines.append(
                f"| page − bare: {label} | x{slowdown:g} | {_signed(longest)} ms | {_signed(blocking)} ms | "
                f"{count:+g} | |"
            )
    return lines


def one_load(browser: Any, url: str, slowdown: float) -> tuple[list[list[float]], float, float, str]:
    """The long tasks of one cold load up to AI ready, when the board was playable and when the AI was ready
    (ms from navigation), and the page's marks (``app.page.pause``: where each step of its start ended)."""
    context = browser.new_context(service_workers="block")
    try:
        context.add_init_script(script=LONG_TASKS_JS)
        page = context.new_page()
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
        page.goto(url)
        page.wait_for_selector(READY_SELECTOR, state="attached", timeout=TIMEOUT_MS)
        page.wait_for_function(AI_READY_JS, timeout=TIMEOUT_MS)
        ready = float(page.evaluate("performance.now()"))
        playable = float(page.get_attribute("body", "data-ready-ms") or "nan")
        tasks = [task for task in page.evaluate("window.__longTasks") if task[0] <= ready]
        return tasks, playable, ready, page.evaluate(MARKS_JS)
    finally:
        context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="loads per checkout and slowdown (default 5)")
    parser.add_argument("--cpu", type=float, action="append", help="CPU slowdowns, repeatable (default 1 and 4)")
    parser.add_argument("--root", type=Path, action="append", help="checkouts to serve, repeatable (default: this)")
    parser.add_argument("--bare", action="store_true", help="also the bare PyScript page (tools/bare_page.py)")
    args = parser.parse_args(argv)
    slowdowns = args.cpu or [1.0, 4.0]
    roots = args.root or [REPO_ROOT]
    labels = [str(root) for root in roots]
    with temporary_bare_page() if args.bare else nullcontext() as bare:
        if bare is not None:
            roots, labels = [*roots, bare], [*labels, LABEL]
        return measure(roots, labels, slowdowns, args.runs, argv, len(roots) - 1 if bare is not None else None)


def measure(
    roots: list[Path], labels: list[str], slowdowns: list[float], runs: int, argv: list[str] | None, bare: int | None
) -> int:
    """Load each checkout ``runs`` times at each slowdown, alternating; print each load and the medians (and,
    given the bare page's index in ``roots``, each other checkout's difference from it)."""
    from playwright.sync_api import sync_playwright

    servers = [start_server(root, port=0) for root in roots]
    loads = {(index, slowdown): Loads() for index in range(len(roots)) for slowdown in slowdowns}
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            chromium = browser.version
            for run in range(1, runs + 1):
                for slowdown in slowdowns:
                    for index, (_, base_url) in enumerate(servers):
                        tasks, playable, ready, marks = one_load(browser, f"{base_url}/index.html?sw=off", slowdown)
                        loads[(index, slowdown)].add(tasks)
                        shown = ", ".join(f"{start:.0f}+{duration:.0f}" for start, duration in tasks)
                        print(
                            f"run {run}, {labels[index]}, CPU x{slowdown:g}: playable at {playable:.0f} ms, "
                            f"AI ready at {ready:.0f} ms; "
                            f"long tasks (start+ms): {shown or 'none'}; marks: {marks or 'none'}",
                            flush=True,
                        )
            browser.close()
    finally:
        for server, _ in servers:
            server.shutdown()
            server.server_close()
    node, cpus, model = machine()
    command = " ".join(["tools/bench_long_tasks.py", *(sys.argv[1:] if argv is None else argv)])
    print("\n" + describe_run(command, datetime.date.today().isoformat(), git_commit(), node, cpus, model, chromium))
    print("\n" + "\n".join(summary_table(labels, slowdowns, loads, bare)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
