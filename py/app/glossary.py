"""The explorer's words, each with its meaning: one glossary for the explorer, the readout and the settings.

A technical word on the page is a ``term``: a focusable span whose meaning
shows on hover and on keyboard focus (``TermTips`` puts it in one tooltip
beside the word, fixed to the viewport so no scrolling table clips it) and is
its accessible description (``aria-describedby`` the glossary's own entry,
which ``glossary_html`` lists in the explorer).  ``term`` writes one into the
explorer's HTML; ``mark_terms`` makes the page's static words (the readout's
labels, the settings') terms, from their ``data-term``.  The meanings live
here alone.  Plain Python for MicroPython (a tuple keeps the order, which
MicroPython's dicts do not).
"""

from html import escape

from app.wiring import Wiring

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

TIP_ID = "term-tip"
TIP_GAP_PX = 6
"""Between the word and its tooltip."""
TIP_WIDTH_PX = 280
"""The tooltip's widest (the style's max-width): it is moved left to stay inside the viewport."""

ENTRIES = (
    (
        "alpha-beta",
        "Alpha-beta",
        "Minimax that skips what cannot change the answer: once a reply proves a move "
        "no better than one already found, the move's other replies are not searched. Same move, fewer nodes.",
    ),
    (
        "minimax",
        "Minimax",
        "Search that assumes the player (max) picks the best move and the computer (min) the "
        "placement worst for the player, down to a fixed depth.",
    ),
    (
        "expectimax",
        "Expectimax",
        "Search that treats the new tile as chance: a 2 or a 4 (0.9 and 0.1) in any empty "
        "cell, each weighted by its probability, instead of assuming the worst.",
    ),
    (
        "depth",
        "Depth",
        "How many of the player's moves ahead the search looked; the tiles placed in between do not count.",
    ),
    (
        "iterative-deepening",
        "Iterative deepening",
        "Searching depth 1, then 2, then 3\u2026 until the think time "
        "runs out; the deepest finished search decides, and each one orders the moves of the next.",
    ),
    ("node", "Node", "A position the search looked at: each legal move and each placed tile it tried counts one."),
    ("speed", "Speed", "Nodes searched per second of think time."),
    (
        "cutoff",
        "Cutoff",
        "A place where the search stopped early: alpha-beta once \u03b1 \u2265 \u03b2 (the rest "
        "cannot change the choice); expectimax when a tile sequence is too unlikely to matter.",
    ),
    (
        "table-hit",
        "Table hit",
        "A position found in the transposition table: searched before at the same depth, "
        "so its value is reused instead of searched again.",
    ),
    (
        "transposition-table",
        "Transposition table",
        "The search's memory of positions it has valued, by depth; "
        "the same board reached by two paths is searched once.",
    ),
    (
        "move-ordering",
        "Move ordering",
        "Trying the move that was best at the previous depth first: alpha-beta "
        "then proves the others worse sooner and prunes more.",
    ),
    (
        "alpha",
        "\u03b1 (alpha)",
        "The value the player is already sure of along the path: a reply worth no more "
        "than \u03b1 need not be looked at further.",
    ),
    (
        "beta",
        "\u03b2 (beta)",
        "The value the computer is already sure of along the path: a move worth \u03b2 or "
        "more will never be allowed, so its other replies are pruned.",
    ),
    (
        "bound",
        "Bound (\u2264)",
        "What alpha-beta proved without the exact value: the move is worth at most this, "
        "so no more than the chosen move. Exact values searches it again for its real value.",
    ),
    ("exact", "Exact value", "The move's real minimax (or expected) value at this depth, not only a bound."),
    (
        "pv",
        "Principal variation",
        "The line of moves and tiles the search expects if both sides play as it "
        "predicts; its last board is the one the evaluation scored.",
    ),
    ("horizon", "Horizon", "The depth where the search stops and scores the board with the evaluation."),
    (
        "evaluation",
        "Evaluation",
        "The score of a board at the horizon: a weighted sum of its features (the "
        "preset), or the learned network's value.",
    ),
    ("preset", "Preset", "A named evaluation with its weights: classic, rows, snake, corner-weights, learned."),
    (
        "reduction",
        "Min-node reduction",
        "ovolve's shortcut: the computer's turn keeps only its most annoying "
        "placements instead of every 2 and 4 in every empty cell. Expectimax does not use it.",
    ),
    (
        "annoyance",
        "Annoyance",
        "How bad a placed tile is for the player: \u2212smoothness + islands of the board "
        "after it. The reduction keeps the highest.",
    ),
    ("islands", "Islands", "Groups of equal tiles that touch (up, down, left, right): more islands, fewer merges."),
    ("smoothness", "Smoothness", "Minus the rank differences between neighbouring tiles: smooth boards merge easily."),
    (
        "monotonicity",
        "Monotonicity",
        "How steadily the tiles grow toward one side along each row and column; steps the wrong way cost.",
    ),
    ("empty-cells", "Empty cells", "Free cells on the board (classic counts their logarithm): room to move."),
    (
        "chance-node",
        "Chance node",
        "In expectimax, the moment the game places a tile: its value is the "
        "probability-weighted mean over every 2 and 4 in every empty cell.",
    ),
    ("think-time", "Think time", "How long the AI searches for each move; it plays the deepest finished depth."),
    (
        "workers",
        "Workers",
        "Background threads the AI searches in. Expectimax shares a decision among them, each searching some "
        "of the moves (every move to depth 2), and plays the deepest depth all of them finished.",
    ),
)
"""(key, word, meaning), in the glossary's order."""

