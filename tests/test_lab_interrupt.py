"""Ctrl-C at any moment of a lab command: one line, exit code 130, every finished game or block kept.

The commands run as subprocesses with SIGINT at its default (a shell's background job inherits it ignored,
which is how a Ctrl-C once seemed not to stop a cluster run).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from game2048.lab.records import read

ROOT = Path(__file__).resolve().parent.parent


def _start(argv: list[str]) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "py")}
    return subprocess.Popen(
        [sys.executable, "-m", "game2048.lab", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # its own process group, like a terminal's foreground job
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _interrupt(process: subprocess.Popen[str], whole_group: bool = False) -> tuple[str, str]:
    """SIGINT to the command, or to its whole process group as a terminal sends it; its output, once it ended."""
    if whole_group:
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=90)
    assert process.returncode == 130, (out, err)
    assert "Traceback" not in err
    return out, err


def _wait_for(condition, seconds: float = 120) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the command never got there"
        time.sleep(0.05)


RUN = ["run", "--depth", "2", "--stop-tile", "0", "--games", "40", "--no-progress"]


def _maps(process: subprocess.Popen[str]) -> str:
    try:
        return Path(f"/proc/{process.pid}/maps").read_text()
    except OSError:
        return ""


def test_ctrl_c_while_the_lab_imports_is_one_line() -> None:
    """SIGINT as soon as numpy's library is mapped: the lab's imports are under way (the interpreter's own
    start-up, before any of the lab's code, is not the lab's to catch)."""
    process = _start(RUN)
    _wait_for(lambda: "numpy" in _maps(process) or process.poll() is not None, seconds=60)
    out, err = _interrupt(process)
    assert out == "" and err.strip().splitlines()[-1] == "interrupted"


def _spawned_workers(pid: int) -> int:
    """How many processes ``pid`` has spawned by multiprocessing (Dask's workers), read from /proc."""
    count = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        count += parent == pid and b"spawn_main" in command
    return count


def test_ctrl_c_while_the_cluster_starts_is_not_lost(tmp_path: Path) -> None:
    """The workers must not take a terminal's Ctrl-C, but the command must: it was ignored while they started."""
    out = tmp_path / "games.jsonl"
    process = _start([*RUN, "--jobs", "2", "--out", str(out)])
    _wait_for(lambda: _spawned_workers(process.pid) >= 1 or process.poll() is not None)
    _, err = _interrupt(process)
    assert (not out.exists() or len(read(out)) < 40) and err.strip().endswith("interrupted")


def test_a_terminals_ctrl_c_in_a_cluster_run_stops_it_and_keeps_the_finished_games(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    process = _start([*RUN, "--jobs", "2", "--out", str(out)])
    _wait_for(lambda: out.exists() and out.read_text().count("\n") >= 1)
    _, err = _interrupt(process, whole_group=True)
    kept = read(out)
    assert 1 <= len(kept) < 40 and f"finished: they are in {out}" in err and err.strip().endswith("interrupted")


def test_ctrl_c_in_training_keeps_the_block_it_played(tmp_path: Path) -> None:
    run = tmp_path / "run"
    process = _start(["train", "--shape", "2x4", "--games", "10000000", "--block", "200", "--out", str(run)])
    assert process.stdout is not None
    assert process.stdout.readline().startswith("training 2x4")  # the kernels are compiled and playing
    time.sleep(1.0)
    _, err = _interrupt(process)
    assert "games kept in" in err and "--resume goes on" in err
    assert (run / "checkpoint.npz").stat().st_size > 0
