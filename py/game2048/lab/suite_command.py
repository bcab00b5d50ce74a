"""``python -m game2048.lab suite`` and ``make-suite``: the late-game suite played on by any player, and made.

``suite`` plays every position of the suite (or a seeded sample) to the end, each a task on the lab's cluster
like every batch of games, writes each game to ``--out`` as it ends (``--resume`` keeps them), and reports how
many positions reached each tile past the suite's, with Wilson's 95 % interval, beside the score and moves.
``make-suite`` takes the positions from lab games stopped at the tile (``run --stop-tile 16384 --out``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..board import MAX_RANK
from ..search import ALGORITHMS
from . import arguments as A
from .cluster import add_cluster_arguments, cluster_for, cluster_options
from .config import ConfigError, PlayConfig, add_think_policy, network_sha256, play_config
from .intervals import wilson
from .play import play_games
from .records import RecordFile, config_key, read, stopped_note
from .suite import SUITE_FILE, Suite, build_suite, read_suite, suite_records, write_suite
from .summary import format_summary, summarize, text_table

Record = dict[str, Any]

FINAL_TILES = tuple(1 << rank for rank in range(2, MAX_RANK + 1))
"""Tiles a suite game may reach past the suite's, up to 32768 (the largest a board holds)."""


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The ``suite`` and ``make-suite`` subcommands' options."""
    play = sub.add_parser("suite", help="the late-game suite's positions played on to the end: how many reach 32768")
    play.add_argument("--suite", type=Path, default=SUITE_FILE, help="the suite file (default: the repository's)")
    play.add_argument(
        "--sample", type=A.whole(*A.GAMES), help="play this many positions, drawn by --sample-seed (default: all)"
    )
    play.add_argument("--sample-seed", type=A.whole(*A.SEED), default=1, help="the sample's seed (default 1)")
    play.add_argument("--algorithm", choices=ALGORITHMS, default="expectimax")
    play.add_argument("--preset", default="learned", help="evaluation preset (default learned)")
    play.add_argument("--weights", help="weights over the preset's defaults: name=value,name=value")
    play.add_argument(
        "--network", help="the network file the learned preset reads (its manifest beside it; default: the shipped one)"
    )
    timing = play.add_mutually_exclusive_group()
    timing.add_argument("--think-ms", type=A.THINK_MS, default=100.0, help="think time per move (default 100)")
    timing.add_argument("--depth", type=A.DEPTH, help="fixed depth per move instead of a time (reproducible)")
    add_think_policy(play)
    play.add_argument(
        "--stop-tile", type=A.STOP_TILE, default=0, help="stop a game at this tile (default 0: to the end)"
    )
    play.add_argument("--out", type=Path, required=True, help="one JSON line per game, each written as it ends")
    play.add_argument("--resume", action="store_true", help="keep the games --out holds and play only the others")
    play.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    add_cluster_arguments(play)
    make = sub.add_parser("make-suite", help="a late-game suite from lab games stopped at a tile (run --stop-tile)")
    make.add_argument("games", type=Path, nargs="+", help="JSON-lines files written by run --stop-tile TILE --out")
    make.add_argument("--tile", type=A.STOP_TILE, default=16384, help="the tile the games stopped at (default 16384)")
    make.add_argument("--out", type=Path, required=True, help="the suite file to write")


def make(args: argparse.Namespace) -> None:
    """Write the suite of the games in ``args.games`` and say how many positions it holds."""
    records = [record for path in args.games for record in read(path)]
    keys = {config_key(record) for record in records}
    if len(keys) > 1:
        raise ConfigError("the games were played by more than one configuration: give one player's games")
    network = network_sha256(records[0].get("network")) if records and records[0].get("preset") == "learned" else ""
    suite = build_suite(records, args.tile, source_command(records), network)
    write_suite(suite, args.out)
    print(f"{args.out}: {len(suite.positions)} positions at {suite.tile}, from {len(records)} games")