MEANINGS = {key: meaning for key, _word, meaning in ENTRIES}


def term(key: str, text: str = "") -> str:
    """``text`` (by default the glossary's word) as a term whose meaning shows on hover and focus."""
    meaning = MEANINGS[key]
    shown = text or next(word for k, word, _ in ENTRIES if k == key)
    return (
        f'<span class="term" tabindex="0" data-tip="{escape(meaning)}" aria-describedby="gloss-{key}">'
        f"{escape(shown)}</span>"
    )


def glossary_html() -> str:
    """The glossary as a definition list, each meaning the description its terms point to."""
    items = "".join(
        f'<dt>{escape(word)}</dt><dd id="gloss-{key}">{escape(meaning)}</dd>' for key, word, meaning in ENTRIES
    )
    return f'<dl class="glossary-list">{items}</dl>'


def mark_term(element: Any, key: str) -> None:
    """Make ``element`` the term ``key``: focusable, its meaning on hover and focus and as its description."""
    element.setAttribute("tabindex", "0")
    element.setAttribute("data-tip", MEANINGS[key])
    element.setAttribute("aria-describedby", f"gloss-{key}")
    classes = str(element.className or "").split()
    if "term" not in classes:
        element.className = " ".join(classes + ["term"])


def mark_terms(document: Any) -> int:
    """Make every element with a known ``data-term`` a term; how many were marked."""
    found = document.querySelectorAll("[data-term]")
    marked = 0
    for i in range(found.length):
        element = found.item(i)
        key = str(element.getAttribute("data-term"))
        if key in MEANINGS:
            mark_term(element, key)
            marked += 1
    return marked


class TermTips:
    """One tooltip for every term on the page: shown beside the word under the pointer or with the focus."""

    def __init__(self, document: Any, create_proxy: "Callable[[Callable[..., Any]], Any]") -> None:
        self.document = document
        self.tip = document.getElementById(TIP_ID)
        self.shown: Any = None
        self._wiring = Wiring(create_proxy)
        for event in ("mouseover", "focusin"):
            self._wiring.listen(document, event, self._entered)
        for event in ("mouseout", "focusout"):
            self._wiring.listen(document, event, self._left)
        self._wiring.listen(document, "keydown", self._key)

    def _term_of(self, event: Any) -> Any:
        target = event.target
        closest = getattr(target, "closest", None)
        return target.closest(".term") if closest is not None else None

    def _entered(self, event: Any) -> None:
        word = self._term_of(event)
        if word:  # JavaScript's null is falsy
            self.show(word)

    def _left(self, event: Any) -> None:
        word = self._term_of(event)
        if word and self.shown is not None:
            self.hide()

    def _key(self, event: Any) -> None:
        if str(event.key) == "Escape" and self.shown is not None:
            self.hide()

    def show(self, word: Any) -> None:
        """The tooltip under ``word`` (above it near the bottom of the viewport), inside the viewport."""
        tip = self.tip
        if tip is None:
            return
        tip.textContent = str(word.getAttribute("data-tip") or "")
        tip.hidden = False
        rect = word.getBoundingClientRect()
        view = self.document.documentElement
        width, height = float(view.clientWidth), float(view.clientHeight)
        left = min(max(4.0, float(rect.left)), max(4.0, width - TIP_WIDTH_PX - 4))
        top = float(rect.bottom) + TIP_GAP_PX
        if top + float(tip.offsetHeight) > height:
            top = max(4.0, float(rect.top) - TIP_GAP_PX - float(tip.offsetHeight))
        tip.style.left = f"{left:.0f}px"
        tip.style.top = f"{top:.0f}px"
        self.shown = word

    def hide(self) -> None:
        if self.tip is not None:
            self.tip.hidden = True
        self.shown = None
