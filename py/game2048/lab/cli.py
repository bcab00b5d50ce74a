"""The lab's command line: ``run | features | compare | summary | link | agreement | explain``, ``train`` / ``export``
/ ``greedy`` / ``compare-runs`` (TD learning: ``training``), ``suite`` / ``make-suite`` (``suite_command``),
``review`` / ``review-truth`` (``review_command``).

Examples::

    python -m game2048.lab run --algorithm expectimax --games 30 --think-ms 100 --stop-tile 0 --out ex.jsonl [--resume]
    python -m game2048.lab summary ex.jsonl
    python -m game2048.lab link ex.jsonl --seed 7
    python -m game2048.lab run --games 50 --seed-start 1 --depth 3 --stop-tile 2048
    python -m game2048.lab features --preset classic --games 20 --depth 2 --report reports/classic-features
    python -m game2048.lab compare --config alphabeta:classic --config expectimax:rows --games 20 --depth 2
    python -m game2048.lab agreement --games 3 --seed-start 2001 --reference-depth 10 --think-ms 100
    python -m game2048.lab explain --rows "0 2 4 8 / 0 0 2 16 / 0 0 0 4 / 0 0 0 2" --exact-root
    python -m game2048.lab train --shape 2x4+2x6 --games 500000 --alpha 0.0025 --out lab-out/sj2014  # the paper's
    python -m game2048.lab export --run lab-out/page4x6 --out lab-out/mine.ntn --prune 2
    python -m game2048.lab compare-runs lab-out/mine.ntn --against networks/4x6.ntn
    python -m game2048.lab greedy --run lab-out/sj2014 --games 1000  # or --network lab-out/mine.ntn
    python -m game2048.lab train --shape 2x4+2x6 --games 500000 --seeds 1-8 --out lab-out/sj2014
    python -m game2048.lab compare-runs lab-out/sj2014/seed-* --against lab-out/tdl2048/seed-*
    python -m game2048.lab suite --think-ms 100 --sample 24 --out lab-out/suite-em100.jsonl

Seeds are ``--games N --seed-start S`` or ``--seeds 1,2,10-14``.  ``--depth``
makes every game reproducible (the same command prints the same games);
``--think-ms`` measures what the page would do on this machine.  ``run --out``
saves each game as it ends; after an interruption the same command with
``--resume`` plays only the games the file does not hold yet.  Several games
at a time are Dask tasks (``cluster``): on a local cluster of ``--jobs`` worker
processes started for the command, or on ``--scheduler``'s; ``--jobs 1`` plays
them in this process.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..game_link import LINK_PARAM, encode_game
from ..search import ALGORITHMS
from . import arguments as A
from . import review_command, suite_command
from .agreement import Searcher, measure
from .agreement import report as agreement_report
from .cluster import Cluster, ClusterOptions, add_cluster_arguments, cluster_for, cluster_options, default_jobs
from .config import (
    ConfigError,
    PlayConfig,
    add_think_policy,
    parse_config_spec,
    parse_seeds,
    parse_weights,
    play_config,
)
from .experiments import run_compare, run_features
from .play import play_games
from .records import RecordFile, config_key, game_record, played_option, read, resumable, stopped_note
from .summary import COMPARE_COLUMNS, format_games, format_summary, summarize, text_table
from .training import command, compare_runs
from .training.trainer import TrainError


def _seed_options(parser: argparse.ArgumentParser, games: int = 10, seed_start: int = 1, why: str = "") -> None:
    """``--games``, ``--seed-start``, ``--seeds``: read by every command that plays seeded games (``parse_seeds``)."""
    seeds = parser.add_argument_group("games")
    seeds.add_argument("--games", type=A.whole(*A.GAMES), default=games, help=f"number of games (default {games})")
    seeds.add_argument(
        "--seed-start", type=A.whole(*A.SEED), default=seed_start, help=f"first seed (default {seed_start}{why})"
    )
    seeds.add_argument("--seeds", help="explicit seeds, e.g. 1,2,10-14 (overrides --games)")


def _search_options(parser: argparse.ArgumentParser, *, config: bool = True) -> None:
    """``--algorithm``, ``--preset``, ``--weights`` (unless ``config`` is False) and ``--think-ms`` or ``--depth``."""
    if config:
        parser.add_argument("--algorithm", choices=ALGORITHMS, default="alphabeta")
        parser.add_argument("--preset", help="evaluation preset (default: the algorithm's own)")
        parser.add_argument("--weights", help="weights over the preset's defaults: name=value,name=value")
    timing = parser.add_mutually_exclusive_group()
    timing.add_argument("--think-ms", type=A.THINK_MS, default=100.0, help="think time per move (default 100)")
    timing.add_argument("--depth", type=A.DEPTH, help="fixed depth per move instead of a time (reproducible)")


def _common(parser: argparse.ArgumentParser, *, config: bool = True) -> None:
    _seed_options(parser)
    _search_options(parser, config=config)
    parser.add_argument(
        "--stop-tile",
        type=A.STOP_TILE,
        default=2048,
        help="stop a game at this tile; 0 plays to the end (default 2048)",
    )
    parser.add_argument(
        "--reductions",
        action="store_true",
        help="alpha-beta with late-move reductions: deeper, not stronger (see docs/results.md)",
    )
    parser.add_argument(
        "--no-rescue",
        dest="rescue",
        action="store_const",
        const=False,
        default=None,
        help="alpha-beta without the rescue search (which, once a loss is proven, plays against 2s only)",
    )
    add_cluster_arguments(parser)
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m game2048.lab", description="Seeded 2048 games played by the AI, measured."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="play N seeded games with one configuration and summarise them")
    _common(run)
    run.add_argument("--out", type=Path, help="write one JSON line per game here, each as soon as it ends")
    run.add_argument(
        "--network", help="the network file --preset learned reads (its manifest beside it; default: the shipped one)"
    )
    add_think_policy(run)
    run.add_argument(
        "--resume", action="store_true", help="keep the games --out already holds and play only the others"
    )
    feat = sub.add_parser("features", help="each feature of a preset alone as the evaluation, then the full preset")
    _common(feat)
    feat.add_argument("--report", type=Path, required=True, help="folder for report.md, charts and games.jsonl")
    comp = sub.add_parser("compare", help="two or more configurations over the same seeds")
    _common(comp, config=False)
    comp.add_argument(
        "--config",
        action="append",
        required=True,
        metavar="ALGORITHM[:PRESET[:WEIGHTS]]",
        help="e.g. alphabeta:classic or expectimax:rows:sum_weight=12 (repeat, at least twice); "
        "expectimax:learned@lab-out/mine.ntn plays that network file",
    )
    comp.add_argument("--network", help="the network file the learned configurations read (default: the shipped one)")
    comp.add_argument("--report", type=Path, help="folder for report.md, the table+chart PNG and games.jsonl")
    agree = sub.add_parser(
        "agreement", help="how often alpha-beta picks the move of a deeper exact search, on positions from seeded games"
    )
    _seed_options(agree, games=3, seed_start=2001, why=": not a run's seeds")
    agree.add_argument(
        "--reference-depth", type=A.DEPTH, default=10, help="depth of the exact reference search (default 10)"
    )
    agree.add_argument(
        "--think-ms", type=A.THINK_MS, default=100.0, help="think time of the searches compared (default 100)"
    )
    agree.add_argument("--depths", default="8,9", help="fixed depths of the exact search, for the slope (default 8,9)")
    agree.add_argument("--preset", help="the evaluation every search here uses (default: alpha-beta's own)")
    agree.add_argument(
        "--network", help="the network file --preset learned reads (its manifest beside it; default: the shipped one)"
    )
    add_cluster_arguments(
        agree,
        f"worker processes of the local cluster (default: every core, {default_jobs()}); "
        "1 plays the games and searches in this process, without Dask",
    )
    expl = sub.add_parser("explain", help="why the AI moves: one position's search, as the page's explorer shows it")
    expl.add_argument("--rows", required=True, help='the board, four rows: "0 2 4 8 / 0 0 2 16 / 0 0 0 4 / 0 0 0 2"')
    _search_options(expl)
    expl.add_argument("--exact-root", action="store_true", help="search every root move's exact value")
    expl.add_argument(
        "--analysis-ms",
        type=A.THINK_MS,
        default=1000.0,
        help="time for the explanation after the search (default 1000)",
    )
    expl.add_argument("--json", action="store_true", help="print the explanation as JSON (what the page receives)")
    summ = sub.add_parser("summary", help="the per-game table and summary of games saved by run --out")
    summ.add_argument("files", type=Path, nargs="+", help="JSON-lines files written by run --out")
    link = sub.add_parser("link", help="the page link that replays a saved game")
    link.add_argument("file", type=Path, help="a JSON-lines file written by run --out (or a report's games.jsonl)")
    link.add_argument("--seed", type=A.whole(*A.SEED), required=True, help="the game's seed")
    link.add_argument("--base", default=PAGE_URL, help=f"the page's address (default {PAGE_URL}, what make run serves)")
    command.add_parser(sub)
    compare_runs.add_parser(sub)
    suite_command.add_parsers(sub)
    review_command.add_parsers(sub)
    return parser


PAGE_URL = "http://127.0.0.1:8000/"
"""Where ``make run`` serves the page."""


def _explain(args: argparse.Namespace) -> None:
    """Print one position's explanation, as text or as the JSON the page's worker sends."""
    import json

    from ..position_text import parse_rows
    from ..search.explanation import explain
    from .explain_text import format_explanation

    explanation = explain(
        parse_rows(args.rows),
        think_ms=args.think_ms,
        depth=args.depth,
        algorithm=args.algorithm,
        preset=args.preset,
        weights=parse_weights(args.weights),
        exact_root=args.exact_root,
        analysis_ms=args.analysis_ms,
    )
    print(json.dumps(explanation, indent=1) if args.json else format_explanation(explanation))


def _describe(seeds: Sequence[int], options: ClusterOptions, tasks: int) -> str:
    """``20 games, seeds 1..20, on 2 local workers`` (or ``on the cluster at …``, ``in this process``)."""
    which = f"seed {seeds[0]}" if len(seeds) == 1 else f"seeds {seeds[0]}..{seeds[-1]}"
    if options.scheduler is not None:
        where = f"on the cluster at {options.scheduler}"
    elif options.in_process(tasks):
        where = "in this process"
    else:
        where = f"on {min(options.workers, tasks)} local workers"
    return f"{_games(len(seeds))}, {which}, {where}"


def _games(count: int) -> str:
    """``1 game``, ``2 games``: counts in messages read as a person would write them."""
    return f"{count} game" if count == 1 else f"{count} games"


def _seeded(args: argparse.Namespace) -> tuple[list[int], ClusterOptions]:
    """The seeds and the cluster a command of seeded games asks for."""
    return parse_seeds(args.seeds, args.games, args.seed_start), cluster_options(args)


def _run_command(args: argparse.Namespace) -> None:
    """``run``: seeded games of one configuration, each saved as it ends with ``--out``."""
    seeds, where = _seeded(args)
    config = play_config(args)
    print(f"{_heading(config)}; {_describe(seeds, where, len(seeds))}", flush=True)
    records, pace = _run(config, seeds, where, not args.no_progress, args.out, args.resume)
    print(_report(records, config))
    if pace:
        print(pace)
    if args.out:
        print(f"games written to {args.out}")


def _features_command(args: argparse.Namespace) -> None:
    """``features``: each feature of a preset alone, on the same seeds."""
    seeds, where = _seeded(args)
    config = play_config(args)
    print(
        f"single features of {config.preset_name} with {config.algorithm}; "
        f"{_describe(seeds, where, len(seeds))} per evaluation",
        flush=True,
    )
    with cluster_for(where, len(seeds)) as cluster:
        _say_where(cluster)
        summaries = run_features(config, seeds, args.report, 1, not args.no_progress, cluster)
    rows = [
        [
            label,
            f"{s['log2_max_tile_mean']:.2f}",
            f"{s['max_tile_median']:g}",
            f"{100 * s['reached']['2048']:.0f}%",
            f"{s['score_p50']:.0f}",
        ]
        for label, s in summaries
    ]
    print(text_table(("evaluation", "log2 max mean", "max tile median", "2048", "score p50"), rows))
    print(f"report written to {args.report / 'report.md'}")


def _compare_command(args: argparse.Namespace) -> None:
    """``compare``: configurations played on the same seeds, side by side."""
    if len(args.config) < 2:
        raise ConfigError("compare needs at least two --config")
    seeds, where = _seeded(args)
    configs = [
        parse_config_spec(spec, args.think_ms, args.depth, args.stop_tile, args.reductions, args.rescue, args.network)
        for spec in args.config
    ]
    print(f"{len(configs)} configurations; {_describe(seeds, where, len(seeds))} each", flush=True)
    with cluster_for(where, len(seeds)) as cluster:
        _say_where(cluster)
        _, _, rows = run_compare(configs, seeds, args.report, 1, not args.no_progress, cluster)
    print(text_table(COMPARE_COLUMNS, rows))
    if args.report:
        print(f"report written to {args.report / 'report.md'}")


COMMANDS: dict[str, Callable[[argparse.Namespace], None]] = {
    "run": _run_command,
    "features": _features_command,
    "compare": _compare_command,
    "summary": lambda args: _summary(args.files),
    "link": lambda args: _link(args.file, args.seed, args.base),
    "agreement": lambda args: _agreement(args, *_seeded(args)),
    "explain": _explain,
    "train": command.run,
    "export": command.export,
    "greedy": command.greedy,
    "compare-runs": compare_runs.run,
    "suite": suite_command.run,
    "make-suite": suite_command.make,
    "review": review_command.review,
    "review-truth": review_command.truth,
}
"""Each subcommand's one function (``build_parser`` names the subcommands; a test checks that each has one)."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        COMMANDS[args.command](args)
    except (ConfigError, TrainError, ValueError, OSError) as exc:
        parser.exit(2, f"{parser.prog}: error: {exc}\n")
    except KeyboardInterrupt as exc:
        print(f"\n{str(exc) or 'interrupted'}", file=sys.stderr)
        return 130
    return 0


