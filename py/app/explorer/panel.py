"""The search explorer: the panel that shows why the AI moves, drawn from the worker's explanation.

Closed by default; the "Search explorer" button or ``E`` opens it (the choice
is saved), with the focus on its heading; closing it gives the focus back to
the board.  While it is open, every AI decision (hint, step, autoplay) is
asked of the worker's ``explain`` instead of ``think`` (``AiControls`` asks
``wants_explanation``), and the answer's ``explanation`` is drawn here: the
board it is about (before the AI's move, with the chosen move's arrow), the
root moves as bars (exact values, or the bound alpha-beta proved), the
iterations, the principal variation as small boards, the computer's
placements as a heat map with a text equivalent, and the pruning figures.
"Exact values" asks the worker again, at the same fixed depth and on the
board the explanation is about, for every move's exact value; the
step-by-step tree is built for that board too (``explained_board``).  A
decision made while the panel was closed (a hint, a step) is handed over
(``remember``) and explained, at the depth it reached, when the panel opens.
Nothing is computed here: the main thread only draws.

This module is the controller: it asks and remembers, and hands the
explanation to ``explanation_view``, whose plain functions return its HTML
(so CPython tests read them without a browser).  "Compare with the other
algorithm" (``compare_view``) has a module of its own.
"""

from app.browser.panel_focus import focus_board, focus_heading
from app.browser.wiring import Wiring
from app.explorer.compare_view import CompareView
from app.explorer.explanation_view import render_explanation, status_text, team_note
from app.explorer.glossary import glossary_html

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

EXACT_ROOT_MS = 2000.0
"""The worker's own time for the exact values of every root move, after the fixed-depth search."""
EXACT_SETTING = "explorer_exact"
"""The saved setting of the "exact value for every move" box (missing: on)."""
ANALYSIS_MS_RANGE = (100.0, 2000.0)
"""The explanation's time after each decision: the think time, kept within this range."""


def analysis_ms(think_ms: float) -> float:
    """How long the worker may spend explaining a decision that thought ``think_ms``."""
    low, high = ANALYSIS_MS_RANGE
    return min(max(float(think_ms), low), high)


