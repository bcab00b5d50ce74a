"""A game review drawn: its figures, the worst moves as buttons, and a move's two arrows (played and best).

Pure HTML and SVG builders (strings), so the tests read what a player and a screen reader get; the controller,
``app.games.review_panel``, puts them in the replay.  The arrows are an SVG with a title and the same words in
text beside it: an arrow alone says nothing to a screen reader.  Plain Python that MicroPython runs.
"""

from html import escape

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from typing import Any
except ImportError:
    pass

from app.games.review_figures import GameReview
from game2048.values import fixed, format_value

ARROW_ENDS = {"up": (0, -1), "right": (1, 0), "down": (0, 1), "left": (-1, 0)}
"""Each move's arrow as a direction on the screen (x right, y down)."""
ARROW_SIGNS = {"up": "\u2191", "right": "\u2192", "down": "\u2193", "left": "\u2190"}


def lost_text(lost: float, units: str) -> str:
    """Points (or units) lost, rounded to whole ones below a thousand, as ``format_value`` says larger ones."""
    return (fixed(lost, 0) if lost < 1000 else format_value(lost)) + " " + units


def summary_html(review: GameReview) -> str:
    """The accuracy, the counts per grade (a table) and who played: the review's first lines."""
    figures = review.figures
    if figures.accuracy is None:
        head = "The AI played every move of this game: there is no move of yours to grade."
    else:
        head = f"Accuracy {fixed(figures.accuracy, 0)} %: {figures.yours} of your moves graded"
    if figures.ai_moves:
        head += f" ({figures.ai_moves} moves the AI chose are marked as the AI\u2019s and not counted)"
    cells = "".join(
        f'<tr><th scope="row">{escape(grade)}</th><td>{count}</td></tr>'
        for grade, count in zip(figures.grades, figures.counts)
    )
    table = (
        '<table class="review-counts"><caption>Your moves per grade</caption>'
        f'<thead><tr><th scope="col">grade</th><th scope="col">moves</th></tr></thead><tbody>{cells}</tbody></table>'
    )
    units = f"Values by the {escape(review.preset)} evaluation at depth 2, in {escape(review.units())}."
    if review.points:
        units += " Where a move was not the best, its loss is measured by playing on: the network's own games after it"
        units += " and after the best, with the same new tiles."
    return (
        f'<p class="review-accuracy" id="review-accuracy">{escape(head)}.</p>{table}<p class="replay-note">{units}</p>'
    )


def worst_html(review: GameReview) -> str:
    """The player's costliest moves, each a button that opens the replay at that move (``data-move``)."""
    worst = review.figures.worst
    if not worst:
        return '<p class="replay-note">None of your moves lost anything: nothing to list.</p>'
    items = "".join(
        f'<li><button type="button" class="button small review-jump" data-move="{m["number"]}">'
        f"Move {m['number']}: {escape(m['grade'])}, {escape(lost_text(float(m['lost']), review.units()))} lost"
        "</button></li>"
        for m in worst
    )
    return f'<h3 class="review-heading">Your worst moves</h3><ol class="review-worst">{items}</ol>'


def move_html(move: "dict[str, Any]", units: str) -> str:
    """A graded move: both arrows beside each other, and the points lost said."""
    played, best = move["played"], move["best"]
    who = "The AI" if move["by_ai"] else "You"
    if played == best:
        words = f"Move {move['number']}: {who} played {played}, the best move ({escape(move['grade'])})."
    else:
        lost = lost_text(float(move["lost"]), units)
        words = (
            f"Move {move['number']}: {who} played {played} {ARROW_SIGNS[played]}; the best was {best} "
            f"{ARROW_SIGNS[best]}. Graded {escape(move['grade'])}: "
            f"{escape(lost)} lost."
        )
    return f'<div class="review-move">{arrows_svg(played, best)}<p id="review-move-text">{words}</p></div>'


def arrows_svg(played: str, best: str) -> str:
    """Two arrows from the centre of a small square: the move played (dashed, brown) and the best (green)."""
    title = f"played {played}" if played == best else f"played {played}, best {best}"
    parts = [
        f'<svg class="review-arrows" viewBox="0 0 64 64" width="64" height="64" role="img" '
        f'aria-label="Arrows: {title}"><title>Arrows: {title}</title>'
        '<rect x="1" y="1" width="62" height="62" rx="6" fill="#bbada0" opacity="0.35"/>'
    ]
    drawn = [("best", best, "#2e7d32", "", 4.5)]
    if played != best:
        drawn.append(("played", played, "#8d4b00", ' stroke-dasharray="5 3"', 3.5))
    for kind, move, colour, dash, width in drawn:
        dx, dy = ARROW_ENDS[move]
        x, y = 32 + 24 * dx, 32 + 24 * dy
        tip = f"{x},{y} {x - 7 * dx - 6 * dy},{y - 7 * dy - 6 * dx} {x - 7 * dx + 6 * dy},{y - 7 * dy + 6 * dx}"
        parts.append(
            f'<line class="review-arrow-{kind}" x1="32" y1="32" '
            f'x2="{x - 6 * dx}" y2="{y - 6 * dy}" stroke="{colour}" stroke-width="{width}"{dash}/>'
            f'<polygon points="{tip}" fill="{colour}"/>'
        )
    parts.append("</svg>")
    return "".join(parts)


def progress_text(done: int, total: int) -> str:
    return f"Reviewing this game\u2026 {done} of {total} moves graded."