def _say_where(cluster: Cluster | None) -> None:
    """Say which cluster the tasks go to, and how long it took to start or reach (nothing for this process)."""
    if cluster is not None:
        text = cluster.describe()
        print(text[0].upper() + text[1:], flush=True)


def _run(
    config: PlayConfig, seeds: Sequence[int], where: ClusterOptions, progress: bool, out: Path | None, resume: bool
) -> tuple[list[dict[str, Any]], str]:
    """Play the seeds ``out`` does not hold yet (all of them without ``resume``), saving each game as it ends.

    Returns every seed's record, and how many games a minute were played (the cluster's start-up included;
    empty when none was played).
    """
    if resume and out is None:
        raise ConfigError("--resume needs --out, the file whose games it keeps")
    done, others = resumable(out, config, seeds) if resume and out is not None else ({}, [])
    to_play = [seed for seed in seeds if seed not in done]
    if done:
        print(f"{len(done)} of {_games(len(seeds))} read back from {out}; playing the other {len(to_play)}", flush=True)
    sink = RecordFile(out, keep=[*others, *done.values()]) if out is not None else None
    started = time.perf_counter()
    pace = ""
    try:
        with cluster_for(where, len(to_play)) as cluster:
            _say_where(cluster)
            played = (
                play_games(to_play, config, 1, progress, on_record=sink.add if sink else None, cluster=cluster)
                if to_play
                else []
            )
            if played:
                pace = _pace(len(played), time.perf_counter() - started, cluster)
    except BaseException:  # an interrupt or a failed game: what finished is on disk, say how to go on
        if sink is not None:
            sink.close()
            print(f"\n{stopped_note(sink.path, len(sink.records))}", file=sys.stderr)
        raise
    if sink is not None:
        sink.finish()
    by_seed = {**done, **{r["seed"]: r for r in played}}
    return [by_seed[seed] for seed in seeds], pace


