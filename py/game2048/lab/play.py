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

A batch uses a process pool (CPython's searches are single-threaded); workers
report their move counts through a queue so the bar moves inside long games.
Records come back in seed order, whatever order the games finished in.
"""

from __future__ import annotations

import multiprocessing
import os
import queue as queue_module
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..board import max_rank, rank_of
from ..game import Game
from ..game_record import GameRecord, decision
from ..search import decide
from .config import PlayConfig
from .progress import Progress

REPORT_EVERY = 20
"""Moves between progress reports from inside a game."""

Record = dict[str, Any]


def play_game(seed: int, config: PlayConfig, report: Callable[[int, int], None] | None = None) -> Record:
    """Play one seeded game with ``config``; ``report(seed, moves)`` is called every few moves.

    The record's ``_think_ms`` and ``_depths`` hold every move's values, for the
    summary (``records`` writes them as ``move_think_ms`` and ``move_depths``);
    ``record`` is the game's ``GameRecord.to_dict()``, each move an AI decision.
    """
    game = Game.new(seed)
    stop_rank = rank_of(config.stop_tile) if config.stop_tile else None
    options = config.search_options()
    think: list[float] = []
    depths: list[int] = []
    moves: list[str] = []
    decisions: list[dict[str, Any] | None] = []
    nodes = 0
    start = time.perf_counter()
    while not game.over:
        if stop_rank is not None and max_rank(game.board) >= stop_rank:
            break
        t0 = time.perf_counter()
        result = decide(game.board, options)
        think.append((time.perf_counter() - t0) * 1000.0)
        depths.append(result.depth)
        nodes += result.nodes
        if result.move is None:  # cannot happen while the game is not over; kept as a guard against a loop
            break
        game.play(result.move)
        moves.append(result.move)
        decisions.append(decision(config.algorithm, config.preset_name, result.depth, think[-1], result.rescued))
        if report is not None and game.moves % REPORT_EVERY == 0:
            report(seed, game.moves)
    elapsed = time.perf_counter() - start
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
        "record": GameRecord(seed, moves, decisions).to_dict(),
        "_think_ms": think,
        "_depths": depths,
    }


_worker_queue: Any = None


def _init_worker(q: Any) -> None:
    global _worker_queue
    _worker_queue = q


def _report_to_queue(seed: int, moves: int) -> None:
    _worker_queue.put((seed, moves))


def _play_in_worker(seed: int, config: PlayConfig) -> Record:
    return play_game(seed, config, _report_to_queue)


def pool_context() -> Any:
    """Forked workers where the platform can fork: they inherit the tables the parent built instead of building them."""
    return multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)


def default_jobs() -> int:
    return os.cpu_count() or 1


def play_games(
    seeds: Sequence[int],
    config: PlayConfig,
    jobs: int | None = None,
    progress: bool = True,
    label: str = "",
    on_record: Callable[[Record], None] | None = None,
) -> list[Record]:
    """Play one game per seed, on ``jobs`` processes (default: every core); records in seed order.

    ``on_record`` is called with each record as soon as its game ends (in the
    order games end), so a caller can save it before the batch is over.
    """
    config.check()  # fails fast, and builds the tables before the workers fork
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    bar = Progress(len(seeds), label=label, enabled=progress)
    try:
        if jobs == 1 or len(seeds) == 1:
            records = []
            for seed in seeds:
                record = play_game(seed, config, bar.moves)
                bar.game_done(seed, record["moves"])
                if on_record is not None:
                    on_record(record)
                records.append(record)
            return records
        return _play_in_pool(seeds, config, min(jobs, len(seeds)), bar, on_record)
    finally:
        bar.close()


def _play_in_pool(
    seeds: Sequence[int], config: PlayConfig, jobs: int, bar: Progress, on_record: Callable[[Record], None] | None
) -> list[Record]:
    ctx = pool_context()
    q = ctx.Queue()
    with ctx.Pool(jobs, initializer=_init_worker, initargs=(q,)) as pool:
        pending = [pool.apply_async(_play_in_worker, (seed, config)) for seed in seeds]
        done: dict[int, Record] = {}
        while len(done) < len(pending):
            try:
                seed, moves = q.get(timeout=0.25)
                bar.moves(seed, moves)
            except queue_module.Empty:
                pass
            for i, task in enumerate(pending):
                if i not in done and task.ready():
                    done[i] = task.get()  # re-raises a worker's exception here, with its message
                    bar.game_done(seeds[i], done[i]["moves"])
                    if on_record is not None:
                        on_record(done[i])
        return [done[i] for i in range(len(pending))]
