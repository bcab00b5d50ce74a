"""``python -m game2048.lab train``, ``export`` and ``greedy``: a TD training run with a progress bar, curve and
chart; its network written as the file the page downloads; its own float weights played greedily.

The bar (rich) shows games, moves per second and the last block's mean score
and 2048 / 8192 rates; on a pipe or a log it prints the same text as a line
at most every ``LOG_EVERY_S`` seconds (as ``progress`` does for games).  At
the end the curve is drawn to ``curve.png`` beside ``curve.jsonl`` and the
checkpoint, in the run's folder.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.progress import MofNCompleteColumn, Progress, TextColumn

from ...board import MAX_RANK
from ...evaluation import learned
from ...evaluation.ntuple_file import FORMAT
from ...evaluation.ntuple_shapes import SHAPES, parse_shape
from .. import arguments as A
from ..cluster import add_cluster_arguments, cluster_options, default_jobs
from ..config import is_shipped_network, parse_seeds, read_network
from ..intervals import wilson
from ..progress import LOG_EVERY_S, LOG_WIDTH, line_columns
from ..suite import SUITE_FILE, Suite, read_suite
from . import coherence_file
from .compare_runs import GREEDY_GAMES
from .export import coarsened_units, dequantized, quantize, write
from .story import story_of
from .sweep import run_sweep, sweep_runs
from .trainer import (
    MAX_OPTIMISTIC,
    TILES,
    TrainError,
    TrainOptions,
    TrainState,
    greedy_on,
    greedy_results,
    load_checkpoint,
    load_coherence,
    train,
)

DEFAULTS = TrainOptions()
SHIPPED = "shipped"
"""``greedy --network`` alone: the shipped network (argparse's const; a file of that name is ./shipped)."""


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The ``train`` subcommand's options."""
    parser = sub.add_parser("train", help="learn an n-tuple network by TD self-play (numba), with checkpoints")
    parser.add_argument(
        "--shape",
        default=DEFAULTS.shape,
        help=f"network shape: {', '.join(SHAPES)}, or tuples of cells '0,1,2,3;4,5,6,7/15' (default {DEFAULTS.shape})",
    )
    parser.add_argument(
        "--games",
        type=A.whole(1, A.MAX_TRAINING_GAMES),
        default=DEFAULTS.games,
        help=f"training games (default {DEFAULTS.games})",
    )
    rates = parser.add_mutually_exclusive_group()
    rates.add_argument(
        "--alpha",
        help=f"each weight's learning rate (default: an --init file's own; from zeros {DEFAULTS.alpha:g}, with "
        f"--coherence --board-alpha {COHERENCE_BOARD_ALPHA:g}); several, 0.0025,0.001, make a sweep: a run of each",
    )
    rates.add_argument(
        "--board-alpha",
        help="the literature's rate: a board's step, spread over the weights it reads (each weight moves by "
        "this / the shape's features, 1/32 for 1.0 with 4x6); several make a sweep",
    )
    seeds = parser.add_mutually_exclusive_group()
    seeds.add_argument("--seed", type=A.whole(*A.SEED), default=DEFAULTS.seed, help="the run's seed (default 1)")
    seeds.add_argument(
        "--seeds", help="a sweep: one run per seed, e.g. 1-8 or 1,2,5, each in its own folder under --out"
    )
    parser.add_argument(
        "--block",
        type=A.whole(1, A.MAX_TRAINING_GAMES),
        default=DEFAULTS.block,
        help=f"games per point of the curve (default {DEFAULTS.block})",
    )
    parser.add_argument(
        "--checkpoint-s",
        type=A.number(0, 1e9),
        default=DEFAULTS.checkpoint_s,
        help=f"seconds between checkpoints (default {DEFAULTS.checkpoint_s:g}; always one at the end)",
    )
    parser.add_argument(
        "--threads",
        type=A.whole(1, 256),
        default=1,
        help="threads sharing the weights without locks (default 1: reproducible)",
    )
    parser.add_argument(
        "--init",
        default="",
        help="start from this network file's weights (its manifest beside it), e.g. to fine-tune at a smaller alpha; "
        "--shape may add tuples to the file's, and they start at 0",
    )
    parser.add_argument(
        "--restart",
        action="store_true",
        help="play each game over again from halfway through, and again: more training of the late game",
    )
    parser.add_argument(
        "--coherence",
        action="store_true",
        help="temporal coherence learning: each weight's rate is alpha times how consistent its errors are",
    )
    parser.add_argument(
        "--late-alpha",
        type=float,
        help="each weight's rate in the shape's last stage (4x6-late: from 8192), e.g. 0.03125, the literature's 1.0 "
        "a board: the late game learned fast while a trained early stage goes on at --alpha (default: --alpha)",
    )
    parser.add_argument(
        "--late-starts",
        type=float,
        default=DEFAULTS.late,
        help="the share of games started where an earlier game's 16384 first formed, 0 to below 1 (default 0)",
    )
    parser.add_argument(
        "--optimistic",
        type=A.number(0, MAX_OPTIMISTIC),
        default=DEFAULTS.optimistic,
        help="a board's value before learning, for a run from zeros: every weight starts at it / the shape's "
        "features, so boards not yet learned look good and get tried (Guei et al. 2022: 320000; default 0)",
    )
    parser.add_argument(
        "--lambda",
        dest="lam",
        default=None,
        help="learn each episode at its end, backwards, by TD(lambda), 0 to 1 (default: TD(0) after every move); "
        "several, 0,0.5, make a sweep",
    )
    parser.add_argument(
        "--out", type=Path, required=True, help="the run's folder: checkpoint, curve, chart (a sweep's: its runs')"
    )
    parser.add_argument(
        "--resume", action="store_true", help="go on from the checkpoint in --out (a sweep: each run's)"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.add_argument(
        "--greedy-games",
        type=A.whole(0, A.MAX_GAMES),
        default=GREEDY_GAMES,
        help=f"a sweep's greedy games at the end of each run, for compare-runs (default {GREEDY_GAMES}; 0: none)",
    )
    add_cluster_arguments(
        parser,
        f"cores of a sweep's local cluster (default: every core, {default_jobs()}): a worker, and a run at a time, "
        "per --threads of them; 1 trains the runs one after another in this process, without Dask",
    )
    export = sub.add_parser("export", help="a trained run's network as the file the page downloads, with its manifest")
    export.add_argument("--run", type=Path, required=True, help="the training run's folder (its checkpoint)")
    export.add_argument("--out", type=Path, required=True, help="the network file to write, e.g. networks/4x6.ntn")
    export.add_argument("--prune", type=float, default=0.0, help="weights smaller than this become 0 (default 0)")
    export.add_argument(
        "--step", type=float, default=0.0, help="the value of one int16 unit, at least (default: the finest that fits)"
    )
    export.add_argument(
        "--coarsen",
        type=A.number(0, 1e15),
        default=0.0,
        metavar="SIZES",
        help="round a weight whose summed error sizes (the run's coherence accumulators) are under SIZES to a "
        "coarser grid, twice as coarse for each quarter of SIZES it falls short by: weights training rarely moved "
        "cost the value little and the file much (default 0: one step for every weight)",
    )
    export.add_argument(
        "--format",
        type=int,
        choices=(2, FORMAT),
        default=FORMAT,
        help=f"the file's format (default {FORMAT}: byte planes in xz; 2: zlib, for a page from before it)",
    )
    export.add_argument(
        "--games",
        type=A.whole(*A.GAMES),
        default=1000,
        help="greedy games of the exported file, for its manifest (default 1000)",
    )
    export.add_argument("--seed", type=A.whole(*A.SEED), default=1, help="the greedy games' seed (default 1)")
    export.add_argument(
        "--coherence",
        action="store_true",
        help="also write the run's coherence accumulators beside the file (FILE.coherence.npz, two bytes a weight), "
        "so train --init FILE --coherence goes on at the rates they reached",
    )
    export.add_argument(
        "--replace-shipped",
        action="store_true",
        help="allow --out to be the shipped network (networks/4x6.ntn), which the page downloads",
    )
    greedy = sub.add_parser("greedy", help="a trained run's or a network file's weights played greedily (1-ply)")
    played = greedy.add_mutually_exclusive_group(required=True)
    played.add_argument("--run", type=Path, help="the training run's folder (its checkpoint's float weights)")
    played.add_argument(
        "--network",
        nargs="?",
        const=SHIPPED,
        help="a network file (its manifest beside it), as export wrote it; alone: the shipped network",
    )
    greedy.add_argument("--games", type=A.whole(*A.GAMES), default=1000, help="greedy games (default 1000)")
    greedy.add_argument("--seed", type=A.whole(*A.SEED), default=1, help="the games' seed (default 1)")
    greedy.add_argument(
        "--suite",
        type=Path,
        nargs="?",
        const=SUITE_FILE,
        help="also play on each position of a late-game suite (default: the repository's) and count the conversions",
    )
    greedy.add_argument(
        "--repeats",
        type=A.whole(1, 10_000),
        default=1,
        help="trials of each suite position, with other spawns (default 1)",
    )


def train_command_line(options: dict[str, Any]) -> str:
    """The command that trains the run ``options`` describe (as a checkpoint keeps them)."""
    return (
        f"python -m game2048.lab train --shape {options['shape']} --games {options['games']} "
        f"--alpha {options['alpha']} --seed {options['seed']} --block {options['block']}"
        + (f" --threads {options['threads']}" if options.get("threads", 1) > 1 else "")
        + (f" --init {options['init']}" if options.get("init") else "")
        + (" --restart" if options.get("restart") else "")
        + (" --coherence" if options.get("coherence") else "")
        + (f" --lambda {options['lam']}" if options.get("lam") is not None else "")
        + (f" --late-alpha {options['late_alpha']}" if options.get("late_alpha") is not None else "")
        + (f" --late-starts {options['late']}" if options.get("late") else "")
    )


def greedy_line(greedy: dict[str, Any]) -> str:
    """``greedy_results`` for people: games, mean score, tile rates with their 95 % intervals (Wilson's).

    The games are a sample: two checks of one network over other seeds differ by about the interval's width."""
    games = int(greedy["games"])
    rates = []
    for tile in TILES:
        share = wilson(round(greedy[f"rate_{tile}"] * games), games)
        rates.append(f"{tile} {100 * share.rate:.1f}% ({100 * share.low:.1f}–{100 * share.high:.1f}%)")
    return f"greedy over {games} games: mean {greedy['mean_score']:,}, {', '.join(rates)}"


def greedy(args: argparse.Namespace) -> None:
    """Play a run's float weights (its checkpoint), or a network file's, greedily, as the papers measure a network;
    with ``--suite``, on the suite's positions too."""
    if args.run is not None:
        saved, state, weights = load_checkpoint(args.run)
        shape = parse_shape(str(saved["shape"]))
        name = f"{args.run} ({state.games:,} games trained)"
    else:
        network, manifest = read_network(None if args.network == SHIPPED else args.network)
        shape, weights = network.shape, dequantized(network)
        trained = manifest.get("trained_games")
        where = "the shipped network" if args.network == SHIPPED else args.network
        name = f"{where} ({trained:,} games trained)" if isinstance(trained, int) else str(where)
    suite = read_suite(args.suite) if args.suite is not None else None  # a bad file is said before the games
    results = greedy_results(shape, weights, args.games, args.seed)
    print(f"{name}, seed {args.seed}: {greedy_line(results)}")
    if suite is not None:
        print(suite_line(suite, greedy_on(shape, weights, [p.board for p in suite.positions], args.repeats, args.seed)))


def suite_line(suite: Suite, stats: np.ndarray) -> str:
    """``greedy_on``'s trials of ``suite`` for people: the share reaching each tile past the suite's, with its
    interval, and the points scored after the positions."""
    trials = stats.shape[0]
    repeats = trials // len(suite.positions)
    shares = []
    for rank in range(suite.tile.bit_length(), MAX_RANK + 1):
        share = wilson(int((stats[:, 1] >= rank).sum()), trials)
        shares.append(f"{1 << rank} {100 * share.rate:.1f} % ({100 * share.low:.1f}–{100 * share.high:.1f} %)")
    return (
        f"the suite ({len(suite.positions)} positions at {suite.tile}"
        + (f", {repeats} trials each" if repeats > 1 else "")
        + f"), greedy: {', '.join(shares)}; mean {stats[:, 0].mean():,.0f} points after the position"
    )


def export(args: argparse.Namespace) -> None:
    """Quantize a run's weights, write the network file and its manifest, with the file's own greedy results."""
    if is_shipped_network(args.out) and not args.replace_shipped:
        raise TrainError(
            f"{args.out} is the shipped network, the one the page downloads: export to a file of your own "
            "(e.g. lab-out/mine.ntn), or add --replace-shipped"
        )
    saved, state, weights = load_checkpoint(args.run)
    shape = parse_shape(str(saved["shape"]))
    for flag, wanted in (("--coherence", args.coherence), ("--coarsen", args.coarsen)):
        if wanted and not saved.get("coherence"):
            raise TrainError(f"{args.run} was trained without --coherence: it has no accumulators for {flag}")
    tc = load_coherence(args.run, shape.weights) if args.coherence or args.coarsen else None
    units = coarsened_units(tc[1], args.coarsen) if args.coarsen and tc is not None else None
    network = quantize(shape, weights, args.prune, args.step, units)
    greedy = greedy_results(shape, dequantized(network), args.games, args.seed)
    made = {
        "trained_games": state.games,
        "trained_moves": state.moves,
        "alpha": saved["alpha"],
        "seed": saved["seed"],
        "command": train_command_line({**saved, "games": state.games}),
        **({"init_sha256": state.init_sha256} if state.init_sha256 else {}),
        "prune": args.prune,
        "step": network.scale,
        **({"coarsen": args.coarsen} if args.coarsen else {}),
        "greedy": greedy,
        "exported": date.today().isoformat(),
        "story": story_of(saved, shape, state.games, state.curve, state.init_sha256, greedy),
    }
    if args.coherence:
        made["coherence"] = coherence_file.path_for(args.out).name
    manifest = write(network, args.out, made, args.format)
    print(
        f"{args.out}: {manifest['bytes']:,} bytes (format {args.format}), {manifest['memory_bytes'] / 1e6:.0f} MB "
        "of tables, "
        f"sha256 {manifest['sha256'][:16]}…; its check, a sample (greedy measures more games): {greedy_line(greedy)}"
    )
    if tc is not None and args.coherence:
        kept = coherence_file.write(args.out, tc, manifest["sha256"])
        print(f"{kept}: its coherence accumulators, {kept.stat().st_size / 1e6:.1f} MB")


class TrainProgress:
    """The run's bar on a terminal, or a line per ``LOG_EVERY_S`` in a log; fed one block at a time."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.console = Console(stderr=True)
        self.interactive = self.console.is_interactive
        if not self.interactive:
            self.console.width = LOG_WIDTH
        self.enabled = enabled
        self.bar = Progress(
            *line_columns(
                self.interactive,
                MofNCompleteColumn(),
                TextColumn("games, {task.fields[speed]} moves/s, last block: mean {task.fields[score]},"),
                TextColumn("{task.fields[rates]},"),
            ),
            console=self.console,
            disable=not (enabled and self.interactive),
        )
        self.task = self.bar.add_task("train", total=total, speed="–", score="–", rates="–")
        self.last_log = time.perf_counter()
        self.bar.start()

    def __call__(self, state: TrainState, point: dict[str, float]) -> None:
        rates = ", ".join(f"{tile} {100 * point[f'rate_{tile}']:.1f}%" for tile in TILES[:2])
        self.bar.update(
            self.task,
            completed=state.games,
            speed=f"{point['moves_per_s']:,.0f}",
            score=f"{point['mean_score']:,.0f}",
            rates=rates,
        )
        now = time.perf_counter()
        if self.enabled and not self.interactive and now - self.last_log >= LOG_EVERY_S:
            self.console.print(self.bar.get_renderable())
            self.last_log = now

    def close(self) -> None:
        self.bar.stop()


def parse_values(text: str | None, flag: str) -> list[float]:
    """``0.0025,0.001`` → ``[0.0025, 0.001]`` (``--alpha``, ``--lambda``); None → ``[]``."""
    try:
        values = [float(part) for part in (text or "").split(",") if part.strip()]
    except ValueError:
        raise ValueError(f"{flag} is a number or numbers such as 0.0025,0.001; got {text!r}") from None
    if text is not None and not values:
        raise ValueError(f"{flag} names no value")
    return list(dict.fromkeys(values))


COHERENCE_BOARD_ALPHA = 1.0
"""The board's rate a run with temporal coherence learns at unless told: the literature's (Jaśkowski 2018,
TDL2048 and ziap/2048-tdl ``-a 1.0``), spread over the board's features; coherence slows each weight down
itself once its errors cancel."""


def weight_alphas(args: argparse.Namespace) -> list[float]:
    """Each weight's rate(s) the command asks for: ``--alpha`` as given, ``--board-alpha`` over the shape's
    features, or the default: from a file (``--init``), the rate its manifest says it was trained at; from
    zeros, the board's ``COHERENCE_BOARD_ALPHA`` with ``--coherence``, else ``DEFAULTS.alpha`` (Szubert &
    Jaśkowski's 0.0025 a weight).  A faster rate than a file's own makes every weight with fresh accumulators
    move at full speed first, and the network forgets what it knew (docs/results.md, "Going on from a file")."""
    if args.alpha is not None:
        return parse_values(args.alpha, "--alpha")
    features = parse_shape(args.shape).features
    if args.board_alpha is not None:
        return [board / features for board in parse_values(args.board_alpha, "--board-alpha")]
    if args.init:
        return [trained_alpha(Path(args.init))]
    if args.coherence:
        return [COHERENCE_BOARD_ALPHA / features]
    return [DEFAULTS.alpha]


def trained_alpha(network: Path) -> float:
    """The rate a weight of ``network`` was trained at, as its manifest says (``DEFAULTS.alpha`` when it does not:
    the trainer then says what is wrong with the file)."""
    try:
        alpha = json.loads(network.with_suffix(".json").read_text())["alpha"]
    except (OSError, ValueError, KeyError, TypeError):
        return DEFAULTS.alpha
    return float(alpha) if isinstance(alpha, (int, float)) and 0 < alpha <= 1 else DEFAULTS.alpha


def run(args: argparse.Namespace) -> None:
    """Train as ``args`` say, print where the run stands, draw its curve; a sweep (``sweep``) when asked for."""
    alphas = weight_alphas(args)
    lambdas: list[float | None] = [*parse_values(args.lam, "--lambda")] or [None]
    seeds = parse_seeds(args.seeds, None, 0) if args.seeds else [args.seed]
    options = TrainOptions(
        shape=args.shape,
        games=args.games,
        alpha=alphas[0],
        seed=seeds[0],
        block=args.block,
        checkpoint_s=args.checkpoint_s,
        threads=args.threads,
        init=args.init,
        restart=args.restart,
        coherence=args.coherence,
        lam=lambdas[0],
        late=args.late_starts,
        late_alpha=args.late_alpha,
        optimistic=args.optimistic,
    )
    if args.seeds or len(alphas) > 1 or len(lambdas) > 1 or args.scheduler:
        if args.greedy_games < 0:
            raise ValueError(f"--greedy-games is 0 or more, got {args.greedy_games}")
        runs = sweep_runs(options, seeds, alphas, lambdas, named_seeds=bool(args.seeds))
        where = cluster_options(args, cpus_per_worker=options.threads)
        if where.scheduler is None:  # a local worker per --threads cores of --jobs
            where = replace(where, jobs=max(1, where.workers // options.threads))
        print(f"a sweep of {len(runs)} training runs of {parse_shape(options.shape).describe()} into {args.out}")
        run_sweep(runs, args.out, args.resume, args.greedy_games, where, not args.no_progress)
        return
    shape = parse_shape(options.shape)
    print(
        f"training {shape.describe()}; {options.games:,} games, alpha {options.alpha:g} a weight "
        f"({options.alpha * shape.features:g} a board), seed {options.seed}"
        + (f", {options.threads} threads" if options.threads > 1 else "")
        + (f", from {options.init}" if options.init else "")
        + (", restart strategy" if options.restart else "")
        + (", temporal coherence" if options.coherence else "")
        + (f", backward TD(λ = {options.lam:g})" if options.lam is not None else "")
        + (f", alpha {options.late_alpha:g} a weight in the last stage" if options.late_alpha is not None else "")
        + (f", {100 * options.late:g} % of games from late boards" if options.late else "")
        + (f", every board first valued at {options.optimistic:,.0f}" if options.optimistic else "")
    )
    progress = TrainProgress(options.games, enabled=not args.no_progress)
    try:
        state, _ = train(options, args.out, resume=args.resume, report=progress)
    finally:
        progress.close()
    print(summary_line(state))
    if state.init_coherence:
        print(f"the coherence accumulators started from {coherence_file.path_for(Path(options.init))}")
    from ..charts import learning_curve_chart

    shipped = learned.manifest().get("greedy")  # the figure a student's run is measured against
    chart = learning_curve_chart(state.curve, args.out / "curve.png", shape.describe(), shipped)
    print(f"checkpoint, curve and chart in {args.out} ({chart.name})")


def summary_line(state: TrainState) -> str:
    """Games, moves, speed over the whole run, and the last block's mean score and tile rates."""
    last = state.curve[-1] if state.curve else {}
    rates = ", ".join(f"{tile}: {100 * last.get(f'rate_{tile}', 0):.1f}%" for tile in TILES)
    speed = state.moves / state.seconds if state.seconds else 0.0
    return (
        f"{state.games:,} games, {state.moves:,} moves in {state.seconds:,.0f} s ({speed:,.0f} moves/s); "
        f"last block: mean score {last.get('mean_score', 0):,.0f}, {rates}"
    )