def _pace(games: int, seconds: float, cluster: Cluster | None) -> str:
    """``20 games in 95.3 s: 12.6 games per minute`` and where: the figure a run on a cluster is judged by."""
    where = "in this process" if cluster is None else cluster.describe() + ", start-up included"
    return f"{_games(games)} in {seconds:.1f} s: {60 * games / seconds:.1f} games per minute, {where}"


MANY = sys.maxsize
"""The tasks of ``agreement``: a search per position, however few the seeds."""


def _agreement(args: argparse.Namespace, seeds: Sequence[int], where: ClusterOptions) -> None:
    """The move-agreement table: the timed search without and with reductions, then the fixed depths."""
    try:
        depths = [A.DEPTH(part.strip()) for part in args.depths.split(",") if part.strip()]
    except argparse.ArgumentTypeError as exc:
        raise ConfigError(f"--depths is a list of depths such as 8,9: {exc}") from None
    played = PlayConfig(preset=args.preset, network=args.network, think_ms=args.think_ms).check()
    valued = {"preset": args.preset, "network": args.network}
    searchers = [
        Searcher(think_ms=args.think_ms, **valued),
        Searcher(think_ms=args.think_ms, reductions=True, **valued),
    ]
    searchers += [Searcher(depth=depth, **valued) for depth in depths]
    print(f"positions from {_describe(seeds, where, MANY)}", flush=True)
    with cluster_for(where, MANY) as cluster:
        _say_where(cluster)
        count, rows = measure(seeds, args.reference_depth, searchers, cluster)
    valued_by = "" if args.preset is None and args.network is None else played.preset_name
    valued_by += f" ({args.network})" if args.network else ""
    print(agreement_report(count, args.reference_depth, rows, valued_by))


