"""The lab on Dask, on real clusters of this machine (127.0.0.1 only): a ``LocalCluster``, and a scheduler with two
workers started by hand as separate processes (``python -m dask scheduler`` / ``dask worker``).

Tiny fixed-depth games, so that each test takes seconds: the same games as in one process, a worker killed in
the middle of a game, a run interrupted with Ctrl-C and resumed on the other cluster, a training sweep, and a
scheduler that cannot be reached.  Waits are for a condition, with generous limits; nothing sleeps a fixed time.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import psutil
import pytest
from distributed import Client

from game2048.lab import cli
from game2048.lab.agreement import Searcher, measure
from game2048.lab.cluster import Cluster, ClusterOptions, open_cluster
from game2048.lab.config import PlayConfig, parse_config_spec
from game2048.lab.experiments import run_compare
from game2048.lab.play import play_games
from game2048.lab.records import read
from game2048.lab.summary import COMPARE_COLUMNS
from game2048.lab.training.trainer import CHECKPOINT, TrainOptions, load_checkpoint, train

REPO = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(REPO / "py")}
WAIT_S = 120.0
"""The most any wait here takes before it fails: far beyond what it needs on a loaded 2-core machine."""

QUICK = PlayConfig(algorithm="expectimax", depth=2, stop_tile=256)
"""A game in a few hundredths of a second."""
SLOW = PlayConfig(algorithm="expectimax", depth=3, stop_tile=512)
"""A game of a second or two: long enough to kill its worker in the middle of it."""
SLOW_ARGS = ["--algorithm", "expectimax", "--depth", "3", "--stop-tile", "512", "--no-progress"]
SLOW_SEEDS = [1, 2, 3, 4]


def wait_for(condition: Callable[[], Any], what: str, timeout: float = WAIT_S) -> Any:
    """Poll ``condition`` until it is true (and return it); fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            pytest.fail(f"waited {timeout:g} s for {what}")
        time.sleep(0.05)
    return value


def game(record: dict[str, Any]) -> tuple[Any, ...]:
    """What a game is, without what was measured: seed, result, and every move."""
    return record["seed"], record["max_tile"], record["score"], record["moves"], tuple(record["record"]["moves"])


def games_in(path: Path) -> list[tuple[Any, ...]]:
    return [game(record) for record in read(path)]


@pytest.fixture(scope="module")
def slow_games() -> list[tuple[Any, ...]]:
    """The slow configuration's games, played in this process: what every cluster must write."""
    return [game(record) for record in play_games(SLOW_SEEDS, SLOW, jobs=1, progress=False)]


@pytest.fixture(scope="module")
def local_cluster() -> Iterator[Cluster]:
    with open_cluster(ClusterOptions(jobs=2)) as cluster:
        yield cluster


