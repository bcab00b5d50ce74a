"""The ``story`` an exported network's manifest carries: its training runs, each with its learning curve.

The page tells a network's story from its manifest alone (``app.ai.network_story`` reads this block), so the
export writes it from what the run itself kept: its options and its curve (``CURVE_POINTS`` points at most,
each the mean of the blocks since the point before).  A run that started from a network file (``--init``)
carries over that file's own runs when the file's manifest lies beside it and names the same SHA-256, so a
network trained in several runs keeps its whole history; otherwise the story starts at this run and says so.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...evaluation.ntuple_shapes import Shape, shape_json

CURVE_POINTS = 24
"""The most points a run's curve keeps in the manifest: enough for the page's small chart."""
RATES = ("rate_2048", "rate_8192", "rate_16384", "rate_32768")

ABOUT = (
    "How this network was trained, run by run, each run after the first starting from the file the run before "
    "it exported (the page's story of it: app.ai.network_story). A curve point is the mean of the run's training "
    "games over the 'averaged' games that end at 'games', counted from the run's start; a file's greedy results "
    "are the export's own check of it."
)


def curve_points(curve: list[dict[str, float]], most: int = CURVE_POINTS) -> list[dict[str, Any]]:
    """``curve`` (a point a block: games so far, mean score, rates) as at most ``most`` points, each the mean of
    the blocks since the point before, weighted by their games."""
    if not curve:
        return []
    per = -(-len(curve) // most)  # blocks a point, rounded up
    points = []
    start = 0
    for end in range(len(curve) % per or per, len(curve) + 1, per):
        blocks = curve[start:end]
        first = int(curve[start - 1]["games"]) if start else 0
        games = int(blocks[-1]["games"]) - first
        ends = [int(b["games"]) for b in blocks]
        sizes = [end_games - start_games for start_games, end_games in zip([first, *ends[:-1]], ends)]
        point: dict[str, Any] = {"games": int(blocks[-1]["games"]), "averaged": games}
        point["mean_score"] = round(sum(b["mean_score"] * n for b, n in zip(blocks, sizes)) / games)
        for key in RATES:
            if all(key in b for b in blocks):
                point[key] = round(sum(b[key] * n for b, n in zip(blocks, sizes)) / games, 4)
        points.append(point)
        start = end
    return points


def earlier_runs(init: str | None, init_sha256: str) -> list[dict[str, Any]]:
    """The runs of the ``--init`` file's own story, when its manifest lies beside it and names that file."""
    if not init or not init_sha256:
        return []
    try:
        manifest = json.loads(Path(init).with_suffix(".json").read_text())
    except (OSError, ValueError):
        return []
    if not isinstance(manifest, dict) or manifest.get("sha256") != init_sha256:
        return []
    story = manifest.get("story")
    runs = story.get("runs") if isinstance(story, dict) else None
    if not isinstance(runs, list) or not runs:
        return []
    last = dict(runs[-1])  # its file is the init file: name it, with the results its manifest measured
    last["file"] = {"sha256": init_sha256[:8], "greedy": manifest.get("greedy")}
    return [*runs[:-1], last]


def story_of(
    saved: dict[str, Any],
    shape: Shape,
    games: int,
    curve: list[dict[str, float]],
    init_sha256: str,
    greedy: dict[str, Any],
) -> dict[str, Any]:
    """The manifest's ``story``: the runs before (``earlier_runs``) and this one, whose file is being exported
    (``greedy``: the export's check of it)."""
    described = shape_json(shape)
    run = {
        "games": games,
        "shape": shape.name,
        "tuples": len(shape.tuples),
        "values": described["values"],
        "stages": described.get("stages", []),
        "init": "file" if init_sha256 else "zero",
        "alpha": saved.get("alpha"),
        "lambda": saved.get("lam") or 0,
        "restart": bool(saved.get("restart")),
        "coherence": bool(saved.get("coherence")),
        "curve": curve_points(curve),
        "file": {"greedy": greedy},
        "sections": [],
    }
    return {"about": ABOUT, "runs": [*earlier_runs(saved.get("init"), init_sha256), run]}
