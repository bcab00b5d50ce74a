"""A reviewed game as a chart: the value after each move, the player's mistakes marked on it, the tiles reached.

An inline SVG that scales to its box (``viewBox``), drawn from the review's moves and the tiles reached
(``tiles_reached``, from the replay's positions): the line is each played move's value (with the learned
network, the final score expected), thinned to at most ``LINE_POINTS`` points so a long game draws as fast as a
short one; the player's mistakes and blunders are red dots (each a ``review-jump``, so a click opens the replay
there), and a dashed line marks the move where each tile from 256 on first appeared.  What it shows is also said
in words (``chart_words``): the chart's title, and a list of the tiles reached and of the mistakes, each a
button, for a screen reader and the keyboard.  Plain Python that MicroPython runs.
"""

from html import escape

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from typing import Any
except ImportError:
    pass

from app.games.review_figures import GameReview
from game2048.board import max_rank
from game2048.values import format_value

WIDTH, HEIGHT = 800, 300
"""The chart's own units: whole numbers at this size are finer than its pixels (it scales to its box)."""
LEFT, RIGHT, TOP, BOTTOM = 88, 16, 20, 44
LINE_POINTS = 400
MARKED = ("mistake", "blunder")
"""The grades a red dot marks: the costly ones (the grades' names come from the worker's answer)."""
FIRST_TILE_MARKED = 256
MISTAKES_LISTED = 30


def tiles_reached(steps: "list[tuple[int, int]]") -> "list[tuple[int, int]]":
    """(move, tile) for each tile from ``FIRST_TILE_MARKED`` on, at the move where it first appeared."""
    reached = []
    best = 0
    for number in range(1, len(steps)):
        tile = 1 << max_rank(steps[number][0])
        if tile > best:
            if tile >= FIRST_TILE_MARKED and best:
                reached.append((number, tile))
            best = tile
    return reached


def _marked(review: GameReview) -> "list[dict[str, Any]]":
    return [m for m in review.moves if not m["by_ai"] and m["grade"] in MARKED]


def chart_svg(review: GameReview, tiles: "list[tuple[int, int]]") -> str:
    """The chart, with a title that says what it is (the words are ``chart_words``)."""
    moves = review.moves
    if not moves:
        return ""
    values = [float(m["value"]) for m in moves]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    count = len(moves)

    def x(number: int) -> int:
        return LEFT + (WIDTH - LEFT - RIGHT) * (number - 1) // max(1, count - 1)

    def y(value: float) -> int:
        return TOP + int((HEIGHT - TOP - BOTTOM) * (high - value) / span)

    every = max(1, (count + LINE_POINTS - 1) // LINE_POINTS)
    picked = list(range(0, count, every))
    if picked[-1] != count - 1:
        picked.append(count - 1)
    line = " ".join(str(x(k + 1)) + "," + str(y(values[k])) for k in picked)
    parts = [
        f'<svg class="review-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="review-chart-title">'
        f'<title id="review-chart-title">{escape(chart_title(review, tiles))}</title>',
        f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}" stroke="#776e65"/>',
        f'<text x="{LEFT - 8}" y="{TOP + 16}" text-anchor="end" class="review-axis">'
        f"{escape(format_value(high))}</text>",
        f'<text x="{LEFT - 8}" y="{HEIGHT - BOTTOM}" text-anchor="end" class="review-axis">'
        f"{escape(format_value(low))}</text>",
        f'<text x="{LEFT}" y="{HEIGHT - 12}" class="review-axis">move 1</text>',
        f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 12}" text-anchor="end" class="review-axis">move {count}</text>',
    ]
    for number, tile in tiles:
        if number <= count:
            left = x(number)
            parts.append(
                f'<line class="review-tile" x1="{left}" y1="{TOP}" x2="{left}" y2="{HEIGHT - BOTTOM}" '
                f'stroke="#bbada0" stroke-dasharray="6 6"/><text x="{left + 4}" y="{TOP + 36}" '
                f'class="review-axis">{tile}</text>'
            )
    parts.append(f'<polyline points="{line}" fill="none" stroke="#8f7a66" stroke-width="3"/>')
    for m in _marked(review):
        parts.append(
            f'<circle class="review-jump review-mark" data-move="{m["number"]}" cx="{x(m["number"])}" '
            f'cy="{y(float(m["value"]))}" r="7" fill="#c62828"><title>Move {m["number"]}: '
            f"{escape(m['grade'])}</title></circle>"
        )
    parts.append("</svg>")
    return "".join(parts)


def chart_title(review: GameReview, tiles: "list[tuple[int, int]]") -> str:
    """The chart in one sentence: what the line is, its range, the marks and the tiles."""
    values = [float(m["value"]) for m in review.moves]
    marked = len(_marked(review))
    text = (
        f"The value after each of {len(values)} moves, in {review.units()}, from {format_value(values[0])} "
        f"to {format_value(values[-1])} (lowest {format_value(min(values))}, highest {format_value(max(values))}); "
        f"{marked} of your moves marked as mistakes or blunders"
    )
    if tiles:
        text += "; tiles reached: " + ", ".join(f"{tile} at move {number}" for number, tile in tiles)
    return text + "."


def chart_words(review: GameReview, tiles: "list[tuple[int, int]]") -> str:
    """The chart said in words: the tiles reached and the mistakes, each a button that opens its move."""
    marked = _marked(review)
    items = "".join(f"<li>{tile} reached at move {number}</li>" for number, tile in tiles)
    buttons = "".join(
        f'<li><button type="button" class="button small review-jump" data-move="{m["number"]}">Move {m["number"]}: '
        f"{escape(m['grade'])}</button></li>"
        for m in marked[:MISTAKES_LISTED]
    )
    more = len(marked) - MISTAKES_LISTED
    return (
        '<details class="review-words"><summary>The chart in words</summary>'
        f"<p>{escape(chart_title(review, tiles))}</p>"
        + (f'<ul class="review-tiles">{items}</ul>' if items else "")
        + (f'<ol class="review-marks">{buttons}</ol>' if buttons else "")
        + (f"<p>And {more} more.</p>" if more > 0 else "")
        + "</details>"
    )
