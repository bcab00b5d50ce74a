"""The search bench: the fixed positions searched under a think-time budget, in CPython and in Chromium.

``python tools/bench.py`` (``make bench``) searches every position of
``game2048.bench_positions`` with ``best_move`` at ``--think-ms`` (default 100),
first in this CPython, then in Chromium through the page's own AI worker
(``py/app/ai/worker.py`` as a PyScript named worker with
``pyscript-worker.toml``, driven by ``tools/bench_browser.py``), and prints the two
side by side: completed depth (median, p10), nodes per second (median over
searches), the search's own think time (p50, p99, max) and the caller's round
trip (wall time around the call; in the browser it includes the trip to the
worker and back).  ``--cpython-only`` skips the browser.  ``--explain``
adds a CPython column, "explained", for the worker's ``explain`` (the search explorer
open): the same searches with their explanation, whose think time must stay
within the budget (the round trip adds the explanation's own time).

Timings on a shared machine are noisy: each position is searched ``--repeat``
times (default 3), and the node counts and depths are printed beside the
times so runs can be compared by more than the clock.  Before the measured
searches, ``--warmup`` searches (default 8, not recorded) let the engine settle:
in Chromium the first searches after the worker starts run at a fraction of
the later speed while WebAssembly is still being optimised, and overrun the
budget; ``--warmup 0`` measures them too.  It lives in ``tools/`` because it
drives the page's worker and Chromium: the engine never imports the page.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TOOLS = Path(__file__).resolve().parent
REPO_ROOT = TOOLS.parent
for _path in (TOOLS, REPO_ROOT / "py"):  # tools/ is not a package; py/ holds game2048 and the page's app
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))
from game2048.bench_positions import POSITIONS, BenchPosition  # noqa: E402
from game2048.board import to_rows  # noqa: E402


@dataclass(frozen=True)
class Sample:
    """One search of one position: what the search reported and how long the caller waited."""

    position: str
    phase: str
    move: str | None
    depth: int
    nodes: int
    think_ms: float
    round_trip_ms: float

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / (self.think_ms / 1000.0) if self.think_ms > 0 else 0.0


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) with linear interpolation between ranks, as numpy's default."""
    if not values:
        raise ValueError("percentile of no values")
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100.0
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def requests_for(
    positions: Iterable[BenchPosition], think_ms: float, repeat: int, algorithm: str, preset: str | None = None
) -> list[dict[str, Any]]:
    """The worker requests of a bench run, in search order (each position ``repeat`` times in a row)."""
    extra = {"preset": preset} if preset else {}
    return [
        {"rows": to_rows(p.board), "think_ms": think_ms, "algorithm": algorithm, "id": p.name, **extra}
        for p in positions
        for _ in range(repeat)
    ]


EVALUATION_PRESETS = ("classic", "rows", "learned")
"""The presets whose evaluations per second ``--evaluations`` measures, side by side."""


def needs_network(preset: str | None) -> bool:
    """Whether the worker must download the learned network before searching with ``preset``."""
    from game2048.evaluation import presets

    return preset is not None and presets.get(preset).needs_download


def evaluation_speeds(seconds: float, chromium: bool) -> dict[str, dict[str, float]]:
    """Evaluations per second of each of ``EVALUATION_PRESETS`` over the bench positions' afterstates,
    in CPython and (when ``chromium``) in the page's worker in Chromium."""
    from app.ai import worker as ai_worker
    from game2048.move_tables import afterstates

    boards = [after for p in POSITIONS for after in afterstates(p.board) if after != p.board]
    calls = [("evaluation_speed", {"preset": n, "boards": boards, "seconds": seconds}) for n in EVALUATION_PRESETS]
    out = {
        "CPython": {r["preset"]: json.loads(ai_worker.evaluation_speed(json.dumps(r)))["per_second"] for _, r in calls}
    }
    if chromium:
        from bench_browser import calls_in_chromium

        before, _, after, *answers = calls_in_chromium(
            [("heap_bytes", {}), ("load_network", {}), ("heap_bytes", {}), *calls]
        )
        out["Chromium"] = {a["preset"]: a["per_second"] for a in answers}
        print(
            f"the worker's WebAssembly heap: {before['bytes'] / 1e6:.0f} MB before the learned network, "
            f"{after['bytes'] / 1e6:.0f} MB after ({(after['bytes'] - before['bytes']) / 1e6:.0f} MB for it)"
        )
    return out