def source_command(records: Sequence[Record]) -> str:
    """The lab command that plays ``records``' games again (their configuration and seeds)."""
    first = records[0]
    seeds = sorted(r["seed"] for r in records)
    timing = f"--depth {first['depth']}" if first.get("depth") is not None else f"--think-ms {first['think_ms']:g}"
    return (
        f"python -m game2048.lab run --algorithm {first['algorithm']} --preset {first['preset']} {timing} "
        f"--stop-tile {first['stop_tile']} --seeds {seeds[0]}-{seeds[-1]}"
        + (f" --network {first['network']}" if first.get("network") else "")
    )


def run(args: argparse.Namespace) -> None:
    """Play the suite's positions as ``args`` say (resuming from ``--out``), then print the conversion table."""
    suite = read_suite(args.suite)
    positions = suite.sample(args.sample, args.sample_seed)
    config = play_config(args)
    if config.stop_tile and config.stop_tile <= suite.tile:
        raise ConfigError(f"--stop-tile {config.stop_tile} stops before the suite's {suite.tile} is played on")
    seeds = [p.seed for p in positions]
    done, others = _resumable(args.out, suite, config, seeds) if args.resume else ({}, [])
    if not args.resume and args.out.exists():
        raise ConfigError(f"{args.out} exists: --resume keeps its games, or give another --out")
    to_play = [p for p in positions if p.seed not in done]
    where = cluster_options(args)
    print(
        f"{config.label()}: {len(positions)} of the suite's {len(suite.positions)} positions at {suite.tile} "
        f"({args.suite.name}), played on "
        + ("to the end" if not config.stop_tile else f"to {config.stop_tile}")
        + (f"; {len(done)} read back from {args.out}" if done else ""),
        flush=True,
    )
    sink = RecordFile(args.out, keep=[*others, *done.values()])
    try:
        with cluster_for(where, len(to_play)) as cluster:
            if cluster is not None:
                text = cluster.describe()
                print(text[0].upper() + text[1:], flush=True)
            played = play_games(
                [p.seed for p in to_play],
                config,
                1,
                not args.no_progress,
                on_record=lambda record: sink.add({**record, "suite": suite.digest}),
                cluster=cluster,
                starts={p.seed: p for p in to_play},
            )
    except BaseException:
        sink.close()
        print(f"\n{stopped_note(args.out, len(sink.records))}", file=sys.stderr)
        raise
    sink.finish()
    by_seed = {**done, **{r["seed"]: r for r in played}}
    print(report([by_seed[seed] for seed in seeds], suite.tile, config.stop_tile))
    print(f"games written to {args.out}")


def _resumable(
    path: Path, suite: Suite, config: PlayConfig, seeds: Sequence[int]
) -> tuple[dict[int, Record], list[Record]]:
    """(the games of ``seeds`` that ``path`` holds, by seed; its other games of this suite, kept)."""
    if not path.exists():
        return {}, []
    records = read(path)
    key = config_key(config.to_dict())
    for record in records:
        if config_key(record) != key:
            raise ConfigError(f"{path} holds games of another player; resume with that one or give another --out")
    games = suite_records(records, suite)
    wanted = set(seeds)
    return {s: r for s, r in games.items() if s in wanted}, [r for s, r in games.items() if s not in wanted]


def report(records: Sequence[Record], tile: int, stop_tile: int = 0) -> str:
    """How many positions reached each tile past ``tile`` (Wilson's 95 % interval), then the batch's summary."""
    n = len(records)
    rows = []
    for goal in FINAL_TILES:
        if goal <= tile or (stop_tile and goal > stop_tile):
            continue
        share = wilson(sum(1 for r in records if r["max_tile"] >= goal), n)
        rows.append([str(goal), f"{share.k} of {n}", f"{100 * share.rate:.1f} %", _interval(share.low, share.high)])
    after = [r["moves"] - r.get("start_moves", 0) for r in records]
    scores = sorted(r["score"] for r in records)
    return "\n".join(
        [
            text_table(("reached", "positions", "share", "95 % interval (Wilson)"), rows),
            f"score mean {sum(scores) / n:,.0f}, median {scores[n // 2]:,}; "
            f"moves after the position: mean {sum(after) / n:,.0f}",
            format_summary(summarize(records), stop_tile),
        ]
    )


def _interval(low: float, high: float) -> str:
    return f"{100 * low:.1f}–{100 * high:.1f} %"
