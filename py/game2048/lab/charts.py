"""PNG charts for the lab's reports (matplotlib, Agg backend: no display needed).

Max tiles are drawn on a log2 axis labelled with tile values, because that is
how 2048 progresses: each step right is one more doubling.  Points are jittered
with a fixed generator so the same games draw the same picture.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from . import out_files  # noqa: E402
from .summary import REACH_TILES  # noqa: E402


def _horizontal_boxes(ax: Any, data: Sequence[Any], **kw: Any) -> None:
    """Horizontal box plot: ``orientation`` from matplotlib 3.10, ``vert=False`` before it."""
    try:
        ax.boxplot(data, orientation="horizontal", **kw)
    except TypeError:
        ax.boxplot(data, vert=False, **kw)


def _tile_axis(ax: Any, lo: int, hi: int) -> None:
    ticks = list(range(lo, hi + 1))
    ax.set_xticks(ticks)
    ax.set_xticklabels([str(1 << t) for t in ticks], rotation=45)
    ax.set_xlim(lo - 0.5, hi + 0.5)


def _save(fig: Any, path: Path) -> Path:
    """Write the figure and free it (a lab run draws many; pyplot keeps every open one alive)."""
    fig.tight_layout()
    with out_files.replacing(path, binary=True) as handle:
        fig.savefig(handle, format=path.suffix.lstrip(".") or "png", dpi=110)
    plt.close(fig)
    return path


def _label_rows_and_save(fig: Any, ax: Any, labels: Sequence[str], xlabel: str, title: str, path: Path) -> Path:
    """Name the rows of a horizontal box chart (first group on top), title it and save it."""
    ax.set_yticks(range(1, len(labels) + 1))
    ax.set_yticklabels(labels)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.invert_yaxis()
    return _save(fig, path)


def max_tile_distribution(groups: Mapping[str, Sequence[int]], path: Path, title: str) -> Path:
    """One row per group: a box of log2(max tile) with every game as a point."""
    labels = list(groups)
    data = [np.log2(np.asarray(groups[k], dtype=float)) for k in labels]
    rng = np.random.default_rng(0)
    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.6 * len(labels)))
    _horizontal_boxes(ax, data, widths=0.5, showfliers=False)
    for i, values in enumerate(data, start=1):
        ax.scatter(values, i + rng.uniform(-0.15, 0.15, len(values)), s=12, alpha=0.6)
    all_values = np.concatenate(data)
    _tile_axis(ax, int(all_values.min()), int(all_values.max()))
    return _label_rows_and_save(fig, ax, labels, "max tile (log2 scale)", title, path)


def score_distribution(groups: Mapping[str, Sequence[float]], path: Path, title: str) -> Path:
    """One box of final scores per group."""
    labels = list(groups)
    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.6 * len(labels)))
    _horizontal_boxes(ax, [np.asarray(groups[k], dtype=float) for k in labels], widths=0.5)
    return _label_rows_and_save(fig, ax, labels, "score", title, path)


def table_and_reach_chart(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    labels: Sequence[str],
    summaries: Sequence[Mapping[str, Any]],
    path: Path,
    title: str,
) -> Path:
    """The comparison table (left) beside grouped bars of the share reaching each tile (right)."""
    fig, (ax_table, ax_chart) = plt.subplots(
        1, 2, figsize=(16, 1.8 + 0.5 * len(rows)), gridspec_kw={"width_ratios": [3, 2]}
    )
    ax_table.axis("off")
    table = ax_table.table(cellText=[list(r) for r in rows], colLabels=list(header), loc="center", cellLoc="center")
    table.auto_set_font_size(False)
    table.set_fontsize(8)
    table.auto_set_column_width(list(range(len(header))))
    x = np.arange(len(REACH_TILES))
    width = 0.8 / max(1, len(labels))
    for i, (label, s) in enumerate(zip(labels, summaries)):
        shares = [100 * s["reached"][str(t)] for t in REACH_TILES]
        ax_chart.bar(x + (i - (len(labels) - 1) / 2) * width, shares, width, label=label)
    ax_chart.set_xticks(x)
    ax_chart.set_xticklabels([str(t) for t in REACH_TILES])
    ax_chart.set_ylabel("% of games reaching the tile")
    ax_chart.set_ylim(0, 105)
    ax_chart.legend(fontsize=8)
    fig.suptitle(title)
    _save(fig, path)
    return path


def curve_tiles(curve: Sequence[Mapping[str, float]]) -> tuple[list[int], list[int]]:
    """(the tiles some block of ``curve`` reached, those none did), of the tiles its points count (the trainer's
    ``TILES``): a line flat on zero would hide under the others."""
    tiles = sorted(int(key.removeprefix("rate_")) for key in curve[-1] if key.startswith("rate_")) if curve else []
    reached = [tile for tile in tiles if any(p.get(f"rate_{tile}", 0.0) for p in curve)]
    return reached, [tile for tile in tiles if tile not in reached]


def learning_curve_chart(
    curve: Sequence[Mapping[str, float]], path: Path, title: str, reference: Mapping[str, Any] | None = None
) -> Path:
    """A training run's curve: mean score per block (left axis) and the rate of each tile some block reached
    (right axis; the others are named as never reached, not drawn flat on zero).  ``reference``, a network's
    greedy results (the shipped manifest's ``greedy``), is drawn as a dashed line of its mean score."""
    games = np.asarray([p["games"] for p in curve], dtype=float)
    fig, ax = plt.subplots(figsize=(9, 4.5))
    ax.plot(games, [p["mean_score"] for p in curve], color="black", label="mean score")
    if reference is not None:
        ax.axhline(
            reference["mean_score"],
            color="grey",
            linestyle="--",
            label=f"the shipped network, greedy: {reference['mean_score']:,.0f} ({reference['games']:,} games)",
        )
    ax.set_xlabel("training games")
    ax.set_ylabel("mean score of the block")
    rates = ax.twinx()
    drawn, never = curve_tiles(curve)
    for tile in drawn:
        rates.plot(games, [100 * p.get(f"rate_{tile}", 0.0) for p in curve], label=f"reached {tile}", alpha=0.8)
    rates.set_ylabel("% of the block's games")
    rates.set_ylim(0, 100)
    lines = ax.get_legend_handles_labels()[0] + rates.get_legend_handles_labels()[0]
    ax.legend(lines, [str(line.get_label()) for line in lines], loc="upper left", fontsize=8)
    ax.set_title(title + (f"\n(no block reached {' or '.join(map(str, never))})" if never else ""), fontsize=10)
    return _save(fig, path)