def sample_from_answer(position: BenchPosition, answer: dict[str, Any], round_trip_ms: float) -> Sample:
    """A sample from the worker's JSON answer; a failed search stops the bench with the worker's message."""
    if not answer.get("ok"):
        raise RuntimeError(f"the search of {position.name} failed: {answer.get('error')}")
    return Sample(
        position.name,
        position.phase,
        answer["move"],
        answer["depth"],
        answer["nodes"],
        answer["elapsed_ms"],
        round_trip_ms,
    )


def warmup_requests(
    positions: Sequence[BenchPosition], think_ms: float, count: int, algorithm: str, preset: str | None = None
) -> list[dict[str, Any]]:
    """``count`` unrecorded searches over the positions, in order, to send before the measured ones."""
    cycle = [positions[i % len(positions)] for i in range(count)]
    return [dict(r, id="warmup") for r in requests_for(cycle, think_ms, 1, algorithm, preset)]


def run_cpython(
    positions: Sequence[BenchPosition],
    think_ms: float,
    repeat: int,
    algorithm: str,
    warmup: int = 0,
    explain: bool = False,
    preset: str | None = None,
) -> list[Sample]:
    """Every request through the worker module itself, in this process (same code path as the page's worker).

    ``explain`` sends each request to the worker's ``explain`` (the page's explorer open) instead of ``think``.
    """
    from app.ai import worker as ai_worker

    ai_worker.ready()
    extra: dict[str, Any] = {"analysis_ms": think_ms} if explain else {}
    call = ai_worker.explain if explain else ai_worker.think
    for request in warmup_requests(positions, think_ms, warmup, algorithm, preset):
        call(json.dumps({**request, **extra}))
    samples = []
    searched = [p for p in positions for _ in range(repeat)]
    for position, request in zip(searched, requests_for(positions, think_ms, repeat, algorithm, preset)):
        started = time.perf_counter()
        answer = json.loads(call(json.dumps({**request, **extra})))
        samples.append(sample_from_answer(position, answer, (time.perf_counter() - started) * 1000.0))
    return samples


def run_chromium(
    positions: Sequence[BenchPosition],
    think_ms: float,
    repeat: int,
    algorithm: str,
    warmup: int = 0,
    preset: str | None = None,
    workers: int = 1,
) -> list[Sample]:
    """The same requests through the page's ``workers`` AI workers in Chromium (see ``tools/bench_browser.py``)."""
    from bench_browser import think_in_chromium  # here, not above: it needs playwright, --cpython-only does not

    warm = warmup_requests(positions, think_ms, warmup, algorithm, preset)
    before = [("load_network", {})] if needs_network(preset) else []
    asked = warm + requests_for(positions, think_ms, repeat, algorithm, preset)
    replies = think_in_chromium(asked, before, workers)
    replies = replies[len(warm) :]
    return [
        sample_from_answer(position, answer, round_trip)
        for position, (answer, round_trip) in zip([p for p in positions for _ in range(repeat)], replies)
    ]


def summary(samples: Sequence[Sample]) -> dict[str, float]:
    """The figures printed for one environment."""
    depths = [s.depth for s in samples]
    think = [s.think_ms for s in samples]
    trip = [s.round_trip_ms for s in samples]
    out = {
        "searches": len(samples),
        "depth median": statistics.median(depths),
        "depth p10": percentile(depths, 10),
        "nodes/s median": statistics.median(s.nodes_per_second for s in samples),
        "nodes median": statistics.median(s.nodes for s in samples),
        "think ms p50": percentile(think, 50),
        "think ms p99": percentile(think, 99),
        "think ms max": max(think),
        "round trip ms p50": percentile(trip, 50),
        "round trip ms p99": percentile(trip, 99),
        "round trip ms max": max(trip),
    }
    for phase in ("early", "middle", "late"):
        phase_depths = [s.depth for s in samples if s.phase == phase]
        if phase_depths:
            out[f"depth median ({phase})"] = statistics.median(phase_depths)
    return out


