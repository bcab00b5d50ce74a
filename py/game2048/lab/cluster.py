"""The lab's Dask cluster: a ``LocalCluster`` the command starts and closes, or a running scheduler's address.

Games and training runs are Dask tasks (STYLE.md: no home-made pool, queue or protocol).  The local cluster is
``jobs`` worker processes of one thread each on 127.0.0.1 (a search is pure Python and holds the GIL, so one
game per process), with no dashboard unless asked, so nothing else listens.  ``--scheduler tcp://HOST:PORT``
joins a running cluster instead; its workers need only this project installed (``pip install -e .[lab]``).
A scheduler that cannot be reached is one ``ClusterError`` naming its address, within ``CONNECT_TIMEOUT_S``.

Each local worker offers ``cpus_per_worker`` of the resource ``CPU``: a training task asks for its
``--threads`` of it, so the scheduler never puts two runs on one worker's cores unknowingly.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import arguments as A
from .config import ConfigError

if TYPE_CHECKING:
    from distributed import Client

CONNECT_TIMEOUT_S = 5.0
WORKER_PRELOAD = "game2048.lab.worker_signals"
"""The module each local worker runs first: it ignores Ctrl-C, which is this command's to handle."""
"""How long a command tries to reach ``--scheduler`` before it says it cannot."""
CPU = "CPU"
"""The worker resource a task that runs several threads asks for (``dask worker --resources CPU=N``)."""
QUIET_CONFIG = {
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.worker.profile.enabled": False,
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.scheduler.work-stealing": False,
    "distributed.scheduler.worker-saturation": 1.0,
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
}
"""Dask settings the local cluster starts with: its scheduler, nannies and workers wake less often, and a worker
holds one game at a time.  By default each process wakes every 20 ms to watch its event loop, samples its tasks'
stacks for a profile, watches memory every 100 ms and balances work every 100 ms: on 2 cores, CPU taken from the
games (and the GIL from a game's thread).  By default, too, the scheduler sends a one-thread worker two queued
tasks (``ceil(1.1 × 1)``): at a batch's end one worker would sit idle while the other still held a game it had
not started.  With one each, games wait on the scheduler and go to whichever worker frees up first, so no work
needs stealing.  Dask also starts its workers with glibc's ``MALLOC_TRIM_THRESHOLD_`` fixed at 64 KiB, which turns
off glibc's adaptive threshold: every large dict of a search is then a fresh ``mmap`` whose pages fault in again at
each move (a game about 3 % slower); the workers keep glibc's default instead.  A real cluster's scheduler and
workers take the same settings from ``~/.config/dask/distributed.yaml`` (CONTRIBUTING.md)."""
LOCAL_HOST = "127.0.0.1"
"""Where the local cluster's scheduler, workers and (when asked) dashboard listen: this machine only."""


def default_jobs() -> int:
    """Every core: one single-threaded worker process each."""
    return os.cpu_count() or 1


class ClusterError(ConfigError):
    """A cluster that cannot be started, reached or used as asked; the message says which and why."""


@dataclass(frozen=True)
class ClusterOptions:
    """Where tasks run: ``jobs`` local worker processes, or the scheduler at ``scheduler`` (then ``jobs`` is unused).

    ``dashboard``: Dask's dashboard (the local one on 127.0.0.1; a scheduler's own is only named).
    ``cpus_per_worker``: the ``CPU`` resource each local worker offers (a training run's threads).
    """

    jobs: int | None = None
    scheduler: str | None = None
    dashboard: bool = False
    cpus_per_worker: int = 1

    def __post_init__(self) -> None:
        if self.jobs is not None and self.jobs < 1:
            raise ClusterError(f"--jobs is at least 1, got {self.jobs}")
        if self.cpus_per_worker < 1:
            raise ClusterError(f"a worker offers at least 1 CPU, got {self.cpus_per_worker}")

    @property
    def workers(self) -> int:
        """Local worker processes: ``jobs``, or every core."""
        return self.jobs or default_jobs()

    def in_process(self, tasks: int) -> bool:
        """Whether ``tasks`` tasks run here, with no Dask: one worker asked for, or one task, and no scheduler."""
        return self.scheduler is None and (self.workers == 1 or tasks <= 1)


@dataclass
class Cluster:
    """A connected client, and what to say of it: its address, whether this command started it, and how fast."""

    client: Client
    address: str
    local: bool
    started_s: float

    def workers(self) -> int:
        """Workers alive now (asks the scheduler)."""
        return len(self.client.nthreads())

    def describe(self) -> str:
        """``a local cluster of 2 workers, started in 0.6 s`` or ``the cluster at tcp://…, 3 workers, reached in …``."""
        count = self.workers()
        workers = f"{count} worker" if count == 1 else f"{count} workers"
        if self.local:
            return f"a local cluster of {workers}, started in {self.started_s:.1f} s"
        return f"the cluster at {self.address}, {workers}, reached in {self.started_s:.1f} s"


