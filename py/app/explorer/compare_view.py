"""The explorer's "Compare with the other algorithm": the explained board searched by alpha-beta and by
expectimax with the same preset and depth, side by side, and where they part.

``CompareView`` binds the button under the explanation (shown once a
decision has been explained): it asks the worker's ``compare``
(``game2048.search.comparison``) for the board explained, with that
decision's preset and weights, both searches to the same depth (the
decision's, at most ``MAX_DEPTH``, at least 2 so that the computer's tile
counts), and draws the answer with ``compare_html``: each search's move and
value in its own terms (alpha-beta's against the computer's worst reply,
expectimax's averaged over every tile), each move's two values, and the
engine's sentence saying where they part.  A new board explained clears it.
"""

from html import escape

from app.board.view import ARROWS
from app.explorer.drawing import number
from app.explorer.glossary import term
from game2048.board import to_rows

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from typing import Any
except ImportError:
    pass

MAX_DEPTH = 4
"""The deepest both searches go for the comparison: expectimax at depth 4 takes a fraction of a second."""
MIN_DEPTH = 2
"""At depth 1 neither search looks at the computer's tile: nothing to compare."""
ANALYSIS_MS = 1000.0
"""Each search's time, after deciding, for its exact values, lines and chance nodes."""
BUDGET_MS = 3000.0
"""The time the worker is given for the whole comparison (the client's timeout grows from it)."""
BUTTON_TEXT = "Compare with the other algorithm"
NAMES = {"alphabeta": "Alpha-beta", "expectimax": "Expectimax"}
GLOSSARY = {"alphabeta": "alpha-beta", "expectimax": "expectimax"}
MEANINGS = {
    "alphabeta": "if the computer answers each move with its worst reply",
    "expectimax": "on average over every tile the game may place",
}


def compare_depth(depth: "int | None") -> int:
    """The depth both searches go to for a decision that reached ``depth``."""
    return max(MIN_DEPTH, min(int(depth or MIN_DEPTH), MAX_DEPTH))


def compare_request(board: int, request: "dict[str, Any]", depth: "int | None") -> "dict[str, Any]":
    """The worker's ``compare`` request for ``board``, explained with ``request`` at ``depth``."""
    return {
        "rows": to_rows(board),
        "algorithm": request.get("algorithm") or "alphabeta",
        "preset": request.get("preset"),
        "weights": request.get("weights") or None,
        "depth": compare_depth(depth),
        "analysis_ms": ANALYSIS_MS,
    }


class CompareView:
    """The button and the comparison it draws, for the board the explorer explained last."""

    def __init__(self, document: Any, client: Any, wiring: Any, explorer: Any) -> None:
        el = document.getElementById
        self.client = client
        self.explorer = explorer
        self.row = el("explorer-compare-row")
        self.button = el("explorer-compare")
        self.view = el("explorer-compare-view")
        self.board: int | None = None
        self.request: dict[str, Any] | None = None
        self.asked = 0
        self._wiring = wiring
        if self.button is not None:
            wiring.listen(self.button, "click", lambda _e: wiring.spawn(self.compare()))
        explorer.on_shown.append(self.explained)

    def explained(self, board: int, request: "dict[str, Any]") -> None:
        """A decision was explained: the button compares on its board; the comparison shown goes unless it is
        the same decision drawn again (its exact values: the same request)."""
        if (board != self.board or request is not self.request) and self.view is not None:
            self.view.innerHTML = ""
        self.board, self.request = board, request
        if self.row is not None:
            self.row.hidden = False

    async def compare(self) -> None:
        """Ask the worker for both searches on the explained board, and draw them side by side."""
        board, request = self.board, self.request
        if board is None or request is None or self.button is None:
            return
        self.asked += 1
        asked = self.asked
        depth = self.explorer.decision.getAttribute("data-depth") if self.explorer.decision is not None else None
        self.button.disabled = True
        self.button.textContent = "Comparing\u2026"
        answer = await self.client.call("compare", compare_request(board, request, depth), BUDGET_MS)
        self.button.disabled = False
        self.button.textContent = BUTTON_TEXT
        if asked != self.asked or board != self.board:
            return  # asked again, or another board explained meanwhile
        if not answer.get("ok"):
            self.view.innerHTML = (
                f'<p class="explorer-note" id="explorer-compare-error">The comparison failed: '
                f"{escape(str(answer.get('error')))}</p>"
            )
            failed = getattr(self.explorer, "on_worker_failed", None)
            if answer.get("restart") and failed is not None:
                failed(answer)
            return
        self.view.innerHTML = compare_html(answer)


