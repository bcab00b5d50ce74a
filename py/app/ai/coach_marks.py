"""The coach's words: a graded move as a short mark, the note on its units, and where a game was lost.

Pure string builders over the worker's graded moves (``MoveReview.to_dict()``: number, played, best, lost,
grade), so the tests read what a player and a screen reader get; ``app.ai.coach`` puts them on the page.  A mark
names its move's number, so a mark that arrives after the player has moved on still says which move it grades.
The grades and their order are the worker's (``search.review.GRADES``), never copied here: a grade this module
does not know gets no sign, only its name.  Plain Python that MicroPython runs.
"""

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass

from app.games.review_view import lost_text

SIGNS = {"best": "\u2713", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""The chess annotator's signs: a tick for the best move, ?! ? ?? for the costly ones; "good" has none."""
KEPT_NOTE = "Every move of this game is graded: \u201cReview this game\u201d shows them at once."
"""Said after the verdict when the coach graded the whole game, which is then kept as its review."""
SAYS_BEST = ("inaccuracy", "mistake", "blunder")
"""The grades whose mark also names the best move (a good move's loss is too small to be worth one)."""


def short_units(points: bool) -> str:
    """What a mark's loss is counted in: points with the learned network, else the preset's own units."""
    return "points" if points else "units"


def mark_text(move: "dict[str, Any]", points: bool) -> str:
    """One graded move as its mark, e.g. "Move 12: ?? blunder, −8,000 points; best was left"."""
    grade = str(move["grade"])
    sign = SIGNS.get(grade, "")
    text = f"Move {move['number']}: " + (sign + " " if sign else "") + grade
    lost = float(move["lost"])
    if move["played"] == move["best"] or lost < 0.5:  # a tie to rounding is the best move too
        return text
    text += ", \u2212" + lost_text(lost, short_units(points))
    if grade in SAYS_BEST:
        text += f"; best was {move['best']}"
    return text


def units_note(preset: str, points: bool) -> str:
    """Said once beside the Coach setting when its grades are not in points (the network is not downloaded)."""
    if points:
        return "Graded in points by the learned network, as the game review does."
    return (
        f"Graded by the {preset} evaluation: its units are not points. The learned network grades in points "
        "once it is downloaded (choose it in the AI panel, or download it from a game\u2019s review)."
    )


def worst_move(graded: "list[dict[str, Any]]") -> "dict[str, Any] | None":
    """The costliest of ``graded`` (the earliest of equals), or None when there is none."""
    worst = None
    for move in graded:
        if worst is None or float(move["lost"]) > float(worst["lost"]):
            worst = move
    return worst


def verdict_text(graded: "list[dict[str, Any]]", points: bool, best_grade: str) -> str:
    """Where the game was lost: its costliest graded move (number, grade, loss, the best move), said at game over.
    ``best_grade`` is the worker's first grade: a worst move of that grade lost nothing worth saying."""
    worst = worst_move(graded)
    if worst is None:
        return "Coach: none of your moves was graded in this game."
    if worst["grade"] == best_grade:
        return f"Coach: all {len(graded)} of your graded moves were the best; the tiles ran out all the same."
    lost = lost_text(float(worst["lost"]), short_units(points))
    return (
        f"Coach: where this game was lost: move {worst['number']}, a {worst['grade']} that cost {lost} "
        f"(the best was {worst['best']})."
    )
