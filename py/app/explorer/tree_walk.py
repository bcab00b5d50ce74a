"""Alpha-beta step by step: the page's walk through the real tree of the explained board, node by node.

The board is the one the explorer explains above it (``Explorer.explained_board``);
before any explanation, the board in play.  Once built, the walk follows the
explorer: each newly explained board (``explained``) is built again, once the AI
is idle (``busy``), so a tree is never built while autoplay needs the worker.
Its depth is, unless chosen, the smallest at which alpha-beta prunes on the
board; a tree with no cut says why.  With expectimax chosen it still walks
alpha-beta, on the same board and evaluation, and says so and why.

The tree is built in the AI worker (``trace`` in ``py/app/ai/worker.py``,
``game2048.search.stepwise``), never on the main thread.  ``TreeWalk`` asks
for it, steps through it and wires the section's events; ``walk_view``
draws it (``WalkView``), ``walk_steps`` replays its steps and words what it
shows, ``walk_counts`` draws its counts.

Keys while the focus is inside the section (reached with Tab): ← and → step
back and forth, Home and End go to the first and last step; ↑ and ↓ never
reach the game's own listener (``InputRouter``, on ``document``), so no arrow
moves tiles from here.  Every other key is the page's (E, N, P, Esc, ...).
"""

from app.browser.clock import sleep
from app.browser.wiring import Wiring
from app.explorer.walk_counts import counts_note, draw_counts
from app.explorer.walk_steps import algorithm_note, children_of, depth_note
from app.explorer.walk_view import DEPTH_CHOICES, WalkView
from game2048.board import to_rows
from game2048.values import format_value

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

BUDGET_MS = 3000.0
"""The time a tree is expected to take in the worker (a depth-3 minimax of an opening board: about a second)."""
REBUILD_DELAY_S = 0.3
"""A newly explained board's tree is asked for once the AI has been idle this long (no new explanation, no
decision being thought, no autoplay)."""
STEP_KEYS = {"ArrowLeft": "back", "ArrowRight": "next", "Home": "start", "End": "end"}
HELD_KEYS = ("ArrowUp", "ArrowDown")
"""Keys kept from the game's listener inside the walk, without a use of their own there (no tile moves)."""
FORM_TAGS = frozenset({"INPUT", "SELECT", "TEXTAREA"})


