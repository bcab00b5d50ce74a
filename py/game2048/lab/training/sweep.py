"""Training sweeps: ``train --seeds 1-8`` (or several ``--alpha`` / ``--lambda`` values), one run per task.

Each run is the run ``train`` makes alone (checkpoints, curve, ``--resume``) in a folder of its own under
``--out``, named by what varies (``seed-3``, ``alpha-0.001_seed-3``), and ends with its greedy games in
``greedy.json`` for ``compare-runs``.  A run's task asks the cluster for its ``--threads`` CPUs (the worker
resource ``CPU``), so two runs never share a worker's cores unknowingly, and it goes on from its own
checkpoint when there is one: a task run again after its worker died resumes instead of starting over.
So a sweep into folders that already hold runs needs ``--resume`` (a sweep never overwrites a run); with it,
finished runs are skipped.  On a remote cluster, ``--out`` must be a folder every worker sees (a shared disk).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress, TextColumn

from ..cluster import CPU, Cluster, ClusterError, ClusterOptions, cluster_for
from ..progress import LOG_EVERY_S, LOG_WIDTH, line_columns
from ..tasks import TaskBatch, reporter
from .compare_runs import GREEDY_FILE, report, write_greedy
from .trainer import CHECKPOINT, CURVE, TrainError, TrainOptions, TrainState, train


@dataclass(frozen=True)
class SweepRun:
    """One run of a sweep: its folder's name and its options."""

    name: str
    options: TrainOptions


def sweep_runs(
    base: TrainOptions, seeds: list[int], alphas: list[float], lambdas: list[float | None], named_seeds: bool
) -> list[SweepRun]:
    """Every combination of ``alphas``, ``lambdas`` and ``seeds``, named by the values that vary (and the seed when
    ``named_seeds``: a sweep over seeds names each run by its seed even for one)."""
    runs = []
    for alpha in alphas:
        for lam in lambdas:
            for seed in seeds:
                parts = [f"alpha-{alpha:g}"] if len(alphas) > 1 else []
                parts += [f"lambda-{lam:g}" if lam is not None else "lambda-none"] if len(lambdas) > 1 else []
                parts += [f"seed-{seed}"] if named_seeds or len(seeds) > 1 else []
                runs.append(SweepRun("_".join(parts), replace(base, alpha=alpha, lam=lam, seed=seed)))
    return runs


def train_task(run: SweepRun, out: str, greedy_games: int, topic: str) -> dict[str, Any]:
    """One run as a Dask task: ``train_run`` reporting each block to ``topic``."""
    send = reporter(topic)
    return train_run(run, Path(out), greedy_games, lambda name, games, speed: send([name, games, speed]))


def train_run(
    run: SweepRun, folder: Path, greedy_games: int, report: Callable[[str, int, float], None]
) -> dict[str, Any]:
    """One run in ``folder`` (from its checkpoint when there is one), then its greedy games (none when 0);
    ``report(name, games, moves per second)`` after each block."""

    def block_done(state: TrainState, point: dict[str, float]) -> None:
        report(run.name, state.games, point["moves_per_s"])

    state, _ = train(run.options, folder, resume=(folder / CHECKPOINT).exists(), report=block_done)
    greedy = write_greedy(folder, greedy_games) if greedy_games else None
    return {"name": run.name, "games": state.games, "moves": state.moves, "seconds": state.seconds, "greedy": greedy}


def finished(folder: Path, options: TrainOptions, greedy_games: int) -> bool:
    """Whether a run is done: its greedy results written after all its games (or no greedy games asked)."""
    path = folder / GREEDY_FILE
    if not path.exists():
        return False
    try:
        saved = json.loads(path.read_text())
    except ValueError:
        return False
    return bool(saved.get("trained_games", 0) >= options.games and (not greedy_games or saved.get("games")))


def run_sweep(
    runs: list[SweepRun], out: Path, resume: bool, greedy_games: int, where: ClusterOptions, progress: bool
) -> None:
    """Train every run not finished yet, on the cluster (or here, one after another), then print their table."""
    folders = [out / run.name if run.name else out for run in runs]
    held = [folder for folder in folders if (folder / CHECKPOINT).exists()]
    if held and not resume:
        raise TrainError(
            f"{held[0]} already holds a training run: --resume goes on with the sweep, or give another --out"
        )
    todo = [
        (run, folder)
        for run, folder in zip(runs, folders)
        if not (resume and finished(folder, run.options, greedy_games))
    ]
    if len(todo) < len(runs):
        print(f"{len(runs) - len(todo)} of {len(runs)} runs already finished in {out}; training the others", flush=True)
    bar = SweepProgress([run for run, _ in todo], enabled=progress)
    started = time.perf_counter()
    try:
        with cluster_for(where, len(todo)) as cluster:
            if cluster is None:
                for run, folder in todo:
                    result = train_run(run, folder, greedy_games, bar.progress)
                    bar.run_done(run.name, result["games"])
            else:
                where_said = cluster.describe()
                print(where_said[0].upper() + where_said[1:], flush=True)
                _train_on_cluster(todo, greedy_games, cluster, bar)
    finally:
        bar.close()
    print(f"{len(todo)} runs trained in {time.perf_counter() - started:,.0f} s")
    if greedy_games:
        print(report([folders], [[json.loads((folder / GREEDY_FILE).read_text()) for folder in folders]]))
    else:
        print(last_blocks(folders))