class HandCluster:
    """``dask scheduler`` and two ``dask worker`` processes, as a person starts them on machines, here on 127.0.0.1.

    Workers run without a nanny, so killing one is a machine gone (nothing restarts it).
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.processes: list[subprocess.Popen[bytes]] = []
        address_file = folder / "scheduler.json"
        self.scheduler = self._start(
            "scheduler",
            ["--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--dashboard-address", "127.0.0.1:0"]
            + ["--scheduler-file", str(address_file), "--idle-timeout", "900"],
        )
        self.address = wait_for(lambda: _address(address_file), "the scheduler's address file")
        self.workers = [self.start_worker() for _ in range(2)]
        self.wait_for_workers(2)

    def _start(self, role: str, args: list[str]) -> subprocess.Popen[bytes]:
        log = (self.folder / f"{role}-{len(self.processes)}.log").open("wb")
        process = subprocess.Popen(
            [sys.executable, "-m", "dask", role, *args],
            cwd=self.folder,
            env=ENV,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.processes.append(process)
        return process

    def start_worker(self) -> subprocess.Popen[bytes]:
        return self._start(
            "worker",
            [self.address, "--no-nanny", "--nthreads", "1", "--resources", "CPU=1", "--host", "127.0.0.1"]
            + ["--no-dashboard", "--dashboard-address", "127.0.0.1:0", "--death-timeout", "60"],
        )

    def wait_for_workers(self, count: int) -> None:
        with Client(self.address, timeout=30) as client:
            wait_for(lambda: len(client.nthreads()) == count, f"{count} workers")

    def close(self) -> None:
        """The workers first, then the scheduler (a worker stopped while its scheduler closes can hang in Dask)."""
        stop([process for process in self.processes if process is not self.scheduler])
        stop([self.scheduler])


def stop(processes: list[Any]) -> None:
    """Stop processes this test started, by their ids: SIGTERM, then SIGKILL to any still there after 10 s."""
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _address(path: Path) -> str | None:
    try:
        return str(json.loads(path.read_text())["address"])
    except (OSError, ValueError, KeyError):
        return None  # not written yet, or half written


@pytest.fixture(scope="module")
def hand_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HandCluster]:
    cluster = HandCluster(tmp_path_factory.mktemp("hand-cluster"))
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.fixture
def lab() -> Iterator[Callable[..., subprocess.Popen[str]]]:
    """Start ``python -m game2048.lab ARGS`` in a session of its own (Ctrl-C goes to its group), SIGINT not
    ignored; whatever is still running at the test's end is stopped."""
    started: list[subprocess.Popen[str]] = []

    def start(args: list[str]) -> subprocess.Popen[str]:
        process = subprocess.Popen(
            [sys.executable, "-m", "game2048.lab", *args],
            cwd=REPO,
            env=ENV,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # a background shell may ignore it
        )
        started.append(process)
        return process

    yield start
    stop(started)


def lines_in(path: Path) -> int:
    try:
        return sum(1 for line in path.read_text().splitlines() if line.endswith("}"))
    except OSError:
        return 0


# ---------------------------------------------------------------- the local cluster


def test_a_local_cluster_plays_the_games_of_one_process(local_cluster: Cluster) -> None:
    seeds = [3, 1, 4, 5]
    here = play_games(seeds, QUICK, jobs=1, progress=False)
    written: list[int] = []
    there = play_games(
        seeds, QUICK, progress=False, cluster=local_cluster, on_record=lambda r: written.append(r["seed"])
    )
    assert [game(r) for r in there] == [game(r) for r in here]  # in seed order, whatever order they ended in
    assert sorted(written) == sorted(seeds)


def test_compare_and_agreement_on_a_local_cluster_are_what_one_process_prints(local_cluster: Cluster) -> None:
    configs = [parse_config_spec(spec, 100.0, 1, 128) for spec in ("alphabeta:classic", "expectimax:rows")]
    measured = {"think p99 ms", "moves/s"}
    _, _, here = run_compare(configs, [1, 2], None, 1, progress=False)
    _, _, there = run_compare(configs, [1, 2], None, 1, progress=False, cluster=local_cluster)
    columns = [i for i, name in enumerate(COMPARE_COLUMNS) if name not in measured]
    assert [[row[i] for i in columns] for row in there] == [[row[i] for i in columns] for row in here]
    searchers = [Searcher(depth=1)]
    assert measure([7], 2, searchers, local_cluster) == measure([7], 2, searchers)


def test_every_port_of_a_local_cluster_is_on_127_0_0_1(local_cluster: Cluster) -> None:
    me = psutil.Process()
    listening = [
        connection.laddr
        for process in [me, *me.children(recursive=True)]
        for connection in process.net_connections(kind="inet")
        if connection.status == psutil.CONN_LISTEN
    ]
    assert len(listening) >= 3  # the scheduler and two workers at least
    assert {address.ip for address in listening} == {"127.0.0.1"}


def _worker_settings() -> tuple[str | None, bool]:
    """Inside a worker: its glibc trim threshold, and whether Dask's profiler is on."""
    import dask

    return os.environ.get("MALLOC_TRIM_THRESHOLD_"), bool(dask.config.get("distributed.worker.profile.enabled"))


def test_local_workers_keep_glibcs_adaptive_trimming_and_take_one_game_at_a_time(local_cluster: Cluster) -> None:
    """Dask's defaults fix the trim threshold (each large dict of a search faults its pages in again every move),
    profile every task and send a one-thread worker two queued games; the lab's local cluster does none of these."""
    settings = local_cluster.client.run(_worker_settings)
    assert len(settings) == 2 and set(settings.values()) == {(None, False)}
    saturation = local_cluster.client.run_on_scheduler(lambda dask_scheduler: dask_scheduler.WORKER_SATURATION)
    assert saturation == 1.0


