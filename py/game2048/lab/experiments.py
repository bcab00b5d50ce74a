"""The two experiments that compare evaluations: single features, and configurations side by side.

``features``: every feature of a preset alone as the evaluation (weight 1 on
it, 0 on the other features; exponents and constants keep their values), then
the full preset, all over the same seeds.  Each preset's features are signed so
that higher is better with a positive weight, so "weight 1" always means
"prefer more of this".  This is the experiment behind the classic finding that
merging and empty-cell features alone play far better than monotonicity alone.

``compare``: two or more configurations over the same seeds.

Both write a Markdown report with PNG charts into a folder the user names,
plus every game as JSON lines, and return the summaries for printing.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..evaluation import presets
from . import charts, out_files
from .cluster import Cluster
from .config import FEATURE_WEIGHTS, PlayConfig
from .play import play_games
from .records import to_json
from .summary import COMPARE_COLUMNS, compare_rows, markdown_table, summarize


def feature_configs(base: PlayConfig) -> list[tuple[str, PlayConfig]]:
    """(label, config) for each feature of ``base``'s preset alone, then the full preset with ``base``'s weights."""
    name = base.preset_name
    preset = presets.get(name)
    features = FEATURE_WEIGHTS.get(name, tuple(preset.default_weights))
    out = []
    for feature in features:
        weights = {**dict(base.weights), **{f: 0.0 for f in features}, feature: 1.0}
        out.append((f"{feature} alone", replace(base, weights=weights).check()))
    out.append((f"full {name}", base))
    return out


def _write_jsonl(path: Path, labelled: Sequence[tuple[str, Sequence[dict[str, Any]]]]) -> None:
    with out_files.replacing(path) as f:
        for label, records in labelled:
            for r in records:
                f.write(json.dumps({"group": label, **to_json(r)}) + "\n")


def _command_line() -> str:
    return "python -m game2048.lab " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def run_features(
    base: PlayConfig,
    seeds: Sequence[int],
    folder: Path,
    jobs: int | None,
    progress: bool = True,
    cluster: Cluster | None = None,
) -> list[tuple[str, dict[str, Any]]]:
    """Play the single-feature experiment and write ``report.md``, two PNGs and ``games.jsonl`` into ``folder``.

    The games go to ``cluster`` when given, else as ``play_games`` plays them with ``jobs``.
    """
    out_files.folder(folder)
    configs = feature_configs(base)
    results = []
    for label, config in configs:
        records = play_games(seeds, config, jobs=jobs, progress=progress, label=label, cluster=cluster)
        results.append((label, config, records))
    summaries = [(label, summarize(records)) for label, _, records in results]
    max_png = charts.max_tile_distribution(
        {label: [r["max_tile"] for r in records] for label, _, records in results},
        folder / "max_tile.png",
        f"{base.algorithm}, preset {base.preset_name}: max tile per game, each feature alone",
    )
    score_png = charts.score_distribution(
        {label: [r["score"] for r in records] for label, _, records in results},
        folder / "score.png",
        "final score per game",
    )
    _write_jsonl(folder / "games.jsonl", [(label, records) for label, _, records in results])
    header = (
        "evaluation",
        "weights",
        "games",
        "log2 max tile mean",
        "max tile median",
        "≥ 512",
        "≥ 1024",
        "≥ 2048",
        "score p50",
    )
    rows = []
    for (label, config, records), (_, s) in zip(results, summaries):
        tiles = [r["max_tile"] for r in records]
        weights = ", ".join(f"{k}={v:g}" for k, v in config.weights.items()) or "defaults"
        rows.append(
            [
                label,
                weights,
                str(s["games"]),
                f"{s['log2_max_tile_mean']:.2f}",
                f"{s['max_tile_median']:g}",
                _share(tiles, 512),
                _share(tiles, 1024),
                _share(tiles, 2048),
                f"{s['score_p50']:.0f}",
            ]
        )
    timing = f"depth {base.depth}" if base.depth is not None else f"{base.think_ms:g} ms per move"
    stop = f"stop at {base.stop_tile}" if base.stop_tile else "played to the end"
    text = "\n".join(
        [
            f"# Single-feature experiment: {base.preset_name} with {base.algorithm}",
            "",
            f"Each feature of the preset alone (weight 1, the other features 0), then the full preset; "
            f"{len(seeds)} games each over seeds {seeds[0]}..{seeds[-1]}, {timing}, {stop}.",
            "",
            f"Command: `{_command_line()}`",
            "",
            markdown_table(header, rows),
            "",
            f"![max tile per game]({max_png.name})",
            "",
            f"![score per game]({score_png.name})",
            "",
            "Every game is in `games.jsonl` (field `group` names the evaluation).",
            "",
        ]
    )
    out_files.write_text(folder / "report.md", text)
    return summaries


def run_compare(
    configs: Sequence[PlayConfig],
    seeds: Sequence[int],
    folder: Path | None,
    jobs: int | None,
    progress: bool = True,
    cluster: Cluster | None = None,
) -> tuple[list[str], list[dict[str, Any]], list[list[str]]]:
    """Play every configuration over the same seeds (on ``cluster`` when given); with ``folder``, write the report
    and chart there."""
    labels = [c.label() for c in configs]
    if len(set(labels)) != len(labels):
        raise ValueError(f"the configurations must differ, got {labels}")
    all_records = [
        play_games(seeds, c, jobs=jobs, progress=progress, label=label, cluster=cluster)
        for c, label in zip(configs, labels)
    ]
    summaries = [summarize(r) for r in all_records]
    rows = compare_rows(labels, summaries)
    if folder is not None:
        out_files.folder(folder)
        png = charts.table_and_reach_chart(
            COMPARE_COLUMNS,
            rows,
            labels,
            summaries,
            folder / "compare.png",
            f"{len(seeds)} seeded games per configuration",
        )
        tiles_png = charts.max_tile_distribution(
            {label: [r["max_tile"] for r in records] for label, records in zip(labels, all_records)},
            folder / "max_tile.png",
            "max tile per game",
        )
        _write_jsonl(folder / "games.jsonl", list(zip(labels, all_records)))
        text = "\n".join(
            [
                "# Comparison",
                "",
                f"{len(seeds)} games per configuration over the same seeds {seeds[0]}..{seeds[-1]}.",
                "",
                f"Command: `{_command_line()}`",
                "",
                markdown_table(COMPARE_COLUMNS, rows),
                "",
                f"![table and reach rates]({png.name})",
                "",
                f"![max tile per game]({tiles_png.name})",
                "",
            ]
        )
        out_files.write_text(folder / "report.md", text)
    return labels, summaries, rows


def _share(tiles: list[int], tile: int) -> str:
    """The percentage of games whose largest tile reached ``tile``."""
    return f"{100 * sum(x >= tile for x in tiles) / len(tiles):.0f}%"
