"""``python -m game2048.lab compare-runs DIR... [--against DIR...]``: training runs side by side, by their greedy games.

A run is judged as the papers judge a network: its float weights played greedily (1-ply) over seeded games,
their mean score and the share reaching 2048 … 32768.  Each run folder's ``greedy.json`` holds that (a
sweep writes it when a run ends); a run without one, or whose checkpoint has trained on since, is played
here (``--games``, seed ``GREEDY_SEED``) and the file written.  A folder holding only a ``greedy.json``
(another trainer's results, written by hand) counts as well, and so does a network file (``export``'s, or
the shipped ``networks/4x6.ntn``): its manifest's check when it is of those games, else played here.
Printed: a row per run, then the mean, the standard deviation (n - 1) and the range over each group, and
with ``--against`` Welch's t-test between the two groups on the mean score and on each rate (scipy's).
"""

from __future__ import annotations

import argparse
import json
import statistics
import warnings
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

from ...evaluation.ntuple_shapes import parse_shape
from .. import arguments as A
from .. import out_files
from ..config import read_network
from ..intervals import wilson
from ..summary import text_table
from .export import dequantized
from .trainer import CHECKPOINT, TILES, TrainError, greedy_results, load_checkpoint

GREEDY_FILE = "greedy.json"
GREEDY_SEED = 1
"""The greedy games' seed, as ``greedy`` and ``export`` default to: every run judged on the same games."""
GREEDY_GAMES = 1000
"""Greedy games per run by default: each rate within about 1.5 points (one standard error; docs/results.md)."""
METRICS = ("mean_score", *(f"rate_{tile}" for tile in TILES))
"""What a ``greedy.json`` holds per run, and what the groups are compared on."""


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The ``compare-runs`` subcommand's options."""
    parser = sub.add_parser("compare-runs", help="training runs' greedy results side by side, with Welch's t-test")
    parser.add_argument(
        "runs", type=Path, nargs="+", help="run folders (a sweep's, or train --out's), or network files (.ntn)"
    )
    parser.add_argument(
        "--against",
        type=Path,
        nargs="+",
        default=[],
        help="a second group of them, e.g. networks/4x6.ntn: yours against the shipped network",
    )
    parser.add_argument(
        "--games",
        type=A.whole(*A.GAMES),
        default=GREEDY_GAMES,
        help=f"greedy games for a run without {GREEDY_FILE} (default {GREEDY_GAMES})",
    )


def run(args: argparse.Namespace) -> None:
    groups = [list(args.runs)] + ([list(args.against)] if args.against else [])
    results = [[run_greedy(folder, args.games) for folder in group] for group in groups]
    print(report(groups, results))


def run_greedy(folder: Path, games: int = GREEDY_GAMES) -> dict[str, Any]:
    """The run's greedy results: its ``greedy.json`` if it is of the checkpoint as it stands, else played now
    (``games`` games) and written there."""
    if folder.is_file():
        return network_greedy(folder, games)
    path = folder / GREEDY_FILE
    saved = _read(path) if path.exists() else None
    trained = trained_games(folder) if (folder / CHECKPOINT).exists() else None
    if saved is not None and (trained is None or saved.get("trained_games") == trained):
        return saved
    if trained is None:
        raise TrainError(
            f"{folder} holds neither a training run ({CHECKPOINT}) nor its results ({GREEDY_FILE}); "
            "a network file may be named instead, e.g. networks/4x6.ntn"
        )
    return write_greedy(folder, games)


def write_greedy(folder: Path, games: int) -> dict[str, Any]:
    """Play the run's checkpoint greedily (``games`` games, seed ``GREEDY_SEED``) and keep the results beside it."""
    saved, state, weights = load_checkpoint(folder)
    results = {
        **greedy_results(parse_shape(str(saved["shape"])), weights, games, GREEDY_SEED),
        "trained_games": state.games,
    }
    out_files.write_text(folder / GREEDY_FILE, json.dumps(results) + "\n")
    return results


def network_greedy(path: Path, games: int) -> dict[str, Any]:
    """A network file's greedy results: its manifest's check when that played ``games`` games from seed
    ``GREEDY_SEED``, else played now (nothing written beside someone's file)."""
    network, manifest = read_network(path)
    kept = manifest.get("greedy")
    if isinstance(kept, dict) and kept.get("games") == games and kept.get("seed") == GREEDY_SEED:
        return {**_checked(kept, path), "trained_games": manifest.get("trained_games")}
    results = greedy_results(network.shape, dequantized(network), games, GREEDY_SEED)
    return {**results, "trained_games": manifest.get("trained_games")}


def trained_games(folder: Path) -> int:
    """The games a run's checkpoint has trained, read from its metadata alone (not its weights)."""
    try:
        with np.load(folder / CHECKPOINT) as data:
            return int(json.loads(str(data["meta"]))["state"]["games"])
    except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        raise TrainError(f"{folder / CHECKPOINT} is not a readable checkpoint: {exc}") from None


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except ValueError as exc:
        raise TrainError(f"{path} is not a run's greedy results: {exc}") from None
    return _checked(data, path)


