"""The lab's trainer beside TDL2048, the C++ trainer it reproduces: moves per second, one thread each, one run.

    python tools/bench_trainer.py --tdl2048 PATH [--games 20000] [--rounds 3] [--alpha 0.0025] [--before DIR]

Both train the paper's 2×4+2×6 network from zeros for ``--games`` games on
one thread, taking turns ``--rounds`` times (seeds 1, 2, …), so the two
share whatever else the machine is doing.  TDL2048 is timed by its own
clock: it prints each thousand games' milliseconds and moves per second
(``NNN/NNN 123ms 2345678.90ops``), and the moves are their product.  Ours
is timed by the run's own clock (``TrainState.seconds`` in its checkpoint,
the kernels' time without start-up or checkpoints); each round is a new
process, after one untimed round that fills numba's cache.  TDL2048 reads
16 values a cell where the paper's shape takes 15; ours trains both
(``2x4+2x6`` and its 16-value twin), so the table shows what the 15th value costs.  ``--before DIR`` adds
the lab of another checkout (``git worktree add DIR COMMIT``) on the paper's shape, in the same turns.

TDL2048 is not part of this project: build it from its repository (moporgic/TDL2048, ``make default``) and
give its binary's path.  The table goes to docs/results.md with the date and the machine.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve import REPO_ROOT  # noqa: E402

sys.path.insert(0, str(REPO_ROOT / "py"))
from game2048.lab.training.trainer import load_checkpoint  # noqa: E402

PAPER_TUPLES = "0123 4567 012456 45689a"
"""TDL2048's spelling of the 2×4+2×6 shape (``ntuple_shapes.SHAPES['2x4+2x6']``): cells as hex digits."""
OURS = {"2x4+2x6": "2x4+2x6", "2x4+2x6 at 16 values": "0,1,2,3;4,5,6,7;0,1,2,4,5,6;4,5,6,8,9,10/16"}
BLOCK = re.compile(r"^\d+/\d+ (\d+)ms ([\d.]+)ops", re.MULTILINE)


def tdl2048_moves(output: str) -> tuple[int, float]:
    """Moves and seconds of a TDL2048 run by its own clock: the sum over its thousand-game blocks."""
    moves = 0.0
    ms = 0
    for block_ms, per_s in BLOCK.findall(output):
        ms += int(block_ms)
        moves += int(block_ms) * float(per_s) / 1000
    if not ms:
        raise ValueError("TDL2048 printed no block of games (expected lines such as '001/020 92ms 3065764.04ops')")
    return round(moves), ms / 1000


def run_tdl2048(binary: Path, games: int, alpha: float, seed: int) -> tuple[int, float]:
    """One TDL2048 run: ``-t`` counts thousands of games; ``norm=1`` makes its alpha each weight's, as ours is."""
    args = [str(binary), "-n", *PAPER_TUPLES.split(), "-t", str(games // 1000), "-a", f"{alpha:g}", "norm=1"]
    done = subprocess.run([*args, "-s", str(seed)], capture_output=True, text=True, check=True, timeout=3600)
    return tdl2048_moves(done.stdout)


def run_ours(shape: str, games: int, alpha: float, seed: int, root: Path = REPO_ROOT) -> tuple[int, float]:
    """One run of ``lab train`` (the lab of the checkout at ``root``) in a process of its own: moves and seconds
    by its checkpoint."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "run"
        argv = ["-m", "game2048.lab", "train", "--shape", shape, "--games", str(games), "--alpha", f"{alpha:g}"]
        argv += ["--seed", str(seed), "--out", str(out), "--no-progress", "--checkpoint-s", "1e9"]
        env = {**os.environ, "PYTHONPATH": str(root / "py")}
        subprocess.run([sys.executable, *argv], capture_output=True, text=True, check=True, env=env, timeout=3600)
        _, state, _ = load_checkpoint(out)
        return state.moves, state.seconds


def table(results: dict[str, list[tuple[int, float]]]) -> str:
    """Markdown: each trainer's median moves per second (range) and its share of TDL2048's median."""
    speeds = {name: [moves / seconds for moves, seconds in runs] for name, runs in results.items()}
    reference = statistics.median(speeds["TDL2048"])
    lines = ["| trainer | runs | moves/s, median (range) | of TDL2048 |", "| --- | --- | --- | --- |"]
    for name, values in speeds.items():
        median = statistics.median(values)
        lines.append(
            f"| {name} | {len(values)} | {median:,.0f} ({min(values):,.0f}–{max(values):,.0f}) "
            f"| {100 * median / reference:.0f} % |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tdl2048", type=Path, required=True, help="the TDL2048 binary (make default in its repo)")
    parser.add_argument("--games", type=int, default=20_000, help="games a run, a multiple of 1,000 (default 20,000)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each trainer, taking turns (default 3)")
    parser.add_argument("--alpha", type=float, default=0.0025, help="the learning rate (default 0.0025)")
    parser.add_argument("--before", type=Path, help="another checkout whose lab is timed too, on the paper's shape")
    args = parser.parse_args(argv)
    if args.games < 1000 or args.games % 1000:
        parser.error(f"--games is a multiple of 1,000 (TDL2048 counts thousands), got {args.games}")
    if not args.tdl2048.is_file():
        parser.error(f"no TDL2048 binary at {args.tdl2048}: build it from moporgic/TDL2048 with 'make default'")
    if args.before and not (args.before / "py" / "game2048" / "lab").is_dir():
        parser.error(f"{args.before} is not a checkout of this project (no py/game2048/lab)")
    ours = [(name, shape, REPO_ROOT) for name, shape in OURS.items()]
    if args.before:
        ours.append((f"2x4+2x6, {args.before.name}", OURS["2x4+2x6"], args.before))
    results: dict[str, list[tuple[int, float]]] = {"TDL2048": [], **{name: [] for name, _, _ in ours}}
    for _, shape, root in ours:
        run_ours(shape, 1000, args.alpha, 0, root)  # fills numba's cache: no round pays for compiling
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    for seed in range(1, args.rounds + 1):
        results["TDL2048"].append(run_tdl2048(args.tdl2048, args.games, args.alpha, seed))
        for name, shape, root in ours:
            results[name].append(run_ours(shape, args.games, args.alpha, seed, root))
        moves_s = ", ".join(f"{name} {m / s:,.0f}" for name, runs in results.items() for m, s in runs[-1:])
        print(f"round {seed}: moves/s {moves_s}", flush=True)
    print(f"\n{args.games:,} games a run, one thread, alpha {args.alpha:g}, from {started}\n")
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
