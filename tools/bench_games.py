"""The page's AI measured where people use it: seeded games played by the page's own autoplay in Chromium.

    python tools/bench_games.py [--games 20] [--seed-start 1] [--think-ms 100] [--parallel 2]
                                [--algorithm alphabeta] [--preset classic]
                                [--stop-tile 2048] [--out lab-out/bench-games.jsonl] [--resume] [--lab]
                                [--workers N]

Each game opens ``/?seed=N`` in a browser context of its own (so its
storage is empty), sets the think time on the page's slider (and the pause
between autoplay moves to 0 ms, which changes no move), chooses the
algorithm and preset in the page's menus (for ``learned``, waits for its
network's download), presses Autoplay and
waits until the page stops: autoplay pauses by itself at 2048, a lost game
stops it, and a lower ``--stop-tile`` is stopped here (a higher one presses
"Keep going"; ``--stop-tile 0`` plays to the end and the table counts 2048,
8192, 16384 and 32768).  ``--workers N`` opens the page with ``?workers=N``.
The game's record is then read from
the page's storage (``game2048:game``, or the finished games for a lost one)
and written as a lab line (``game2048.lab.records``), so
``python -m game2048.lab summary lab-out/bench-games.jsonl`` reads it like
any lab file.  The page cannot count search nodes, so a page line's
``nodes`` is 0.  With ``--lab`` the CPython lab plays the same seeds with
the same configuration on as many processes, into ``<out>-lab.jsonl``, and
the table puts both side by side.  ``--resume`` keeps the games a file holds.
A game still playing after ``--timeout-min`` is stopped there and written as
it stands, marked cut (the line's ``cut``), and named under the table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import date
from pathlib import Path
from typing import Any, NamedTuple

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser import CHROMIUM_ARGS, READY_SELECTOR, chromium_path  # noqa: E402
from page_storage import STORAGE_ITEMS_JS, saved_game  # noqa: E402
from serve import REPO_ROOT, start_server  # noqa: E402

sys.path.insert(0, str(REPO_ROOT / "py"))
from app.ai.settings import THINK_STEPS_MS  # noqa: E402
from game2048.board import max_rank  # noqa: E402
from game2048.game_record import GameRecord, positions, replay  # noqa: E402
from game2048.lab.config import ConfigError, PlayConfig  # noqa: E402
from game2048.lab.records import read, resumable, to_line  # noqa: E402
from game2048.lab.summary import summarize  # noqa: E402

DEFAULT_OUT = REPO_ROOT / "lab-out" / "bench-games.jsonl"
TOP_TILE_JS = "Math.max(0, ...[...document.querySelectorAll('#board .tile-inner')].map((t) => +t.textContent || 0))"


def record_in_storage(items: dict[str, str], seed: int) -> dict[str, Any] | None:
    """The record of game ``seed`` in the page's storage: the game saved last, or a finished game; None if neither."""
    game = saved_game(items)
    if game and game.get("record") and game["record"].get("seed") == seed:
        return game["record"]  # type: ignore[no-any-return]
    finished = json.loads(items.get("game2048:games") or "[]")
    return next((record for record in finished if record.get("seed") == seed), None)


def stopped_at(record: GameRecord, stop_tile: int) -> GameRecord:
    """The record up to the first move that reached ``stop_tile`` (the page may play a move or two beyond it)."""
    if not stop_tile:
        return record
    for step, (board, _score) in enumerate(positions(record)):
        if 1 << max_rank(board) >= stop_tile:
            return GameRecord(record.seed, record.moves[:step], record.decisions[:step], record.undos, record.started)
    return record


def lab_line(
    record: GameRecord, config: PlayConfig, seconds: float, start: int = 0, cut: bool = False
) -> dict[str, Any]:
    """A lab line (as ``game2048.lab.play.play_game`` returns it) for a game the page's AI played.

    The moves before ``start`` are not the page's (a game it went on from): they are neither checked nor
    counted in the think times and depths.  ``cut``: the game was stopped by the time limit, not by its end
    or its stop tile (the line's ``cut``; its ``lost`` is then false).
    """
    page_moves = record.decisions[start:]
    if None in page_moves:
        raise ValueError(f"game {record.seed} has moves the AI did not choose")
    played = {(d["algorithm"], d["preset"]) for d in page_moves}
    if played - {(config.algorithm, config.preset_name)}:
        raise ValueError(f"game {record.seed} was played by {sorted(played)}, not {config.label()}")
    think = [d["think_ms"] for d in page_moves]
    depths = [d["depth"] for d in page_moves]
    game = replay(record)
    top = 1 << max_rank(game.board)
    ordered_think, ordered_depths = sorted(think) or [0.0], sorted(depths) or [0]
    return {
        "seed": record.seed,
        "max_tile": top,
        "score": game.score,
        "moves": game.moves,
        "reached_stop": bool(config.stop_tile and top >= config.stop_tile),
        "lost": game.over,
        "cut": cut,
        "think_ms_p50": percentile(ordered_think, 50),
        "think_ms_p99": percentile(ordered_think, 99),
        "think_ms_max": float(ordered_think[-1]),
        "depth_median": percentile(ordered_depths, 50),
        "depth_p10": percentile(ordered_depths, 10),
        "nodes": 0,
        "seconds": seconds,
        **config.to_dict(),
        "record": record.to_dict(),
        "_think_ms": think,
        "_depths": depths,
    }