@contextmanager
def open_cluster(options: ClusterOptions) -> Iterator[Cluster]:
    """Start a local cluster (or reach ``options.scheduler``) for the length of the block; close what was started.

    The client is closed on the way out in either case; a remote scheduler and its workers go on.
    """
    if options.dashboard and options.scheduler is None and importlib.util.find_spec("bokeh") is None:
        raise ClusterError("Dask's dashboard needs bokeh, which the lab does not install: pip install 'bokeh>=3.1'")
    started = time.perf_counter()
    local: Any = None
    try:
        with _interrupts_after_start():
            import dask
            from distributed import Client, LocalCluster

            if options.scheduler is None:
                with _quiet("distributed"), dask.config.set(QUIET_CONFIG):
                    local = LocalCluster(
                        n_workers=options.workers,
                        threads_per_worker=1,
                        processes=True,
                        host=LOCAL_HOST,
                        dashboard_address=f"{LOCAL_HOST}:8787" if options.dashboard else None,
                        # The scheduler serves HTTP (health, metrics) even without a dashboard: on a free port here,
                        # not on 8787, which another cluster or program may hold.
                        scheduler_kwargs=None if options.dashboard else {"dashboard_address": f"{LOCAL_HOST}:0"},
                        resources={CPU: options.cpus_per_worker},
                        # Only Dask's critical messages: the command says what went wrong itself (a lost worker,
                        # an interrupt); on Ctrl-C a worker's heartbeat to a closing scheduler would print a
                        # traceback.
                        silence_logs=logging.CRITICAL,
                        preload=[WORKER_PRELOAD],
                    )
    except BaseException:  # a Ctrl-C given while it started is raised as the block ends: close what started
        if local is not None:
            with _quiet("distributed"):
                local.close()
        raise
    if options.scheduler is None:
        try:
            with Client(local) as client:
                cluster = Cluster(client, local.scheduler_address, True, time.perf_counter() - started)
                if options.dashboard:
                    print(f"Dask's dashboard: {client.dashboard_link}", flush=True)
                yield cluster
        finally:
            with _quiet("distributed"):
                local.close()
        return
    try:
        with _quiet("distributed"):
            client = Client(options.scheduler, timeout=CONNECT_TIMEOUT_S)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(
            f"cannot reach the Dask scheduler at {options.scheduler} within {CONNECT_TIMEOUT_S:g} s "
            f"({type(exc).__name__}); is `dask scheduler` running there, and is its port open to this machine?"
        ) from None
    with client:
        cluster = Cluster(client, options.scheduler, False, time.perf_counter() - started)
        if options.dashboard:
            print(f"Dask's dashboard (the scheduler's): {client.dashboard_link}", flush=True)
        yield cluster


@contextmanager
def _interrupts_after_start() -> Iterator[None]:
    """A Ctrl-C while the cluster starts waits for the start to end, then interrupts this command.

    SIGINT is blocked meanwhile, so Dask's own threads never take it, and an interrupted start does not
    leave half a cluster behind (the caller closes a whole one).  The workers ignore it (``WORKER_PRELOAD``).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextmanager
def _quiet(logger: str) -> Iterator[None]:
    """Only errors from ``logger`` for the block: a failed connection or a closing cluster is said once, by us."""
    log = logging.getLogger(logger)
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        yield
    finally:
        log.setLevel(level)


@contextmanager
def cluster_for(options: ClusterOptions, tasks: int) -> Iterator[Cluster | None]:
    """The cluster ``tasks`` tasks run on for the block, or None when they run in this process (``in_process``)."""
    if options.in_process(tasks):
        yield None
        return
    with open_cluster(options) as cluster:
        yield cluster


def add_cluster_arguments(parser: argparse.ArgumentParser, jobs_help: str = "") -> None:
    """``--jobs``, ``--scheduler``, ``--dashboard``: where a command's tasks run (read by ``cluster_options``)."""
    group = parser.add_argument_group("where the tasks run (Dask)")
    group.add_argument(
        "--jobs",
        type=A.whole(1, 1024),
        help=jobs_help
        or f"worker processes of the local cluster (default: every core, {default_jobs()}); "
        "1 plays the games in this process, without Dask",
    )
    group.add_argument(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        help="a running Dask scheduler to send the tasks to instead (its workers need this project installed: "
        "pip install -e .[lab])",
    )
    group.add_argument("--dashboard", action="store_true", help="Dask's dashboard (local: on 127.0.0.1), its link")


def cluster_options(args: argparse.Namespace, cpus_per_worker: int = 1) -> ClusterOptions:
    """The ``ClusterOptions`` that ``add_cluster_arguments`` read."""
    return ClusterOptions(
        jobs=args.jobs, scheduler=args.scheduler, dashboard=args.dashboard, cpus_per_worker=cpus_per_worker
    )