def _checked(data: Any, path: Path) -> dict[str, Any]:
    """``data`` if it holds every one of ``METRICS`` as a number; ``TrainError`` naming ``path`` otherwise."""
    if not isinstance(data, dict) or not all(isinstance(data.get(key), int | float) for key in METRICS):
        raise TrainError(f"{path} is not a run's greedy results: it needs the numbers {', '.join(METRICS)}")
    return data


COLUMNS = ("run", "trained", "greedy games", "mean score", *(str(tile) for tile in TILES))


def report(groups: Sequence[Sequence[Path]], results: Sequence[Sequence[dict[str, Any]]]) -> str:
    """Each group's table (a row per run, then mean, sd and range), and Welch's test when there are two groups."""
    blocks = []
    for number, (folders, found) in enumerate(zip(groups, results), start=1):
        rows = [_run_row(folder, result) for folder, result in zip(folders, found)]
        rows += _spread_rows(found)
        title = f"group {number}: " if len(groups) > 1 else ""
        blocks.append(f"{title}{len(found)} run{'s' if len(found) != 1 else ''}\n{text_table(COLUMNS, rows)}")
    if len(groups) == 2 and len(results[0]) == len(results[1]) == 1:
        blocks.append(interval_table(results[0][0], results[1][0]))
    elif len(groups) == 2:
        blocks.append(welch_table(results[0], results[1]))
    return "\n\n".join(blocks)


@dataclass(frozen=True)
class Welch:
    """Welch's t-test of two groups (means compared without assuming they spread alike): the statistic, its
    Welch-Satterthwaite degrees of freedom and the two-sided p-value."""

    t: float
    df: float
    p: float


def welch_test(a: Sequence[float], b: Sequence[float]) -> Welch:
    """``scipy.stats.ttest_ind(a, b, equal_var=False)``, refusing with a message the groups it cannot test
    (fewer than two values in one, or no spread in either)."""
    if len(a) < 2 or len(b) < 2:
        raise ValueError(f"Welch's test needs at least two values in each group, got {len(a)} and {len(b)}")
    if statistics.variance(a) + statistics.variance(b) == 0:
        raise ValueError("Welch's test needs some spread: every value of both groups is the same")
    with warnings.catch_warnings():  # one group without spread (every run 0 % at 32768) is exact, not "unreliable"
        warnings.simplefilter("ignore", RuntimeWarning)
        result = stats.ttest_ind(a, b, equal_var=False)
    return Welch(float(result.statistic), float(result.df), float(result.pvalue))


def welch_table(a: Sequence[dict[str, Any]], b: Sequence[dict[str, Any]]) -> str:
    """Welch's t-test of group 1 against group 2 on each of ``METRICS``."""
    rows = []
    for metric in METRICS:
        try:
            test = welch_test([r[metric] for r in a], [r[metric] for r in b])
            rows.append([_metric_name(metric), f"{test.t:.2f}", f"{test.df:.1f}", f"{test.p:.3f}"])
        except ValueError as exc:
            rows.append([_metric_name(metric), "–", "–", str(exc).split(":")[0]])
    return "Welch's t-test, group 1 against group 2\n" + text_table(("greedy", "t", "df", "p (two-sided)"), rows)


def interval_table(a: dict[str, Any], b: dict[str, Any]) -> str:
    """One network against one: each tile's rate with its 95 % interval (Wilson's), and whether they part.

    Welch's test needs runs (seeds) on each side; two single networks are told apart by their games alone."""
    rows = []
    for tile in TILES:
        shares = [wilson(round(r[f"rate_{tile}"] * r["games"]), int(r["games"])) for r in (a, b)]
        apart = shares[0].high < shares[1].low or shares[1].high < shares[0].low
        rows.append(
            [
                str(tile),
                *(f"{100 * x.rate:.1f}% ({100 * x.low:.1f}–{100 * x.high:.1f}%)" for x in shares),
                "apart" if apart else "not told apart",
            ]
        )
    title = "one against one: each rate with its 95 % interval (Wilson's), apart when the intervals do not meet"
    return title + "\n" + text_table(("reached", "1", "2", "by these games"), rows)


def _metric_name(metric: str) -> str:
    return "mean score" if metric == "mean_score" else metric.removeprefix("rate_")


def _run_row(folder: Path, result: dict[str, Any]) -> list[str]:
    trained = result.get("trained_games")
    return [
        str(folder),
        f"{trained:,}" if isinstance(trained, int) else "–",
        str(result.get("games", "–")),
        *_cells([result[metric] for metric in METRICS]),
    ]


def _spread_rows(found: Sequence[dict[str, Any]]) -> list[list[str]]:
    """mean, sd (n - 1; none for one run) and range over the runs, metric by metric."""
    columns = [[float(r[metric]) for r in found] for metric in METRICS]
    rows = [["mean", "", "", *_cells([statistics.fmean(values) for values in columns])]]
    if len(found) > 1:
        rows.append(["sd", "", "", *_cells([statistics.stdev(values) for values in columns])])
    rows.append(
        ["range", "", "", *(f"{low}–{high}" for low, high in zip(_cells(map(min, columns)), _cells(map(max, columns))))]
    )
    return rows


def _cells(values: Any) -> list[str]:
    """A mean score as ``92,415``, a rate as ``96.1%``: ``METRICS`` in order."""
    values = list(values)
    return [f"{values[0]:,.0f}", *(f"{100 * value:.1f}%" for value in values[1:])]