def percentile(ordered: list[float], q: float) -> float:
    """numpy's default (linear) percentile of sorted values."""
    position = (len(ordered) - 1) * q / 100
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return float(ordered[low] + (ordered[high] - ordered[low]) * (position - low))


async def set_slider(page: Any, selector: str, steps_right: int) -> None:
    """Move a range input with the keyboard, as a person would: Home, then ``steps_right`` steps up."""
    await page.focus(selector)
    await page.keyboard.press("Home")
    for _ in range(steps_right):
        await page.keyboard.press("ArrowRight")
    await page.locator(selector).blur()


WATCH_S = 60.0
"""Seconds of play between calls of ``play_game``'s ``watch``."""

NETWORK_READY_JS = "document.getElementById('ai-status').textContent.startsWith('Learned network ready')"


async def choose_search(page: Any, algorithm: str, preset: str | None) -> None:
    """The algorithm and preset chosen in the page's menus; a preset that downloads its network is waited for."""
    await page.select_option("#ai-algorithm", algorithm)
    if preset is None:
        return
    if not await page.is_visible("#ai-preset"):
        await page.click("#weights-panel summary")
    await page.select_option("#ai-preset", preset)
    if preset == "learned":
        await page.wait_for_function(NETWORK_READY_JS, timeout=180_000)
    chosen = await page.input_value("#ai-preset")
    if chosen != preset:
        raise RuntimeError(f"the page's preset shows {chosen}, not {preset}: {await page.text_content('#ai-status')}")


class PageGame(NamedTuple):
    """What ``play_game`` brings back: the game's saved record, the seconds from Autoplay to the stop, and
    whether ``--timeout-min`` cut it (autoplay stopped by this tool, the game kept as it stood)."""

    record: dict[str, Any]
    seconds: float
    cut: bool


async def play_game(
    browser: Any,
    base_url: str,
    seed: int,
    args: argparse.Namespace,
    prepare: Callable[[Any], Awaitable[None]] | None = None,
    watch: Callable[[Any, float], Awaitable[None]] | None = None,
) -> PageGame:
    """Play game ``seed`` with the page's autoplay to its stop, or until ``args.timeout_min`` cuts it.

    A game still playing at the limit is stopped as a person would (the Stop button) and brought back as it
    stands, marked cut: its hours of play, think times and last board are kept, not lost to an error.

    The think time is set on the page's slider; the pause between autoplay
    moves is set to 0 ms (it only adds wall time: the AI's moves are the same).
    With ``prepare``, the page opens on a game of its own choosing and
    ``prepare(page)`` makes game ``seed`` the one played (as a person would:
    ``bench_suite_page`` opens a saved game and plays from its end).
    ``watch(page, seconds)`` is awaited every ``WATCH_S`` seconds of play
    and once when the game stops (to say its progress and read the page).
    """
    context = await browser.new_context(viewport={"width": 900, "height": 1300}, service_workers="block")
    try:
        page = await context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        workers = f"workers={args.workers}" if args.workers else ""
        query = "&".join(part for part in ("" if prepare else f"seed={seed}", workers) if part)
        await page.goto(f"{base_url}/" + (f"?{query}" if query else ""))
        await page.wait_for_selector(READY_SELECTOR, state="attached", timeout=120_000)
        if prepare is not None:
            await prepare(page)
        await page.wait_for_selector("#ai-autoplay:not([disabled])", state="attached", timeout=180_000)
        await set_slider(page, "#ai-think", THINK_STEPS_MS.index(args.think_ms))
        await set_slider(page, "#ai-pause", 0)
        await choose_search(page, args.algorithm, args.preset)
        shown = await page.text_content("#ai-think-value")
        if shown != f"{args.think_ms} ms":
            raise RuntimeError(f"the page's think time shows {shown}, not {args.think_ms} ms")
        started = time.perf_counter()
        watched = started
        cut = False
        await page.click("#ai-autoplay")
        while True:
            await page.wait_for_timeout(250)
            if watch is not None and time.perf_counter() - watched >= WATCH_S:
                watched = time.perf_counter()
                await watch(page, watched - started)
            state = await page.get_attribute("body", "data-autoplay")
            if time.perf_counter() - started > args.timeout_min * 60:
                cut = True
                if state == "on":
                    await page.click("#ai-autoplay")  # Stop: the move in hand ends, the game is saved
                    continue
                break
            top = await page.evaluate(TOP_TILE_JS)
            if args.stop_tile and top >= args.stop_tile:
                if state == "on":
                    await page.click("#ai-autoplay")  # Stop
                    continue
                break  # stopped, or paused at the win overlay: the game is in game2048:game
            if state == "waiting":  # paused at the 2048 overlay below the stop tile: play on
                await page.click("#keep-going")
            elif state == "off":
                break
        seconds = time.perf_counter() - started
        await page.wait_for_selector('#board[data-settled="true"]', state="attached")
        if watch is not None:
            await watch(page, seconds)
        record = record_in_storage(await page.evaluate(STORAGE_ITEMS_JS), seed)
        if record is None:
            raise RuntimeError(f"game {seed}: the page holds no record of it ({await page.text_content('#ai-status')})")
        if errors:
            raise RuntimeError(f"game {seed}: the page reported errors: {errors[:3]}")
        return PageGame(record, seconds, cut)
    finally:
        await context.close()