def test_the_run_command_says_its_cluster_start_up_and_games_per_minute(tmp_path: Path, lab: Any) -> None:
    out = tmp_path / "games.jsonl"
    done = lab(["run", "--seeds", "1-3", "--jobs", "2", "--out", str(out), *SLOW_ARGS[:4], "--stop-tile", "64"])
    stdout, stderr = done.communicate(timeout=WAIT_S)
    assert done.returncode == 0, stderr
    assert "A local cluster of 2 workers, started in " in stdout
    assert "3 games in " in stdout and " games per minute, a local cluster of 2 workers, started in " in stdout
    assert len(read(out)) == 3


# ---------------------------------------------------------------- a scheduler and workers started by hand


def test_a_run_on_a_scheduler_started_by_hand_writes_the_games_of_one_process(
    hand_cluster: HandCluster, slow_games: list[tuple[Any, ...]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "games.jsonl"
    seeds = ",".join(map(str, SLOW_SEEDS))
    assert cli.main(["run", "--seeds", seeds, "--scheduler", hand_cluster.address, "--out", str(out), *SLOW_ARGS]) == 0
    assert f"The cluster at {hand_cluster.address}, 2 workers, reached in " in capsys.readouterr().out
    assert games_in(out) == slow_games


def test_a_worker_killed_mid_game_leaves_every_game_once_and_the_same(
    hand_cluster: HandCluster, slow_games: list[tuple[Any, ...]], tmp_path: Path, lab: Any
) -> None:
    out = tmp_path / "games.jsonl"
    seeds = ",".join(map(str, SLOW_SEEDS))
    run = lab(["run", "--seeds", seeds, "--scheduler", hand_cluster.address, "--out", str(out), *SLOW_ARGS[:-1]])
    ours = {process.pid for process in hand_cluster.workers}
    with Client(hand_cluster.address, timeout=30) as client:

        def busy_worker() -> tuple[str, int] | None:
            """A worker in the middle of one of the run's games, and its process id."""
            pids = client.run(os.getpid)
            for address, keys in client.processing().items():
                if any(str(key).startswith("game-") for key in keys) and address in pids:
                    return address, int(pids[address])
            return None

        address, pid = wait_for(busy_worker, "a worker playing a game")
        assert pid in ours  # one of this test's own processes
        os.kill(pid, signal.SIGKILL)
    stdout, stderr = run.communicate(timeout=WAIT_S)
    assert run.returncode == 0, stderr
    assert f"{address} left the cluster during the game of seed" in stderr
    assert "played again on another worker" in stderr
    assert games_in(out) == slow_games  # each seed once, in order, and the same games
    hand_cluster.workers = [process for process in hand_cluster.workers if process.pid != pid]
    hand_cluster.workers.append(hand_cluster.start_worker())
    hand_cluster.wait_for_workers(2)


def test_an_interrupted_local_run_resumes_on_the_hand_started_cluster(
    hand_cluster: HandCluster,
    slow_games: list[tuple[Any, ...]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    lab: Any,
) -> None:
    out = tmp_path / "games.jsonl"
    seeds = ",".join(map(str, SLOW_SEEDS))
    run = lab(["run", "--seeds", seeds, "--jobs", "2", "--out", str(out), *SLOW_ARGS])
    wait_for(lambda: lines_in(out) >= 1 or run.poll() is not None, "the first game written")
    os.killpg(run.pid, signal.SIGINT)  # Ctrl-C at a terminal: the whole group
    _, stderr = run.communicate(timeout=WAIT_S)
    kept = read(out)  # a valid file of whole games
    if run.returncode == 0:  # every game ended before the interrupt arrived: nothing left to resume
        assert len(kept) == len(SLOW_SEEDS)
    else:
        assert run.returncode == 130 and "the same command with --resume plays the rest" in stderr
        assert "Traceback" not in stderr  # the workers ignore the terminal's Ctrl-C; the command stops them
    assert len({record["seed"] for record in kept}) == len(kept) >= 1
    resumed = ["run", "--seeds", seeds, "--scheduler", hand_cluster.address, "--out", str(out), "--resume"]
    assert cli.main(resumed + SLOW_ARGS) == 0
    if len(kept) < len(SLOW_SEEDS):
        assert f"{len(kept)} of 4 games read back from {out}" in capsys.readouterr().out
    assert games_in(out) == slow_games


def test_an_unreachable_scheduler_is_one_line_naming_it_within_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{probe.getsockname()[1]}"
    started = time.monotonic()
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["run", "--seeds", "1,2", "--depth", "1", "--scheduler", address, "--no-progress"])
    assert time.monotonic() - started < 30
    assert exit_info.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and f"cannot reach the Dask scheduler at {address}" in error[0]


# ---------------------------------------------------------------- training sweeps

TRAIN = ["train", "--shape", "2x4", "--games", "400", "--block", "200", "--greedy-games", "20", "--no-progress"]


def test_a_sweep_trains_each_seed_as_a_run_alone_and_resumes_only_what_is_left(
    hand_cluster: HandCluster, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alone = {
        seed: train(TrainOptions(shape="2x4", games=400, block=200, seed=seed), tmp_path / f"alone-{seed}")[1]
        for seed in (1, 2)
    }  # also compiles the kernels, which the workers then read from numba's cache
    local = tmp_path / "local"
    assert cli.main([*TRAIN, "--seeds", "1-2", "--jobs", "2", "--out", str(local)]) == 0
    printed = capsys.readouterr().out
    assert "a sweep of 2 training runs" in printed and "A local cluster of 2 workers" in printed
    for seed in (1, 2):
        np.testing.assert_array_equal(load_checkpoint(local / f"seed-{seed}")[2], alone[seed])
        greedy = json.loads((local / f"seed-{seed}" / "greedy.json").read_text())
        assert greedy["games"] == 20 and greedy["trained_games"] == 400
    assert "2 runs\n" in printed and f"{local / 'seed-1'}" in printed  # compare-runs' table of the sweep

    # Without greedy games the sweep ends on each run's last block, not on greedy results it never played.
    quick = tmp_path / "quick"
    no_greedy = [*TRAIN[:-3], "--greedy-games", "0", "--no-progress", "--seeds", "1-2", "--jobs", "1"]
    assert cli.main([*no_greedy, "--out", str(quick)]) == 0
    printed = capsys.readouterr().out
    assert "No greedy games (--greedy-games 0)" in printed and f"{quick / 'seed-2'}: 400 games, mean " in printed
    assert f"compare-runs {quick / 'seed-1'} {quick / 'seed-2'}" in printed
    assert not (quick / "seed-1" / "greedy.json").exists()

    assert cli.main([*TRAIN, "--seeds", "1-2", "--jobs", "2", "--out", str(local), "--resume"]) == 0
    assert "2 of 2 runs already finished" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_info:
        cli.main([*TRAIN, "--seeds", "1-2", "--jobs", "2", "--out", str(local)])
    assert exit_info.value.code == 2 and "already holds a training run" in capsys.readouterr().err

    # On the cluster started by hand (workers offering CPU=1): a run of two threads is refused before it waits
    # for ever; runs of one thread go, and an interrupted sweep (one run left half done) goes on from there.
    remote = tmp_path / "remote"
    with pytest.raises(SystemExit):
        cli.main(
            [*TRAIN, "--seeds", "1-2", "--threads", "2", "--scheduler", hand_cluster.address, "--out", str(remote)]
        )
    assert "offers 2 CPU(s)" in capsys.readouterr().err
    train(TrainOptions(shape="2x4", games=200, block=200, seed=2), remote / "seed-2")
    resumed = [*TRAIN, "--seeds", "1-2", "--scheduler", hand_cluster.address, "--out", str(remote), "--resume"]
    assert cli.main(resumed) == 0
    for seed in (1, 2):
        np.testing.assert_array_equal(load_checkpoint(remote / f"seed-{seed}")[2], alone[seed])
    assert (remote / "seed-1" / CHECKPOINT).exists()