def format_table(columns: dict[str, dict[str, float]]) -> str:
    """Metrics as rows, environments as columns."""
    names = list(columns)
    metrics = list(next(iter(columns.values())))
    width = max(len(m) for m in metrics) + 2
    lines = [" " * width + "".join(f"{n:>14}" for n in names)]
    for metric in metrics:
        cells = []
        for name in names:
            value = columns[name].get(metric)
            if value is None:
                cells.append(f"{'-':>14}")
            elif metric.startswith("nodes"):
                cells.append(f"{value:>14,.0f}")
            elif isinstance(value, int) or float(value).is_integer():
                cells.append(f"{value:>14.0f}")
            else:
                cells.append(f"{value:>14.1f}")
        lines.append(f"{metric:<{width}}" + "".join(cells))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/bench.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--think-ms", type=float, default=100.0, help="think-time budget per search (default 100)")
    parser.add_argument("--repeat", type=int, default=3, help="searches per position (default 3)")
    parser.add_argument(
        "--warmup", type=int, default=8, help="unrecorded searches before the measured ones (default 8)"
    )
    parser.add_argument("--algorithm", default="alphabeta", choices=["alphabeta", "expectimax"])
    parser.add_argument("--preset", help="evaluation preset (default: the algorithm's own), e.g. learned")
    parser.add_argument(
        "--evaluations",
        action="store_true",
        help=f"instead: evaluations per second of {', '.join(EVALUATION_PRESETS)} in CPython and Chromium",
    )
    parser.add_argument("--cpython-only", action="store_true", help="skip the Chromium run")
    parser.add_argument(
        "--workers",
        default="1",
        help="Chromium runs with these numbers of AI workers, e.g. 1,2 (default 1; expectimax shares a decision)",
    )
    parser.add_argument(
        "--explain", action="store_true", help="also run CPython through the worker's explain (the explorer open)"
    )
    parser.add_argument("--json", type=Path, help="also write every sample and the summaries to this JSON file")
    args = parser.parse_args(argv)
    if args.think_ms <= 0 or args.repeat < 1 or args.warmup < 0:
        parser.error("--think-ms must be positive, --repeat at least 1 and --warmup at least 0")
    try:
        worker_counts = [int(n) for n in args.workers.split(",")]
    except ValueError:
        parser.error(f"--workers is a list of numbers of workers, like 1,2; got {args.workers!r}")
    if not all(1 <= n <= 4 for n in worker_counts):
        parser.error(f"--workers are 1 to 4 (the page's most), got {args.workers!r}")

    if args.evaluations:
        speeds = evaluation_speeds(1.0, chromium=not args.cpython_only)
        print("evaluations per second over the bench positions' afterstates (1 s each):")
        print("| preset | " + " | ".join(speeds) + " |")
        print("| --- |" + " --- |" * len(speeds))
        for name in EVALUATION_PRESETS:
            print(f"| {name} | " + " | ".join(f"{speeds[run][name]:,.0f}" for run in speeds) + " |")
        return 0
    positions = list(POSITIONS)
    print(
        f"bench: {len(positions)} positions ({', '.join(sorted({p.phase for p in positions}))}) x {args.repeat}, "
        f"{args.algorithm}{':' + args.preset if args.preset else ''}, think {args.think_ms:g} ms, "
        f"after {args.warmup} warm-up searches",
        flush=True,
    )
    runs: dict[str, list[Sample]] = {}
    runs["CPython"] = run_cpython(
        positions, args.think_ms, args.repeat, args.algorithm, args.warmup, preset=args.preset
    )
    print(f"CPython {sys.version.split()[0]} done", flush=True)
    if args.explain:
        runs["explained"] = run_cpython(
            positions, args.think_ms, args.repeat, args.algorithm, args.warmup, explain=True, preset=args.preset
        )
        print("CPython with the explanation done", flush=True)
    for workers in [] if args.cpython_only else worker_counts:
        name = "Chromium" if workers == 1 else f"Chromium x{workers}"
        runs[name] = run_chromium(
            positions, args.think_ms, args.repeat, args.algorithm, args.warmup, preset=args.preset, workers=workers
        )
        print(f"{name} (Pyodide, {workers} worker{'s' if workers > 1 else ''}) done", flush=True)
    table = {name: summary(samples) for name, samples in runs.items()}
    print(format_table(table))
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "think_ms": args.think_ms,
                    "summary": table,
                    "samples": {name: [s.__dict__ for s in samples] for name, samples in runs.items()},
                },
                indent=1,
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