class TreeWalk(WalkView):
    """The step-by-step panel: build the tree in the worker, then walk its steps with buttons or keys."""

    def __init__(
        self,
        document: Any,
        client: Any,
        session: Any,
        create_proxy: Callable[[Callable[..., Any]], Any],
        evaluation: Callable[[], dict[str, Any]] | None = None,
        on_worker_failed: Callable[[dict[str, Any]], None] | None = None,
        explained_board: Callable[[], int | None] | None = None,
        busy: Callable[[], bool] | None = None,
    ) -> None:
        """``explained_board`` gives the board the explorer explains (``None``: the board in play); ``busy``
        says whether the AI is deciding or autoplaying (a newly explained board's tree waits for it)."""
        self.client = client
        self.session = session
        self._wiring = Wiring(create_proxy)
        self.evaluation = evaluation or (lambda: {})
        self.on_worker_failed = on_worker_failed
        self.explained_board = explained_board or (lambda: None)
        self.busy = busy or (lambda: False)
        self.rows: list[list[int]] | None = None  # the board the tree is built for
        self.settings: dict[str, Any] = {}  # the algorithm, preset and weights it is built with
        self.building = False
        self.builds = 0  # trees drawn so far (``data-builds`` on the section, for tests)
        self._request = 0  # only the answer to the last request is drawn
        self._explained = 0  # explanations seen: only the last one's wait rebuilds
        self._built_status = ""  # what the status said of the tree on show
        super().__init__(document, self._wiring)
        self._wiring.listen(self.section, "keydown", self._keydown)
        self._wiring.listen(self.section, "focusin", lambda _e: self.refresh())
        self._wiring.listen(self.build_button, "click", lambda _e: self.build())
        for name in ("depth_select", "ordering_box", "pruning_box"):
            self._wiring.listen(getattr(self, name), "change", lambda _e: self._switched())
        for action, button in self.step_buttons.items():
            self._wiring.listen(button, "click", lambda _e, a=action: self.go(a))  # type: ignore[misc]
        algorithm_select = document.getElementById("ai-algorithm")
        if algorithm_select is not None:
            self._wiring.listen(algorithm_select, "change", lambda _e: self._algorithm_changed())
        self.refresh()

    def _keydown(self, event: Any) -> None:
        """←, →, Home and End step; ↑ and ↓ are kept from the game (no tiles move); every other key is the page's."""
        key = str(event.key)
        if key not in STEP_KEYS and key not in HELD_KEYS:
            return
        target = event.target
        if getattr(target, "tagName", None) in FORM_TAGS and str(getattr(target, "type", "")) != "checkbox":
            return  # the depth list keeps its own keys (the game's listener leaves form fields alone)
        if event.ctrlKey or event.altKey or event.metaKey:
            return
        event.stopPropagation()
        action = STEP_KEYS.get(key)
        if action is not None:
            event.preventDefault()
            self.go(action)

    def build(self, rows: list[list[int]] | None = None, settings: dict[str, Any] | None = None) -> None:
        """Ask the worker for the tree of the explained board (or ``rows``), with the depth and switches shown.

        ``settings`` (the algorithm, preset and weights) default to the AI's settings now.
        """
        if not self.client.ready:
            self._set_status(self.client.error or "The AI is still loading: the tree is built in its worker.")
            self.update_buttons()
            return
        if rows is None:
            explained = self.explained_board()
            rows = to_rows(self.session.game.board if explained is None else explained)
        self.rows = rows
        self.settings = settings if settings is not None else self.evaluation()
        self._request += 1
        self._wiring.spawn(self._fetch(self._request, self.rows))

    def _switched(self) -> None:
        """A new depth or switch: the same board's tree again, if one is shown."""
        if self.rows is not None and self.client.ready:
            self.build(self.rows, self.settings)

    def explained(self, board: int, request: dict[str, Any] | None = None) -> None:
        """The explorer drew a new explanation of ``board``: once a tree has been asked for, build it again for
        this board (with ``request``'s algorithm, preset and weights) when the AI is idle."""
        if self.rows is None:
            return  # never built: "Build" builds for the explained board
        self._explained += 1
        settings = self.settings if request is None else request
        if to_rows(board) == self.rows and _same_evaluation(settings, self.settings):
            if self.section.getAttribute("data-stale") == "true" and self.trace is not None:
                self.section.setAttribute("data-stale", "false")  # back to the board shown: nothing to build
                self._set_status(self._built_status)
            return
        self._stale("The explorer now explains a newer board: this walk is built again for it once the AI is idle.")
        self._wiring.spawn(self._rebuild_when_idle(self._explained, to_rows(board), settings))

    def _algorithm_changed(self) -> None:
        """Another algorithm chosen: a built walk is built again with its evaluation, and says what it shows."""
        if self.rows is None:
            self.refresh()  # before any tree: only the note
            return
        self._explained += 1
        self._stale("Another algorithm is chosen: this walk is built again for it once the AI is idle.")
        self._wiring.spawn(self._rebuild_when_idle(self._explained, self.rows, None))

    def _stale(self, why: str) -> None:
        self.section.setAttribute("data-stale", "true")
        self._set_status(why)

    async def _rebuild_when_idle(self, number: int, rows: list[list[int]], settings: dict[str, Any] | None) -> None:
        """Build ``rows``' tree (``settings`` None: the AI's settings then) once the AI has been idle a moment."""
        while True:
            await sleep(REBUILD_DELAY_S)
            if number != self._explained:
                return  # a newer explanation or choice waits in its own turn
            if not self.busy():
                break
        self.build(rows, settings)

    def request(self, rows: list[list[int]]) -> dict[str, Any]:
        settings = self.settings
        names = ("algorithm", "preset", "weights")
        request: dict[str, Any] = {key: settings[key] for key in names if key in settings}
        depth = str(self.depth_select.value) or DEPTH_CHOICES[0][0]
        request.update(
            rows=rows,
            depth=None if depth == "auto" else int(depth),
            ordering=bool(self.ordering_box.checked),
            pruning=bool(self.pruning_box.checked),
        )
        return request

    async def _fetch(self, number: int, rows: list[list[int]]) -> None:
        self.building = True
        self.update_buttons()
        self._set_status("Building the tree in the AI worker\u2026")
        try:
            answer = await self.client.call("trace", self.request(rows), BUDGET_MS)
        finally:
            if number == self._request:
                self.building = False
        if number != self._request:
            return  # a newer request was sent meanwhile
        if not answer.get("ok"):
            self._set_status(f"The tree could not be built: {answer.get('error')}", error=True)
            if answer.get("restart") and self.on_worker_failed is not None:
                self.on_worker_failed(answer)
            self.update_buttons()
            return
        self.show(answer)

    def show(self, answer: dict[str, Any]) -> None:
        """Draw a worker answer (``stepwise.variants``) from its first step."""
        self.trace = answer["trace"]
        self.variants = answer.get("variants", [])
        self.unreduced = answer.get("unreduced")
        self.search = answer.get("search")
        self.children = children_of(self.trace)
        self.index = 0
        trace = self.trace
        search = "Alpha-beta" if trace["pruning"] else "Minimax"
        order = "moves ordered" if trace["ordering"] else "natural order"
        whose = "the board in play" if self.explained_board() is None else "the board explained above"
        self._built_status = (
            f"{search} ({order}) at depth {trace['depth']}, for {whose}: {len(trace['steps'])} steps; "
            f"best move {trace['move'] or 'none (lost)'}, value {format_value(trace['value'])}."
        )
        self._set_status(self._built_status)
        self.builds += 1
        self.section.setAttribute("data-builds", str(self.builds))
        self.section.setAttribute("data-stale", "false")
        self.section.setAttribute("data-root", rows_text(self.rows or []))
        self.section.setAttribute("data-depth", str(trace["depth"]))
        self._note(self.algorithm_note, algorithm_note(self.settings.get("algorithm"), answer.get("preset")))
        self._note(self.depth_note, depth_note(trace, answer.get("smallest")))
        draw_counts(self._el, self.counts, trace, self.variants, self.unreduced, self.search)
        self._note(self.counts_note, counts_note(trace, self.variants, self.search, self.settings.get("algorithm")))
        self.tree.hidden = False
        self.render(scroll=False)

    def go(self, action: str) -> None:
        if self.trace is None:
            return
        last = len(self.trace["steps"]) - 1
        target = {"start": 0, "back": self.index - 1, "next": self.index + 1, "end": last}[action]
        target = max(0, min(last, target))
        if target != self.index:
            self.index = target
            self.render()
        else:
            self._keep_in_view()

    def refresh(self) -> None:
        """The build button and the waiting message as the AI is now (``main`` calls it once the worker is up)."""
        self.update_buttons()
        if self.trace is None and not self.building:
            if self.client.ready:
                self._set_status("Build the tree to walk through it, step by step.")
            else:
                self._set_status(self.client.error or "The AI is loading: the tree is built in its worker.")
            self._note(self.algorithm_note, algorithm_note(self.evaluation().get("algorithm"), None))

    def update_buttons(self) -> None:
        self.build_button.disabled = not self.client.ready or self.building
        super().update_buttons()


def _same_evaluation(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return all(a.get(key) == b.get(key) for key in ("algorithm", "preset", "weights"))


def rows_text(rows: list[list[int]]) -> str:
    """A board as "a,b,c,d/..." (``data-root``; the explorer's ``data-rows`` reads the same)."""
    return "/".join(",".join(str(value) for value in row) for row in rows)
