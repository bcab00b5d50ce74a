"""The learned network's learning curve as a small SVG chart: mean score against the games it trained, run by run.

Each run's training points (the mean score of its games as it learned) are
joined within the run, never across runs (each run began from the file the
one before shipped, with another method); each run's file, played greedily,
is a square at the run's end; dashed lines part the runs, numbered at the
top as the story's list numbers them.  The chart is an image for the eye
(``role="img"``, named by the story's heading and described by
``curve_summary``); the story's table of the same numbers is its text.
Coordinates are written by ``fixed``, so MicroPython draws the same chart as
CPython.
"""

from html import escape

from game2048.values import fixed

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass

WIDTH, HEIGHT = 360, 220
"""The chart's own units (the style scales it to its box)."""
LEFT, RIGHT, TOP, BOTTOM = 40, 10, 24, 38
"""Room for the score labels at the left, the run numbers at the top, the games' labels and the axis's name below."""
SCORE_STEP = 50000
GAMES_STEPS = (50000, 100000, 250000, 500000, 1000000)
"""The games axis labels every such step, the smallest that needs at most ``GAMES_LABELS`` after 0."""
GAMES_LABELS = 5


def short(value: float) -> str:
    """A count on an axis: "0", "50k", "1M", "1.25M"."""
    if value >= 1e6:
        return fixed(value / 1e6, 2).rstrip("0").rstrip(".") + "M"
    if value >= 1e3:
        return fixed(value / 1e3, 1).rstrip("0").rstrip(".") + "k"
    return str(int(value))


def games_step(games_end: int) -> int:
    """The games between two labels of an axis that ends at ``games_end``: a few round labels, whatever the runs."""
    for step in GAMES_STEPS:
        if games_end // step <= GAMES_LABELS:
            return step
    return -(-games_end // GAMES_LABELS)


def _top(highest: float, step: int) -> int:
    """The axis's end: the first multiple of ``step`` at or above ``highest`` (at least one step)."""
    return max(step, -(-int(highest) // step) * step)


def curve_svg(content: "dict[str, Any]", labelled_by: str, described_by: str) -> str:
    """The chart of ``content``'s runs (``network_story.story``); "" when no run has a point to draw."""
    runs = [run for run in content["runs"] if run["curve"] or run["greedy"]]
    if not runs:
        return ""
    games_end = max(run["end"] for run in runs)
    scores = [p["mean_score"] for run in runs for p in run["curve"]]
    scores += [run["greedy"]["mean_score"] for run in runs if run["greedy"] and run["greedy"]["mean_score"]]
    score_end = _top(max(scores), SCORE_STEP)
    span_x, span_y = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(games: float) -> str:
        return fixed(LEFT + span_x * games / games_end, 1)

    def y(score: float) -> str:
        return fixed(TOP + span_y * (1 - score / score_end), 1)

    parts = []
    for score in range(0, score_end + 1, SCORE_STEP):
        parts.append(
            f'<line class="story-grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(score)}" y2="{y(score)}"/>'
            f'<text class="story-axis-label" x="{LEFT - 4}" y="{y(score)}" dy="4" text-anchor="end">'
            f"{short(score)}</text>"
        )
    for games in range(0, games_end + 1, games_step(games_end)):
        parts.append(
            f'<text class="story-axis-label" x="{x(games)}" y="{HEIGHT - BOTTOM + 14}" text-anchor="middle">'
            f"{short(games)}</text>"
        )
    axis = HEIGHT - BOTTOM
    for run in runs:
        middle = (run["start"] + run["end"]) / 2
        parts.append(
            f'<text class="story-run-number" x="{x(middle)}" y="{TOP - 8}" text-anchor="middle">{run["number"]}</text>'
        )
        if run["start"]:
            edge = x(run["start"])
            parts.append(f'<line class="story-run-edge" x1="{edge}" x2="{edge}" y1="{TOP - 4}" y2="{axis}"/>')
        parts.append(_run_marks(run, x, y))
    parts.append(
        f'<line class="story-axis" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{axis}" y2="{axis}"/>'
        f'<line class="story-axis" x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{axis}"/>'
        f'<text class="story-axis-name" x="{LEFT + span_x // 2}" y="{HEIGHT - 4}" text-anchor="middle">'
        "games trained, all runs</text>"
        f'<text class="story-axis-name" x="2" y="{TOP - 8}">mean score</text>'
    )
    return (
        f'<svg id="story-curve" class="story-curve" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{labelled_by}" aria-describedby="{described_by}">{"".join(parts)}</svg>'
    )


def _run_marks(run: "dict[str, Any]", x: Any, y: Any) -> str:
    """One run's training points, joined, and its file's greedy mean as a square, each with its numbers as a
    tooltip; the square first, so a point at the same place stays in sight on top of it."""
    points = run["curve"]
    marks = []
    found = run["greedy"]
    if found and found["mean_score"] is not None:
        mean = _score(found["mean_score"])
        said = f"run {run['number']}\u2019s file, greedy over {found['games']:,} games: mean {mean}"
        cx, cy = float(x(run["end"])), float(y(found["mean_score"]))
        marks.append(
            f'<rect class="story-file" x="{fixed(cx - 3.5, 1)}" y="{fixed(cy - 3.5, 1)}" width="7" height="7" '
            f'data-games="{run["end"]}" data-score="{int(found["mean_score"])}"><title>{escape(said)}</title></rect>'
        )
    if len(points) > 1:
        line = " ".join(f"{x(p['games'])},{y(p['mean_score'])}" for p in points)
        marks.append(f'<polyline class="story-line" points="{line}"/>')
    for p in points:
        said = f"run {run['number']}, {p['run_games']:,} games ({p['games']:,} in all): mean {_score(p['mean_score'])}"
        marks.append(
            f'<circle class="story-point" cx="{x(p["games"])}" cy="{y(p["mean_score"])}" r="3" '
            f'data-games="{p["games"]}" data-score="{int(p["mean_score"])}"><title>{escape(said)}</title></circle>'
        )
    return "".join(marks)


def curve_summary(content: "dict[str, Any]") -> str:
    """The chart in one sentence: where the training games' mean and the files' greedy means started and ended."""
    points = content["curve"]
    files = [run for run in content["runs"] if run["greedy"] and run["greedy"]["mean_score"] is not None]
    said = []
    if points:
        first, last = points[0], points[-1]
        said.append(
            f"the mean score of its training games rose from {_score(first['mean_score'])} at {first['games']:,} "
            f"games to {_score(last['mean_score'])} at {last['games']:,}"
        )
    if len(files) == 1:
        said.append(f"its file, played greedily, scored {_score(files[0]['greedy']['mean_score'])}")
    elif files:
        said.append(
            f"each run\u2019s file, played greedily, from {_score(files[0]['greedy']['mean_score'])} to "
            f"{_score(files[-1]['greedy']['mean_score'])}"
        )
    if not said:
        return ""
    text = "; ".join(said)
    return text[0].upper() + text[1:] + "."


def _score(value: float) -> str:
    return f"{int(value + 0.5):,}"
