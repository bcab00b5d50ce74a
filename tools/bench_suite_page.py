"""Late-game suite positions played on to the end by the page's own autoplay in Chromium, as a person would.

    python tools/bench_suite_page.py --positions 100022,100038 [--think-ms 100] [--workers 2]
                                     [--out lab-out/suite-page.jsonl] [--resume] [--timeout-min 120]
                                     [--stop-tile 0]

A suite position (``game2048.lab.suite``) is where a 16384 first formed in a
source game played at depth 1 by the network the suite names (its SHA-256:
the shipped file, or one kept in ``networks/training/``).  The page cannot be
handed a bare board with its score and moves, so each position is reached as
a person would reach it: the source game is played again in CPython (the
suite's own command, one seed, checked to end on the suite's board, score and
moves), saved as a lab file, opened in the page's "Your games", replayed to
its end, and "Play from here" goes on from it; then the page's slider, menus
and Autoplay play it to the end (``bench_games.play_game``).  The spawns from
there are the source game's own generator's, not the lab suite's
``MersenneTwister(seed)`` restart, so a page game and the lab's game of the
same position part ways at the first spawn.

Each game is written to ``--out`` as a lab line holding the position
(``start``, ``start_moves``, the suite's digest) and the whole record; its
think-time figures count only the moves the page chose.  The table says, per
position, the tile reached, the score, the moves after the position, the
think time of those moves (mean, p50, p99, max), the depth, the wall time and
the last board.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_games  # noqa: E402
from serve import REPO_ROOT  # noqa: E402

sys.path.insert(0, str(REPO_ROOT / "py"))
from app.ai.settings import THINK_STEPS_MS  # noqa: E402
from game2048 import board as B  # noqa: E402
from game2048.evaluation import learned  # noqa: E402
from game2048.game_record import GameRecord, replay  # noqa: E402
from game2048.lab.config import ConfigError, PlayConfig, use_network  # noqa: E402
from game2048.lab.play import play_game as lab_play_game  # noqa: E402
from game2048.lab.records import read, to_line  # noqa: E402
from game2048.lab.suite import SUITE_FILE, Position, Suite, read_suite  # noqa: E402

DEFAULT_OUT = REPO_ROOT / "lab-out" / "suite-page.jsonl"
NETWORKS = learned.NETWORK_DIR
"""Where the suite's source network is looked for by its SHA-256 (the shipped file and the kept ones)."""
SOURCE_CONFIG = PlayConfig(algorithm="expectimax", preset="learned", depth=1, stop_tile=16384)
"""How the suite's source games were played (its file's ``source.player``); checked against the file."""


class SourceError(Exception):
    """A suite position that cannot be reached as the suite file says (another network, a changed rule)."""