def last_blocks(folders: list[Path]) -> str:
    """Each run's last block of its curve (no greedy games were asked: ``compare-runs`` plays them later)."""
    lines = ["No greedy games (--greedy-games 0); each run's last block, learning as it played:"]
    for folder in folders:
        points = [json.loads(text) for text in (folder / CURVE).read_text().splitlines() if text.strip()]
        last = points[-1]
        lines.append(
            f"  {folder}: {last['games']:,} games, mean {last['mean_score']:,.0f}, "
            f"8192 {100 * last['rate_8192']:.1f} %, 16384 {100 * last['rate_16384']:.1f} %, "
            f"32768 {100 * last['rate_32768']:.1f} %"
        )
    lines.append(f"Their greedy games: python -m game2048.lab compare-runs {' '.join(map(str, folders))}")
    return "\n".join(lines)


def _train_on_cluster(
    todo: list[tuple[SweepRun, Path]], greedy_games: int, cluster: Cluster, bar: SweepProgress
) -> None:
    threads = todo[0][0].options.threads
    _check_resources(cluster, threads)
    with TaskBatch(cluster, "train") as batch:
        for run, folder in todo:
            batch.submit(
                run.name or "run", train_task, run, str(folder), greedy_games, batch.topic, resources={CPU: threads}
            )
        for _, result in batch.results(
            on_report=lambda message: bar.progress(*message),
            on_lost=lambda worker, names: bar.note(
                f"{worker} left the cluster during {', '.join(map(str, names))}: "
                "trained on from its last checkpoint on another worker"
            ),
            on_tick=lambda: bar.workers(cluster.workers()),
        ):
            bar.run_done(result["name"], result["games"])


def _check_resources(cluster: Cluster, threads: int) -> None:
    """Refuse a cluster none of whose workers offers ``threads`` CPUs: the tasks would wait for ever."""
    workers = cluster.client.scheduler_info()["workers"]
    offered = [float(info.get("resources", {}).get(CPU, 0)) for info in workers.values()]
    if not any(cpus >= threads for cpus in offered):
        raise ClusterError(
            f"no worker of {cluster.address} offers {threads} CPU(s) for a training run: start the workers with "
            f"`dask worker {cluster.address} --nthreads 1 --resources {CPU}={threads}`"
        )


class SweepProgress:
    """One line for the whole sweep: runs done, games trained over all runs, moves per second of the runs
    training now (their last blocks'), workers alive."""

    def __init__(self, runs: list[SweepRun], enabled: bool) -> None:
        self.console = Console(stderr=True)
        self.interactive = self.console.is_interactive
        if not self.interactive:
            self.console.width = LOG_WIDTH
        self.enabled = enabled
        self.total = len(runs)
        self.games: dict[str, int] = {}
        self.speeds: dict[str, float] = {}
        self.done = 0
        self.alive = ""
        self.bar = Progress(
            *line_columns(
                self.interactive,
                TextColumn("{task.fields[runs]} runs, {task.completed:,.0f} of {task.total:,.0f} games,"),
                TextColumn("{task.fields[speed]} moves/s,{task.fields[alive]}"),
            ),
            console=self.console,
            disable=not (enabled and self.interactive),
        )
        total = sum(run.options.games for run in runs)
        self.task = self.bar.add_task("sweep", total=total, runs=f"0/{self.total}", speed="–", alive="")
        self.last_log = time.perf_counter()
        self.bar.start()

    def progress(self, name: str, games: int, speed: float) -> None:
        """Run ``name`` has trained ``games`` games, its last block at ``speed`` moves per second."""
        self.games[name] = games
        self.speeds[name] = speed
        self._show(final=False)

    def run_done(self, name: str, games: int) -> None:
        self.games[name] = games
        self.speeds.pop(name, None)
        self.done += 1
        self._show(final=True)

    def workers(self, alive: int) -> None:
        self.alive = f" {alive} worker{'s' if alive != 1 else ''},"
        self._show(final=False)

    def note(self, text: str) -> None:
        if self.enabled:
            self.console.print(text, markup=False, highlight=False)

    def _show(self, final: bool) -> None:
        self.bar.update(
            self.task,
            completed=sum(self.games.values()),
            runs=f"{self.done}/{self.total}",
            speed=f"{sum(self.speeds.values()):,.0f}",
            alive=self.alive,
        )
        now = time.perf_counter()
        if self.enabled and not self.interactive and (final or now - self.last_log >= LOG_EVERY_S):
            self.console.print(self.bar.get_renderable())
            self.last_log = now

    def close(self) -> None:
        self.bar.stop()
