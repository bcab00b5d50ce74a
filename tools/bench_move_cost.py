"""What a move costs the page's main thread, in a fresh game and at move N of a long one.

A game is set up through storage (``game2048:game``: a saved game with its
record, as the page saves one), built here from a share code
(``tests/data/long_game.txt`` by default, a seeded game of more than 6,000
moves) replayed to move ``N``; the page restores it, replays its record, and
then takes ``--moves`` key presses, one at a time, each waited for until the
board has settled: the game's own next moves.  Per move: the main thread's busy time (CDP
``Performance.getMetrics``' ``TaskDuration``, everything the renderer's main
thread ran, the slide's frames included), and every long task over 50 ms
(``PerformanceObserver``).

    python tools/bench_move_cost.py [--at 0 --at 6000] [--moves 37] [--runs 3] [--code FILE] [--root CHECKOUT]

``--root`` serves another checkout (``git worktree add /tmp/before <commit>``, ``node_modules`` linked in),
for the numbers before a change.

Prints each run and a table: ms per move (median over runs), the longest task.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "py"))
from bench_load import describe_run, git_commit, machine  # noqa: E402
from bench_long_tasks import LONG_TASKS_JS  # noqa: E402
from browser import READY_SELECTOR, launch_chromium, watch_page  # noqa: E402
from serve import REPO_ROOT, start_server  # noqa: E402

from game2048 import board as B  # noqa: E402
from game2048.game import Game  # noqa: E402
from game2048.game_link import record_from_link  # noqa: E402
from game2048.game_record import replay  # noqa: E402

LONG_GAME = REPO_ROOT / "tests" / "data" / "long_game.txt"
"""The share code of a seeded game of 7,332 moves to 8192 (seed 2, expectimax at depth 4, its default preset)."""
GAME_KEY = "game2048:game"
STARTED_MS = 1_700_000_000_000.0
KEYS = {B.UP: "ArrowUp", B.RIGHT: "ArrowRight", B.DOWN: "ArrowDown", B.LEFT: "ArrowLeft"}
SETTLED = '#board[data-settled="true"]'
TIMEOUT_MS = 240_000


def long_game_code(path: Path = LONG_GAME) -> str:
    return path.read_text(encoding="utf-8").strip()


def game_at(code: str, moves: int) -> Game:
    """The game of share code ``code`` after its first ``moves`` moves (0: a fresh game of the same seed)."""
    game = replay(record_from_link(code), moves)
    if game.paused_at_win:
        game.continue_after_win()
    game.started = STARTED_MS
    return game


def saved_game_items(game: Game) -> dict[str, str]:
    """localStorage items that make the page open ``game`` with its whole record (as a page saves it)."""
    from app.games.saved_games import saved_form

    return {GAME_KEY: json.dumps(saved_form(game))}


def busy_ms(cdp: Any) -> float:
    """The renderer main thread's busy time so far, in ms (CDP ``TaskDuration``)."""
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return float(metrics["TaskDuration"]) * 1000.0


def play_and_measure(page: Any, cdp: Any, directions: list[str]) -> tuple[float, float, list[float]]:
    """Press the keys of ``directions`` on the page; (busy ms per move, longest task, each move's ms)."""
    page.wait_for_selector(SETTLED, state="attached", timeout=TIMEOUT_MS)
    page.wait_for_timeout(500)
    start = float(page.evaluate("performance.now()"))
    each = []
    for direction in directions:
        before = busy_ms(cdp)
        page.keyboard.press(KEYS[direction])
        page.wait_for_selector(SETTLED, state="attached", timeout=TIMEOUT_MS)
        each.append(busy_ms(cdp) - before)
    tasks = [task for task in page.evaluate("window.__longTasks") if task[0] >= start]
    longest = max((duration for _, duration in tasks), default=0.0)
    return sum(each) / len(each), longest, each


def open_at(context: Any, base_url: str, game: Game) -> tuple[Any, Any]:
    """A page of ``context`` on ``game`` (set up through storage), its record replayed; (page, CDP session)."""
    items = saved_game_items(game)
    context.add_init_script(
        script="(items => { if (sessionStorage.getItem('bench:seeded')) return;"
        " sessionStorage.setItem('bench:seeded', '1');"
        " for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); })(" + json.dumps(items) + ")"
    )
    context.add_init_script(script=LONG_TASKS_JS)
    page = context.new_page()
    watch_page(page, [])
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    page.goto(f"{base_url}/index.html?sw=off")
    page.wait_for_selector(READY_SELECTOR, state="attached", timeout=TIMEOUT_MS)
    return page, cdp


def measure_at(browser: Any, base_url: str, code: str, at: int, moves: int) -> tuple[float, float, list[float]]:
    """One run: a new context on the game at move ``at``, ``moves`` moves played and measured."""
    game = game_at(code, at)
    directions = record_from_link(code).moves[at : at + moves]
    if len(directions) < moves:
        raise ValueError(f"the game has {at + len(directions)} moves, fewer than {at} + {moves}")
    context = browser.new_context(service_workers="block", viewport={"width": 900, "height": 1000})
    try:
        page, cdp = open_at(context, base_url, game)
        result = play_and_measure(page, cdp, directions)
        errors = page.console_errors
        if errors:
            raise RuntimeError(f"console errors: {errors}")
        return result
    finally:
        context.close()


def root_commit(root: Path) -> str:
    """The short commit another checkout is at (``--root``)."""
    run = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True)
    return run.stdout.strip() or "?"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--at", type=int, action="append", help="the move the game is set up at (default 0, 6000)")
    parser.add_argument("--moves", type=int, default=37, help="moves measured per run (default 37)")
    parser.add_argument("--runs", type=int, default=3, help="runs per setting (default 3)")
    parser.add_argument("--code", type=Path, default=LONG_GAME, help="a file holding a game's share code")
    parser.add_argument("--root", type=Path, default=REPO_ROOT, help="the checkout to serve (default: this one)")
    args = parser.parse_args(argv)
    ats = args.at or [0, 6000]
    code = long_game_code(args.code)
    from playwright.sync_api import sync_playwright

    server, base_url = start_server(args.root, port=0)
    per_move: dict[int, list[float]] = {}
    longest: dict[int, list[float]] = {}
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            chromium = browser.version
            for run in range(1, args.runs + 1):
                for at in ats:
                    mean, top, each = measure_at(browser, base_url, code, at, args.moves)
                    per_move.setdefault(at, []).append(mean)
                    longest.setdefault(at, []).append(top)
                    shown = ", ".join(f"{ms:.0f}" for ms in each)
                    print(f"run {run}, at move {at}: {mean:.1f} ms a move, longest task {top:.0f} ms; each: {shown}")
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    node, cpus, model = machine()
    command = " ".join(["tools/bench_move_cost.py", *(sys.argv[1:] if argv is None else argv)])
    commit = git_commit() if args.root.resolve() == REPO_ROOT.resolve() else f"{args.root}: {root_commit(args.root)}"
    print("\n" + describe_run(command, datetime.date.today().isoformat(), commit, node, cpus, model, chromium))
    print("\n| game set up at | main-thread ms a move, median (runs) | longest task, max (runs) | moves a run |")
    print("| --- | --- | --- | --- |")
    for at in ats:
        means, tops = per_move[at], longest[at]
        print(
            f"| move {at:,} | {statistics.median(means):.1f} ms ({', '.join(f'{m:.1f}' for m in means)}) | "
            f"{max(tops):.0f} ms ({', '.join(f'{t:.0f}' for t in tops)}) | {args.moves} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