def source_network(suite: Suite, kept: Path = NETWORKS) -> str | None:
    """The network file the suite's source games were played with: the one under ``kept`` (``networks/`` and its
    ``training/``) whose manifest names the suite's ``network_sha256``; ``None`` for the shipped one.

    ``SourceError`` when no kept file is that network (the suite was made with a file the repository lost).
    """
    wanted = suite.source.get("network_sha256")
    for manifest in sorted(kept.glob("*.json")) + sorted(kept.glob("training/*.json")):
        try:
            named = json.loads(manifest.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(named, dict) and named.get("sha256") == wanted:
            file = manifest.with_suffix(".ntn")
            return None if file == kept / learned.NETWORK_FILE else str(file)
    raise SourceError(f"no network under {kept} is the suite's ({str(wanted)[:8]}…): its source games cannot be made")


def source_game(suite: Suite, position: Position) -> dict[str, Any]:
    """The lab line of ``position``'s source game played again in CPython, up to the move its tile formed.

    ``SourceError`` when the suite was made another way than ``SOURCE_CONFIG``, its network is not kept
    (``source_network``), or the game played again does not end on the position's board, score and moves.
    """
    config = replace(SOURCE_CONFIG, stop_tile=suite.tile)
    player = suite.source.get("player")
    if player != config.label():
        raise SourceError(f"the suite's games were played by {player!r}, not {config.label()!r}")
    network = source_network(suite)
    try:
        line = lab_play_game(position.seed, replace(config, network=network))
    finally:
        use_network(None)  # this process's ``learned`` is the shipped network again, whatever the suite's was
    game = replay(GameRecord.from_dict(line["record"]))
    if (game.board, game.score, game.moves) != (position.board, position.score, position.moves):
        raise SourceError(
            f"source game {position.seed} played again ends on another position than the suite's "
            f"({game.moves} moves, {game.score:,} points), with {network or 'the shipped network'}"
        )
    return line


def open_position(file_bytes: bytes, seed: int) -> Any:
    """The ``prepare`` step of ``bench_games.play_game``: the source game opened, replayed to its end, played on."""

    async def prepare(page: Any) -> None:
        await page.focus("#board")
        await page.keyboard.press("g")
        await page.set_input_files(
            "#games-file",
            files=[{"name": f"source-{seed}.jsonl", "mimeType": "application/json", "buffer": file_bytes}],
        )
        await page.wait_for_selector("#games-table")
        await page.click("#games-table tbody tr:nth-child(1) .games-open")
        await page.wait_for_selector("#replay-view", state="visible", timeout=120_000)
        await page.keyboard.press("End")
        await page.click("#replay-from-here")
        await page.wait_for_selector("#replay-view", state="hidden")
        await page.wait_for_selector('#board[data-settled="true"]', state="attached")

    return prepare


def page_line(
    record: GameRecord, config: PlayConfig, seconds: float, suite: Suite, position: Position, cut: bool = False
) -> dict:
    """The lab line of ``position`` played on in the page: its moves after the position are the page AI's.

    ``cut``: ``--timeout-min`` stopped it still playing (``bench_games.lab_line``).

    ``ValueError`` when the record does not go through the position (another game was saved) or a move after
    it was not chosen by the page's AI with ``config`` (``bench_games.lab_line``).
    """
    start = position.moves
    if len(record.moves) < start or replay(record, start).board != position.board:
        raise ValueError(f"the page's game {record.seed} does not go through the suite's position")
    line = bench_games.lab_line(record, config, seconds, start=start, cut=cut)
    return {**line, "start": position.to_json(), "start_moves": start, "suite": suite.digest}


def position_player(suite: Suite, args: argparse.Namespace, config: PlayConfig) -> Any:
    """``bench_games.play_games``' ``play_one`` for suite positions: a position's source game made, opened in the
    page and played on; its lab line."""
    by_seed = {p.seed: p for p in suite.positions}

    async def play_one(browser: Any, base_url: str, seed: int) -> dict[str, Any]:
        position = by_seed[seed]
        prepare = open_position(to_line(source_game(suite, position)).encode(), seed)
        team: list[str] = []

        async def watch(page: Any, seconds: float) -> None:
            """Say how the game goes, and keep what the page says of its workers (the line's ``workers_said``)."""
            team[:] = [await page.text_content("#ai-workers") or ""]
            score, top = await page.text_content("#score"), await page.evaluate(bench_games.TOP_TILE_JS)
            print(
                f"page: position {seed}, {seconds / 60:.0f} min: score {score}, top tile {top}; {team[0]}",
                file=sys.stderr,
            )

        played = await bench_games.play_game(browser, base_url, seed, args, prepare, watch)
        line = page_line(GameRecord.from_dict(played.record), config, played.seconds, suite, position, played.cut)
        return {**line, "workers_said": team[0] if team else ""}

    return play_one


def table(lines: list[dict]) -> str:
    """One row a position: tile reached, score, moves after it, think time of the page's moves, depth, time, board."""
    rows = [
        "| position (seed) | reached | score | moves after the position | think ms mean / p50 / p99 / max "
        "| depth median (p10) | minutes | last board |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for line in lines:
        think = line["_think_ms"] or [0.0]
        board = " / ".join(
            " ".join(str(v) for v in row) for row in B.to_rows(replay(GameRecord.from_dict(line["record"])).board)
        )
        reached = f"{line['max_tile']}, cut still playing" if line.get("cut") else str(line["max_tile"])
        rows.append(
            f"| {line['seed']} | {reached} | {line['score']:,} | {line['moves'] - line['start_moves']:,} "
            f"| {sum(think) / len(think):.1f} / {line['think_ms_p50']:.1f} / {line['think_ms_p99']:.1f} / "
            f"{line['think_ms_max']:.1f} | {line['depth_median']:g} ({line['depth_p10']:g}) "
            f"| {line['seconds'] / 60:.0f} | {board} |"
        )
    return "\n".join(rows)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--positions", required=True, help="the suite's positions to play, by their source seeds: 100022,100038"
    )
    parser.add_argument("--think-ms", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2, help="the page's AI workers (?workers=, 1 to 4; default 2)")
    parser.add_argument("--suite", type=Path, default=SUITE_FILE, help="the suite file (default: the repository's)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--resume", action="store_true", help="keep the positions --out holds; play the others")
    parser.add_argument("--timeout-min", type=float, default=120.0, help="the longest one game may take")
    parser.add_argument(
        "--stop-tile",
        type=int,
        default=0,
        help="stop once this tile shows (default 0: play to the end; the suite's own tile stops at once, a check)",
    )
    args = parser.parse_args(argv)
    try:
        args.seeds = [int(text) for text in args.positions.split(",")]
    except ValueError:
        parser.error(f"--positions is a comma-separated list of source seeds, got {args.positions!r}")
    if args.think_ms not in THINK_STEPS_MS:
        parser.error(f"--think-ms is one of the page's steps: {', '.join(map(str, THINK_STEPS_MS))}")
    if not 1 <= args.workers <= 4:
        parser.error(f"--workers is 1 to 4, got {args.workers}")
    if args.timeout_min <= 0:
        parser.error("--timeout-min is positive")
    if args.stop_tile and (args.stop_tile < 4 or args.stop_tile & (args.stop_tile - 1)):
        parser.error(f"--stop-tile is 0 (play to the end) or a tile value from 4 up, got {args.stop_tile}")
    # what bench_games.play_game chooses in the page; one page at a time (its two workers take both cores)
    args.algorithm, args.preset, args.parallel = "expectimax", "learned", 1
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    config = PlayConfig(
        algorithm=args.algorithm, preset=args.preset, think_ms=float(args.think_ms), stop_tile=args.stop_tile
    )
    try:
        suite = read_suite(args.suite)
        held = {p.seed for p in suite.positions}
        missing = [seed for seed in args.seeds if seed not in held]
        if missing:
            raise ConfigError(f"the suite has no position of seed {', '.join(map(str, missing))}")
        to_play = bench_games.pending(args.out, args.seeds, args.resume, config)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    play_one = position_player(suite, args, config)
    failed = asyncio.run(bench_games.play_games(to_play, args, config, args.out, play_one))
    lines = [r for r in read(args.out) if r["seed"] in args.seeds and r.get("suite") == suite.digest]
    print(f"`python tools/bench_suite_page.py {' '.join(sys.argv[1:] if argv is None else argv)}`")
    print(f"{date.today()}, {bench_games.machine()}\n")
    print(table(lines))
    print("\n" + "\n".join(f"Position {line['seed']}: {line.get('workers_said', '')}" for line in lines))
    print(f"\nRecords: {args.out}")
    if failed:
        print(f"Failed: positions {', '.join(map(str, failed))} (run again with --resume to play them)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
