"""The learned network's story as plain values: what it is, how it was trained, how strong it is, from its manifest.

The page tells the story (``story_drawing`` draws it, ``story_panel`` shows
it by the preset) from ``networks/4x6.json`` alone, so the words can never
say another network than the one downloaded: its shape (patterns and stages),
its size, the training runs of its ``story`` block (each from the file the
run before shipped, with the points of its learning curve and its file's
greedy results, as docs/results.md states them) and the greedy rates the lab
measured.  The manifest comes from outside the page's code, so every value is
checked here: a missing or malformed one is left out (the story says less),
never raised.  Plain Python for the page's MicroPython: what is shown in
order is a list.
"""

from math import isfinite

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass

RATE_TILES = (2048, 8192, 16384, 32768)
"""The tiles whose rates the manifest gives (``rate_2048`` ...), in the order they are shown."""


def count(value: Any) -> "int | None":
    """``value`` if it is a whole number of at least 0 (a JSON ``true`` is not), else ``None``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return None
    return value


def number(value: Any) -> "float | None":
    """``value`` as a float if it is a finite number (not a boolean), else ``None``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not isfinite(value):
        return None
    return float(value)


def rate(value: Any) -> "float | None":
    """``value`` if it is a share from 0 to 1, else ``None``."""
    found = number(value)
    return found if found is not None and 0 <= found <= 1 else None


def rates(found: Any) -> "list[list[Any]]":
    """The ``rate_TILE`` values of ``found`` as ``[tile, rate]`` pairs, by rising tile (those it gives)."""
    if not isinstance(found, dict):
        return []
    pairs = []
    for tile in RATE_TILES:
        share = rate(found.get("rate_" + str(tile)))
        if share is not None:
            pairs.append([tile, share])
    return pairs


def patterns(shape: Any) -> "list[list[int]]":
    """The shape's tuples as lists of cells 0..15 (a malformed tuple is left out)."""
    tuples = shape.get("tuples") if isinstance(shape, dict) else None
    found = []
    for cells in tuples if isinstance(tuples, list) else []:
        if isinstance(cells, list) and cells and all(count(c) is not None and c < 16 for c in cells):
            found.append([int(c) for c in cells])
    return found


def stages(shape: Any) -> "list[dict[str, int]]":
    """The shape's stages, first first: the largest tile from which each values a board (0: from the start), the
    largest tile from which the next does (0: none), its values a cell and the largest tile it tells apart."""
    if not isinstance(shape, dict) or count(shape.get("values")) is None:
        return []
    starts = [[0, int(shape["values"])]]
    for stage in shape.get("stages") or []:
        if isinstance(stage, list) and len(stage) == 2 and count(stage[0]) is not None and count(stage[1]):
            if 0 < stage[0] < 16 and stage[0] > starts[-1][0]:
                starts.append([int(stage[0]), int(stage[1])])
    found = []
    for i, (rank, values) in enumerate(starts):
        below = 1 << starts[i + 1][0] if i + 1 < len(starts) else 0
        top = 1 << (values - 1) if values > 1 else 0
        found.append({"from_tile": 1 << rank if rank else 0, "below_tile": below, "values": values, "top_tile": top})
    return found


def sections(found: Any) -> "list[str]":
    """The headings of docs/results.md a set of numbers comes from (texts only)."""
    return [str(heading) for heading in found if isinstance(heading, str)] if isinstance(found, list) else []


def greedy(found: Any) -> "dict[str, Any] | None":
    """A set of greedy results: games, seed (or first seed), mean score and rates; ``None`` without games."""
    if not isinstance(found, dict) or not count(found.get("games")):
        return None
    return {
        "games": int(found["games"]),
        "seed": count(found.get("seed")),
        "first_seed": count(found.get("first_seed")),
        "mean_score": number(found.get("mean_score")),
        "rates": rates(found),
        "sections": sections(found.get("sections")),
    }


def runs(manifest: "dict[str, Any]") -> "list[dict[str, Any]]":
    """The training runs of the manifest's ``story``, each with where it starts and ends among all the games, its
    method, its curve's points and its file's greedy results (the last one's file is the manifest's own)."""
    block = manifest.get("story")
    listed = block.get("runs") if isinstance(block, dict) else None
    found: list[dict[str, Any]] = []
    start = 0
    sha = str(manifest.get("sha256") or "")
    for run in listed if isinstance(listed, list) else []:
        games = count(run.get("games")) if isinstance(run, dict) else None
        if not games:
            continue
        lam, alpha = number(run.get("lambda")), number(run.get("alpha"))
        shape = {"values": run.get("values"), "stages": run.get("stages")}
        file = run.get("file") if isinstance(run.get("file"), dict) else {}
        prefix = str(file.get("sha256") or "")
        results = file.get("greedy")
        if results is None and prefix and sha.startswith(prefix):
            results = manifest.get("greedy")
        index = len(found) + 1
        found.append(
            {
                "number": index,
                "games": games,
                "start": start,
                "end": start + games,
                "shape": str(run.get("shape") or ""),
                "tuples": count(run.get("tuples")) or 0,
                "stages": stages(shape),
                "from_zero": run.get("init") == "zero",
                "alpha": alpha,
                "lambda": lam or 0.0,
                "restart": run.get("restart") is True,
                "coherence": run.get("coherence") is True,
                "curve": curve_points(run.get("curve"), start, index),
                "file": prefix,
                "greedy": greedy(results),
                "sections": sections(run.get("sections")),
            }
        )
        start += games
    return found


def curve_points(points: Any, start: int, run: int) -> "list[dict[str, Any]]":
    """A run's curve: each point's games counted from the first run's start (``start`` before this run), the
    games its mean is over, the mean score and the rates it gives."""
    found = []
    for point in points if isinstance(points, list) else []:
        if not isinstance(point, dict):
            continue
        games, mean = count(point.get("games")), number(point.get("mean_score"))
        if not games or mean is None:
            continue
        found.append(
            {
                "run": run,
                "games": start + games,
                "run_games": games,
                "averaged": count(point.get("averaged")),
                "mean_score": mean,
                "rates": rates(point),
            }
        )
    return found


def story(manifest: Any) -> "dict[str, Any]":
    """Everything the story shows, from ``manifest`` (anything: what is not there is left out)."""
    manifest = manifest if isinstance(manifest, dict) else {}
    shape = manifest.get("shape") if isinstance(manifest.get("shape"), dict) else {}
    trained = runs(manifest)
    block = manifest.get("story") if isinstance(manifest.get("story"), dict) else {}
    return {
        "name": str(shape.get("name") or ""),
        "patterns": patterns(shape),
        "stages": stages(shape),
        "weights": count(manifest.get("weights")),
        "memory_bytes": count(manifest.get("memory_bytes")),
        "bytes": count(manifest.get("bytes")),
        "prune": number(manifest.get("prune")),
        "step": number(manifest.get("step")),
        "coarsen": number(manifest.get("coarsen")),
        "trained_games": count(manifest.get("trained_games")),
        "games": sum(run["games"] for run in trained),
        "runs": trained,
        "curve": [point for run in trained for point in run["curve"]],
        "command": str(manifest.get("command") or ""),
        "greedy": greedy(manifest.get("greedy")),
        "page_greedy": greedy(block.get("page_greedy")),
    }