async def play_games(
    seeds: list[int],
    args: argparse.Namespace,
    config: PlayConfig,
    out: Path,
    play_one: Callable[[Any, str, int], Awaitable[dict[str, Any]]] | None = None,
) -> list[int]:
    """Play ``seeds``, ``args.parallel`` at a time, each line appended to ``out`` as its game ends; the failed seeds.

    ``play_one(browser, base_url, seed)`` plays one game and returns its lab line (default: a new game of
    ``seed`` by ``play_game``, cut at the stop tile).
    """
    from playwright.async_api import async_playwright

    async def new_game(browser: Any, base_url: str, seed: int) -> dict[str, Any]:
        played = await play_game(browser, base_url, seed, args)
        record = stopped_at(GameRecord.from_dict(played.record), config.stop_tile)
        return lab_line(record, config, played.seconds, cut=played.cut)

    failed: list[int] = []
    if not seeds:
        return failed
    server, base_url = start_server(REPO_ROOT, port=0)
    queue = list(seeds)
    try:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)

            async def worker() -> None:
                while queue:
                    seed = queue.pop(0)
                    try:
                        line = await (play_one or new_game)(browser, base_url, seed)
                    except Exception as exc:  # noqa: BLE001 - one game's failure is said, the others go on
                        failed.append(seed)
                        print(f"page: seed {seed} failed: {str(exc).splitlines()[0]}", file=sys.stderr)
                        continue
                    with out.open("a") as handle:
                        handle.write(to_line(line))
                    cut = f", cut at {args.timeout_min:g} min while playing" if line.get("cut") else ""
                    said = f"page: seed {seed}: max tile {line['max_tile']}, {line['moves']} moves{cut}"
                    print(said, file=sys.stderr)

            await asyncio.gather(*(worker() for _ in range(max(1, args.parallel))))
            await browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return failed


def lab_file(out: Path) -> Path:
    return out.with_name(out.stem + "-lab" + out.suffix)


def run_lab(seeds: list[int], args: argparse.Namespace, out: Path) -> None:
    """The CPython lab on the same seeds and configuration (``python -m game2048.lab run``)."""
    command = [
        sys.executable,
        "-m",
        "game2048.lab",
        "run",
        "--seeds",
        ",".join(map(str, seeds)),
        "--think-ms",
        str(args.think_ms),
        "--algorithm",
        args.algorithm,
        *(["--preset", args.preset] if args.preset else []),
        "--stop-tile",
        str(args.stop_tile),
        "--jobs",
        str(args.parallel),
        "--out",
        str(out),
        "--no-progress",
    ]
    if args.resume:
        command.append("--resume")
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT / "py"))
    subprocess.run(command, check=True, cwd=REPO_ROOT, env=env, stdout=subprocess.DEVNULL)


LATE_TILES = (2048, 8192, 16384, 32768)
"""The tiles a table of games played to the end (``--stop-tile 0``) counts."""


