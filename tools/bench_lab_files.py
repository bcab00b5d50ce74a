"""How long a lab file of many games holds the page's main thread: the longest task, the time to list it, the DOM.

    .venv/bin/python tools/bench_lab_files.py [--games 10000] [--moves 40] [--per-move] [--root DIR]

The file is built in the page (``--games`` lines, ten distinct games of
``--moves`` moves repeated, as ``tests/browser/test_page_lab_files.py``
builds them; ``--games 18926 --moves 90 --per-move`` is 48 MB, the issue's
file of 50 MB) and dropped on it; a ``PerformanceObserver`` for ``longtask``
records every task over 50 ms from the drop until the notice says the games
are listed; the drop waits for the AI worker's start (its own thread, which
takes the CPU of a small machine for seconds).  ``--root`` serves another checkout (``git worktree add`` or
``git archive``) to measure the page before a change.  Prints one table row.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "py"), str(ROOT / "tests" / "browser")]

from browser import page_session  # noqa: E402
from test_page_lab_files import lab_line  # noqa: E402

PREPARE = """([lines, count]) => {
  const parts = [];
  for (let i = 0; i < count; i++) parts.push(lines[i % lines.length]);
  window.__file = new File([parts.join("\\n") + "\\n"], "bench.jsonl");
  window.__long = [];
  new PerformanceObserver(list => list.getEntries().forEach(e => window.__long.push(Math.round(e.duration))))
    .observe({type: 'longtask'});
  return window.__file.size;
}"""
DROP = """() => { const data = new DataTransfer(); data.items.add(window.__file); window.__dropped = performance.now();
  document.body.dispatchEvent(new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true})); }"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--per-move", action="store_true", help="lines with each move's think time and depth")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve (default: this one)")
    parser.add_argument("--timeout-s", type=float, default=1800)
    args = parser.parse_args()
    lines = [lab_line(seed, args.moves, per_move=args.per_move) for seed in range(10, 20)]
    with page_session(root=args.root, service_workers="block") as (page, _base, _requests):
        page.wait_for_selector("#ai-hint:not([disabled])", state="attached", timeout=180_000)  # the AI worker is up
        size = page.evaluate(PREPARE, [lines, args.games])
        time.sleep(1)
        page.evaluate("window.__long = []")
        started = time.monotonic()
        page.evaluate(DROP)
        page.wait_for_function(
            "document.getElementById('games-notice').textContent.includes('games to replay')",
            timeout=args.timeout_s * 1000,
            polling=250,
        )
        seconds = time.monotonic() - started
        tasks = page.evaluate("window.__long")
        elements = page.evaluate("document.querySelectorAll('#games-list *').length")
        root = "this checkout" if args.root == ROOT else str(args.root)
        print("| file | served from | listed after | longest task | tasks over 50 ms (total) | elements in the list |")
        print("| --- | --- | --- | --- | --- | --- |")
        print(
            f"| {args.games:,} games, {size / 1e6:.1f} MB | {root} | {seconds:.1f} s | {max(tasks, default=0):,} ms "
            f"| {len(tasks)} ({sum(tasks):,} ms) | {elements:,} |"
        )


if __name__ == "__main__":
    main()