def _summary(files: Sequence[Path]) -> None:
    """Print what ``run`` printed, from saved games: one table and summary per configuration found.

    Files are summarised together, so the games of one configuration spread
    over several files (a run continued on other seeds) count as one sample.
    Games of different configurations are never pooled: a summary of
    alpha-beta stopped at 2048 and expectimax played to the end would describe
    neither.  A seed saved twice for one configuration is refused: at a fixed
    depth it is the same game counted twice, at a think time a second sample
    of one seed, and either way not what "N seeded games" means.
    """
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    where: dict[tuple[tuple[Any, ...], int], Path] = {}
    for path in files:
        for record in read(path):
            key = config_key(record)
            seed = record["seed"]
            if (key, seed) in where:
                raise ConfigError(
                    f"seed {seed} of {_played_with(record).label()} is saved twice ({where[key, seed]} and {path}); "
                    "summarise those files separately"
                )
            where[key, seed] = path
            groups.setdefault(key, []).append(record)
    if not groups:
        raise ConfigError(f"no games in {', '.join(map(str, files))}")
    blocks = []
    for records in groups.values():
        records.sort(key=lambda r: r["seed"])
        config = _played_with(records[0])
        blocks.append(f"{_games(len(records))}; {_heading(config)}\n{_report(records, config)}")
    print("\n\n".join(blocks))