def table(rows: list[tuple[str, list[dict]]], stop_tile: int) -> str:
    """The Markdown table: each player's games, the tiles reached, depth and think times.

    Games stopped at a tile count that tile; games played to the end count each of ``LATE_TILES``.
    """
    tiles = (stop_tile,) if stop_tile else LATE_TILES
    reached = " | ".join(f"reached {tile}" for tile in tiles)
    lines = [
        f"| player | games | {reached} | median depth (p10) | think ms p50 / p99 / max | median moves |",
        "| --- | --- | " + "--- | " * len(tiles) + "--- | --- | --- |",
    ]
    for name, records in rows:
        if not records:
            lines.append(f"| {name} | 0 | " + "— | " * len(tiles) + "— | — | — |")
            continue
        s = summarize(records)
        counts = [sum(1 for r in records if r["max_tile"] >= tile) for tile in tiles]
        rates = " | ".join(f"{n} ({100 * n / s['games']:.0f} %)" for n in counts)
        moves = sorted(r["moves"] for r in records)
        lines.append(
            f"| {name} | {s['games']} | {rates} | {s['depth_median']:g} "
            f"({s['depth_p10']:g}) | {s['think_ms_p50']:.1f} / {s['think_ms_p99']:.1f} / {s['think_ms_max']:.1f} | "
            f"{percentile(moves, 50):g} |"
        )
    return "\n".join(lines)


def machine() -> str:
    """The machine line under a results table: host, CPU model and count, Python."""
    cpu = platform.processor() or platform.machine()
    try:
        for text in Path("/proc/cpuinfo").read_text().splitlines():
            if text.startswith("model name"):
                cpu = text.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{platform.node()}: {cpu}, {os.cpu_count()} CPUs, Python {platform.python_version()}"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed-start", type=int, default=1)
    parser.add_argument("--think-ms", type=int, default=100)
    parser.add_argument("--algorithm", choices=("alphabeta", "expectimax"), default="alphabeta")
    parser.add_argument("--preset", help="the evaluation preset (default: the algorithm's own), e.g. learned")
    parser.add_argument("--parallel", type=int, default=2, help="pages (and lab processes) at a time")
    parser.add_argument("--stop-tile", type=int, default=2048)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--resume", action="store_true", help="keep the games the files hold; play the others")
    parser.add_argument("--lab", action="store_true", help="also play the seeds in the CPython lab, side by side")
    parser.add_argument("--timeout-min", type=float, default=30.0, help="the longest one game may take")
    parser.add_argument(
        "--workers", type=int, help="the page's AI workers (?workers=, 1 to 4; default: as many as the page chooses)"
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.parallel < 1:
        parser.error("--games and --parallel are at least 1")
    if args.think_ms not in THINK_STEPS_MS:
        parser.error(f"--think-ms is one of the page's steps: {', '.join(map(str, THINK_STEPS_MS))}")
    if args.stop_tile and (args.stop_tile < 4 or args.stop_tile & (args.stop_tile - 1)):
        parser.error(f"--stop-tile is 0 (play to the end) or a tile value from 4 up, got {args.stop_tile}")
    if args.timeout_min <= 0:
        parser.error("--timeout-min is positive")
    if args.workers is not None and not 1 <= args.workers <= 4:
        parser.error(f"--workers is 1 to 4, got {args.workers}")
    return args


def pending(out: Path, seeds: list[int], resume: bool, config: PlayConfig) -> list[int]:
    """The seeds still to play: all of them, or with ``resume`` those ``out`` does not hold (else it is emptied).

    A file holding games of another configuration is refused (``ConfigError``), as the lab's ``run --resume`` does.
    """
    if not resume or not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("")
        return seeds
    done, _others = resumable(out, config, seeds)
    return [seed for seed in seeds if seed not in done]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    config = PlayConfig(
        algorithm=args.algorithm, preset=args.preset, think_ms=float(args.think_ms), stop_tile=args.stop_tile
    )
    seeds = list(range(args.seed_start, args.seed_start + args.games))
    out = args.out
    try:
        to_play = pending(out, seeds, args.resume, config)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    failed = asyncio.run(play_games(to_play, args, config, out))
    rows = [("page (Chromium, Pyodide worker)", [r for r in read(out) if r["seed"] in seeds])]
    if args.lab:
        run_lab(seeds, args, lab_file(out))
        rows.append(("CPython lab", [r for r in read(lab_file(out)) if r["seed"] in seeds]))
    print(f"`python tools/bench_games.py {' '.join(sys.argv[1:] if argv is None else argv)}`")
    print(f"{date.today()}, {machine()}\n")
    print(table(rows, args.stop_tile))
    cut = [str(r["seed"]) for r in rows[0][1] if r.get("cut")]
    if cut:
        print(f"\nCut at the time limit while playing: seeds {', '.join(cut)} (their lines stand as the games stood)")
    print(f"\nRecords: {out}" + (f" and {lab_file(out)}" if args.lab else ""))
    if failed:
        print(f"Failed: seeds {', '.join(map(str, failed))} (run again with --resume to play them)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