class Explorer:
    """Binds the explorer panel: its toggle, its "Exact values" button, and the drawing of each explanation."""

    def __init__(
        self,
        document: Any,
        client: Any,
        session: Any,
        storage: Any,
        create_proxy: Callable[[Callable[..., Any]], Any],
        on_worker_failed: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        """``on_worker_failed`` gets an answer whose worker died (the AI panel restarts it), as ``TreeWalk``'s."""
        self.document = document
        self.client = client
        self.session = session
        self.storage = storage
        self._wiring = Wiring(create_proxy)
        self.last_request: dict[str, Any] | None = None
        self.last_board: int | None = None
        self.fate_text = ""  # what became of the explained decision, once known
        self._untold: Any = None  # the last decision made while closed, explained when the panel opens
        el = document.getElementById
        self.toggle_button = el("explorer-toggle")
        self.panel = el("explorer")
        self.heading = el("explorer-heading")
        self.exact_box = el("explorer-exact-default")
        glossary = el("glossary-list")
        if glossary is not None:
            glossary.innerHTML = glossary_html()
        self.status = el("explorer-status")
        self.decision = el("explorer-decision")
        self.shown = 0
        self.on_worker_failed = on_worker_failed
        self.on_shown: list[Callable[[int, dict[str, Any]], None]] = []
        """Called with the board and the request of each explanation drawn (the step-by-step rebuilds for it)."""
        self._wiring.listen(self.toggle_button, "click", lambda _e: self.toggle())
        self._wiring.listen(self.decision, "click", self._clicked)
        self.compare = CompareView(document, client, self._wiring, self)  # "Compare with the other algorithm"
        self.glossary = el("glossary")
        link = el("explorer-glossary-link")
        if link is not None and self.glossary is not None:
            self._wiring.listen(link, "click", self._to_glossary)
        self._set_open(bool(storage.settings().get("explorer")), save=False)
        if self.exact_box is not None:
            self.exact_box.checked = storage.settings().get(EXACT_SETTING) is not False
            self._wiring.listen(self.exact_box, "change", lambda _e: self._save_exact())
        algorithm_select = el("ai-algorithm")
        if algorithm_select is not None:
            self._wiring.listen(algorithm_select, "change", lambda _e: self._algorithm_changed(algorithm_select.value))
            self._algorithm_changed(str(algorithm_select.value))

    @property
    def is_open(self) -> bool:
        return not self.panel.hidden

    def wants_explanation(self) -> bool:
        """Whether the next decision should be explained (the panel is open)."""
        return self.is_open

    def _save_exact(self) -> None:
        """The box changed: saved, and the decision on screen explained again with or without exact values."""
        settings = self.storage.settings()
        settings[EXACT_SETTING] = bool(self.exact_box.checked)
        self.storage.save_settings(settings)
        self._wiring.spawn(self.exact_values(bool(self.exact_box.checked)))

    def _algorithm_changed(self, algorithm: str) -> None:
        """The box means something for alpha-beta only (expectimax's values are exact): hidden otherwise."""
        label = self.exact_box.closest("label") if self.exact_box is not None else None
        if label is not None:
            label.hidden = algorithm != "alphabeta"

    def exact_by_default(self) -> bool:
        """Whether explanations come with every root move's exact value (the box, on unless unticked)."""
        return self.exact_box is None or bool(self.exact_box.checked)

    def explained_board(self) -> int | None:
        """The board the shown explanation is about (``None`` before the first): the step-by-step builds its tree."""
        return self.last_board

    def toggle(self) -> None:
        """Open or close the panel (the button, ``E``): the focus goes to its heading, or back to the board."""
        self._set_open(not self.is_open)
        if self.is_open:
            focus_heading(self.heading)
        else:
            focus_board(self.document)

    def _set_open(self, open_: bool, save: bool = True) -> None:
        self.panel.hidden = not open_
        self.toggle_button.setAttribute("aria-expanded", "true" if open_ else "false")
        if save:
            settings = self.storage.settings()
            settings["explorer"] = open_
            self.storage.save_settings(settings)
        if open_:
            self._explain_remembered()

    def remember(self, request: dict[str, Any], board: int, fate: str, move: str) -> None:
        """A decision (``move`` on ``board``, asked with ``request`` at the depth it reached) that came without
        its explanation: explained now if the panel is open, else when it opens, unless a newer one is shown."""
        self._untold = (request, board, fate, move)
        if self.is_open:
            self._explain_remembered()

    def _explain_remembered(self) -> None:
        if self._untold is not None:
            untold, self._untold = self._untold, None
            self._wiring.spawn(self._explain_untold(*untold))

    async def _explain_untold(self, request: dict[str, Any], board: int, fate: str, move: str) -> None:
        shown = self.shown
        self.status.textContent = f"Explaining {move}, decided while the explorer was closed\u2026"
        answer = await self.client.explain(self.request_for(request))
        if self.shown != shown:
            return  # a newer decision was explained meanwhile
        if not answer.get("ok"):
            self.status.textContent = f"The explanation failed: {answer.get('error')}"
            if answer.get("restart") and self.on_worker_failed is not None:
                self.on_worker_failed(answer)
            return
        self.show(answer, request, board)
        if answer.get("move") != move:  # searched again by one worker at the same depth: said if it differs
            fate += f" (It was {move}; searched again here at the same depth, the search chose {answer.get('move')}.)"
        self.fate(fate)

    def request_for(self, request: dict[str, Any]) -> dict[str, Any]:
        """``think``'s request as an ``explain`` request: the same search, with the explanation's own time.

        Root values are made exact (``exact_root``) when that fits in the explanation's time, unless the
        player unticked the box to see the bounds alpha-beta proved; a move whose exact value did not fit
        keeps its bound, said as one, and "Exact values" asks again.
        """
        exact = self.exact_by_default()
        return dict(request, analysis_ms=analysis_ms(request.get("think_ms") or 100), exact_root=exact)

    def show(self, answer: dict[str, Any], request: dict[str, Any], board: int) -> None:
        """Draw the explanation of a decision the worker answered (``answer["explanation"]``)."""
        explanation = answer.get("explanation")
        if not isinstance(explanation, dict):
            return
        if board != self.last_board:
            self.fate_text = ""  # a new decision: its fate is not known yet (an exact-values redraw keeps it)
        self.last_request, self.last_board, self._untold = request, board, None
        self.shown += 1
        algorithm = str(explanation["decision"].get("algorithm"))
        self.status.textContent = status_text(explanation) + team_note(getattr(self.client, "working", 1), algorithm)
        self.decision.innerHTML = render_explanation(explanation)
        self.decision.setAttribute("data-explained", str(self.shown))
        self.decision.setAttribute("data-depth", str(int(explanation["decision"].get("depth") or 0)))
        self.fate(self.fate_text)
        for listener in self.on_shown:
            listener(board, request)

    def _to_glossary(self, event: Any) -> None:
        """The link near the top: the glossary opened, in view, with the focus on its summary."""
        event.preventDefault()
        self.glossary.open = True
        summary = self.glossary.querySelector("summary")
        summary.scrollIntoView()
        summary.focus()

    def show_entry(self, key: str) -> None:
        """A link to the glossary's entry ``key`` elsewhere on the page (the network's story) was followed: the
        explorer open, its glossary too, the entry in view with the focus, so a reader lands on the word."""
        if not self.is_open:
            self._set_open(True)
        self.glossary.open = True
        entry = self.document.getElementById("gloss-" + key)
        if entry is None:
            return
        entry.setAttribute("tabindex", "-1")  # focusable by the link only, not in the tab order
        word = entry.previousElementSibling  # its word (the <dt>) in view too, at the top
        (word or entry).scrollIntoView()
        entry.focus()

    def fate(self, text: str) -> None:
        """What became of the explained decision (``AiControls`` says: played, a hint, or not played and why)."""
        self.fate_text = text
        element = self.document.getElementById("explorer-fate")
        if element is not None:
            element.textContent = text

    def _clicked(self, event: Any) -> None:
        target = event.target
        if target is not None and getattr(target, "id", "") == "explorer-exact":
            self._wiring.spawn(self.exact_values())

    async def exact_values(self, exact: bool = True) -> None:
        """Explain the shown decision again at the depth it completed, with every root move's exact value (or,
        ``exact`` False, the bounds alpha-beta proved as it searched); alpha-beta's only, as the box."""
        request, board = self.last_request, self.last_board
        depth = self.decision.getAttribute("data-depth")
        if request is None or board is None or not depth or request.get("algorithm", "alphabeta") != "alphabeta":
            return
        button = self.document.getElementById("explorer-exact")
        if button is not None:
            button.disabled = True
            button.textContent = "Searching\u2026"
        shown = self.shown
        # The same fixed depth repeats the shown search exactly, on the board it explained (the game may have
        # moved on since: an AI step explains the board before its move); think_ms only sizes the time limit.
        exact_request = dict(request, depth=int(depth), exact_root=exact, analysis_ms=EXACT_ROOT_MS)
        answer = await self.client.explain(exact_request)
        if self.shown != shown:
            return  # a newer decision was explained meanwhile: it stays on show, with a button of its own
        if not answer.get("ok"):
            self.status.textContent = f"Exact values failed: {answer.get('error')}"
            if answer.get("restart") and self.on_worker_failed is not None:
                self.on_worker_failed(answer)
            if button is not None:
                button.disabled = False
                button.textContent = "Exact values"
            return
        self.show(answer, request, board)