def _side(side: "dict[str, Any]") -> str:
    """One search's decision: its move with the arrow, its value and what the value means."""
    algorithm = str(side["algorithm"])
    move = side.get("move")
    if move is None:
        said = "no legal move"
    else:
        arrow = ARROWS.get(move, "")
        said = (
            f"plays <strong>{escape(str(move))} {arrow}</strong>, worth "
            f"<strong>{escape(number(side['value']))}</strong> {MEANINGS.get(algorithm, '')}"
        )
    return (
        f'<div class="compare-side" data-algorithm="{escape(algorithm)}" data-move="{escape(str(move))}">'
        f'<p class="compare-name">{term(GLOSSARY[algorithm], NAMES[algorithm])}</p>'
        f'<p class="compare-move">{said}.</p></div>'
    )


def _value(move: "dict[str, Any]") -> str:
    if not move["legal"]:
        return "illegal"
    if move["value"] is None:
        return "\u2013"
    text = number(move["value"])
    if move.get("exact") is False:
        text = "\u2264 " + text
    return text + (" \u2605" if move.get("chosen") else "")


def _rows(comparison: "dict[str, Any]") -> str:
    """Each move's value by both searches, and what each made of the computer's tile after it."""
    rows = []
    for ab, ex in zip(comparison["alphabeta"]["moves"], comparison["expectimax"]["moves"]):
        reply = ab.get("reply")
        assumed = f'<span class="compare-tile">worst reply: {escape(str(reply["label"]))}</span>' if reply else ""
        tiles = ex.get("cells")
        weighed = f'<span class="compare-tile">over {2 * int(tiles)} tiles</span>' if tiles else ""
        rows.append(
            f'<tr data-move="{escape(str(ab["move"]))}"><th scope="row">{escape(str(ab["move"]))}</th>'
            f"<td>{escape(_value(ab))}{assumed}</td><td>{escape(_value(ex))}{weighed}</td></tr>"
        )
    return "".join(rows)


def compare_html(comparison: "dict[str, Any]") -> str:
    """The comparison drawn: both decisions side by side, the sentence where they part, each move's values."""
    depth = comparison.get("depth")
    how = f"depth {int(depth)}" if depth else "the same think time"
    preset = escape(str(comparison.get("preset")))
    agree = "the same move" if comparison.get("same") else "different moves"
    return (
        '<section class="explorer-part compare" aria-labelledby="explorer-compare-title">'
        f'<h3 id="explorer-compare-title">Alpha-beta beside expectimax: preset {preset}, {how} for both</h3>'
        f'<p class="explorer-note">The same board, the same {term("evaluation", "evaluation")} and the same '
        f"{term('depth', 'depth')}, so they differ only in the tile the game places after each move: "
        f"{term('alpha-beta', 'alpha-beta')} assumes the worst one, {term('expectimax', 'expectimax')} weighs "
        "each by its probability. "
        f"Here they choose {agree}.</p>"
        f'<div class="compare-sides" id="explorer-compare-sides">{_side(comparison["alphabeta"])}'
        f"{_side(comparison['expectimax'])}</div>"
        f'<p class="explorer-why" id="explorer-compare-sentence">{escape(str(comparison["sentence"]))}</p>'
        '<div class="table-scroll"><table class="compare-table" id="explorer-compare-table">'
        "<caption>Each move\u2019s value by each search, in its own terms (\u2605 its choice)</caption>"
        '<thead><tr><th scope="col">Move</th><th scope="col">Alpha-beta: worst reply</th>'
        '<th scope="col">Expectimax: average</th></tr></thead>'
        f"<tbody>{_rows(comparison)}</tbody></table></div></section>"
    )
