"""Playing seeded games: one game as a record, and a batch on several processes with a progress bar.

One game is ``Game.new(seed)`` driven by ``search.best_move``, exactly as the
page drives it, until the stop tile appears or no move is left.  Its record is
plain JSON (one line of ``--out``): the seed, the outcome, the think time per
move (measured around ``best_move``, what a person waits for), the depths the
search completed, the configuration that produced it, and the game itself as a
``GameRecord`` (``game_record``: the moves and each move's decision), which
replays it and gives the page's link to it (``lab link``).

At a fixed depth the search is deterministic and so is the game (the seed fixes
every spawn), which is what makes a lab run reproducible; at a think time the
depth reached depends on the machine and its load.

A batch of games is a batch of Dask tasks (``cluster``, ``tasks``), one per seed,
on single-threaded workers (CPython's searches hold the GIL); games report their
move counts on the way so the bar moves inside long games.  Records come back in
seed order, whatever order the games finished in, and the same games as in one
process: a game depends on its seed and configuration alone.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from ..board import max_rank, rank_of
from ..game import Game
from ..game_record import GameRecord, decision
from ..search import decide
from ..search.think_time import ThinkTime
from .cluster import Cluster, ClusterOptions, open_cluster
from .config import PlayConfig, network_sha256, use_network
from .progress import Progress, progress_tiles
from .suite import Position
from .tasks import TaskBatch, reporter

REPORT_EVERY = 20
"""Moves between progress reports from inside a game."""

Record = dict[str, Any]


def play_game(
    seed: int, config: PlayConfig, report: Callable[[int, int], None] | None = None, start: Position | None = None
) -> Record:
    """Play one seeded game with ``config``; ``report(seed, moves)`` is called every few moves.

    The record's ``_think_ms`` and ``_depths`` hold every move's values, for the
    summary (``records`` writes them as ``move_think_ms`` and ``move_depths``);
    ``record`` is the game's ``GameRecord.to_dict()``, each move an AI decision.
    From a suite's ``start`` position (its seed ``seed``) instead of a new game,
    the record keeps the position as ``start`` and no ``record`` (the moves
    before it are its source game's); moves and score count from the source
    game's first move.
    """
    use_network(config.network)  # a worker's first game of a network reads it; the next ones find it read
    game = Game.new(seed) if start is None else start.game()
    stop_rank = rank_of(config.stop_tile) if config.stop_tile else None
    options = config.search_options()
    policy = ThinkTime(config.think_ms) if config.think_policy == "crowded" else None
    budgets: list[float] = []
    think: list[float] = []
    depths: list[int] = []
    moves: list[str] = []
    decisions: list[dict[str, Any] | None] = []
    nodes = 0
    began = time.perf_counter()
    while not game.over:
        if stop_rank is not None and max_rank(game.board) >= stop_rank:
            break
        asked = options
        if policy is not None:
            budgets.append(policy.budget(game.board).ms)
            asked = replace(options, think_ms=budgets[-1])
        t0 = time.perf_counter()
        result = decide(game.board, asked)
        think.append((time.perf_counter() - t0) * 1000.0)
        if policy is not None:
            policy.spent(think[-1])
        depths.append(result.depth)
        nodes += result.nodes
        if result.move is None:  # cannot happen while the game is not over; kept as a guard against a loop
            break
        game.play(result.move)
        moves.append(result.move)
        decisions.append(decision(config.algorithm, config.preset_name, result.depth, think[-1], result.rescued))
        if report is not None and game.moves % REPORT_EVERY == 0:
            report(seed, game.moves)
    elapsed = time.perf_counter() - began
    top = 1 << max_rank(game.board)
    think_arr = np.asarray(think, dtype=float) if think else np.zeros(1)
    depth_arr = np.asarray(depths, dtype=float) if depths else np.zeros(1)
    return {
        "seed": seed,
        "max_tile": top,
        "score": game.score,
        "moves": game.moves,
        "reached_stop": bool(stop_rank is not None and max_rank(game.board) >= stop_rank),
        "lost": game.over,
        "think_ms_p50": float(np.percentile(think_arr, 50)),
        "think_ms_p99": float(np.percentile(think_arr, 99)),
        "think_ms_max": float(think_arr.max()),
        "depth_median": float(np.median(depth_arr)),
        "depth_p10": float(np.percentile(depth_arr, 10)),
        "nodes": nodes,
        "seconds": elapsed,
        **config.to_dict(),
        **({"network_sha256": network_sha256(config.network)} if config.network else {}),
        **(
            {"record": GameRecord(seed, moves, decisions).to_dict()}
            if start is None
            else {"start": start.to_json(), "start_moves": start.moves}
        ),
        "_think_ms": think,
        "_depths": depths,
        **({"_budgets": budgets} if policy is not None else {}),
    }


def play_task(seed: int, config: PlayConfig, topic: str, start: Position | None = None) -> Record:
    """One game as a Dask task: the worker's tables built first (not in the first move's time), moves reported."""
    config.check()
    report = reporter(topic)
    return play_game(seed, config, lambda seed, moves: report([seed, moves]), start)


def play_games(
    seeds: Sequence[int],
    config: PlayConfig,
    jobs: int | None = None,
    progress: bool = True,
    label: str = "",
    on_record: Callable[[Record], None] | None = None,
    cluster: Cluster | None = None,
    starts: Mapping[int, Position] | None = None,
) -> list[Record]:
    """Play one game per seed; records in seed order.

    On ``cluster`` when given; else in this process when ``jobs`` is 1 or there is one seed, else on a local
    cluster of ``jobs`` workers (default: every core) started for the batch.  ``on_record`` is called with
    each record as soon as its game ends (in the order games end), so a caller can save it at once.
    A seed in ``starts`` is played on from that position (a suite's) instead of from a new game.
    """
    starts = starts or {}
    config.check()  # fails fast, before a cluster starts
    options = ClusterOptions(jobs=jobs)
    if cluster is None and not options.in_process(len(seeds)):
        with open_cluster(options) as local:
            return play_games(
                seeds, config, progress=progress, label=label, on_record=on_record, cluster=local, starts=starts
            )
    bar = Progress(len(seeds), label=label, enabled=progress, tiles=progress_tiles(config.stop_tile))
    try:
        if cluster is None:
            records = []
            for seed in seeds:
                record = play_game(seed, config, bar.moves, starts.get(seed))
                bar.game_done(seed, record["moves"], record["max_tile"])
                if on_record is not None:
                    on_record(record)
                records.append(record)
            return records
        return _play_on_cluster(seeds, config, cluster, bar, on_record, starts)
    finally:
        bar.close()


def _play_on_cluster(
    seeds: Sequence[int],
    config: PlayConfig,
    cluster: Cluster,
    bar: Progress,
    on_record: Callable[[Record], None] | None,
    starts: Mapping[int, Position],
) -> list[Record]:
    """Each seed a task; records taken (and passed to ``on_record``) as games end, returned in seed order."""
    bar.workers(cluster.workers())
    shared = sorted(address for address, threads in cluster.client.nthreads().items() if threads > 1)
    if shared:  # a search holds the GIL: games in threads of one process take turns on one core
        bar.note(
            f"{', '.join(shared)}: several threads per worker process play their games on one core in turns; "
            "start game workers with --nthreads 1"
        )
    done: dict[int, Record] = {}
    with TaskBatch(cluster, "game") as batch:
        for seed in seeds:
            batch.submit(seed, play_task, seed, config, batch.topic, starts.get(seed))
        for _, record in batch.results(
            on_report=lambda message: bar.moves(*message),
            on_lost=lambda worker, held: bar.note(_lost(worker, held)),
            on_tick=lambda: bar.workers(cluster.workers()),
        ):
            done[record["seed"]] = record
            bar.game_done(record["seed"], record["moves"], record["max_tile"])
            if on_record is not None:
                on_record(record)
    return [done[seed] for seed in seeds]


def _lost(worker: str, seeds: Sequence[Any]) -> str:
    which = ", ".join(map(str, sorted(seeds)))
    return f"{worker} left the cluster during the game of seed(s) {which}: played again on another worker"
