"""Statistics over a batch of game records (numpy), and the text tables the lab prints (rich).

The summary answers the questions the issues ask: how often the AI reaches
2048, 4096, 8192, 16384 and 32768, how it scores (p10 / p50 / p90), how fast it plays
(moves per second of game time, summed over the processes), and how its think
time, depth and search speed (nodes per second of think time) looked over
every move of every game.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import numpy as np
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

REACH_TILES = (512, 1024, 2048, 4096, 8192, 16384, 32768)

Record = dict[str, Any]


def summarize(records: Sequence[Record]) -> dict[str, Any]:
    """Numbers over the batch; per-move lists (``_think_ms``, ``_depths``) are used when present.  The moves
    are those played in the batch: a game from a suite's position (``start_moves``) counts from there."""
    if not records:
        raise ValueError("no games to summarise")
    max_tiles = np.array([r["max_tile"] for r in records], dtype=np.int64)
    scores = np.array([r["score"] for r in records], dtype=float)
    moves = np.array([r["moves"] - r.get("start_moves", 0) for r in records], dtype=np.int64)  # played here
    seconds = float(sum(r["seconds"] for r in records))
    think = np.concatenate([np.asarray(r.get("_think_ms") or [r["think_ms_p50"]], dtype=float) for r in records])
    depths = np.concatenate([np.asarray(r.get("_depths") or [r["depth_median"]], dtype=float) for r in records])
    return {
        "games": len(records),
        "reached": {str(tile): float(np.mean(max_tiles >= tile)) for tile in REACH_TILES},
        "max_tile_median": float(np.median(max_tiles)),
        "log2_max_tile_mean": float(np.mean(np.log2(max_tiles))),
        "score_p10": float(np.percentile(scores, 10)),
        "score_p50": float(np.percentile(scores, 50)),
        "score_p90": float(np.percentile(scores, 90)),
        "moves_total": int(moves.sum()),
        "moves_per_second": float(moves.sum() / seconds) if seconds > 0 else 0.0,
        "think_ms_p50": float(np.percentile(think, 50)),
        "think_ms_p99": float(np.percentile(think, 99)),
        "think_ms_max": float(think.max()),
        "nodes_per_second": float(sum(r["nodes"] for r in records) / (think.sum() / 1000.0))
        if think.sum() > 0
        else 0.0,
        "depth_median": float(np.median(depths)),
        "depth_p10": float(np.percentile(depths, 10)),
    }


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def format_summary(summary: dict[str, Any], stop_tile: int = 0) -> str:
    """The summary as a few lines of text; reach rates above the stop tile are marked as cut short."""
    reach = "  ".join(
        f"{tile}: {_pct(share)}" + (" (stopped)" if stop_tile and int(tile) > stop_tile else "")
        for tile, share in summary["reached"].items()
    )
    return "\n".join(
        [
            f"games: {summary['games']}   moves: {summary['moves_total']}   moves/s: {summary['moves_per_second']:.1f}",
            f"reached   {reach}",
            f"max tile median: {summary['max_tile_median']:g}   score p10/p50/p90: "
            f"{summary['score_p10']:.0f} / {summary['score_p50']:.0f} / {summary['score_p90']:.0f}",
            f"think ms p50/p99/max: {summary['think_ms_p50']:.1f} / {summary['think_ms_p99']:.1f} / "
            f"{summary['think_ms_max']:.1f}   depth median/p10: {summary['depth_median']:g} / {summary['depth_p10']:g}"
            f"   search nodes/s: {summary['nodes_per_second']:.0f}",
        ]
    )


def format_games(records: Sequence[Record]) -> str:
    """One line per game (seed, max tile, score, moves): identical between runs at a fixed depth."""
    rows = [[str(r["seed"]), str(r["max_tile"]), str(r["score"]), str(r["moves"])] for r in records]
    return text_table(("seed", "max tile", "score", "moves"), rows, labels=0)


COMPARE_COLUMNS = (
    "config",
    "games",
    *(str(tile) for tile in REACH_TILES),
    "score p50",
    "max tile median",
    "depth median",
    "think p99 ms",
    "moves/s",
)


def compare_rows(labels: Sequence[str], summaries: Sequence[dict[str, Any]]) -> list[list[str]]:
    """One row of ``COMPARE_COLUMNS`` per configuration."""
    rows = []
    for label, s in zip(labels, summaries):
        rows.append(
            [label, str(s["games"])]
            + [_pct(s["reached"][str(t)]) for t in REACH_TILES]
            + [
                f"{s['score_p50']:.0f}",
                f"{s['max_tile_median']:g}",
                f"{s['depth_median']:g}",
                f"{s['think_ms_p99']:.1f}",
                f"{s['moves_per_second']:.1f}",
            ]
        )
    return rows


TABLE_WIDTH = 10_000
"""Wider than any table of the lab: a row may make a long line in a log, never a folded one."""


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]], labels: int = 1) -> str:
    """Plain text (no colour, no markup): the header, a rule, one line per row.

    The first ``labels`` columns (names) are aligned left, the others
    (numbers) right.  Cells are taken literally, so a configuration such as
    ``rows[empty_weight=300]`` is printed as written, not read as rich markup.
    """
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for i, name in enumerate(header):
        table.add_column(Text(str(name)), justify="left" if i < labels else "right", no_wrap=True)
    for row in rows:
        table.add_row(*(Text(str(cell)) for cell in row))
    text = io.StringIO()
    console = Console(file=text, width=TABLE_WIDTH, color_system=None, force_terminal=False, force_jupyter=False)
    console.print(table)
    return text.getvalue().rstrip("\n")


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(x) for x in r) + " |" for r in rows]
    return "\n".join(out)