def _link(path: Path, seed: int, base: str) -> None:
    """Print the page link that replays the game of ``seed`` in ``path`` (one per configuration that played it).

    A report's ``games.jsonl`` holds each seed once per configuration, so each link is then labelled.
    """
    found = [record for record in read(path) if record["seed"] == seed]
    if not found:
        raise ConfigError(f"{path} has no game of seed {seed}")
    lines = []
    for record in found:
        game = game_record(record)
        if game is None:
            raise ConfigError(
                f"the game of seed {seed} in {path} was saved without its moves (a file from before games were "
                "recorded); play it again with the same command to get its link"
            )
        link = f"{base}{'&' if '?' in base else '?'}{LINK_PARAM}={encode_game(game.seed, game.moves)}"
        lines.append(link if len(found) == 1 else f"{_played_with(record).label()}: {link}")
    print("\n".join(lines))


def _heading(config: PlayConfig) -> str:
    """What played the games, as ``run`` and ``summary`` both head their tables with it."""
    return f"{config.label()}, stop tile {config.stop_tile or 'none'}"


def _report(records: Sequence[dict[str, Any]], config: PlayConfig) -> str:
    """The per-game table and the summary, as ``run`` and ``summary`` both print them."""
    return f"{format_games(records)}\n{format_summary(summarize(records), config.stop_tile)}"


def _played_with(record: dict[str, Any]) -> PlayConfig:
    """The configuration a saved game names (for its label; not checked, the game is already played)."""
    return PlayConfig(
        algorithm=str(record.get("algorithm")),
        preset=record.get("preset"),
        weights=record.get("weights") or {},
        think_ms=record.get("think_ms") or 0.0,
        depth=record.get("depth"),
        stop_tile=record.get("stop_tile") or 0,
        reductions=played_option(record, "reductions"),
        rescue=played_option(record, "rescue"),
        network=record.get("network"),
        think_policy=record.get("think_policy") or "even",
    )
