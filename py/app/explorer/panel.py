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

The drawing functions return HTML strings built from the explanation, so
CPython tests read them without a browser; every text is escaped.  The why
and its terms with the network's heat map (``terms_view``), the pruning table
(``pruning_view``) and "Compare with the other algorithm" (``compare_view``)
have modules of their own.
"""

from html import escape

from app.board.view import ARROWS
from app.browser.panel_focus import focus_board, focus_heading
from app.browser.wiring import Wiring
from app.explorer.compare_view import CompareView
from app.explorer.drawing import bar_width, mini_board
from app.explorer.drawing import cell_name as _cell_name
from app.explorer.drawing import signed as _signed
from app.explorer.glossary import glossary_html, term
from app.explorer.pruning_view import pruning_section
from app.explorer.terms_view import patterns_section, why_section
from game2048.values import fixed, format_value

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

EXACT_ROOT_MS = 2000.0
"""The worker's own time for the exact values of every root move, after the fixed-depth search."""
PART_NAMES = (
    ("exact_root", "Exact values"),
    ("why", "Why this move"),
    ("pv", "Principal variation"),
    ("chance", "The tile the game places"),
    ("minimax", "Plain minimax count"),
    ("without_table", "Without the transposition table"),
    ("without_ordering", "Without the move ordering"),
)
"""The explanation's parts, in the order the cut-short note lists them (MicroPython's dicts keep no order)."""
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


def status_text(explanation: dict[str, Any]) -> str:
    decision = explanation["decision"]
    analysis = explanation.get("analysis") or {}
    if decision.get("move") is None:
        return "No legal move: the game is lost."
    return (
        f"{decision['move']} at depth {decision['depth']}: {int(decision['nodes']):,} nodes in "
        f"{fixed(float(decision['elapsed_ms']), 0)} ms, "
        f"then {fixed(float(analysis.get('elapsed_ms', 0)), 0)} ms explaining."
    )


def team_note(working: int, algorithm: str) -> str:
    """What the status adds when the AI has several workers: the explained search is one worker's."""
    if working <= 1 or algorithm != "expectimax":
        return ""
    return (
        f" One worker searched this decision, so that all of it can be shown here; with the explorer closed,"
        f" expectimax shares each decision among {working} workers, each searching some of the moves."
    )


ALGORITHM_WORDS = {"alphabeta": "alpha-beta", "expectimax": "expectimax"}


def explanation_heading(decision: dict[str, Any]) -> str:
    """The explanation's heading: the move, and the search that chose it ("Why up \u2014 expectimax, preset rows,
    depth 5"), so two explanations of one board by two searches are told apart."""
    algorithm = str(decision.get("algorithm"))
    search = f"{ALGORITHM_WORDS.get(algorithm, algorithm)}, preset {decision.get('preset')}"
    if decision.get("move") is None:
        return f"No legal move \u2014 {search}"
    rescued = ", vs 2s" if decision.get("rescued") else ""
    return f"Why {decision['move']} \u2014 {search}, depth {int(decision.get('depth') or 0)}{rescued}"


def render_explanation(explanation: dict[str, Any]) -> str:
    """The whole panel body for one explanation."""
    decision = explanation["decision"]
    parts = [
        f'<h3 id="explorer-title" class="explorer-title">{escape(explanation_heading(decision))}</h3>',
        _board_section(explanation),
        _root_section(explanation),
        why_section(
            explanation.get("why"),
            decision.get("algorithm"),
            any(e["legal"] and not e["exact"] for e in explanation["root"]),
            "why" in ((explanation.get("analysis") or {}).get("unfinished") or {}),
            (explanation.get("patterns") or {}).get("shapes"),
        ),
        _iterations_section(explanation["iterations"]),
        _pv_section(explanation.get("pv")),
        patterns_section(explanation.get("patterns"), explanation),
        _chance_section(explanation.get("chance"))
        if decision.get("algorithm") == "expectimax"
        else _placements_section(explanation.get("placements")),
        pruning_section(explanation.get("pruning"), decision.get("algorithm"), explanation["iterations"]),
    ]
    unfinished = (explanation.get("analysis") or {}).get("unfinished") or {}
    if unfinished:
        names = dict(PART_NAMES)
        order = [part for part, _ in PART_NAMES if part in unfinished]
        order += sorted(part for part in unfinished if part not in names)
        items = "".join(f"<li>{escape(names.get(part, part))}: {escape(unfinished[part])}</li>" for part in order)
        parts.append(f'<p class="explorer-note">Cut short by the explanation\u2019s time limit:</p><ul>{items}</ul>')
    return "".join(parts)


def _board_section(explanation: dict[str, Any]) -> str:
    """The board the explanation is about, drawn readably, with the chosen move's arrow over it."""
    rows = explanation.get("rows")
    if not rows:
        return ""
    move = explanation["decision"].get("move")
    arrow = ARROWS.get(move) if isinstance(move, str) else None
    overlay = f'<span class="explained-arrow" aria-hidden="true">{arrow}</span>' if arrow else ""
    said = (
        f'The AI chose <strong>{escape(str(move))} {arrow}</strong>. <span id="explorer-fate" class="explorer-fate">'
        "</span>"
        if arrow
        else "No move is legal."
    )
    text = "/".join(",".join(str(int(v)) for v in row) for row in rows)
    return (
        '<section class="explorer-part explained" aria-labelledby="explorer-board-title">'
        '<h3 id="explorer-board-title">The board explained</h3>'
        f'<div class="explained-board" id="explorer-board" data-rows="{text}">'
        f"{mini_board(rows, None, 'The board explained')}{overlay}</div>"
        f'<p class="explorer-note">The position the AI searched, before its move. {said} '
        "Everything below, the exact values and the step-by-step tree are about this board.</p></section>"
    )


BAR_LEGEND = "The longer a bar, the better the move: the best fills it, the worst keeps a sliver"
"""What a root bar's length means, the same in every algorithm."""
QUOTED_BOUND = "\u201c\u2264\u201d"
BOUND_WORDS = "proved no better than the chosen move; Exact values says by how much"
"""What a bound at the root means, said beside it."""


def _root_section(explanation: dict[str, Any]) -> str:
    """The root moves' values as bars: alpha-beta's exact values or bounds, expectimax's distance from the best."""
    root = explanation["root"]
    algorithm = explanation["decision"].get("algorithm")
    legal = [e for e in root if e["legal"] and e["value"] is not None]
    low = min((e["value"] for e in legal), default=0.0)
    high = max((e["value"] for e in legal), default=0.0)
    behind = high - low  # expectimax: the farthest a move is behind the best
    rows = []
    for entry in root:
        move = escape(str(entry["move"]))
        if not entry["legal"]:
            rows.append(
                f'<li class="root-move illegal" data-move="{move}"><span class="root-name">{move}</span>'
                '<span class="root-bar"></span><span class="root-value">illegal</span></li>'
            )
            continue
        value = entry["value"]
        fill = "root-fill"
        if algorithm == "expectimax":
            # Expected values are all alike in size: each move is shown by how far it is behind the best, to scale,
            # and its bar is the longer the closer it is (the best's is full, as alpha-beta's best's).
            gap = high - value
            width = bar_width(value, high - behind, high)
            text = "best" if gap == 0 else _signed(-gap)
            kind = f"expected value {format_value(value)}"
        elif entry["exact"]:
            width = bar_width(value, low, high)
            text = escape(format_value(value))
            kind = "exact (searched again)" if entry.get("source") == "exact_root" else "exact"
        else:
            width = bar_width(value, low, high)
            text = "\u2264 " + escape(format_value(value))
            kind = BOUND_WORDS
        chosen = " chosen" if entry["chosen"] else ""
        mark = ' <span class="root-chosen">\u2605 chosen</span>' if entry["chosen"] else ""
        rows.append(
            f'<li class="root-move{chosen}{"" if entry["exact"] else " bound"}" data-move="{move}" '
            f'data-exact="{str(entry["exact"]).lower()}" title="{escape(kind)}">'
            f'<span class="root-name">{move}</span>'
            f'<span class="root-bar"><span class="{fill}" style="width:{fixed(width, 1)}%"></span></span>'
            f'<span class="root-value">{text}{mark}<span class="root-kind">{escape(kind)}</span></span></li>'
        )
    bounds = any(e["legal"] and not e["exact"] for e in root)
    button = (
        '<button type="button" id="explorer-exact" class="button small">Exact values</button>'
        if bounds and algorithm == "alphabeta"
        else ""
    )
    if algorithm == "expectimax":
        note = (
            f"{term('expectimax', 'Expected values')} at the deepest completed {term('depth', 'depth')}, "
            "shown by how far each move is behind the best. "
            f"{BAR_LEGEND} (the shortest is {escape(format_value(behind))} behind)."
        )
    elif bounds:
        ran_out = "exact_root" in ((explanation.get("analysis") or {}).get("unfinished") or {})
        why_bound = (
            "the explanation\u2019s time ran out before it" if ran_out else "as it searched: the box above is unticked"
        )
        note = (
            f"Values at the deepest completed {term('depth', 'depth')}. {term('bound', QUOTED_BOUND)}: alpha-beta "
            f"proved the move no better than the chosen one without its exact value ({why_bound}). {BAR_LEGEND}."
        )
    else:
        note = f"{term('exact', 'Exact values')} at the deepest completed {term('depth', 'depth')}. {BAR_LEGEND}."
    return (
        '<section class="explorer-part" aria-labelledby="explorer-root-title">'
        '<h3 id="explorer-root-title">Root moves</h3>'
        f'<ul class="root-moves" id="explorer-root">{"".join(rows)}</ul>'
        f'<p class="explorer-note">{note} {button}</p></section>'
    )


def _heat_rows(board: list[list[int]], empty_td: "Callable[[int], str | None]") -> str:
    """A heat map's four rows: a tile shows its value, an empty cell (0..15) what ``empty_td`` draws for it."""
    rows = []
    for r in range(4):
        cells = []
        for col in range(4):
            td = empty_td(4 * r + col)
            cells.append(td if td is not None else f'<td class="heat-tile">{int(board[r][col])}</td>')
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return "".join(rows)


def _chance_section(chance: dict[str, Any] | None) -> str:
    """Expectimax's chance node after the chosen move: each empty cell's 2 and 4, their odds, and the mean."""
    if not chance:
        return ""
    mean = float(chance["value"])
    by_cell = {int(c["cell"]): c for c in chance["cells"]}
    cell_means = {
        int(c["cell"]): (c["two"] * c["p_two"] + c["four"] * c["p_four"]) / (c["p_two"] + c["p_four"])
        for c in chance["cells"]
    }
    low = min(cell_means.values())
    high = max(cell_means.values())

    def chance_td(index: int) -> str | None:
        cell = by_cell.get(index)
        if cell is None:
            return None
        worth = cell_means[index]
        level = 0 if high == low else round(4 * (high - worth) / (high - low))  # darker: worse for you
        words = (
            f"{_cell_name(index)}: a 2 (probability {fixed(cell['p_two'], 3)}) leaves "
            f"{format_value(cell['two'] - mean)} from the mean, a 4 ({fixed(cell['p_four'], 3)}) "
            f"{format_value(cell['four'] - mean)}"
        )
        return (
            f'<td class="heat heat-{level}" title="{escape(words)}" aria-label="{escape(words)}">'
            f"<span>2: {escape(_signed(cell['two'] - mean))}</span>"
            f"<span>4: {escape(_signed(cell['four'] - mean))}</span></td>"
        )

    rows = _heat_rows(chance["rows"], chance_td)
    n = len(chance["cells"])
    return (
        '<section class="explorer-part" aria-labelledby="explorer-chance-title">'
        f'<h3 id="explorer-chance-title">The tile the game places after {escape(str(chance["move"]))}</h3>'
        '<p class="explorer-note" id="explorer-chance-note">'
        f"A {term('chance-node', 'chance node')}: expectimax does not assume the worst tile; "
        f"each of the {n} empty cells gets a 2 with probability 0.9/{n} and a 4 with 0.1/{n}, "
        "and the move is worth the weighted mean of what follows, "
        f"<strong>{escape(format_value(mean))}</strong>. Each cell shows its 2 and its 4 as the "
        "difference from that mean.</p>"
        '<table class="heat-map" id="explorer-chance"><caption>Value after a 2 and after a 4 in each empty cell, '
        "from the mean; darker is worse for you</caption>"
        f"<tbody>{rows}</tbody></table></section>"
    )


def _iterations_section(iterations: list[dict[str, Any]]) -> str:
    rows = []
    for it in iterations:
        if it["completed"]:
            cells = f"<td>{escape(str(it['move']))}</td><td>{escape(format_value(it['value']))}</td>"
            cls = ""
        else:
            cells = '<td colspan="2">abandoned at the deadline</td>'
            cls = ' class="abandoned"'
        rows.append(
            f"<tr{cls}><td>{int(it['depth'])}</td>{cells}<td>{int(it['nodes']):,}</td>"
            f"<td>{int(it['cutoffs']):,}</td><td>{int(it['table_hits']):,}</td>"
            f"<td>{fixed(float(it['elapsed_ms']), 1)}</td></tr>"
        )
    return (
        '<section class="explorer-part" aria-labelledby="explorer-iterations-title">'
        f'<h3 id="explorer-iterations-title">{term("iterative-deepening", "Iterations")}</h3>'
        '<div class="table-scroll"><table class="iterations" id="explorer-iterations">'
        "<caption>One row per depth: each row counts that depth\u2019s own search (not a sum over depths)"
        f'</caption><thead><tr><th scope="col">{term("depth")}</th>'
        f'<th scope="col">Best</th><th scope="col">Value</th><th scope="col">{term("node", "Nodes")}</th>'
        f'<th scope="col">{term("cutoff", "Cutoffs")}</th><th scope="col">{term("table-hit", "Table hits")}</th>'
        '<th scope="col">ms</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div></section>"
    )


def _pv_section(pv: dict[str, Any] | None) -> str:
    if not pv or not pv.get("plies"):
        return ""
    items = []
    for number, ply in enumerate(pv["plies"], 1):
        label = f"{number}. {ply['label']}"
        who = "you" if ply["kind"] == "move" else "the computer"
        items.append(
            f'<li class="pv-ply {escape(ply["kind"])}"><span class="pv-label">{escape(label)}</span>'
            f'<span class="pv-who">{who}</span>{mini_board(ply["rows"], ply.get("cell"), label)}</li>'
        )
    ends = {
        "horizon": f"the search\u2019s {term('horizon', 'horizon')}",
        "win": "a 2048 tile",
        "loss": "a lost board",
        "budget": "the explanation\u2019s time limit",
        "not found": "a node the tables no longer hold",
    }
    end = ends.get(pv["end"], pv["end"])
    value = f", worth {escape(format_value(pv['value']))}" if pv.get("value") is not None else ""
    typical = (
        " Expectimax averages over every tile, so this is one typical line: each tile is a 2, the likeliest"
        " (9 in 10), in the cell whose outcome is nearest the average, not the worst."
        if pv.get("tiles") == "typical"
        else ""
    )
    return (
        '<section class="explorer-part" aria-labelledby="explorer-pv-title">'
        f'<h3 id="explorer-pv-title">{term("pv")}</h3>'
        f'<p class="explorer-note" id="explorer-pv-note">The line the search expects ({len(pv["plies"])} '
        f"{term('ply', 'plies')}, to {end}{value}).{typical}</p>"
        f'<ol class="pv-strip" id="explorer-pv">{"".join(items)}</ol></section>'
    )


def _placements_section(heat: dict[str, Any] | None) -> str:
    if not heat:
        return ""
    by_cell: dict[int, dict[int, dict[str, Any]]] = {}
    for c in heat["cells"]:
        by_cell.setdefault(int(c["cell"]), {})[int(c["tile"])] = c
    scores = [int(c["annoyance"]) for c in heat["cells"]]
    low, high = min(scores, default=0), max(scores, default=0)

    def annoyance_td(index: int) -> str | None:
        cell = by_cell.get(index)
        if cell is None:
            return None
        two, four = cell[2], cell[4]
        top = max(int(two["annoyance"]), int(four["annoyance"]))
        level = 0 if high == low else round(4 * (top - low) / (high - low))
        kept_cls = " kept" if two["kept"] or four["kept"] else ""
        words = (
            f"{_cell_name(index)}: a 2 scores {two['annoyance']}"
            f"{' (kept)' if two['kept'] else ''}, a 4 scores {four['annoyance']}{' (kept)' if four['kept'] else ''}"
        )
        return (
            f'<td class="heat heat-{level}{kept_cls}" title="{escape(words)}" aria-label="{escape(words)}">'
            f'<span class="heat-two{" kept" if two["kept"] else ""}">2: {int(two["annoyance"])}</span>'
            f'<span class="heat-four{" kept" if four["kept"] else ""}">4: {int(four["annoyance"])}</span></td>'
        )

    rows = _heat_rows(heat["rows"], annoyance_td)
    kept_list = "".join(
        f"<li>{escape(c['label'])} (annoyance {int(c['annoyance'])})</li>" for c in heat["cells"] if c["kept"]
    )
    verb = "keeps" if heat["reduction_used"] else "would keep (expectimax averages over every placement)"
    return (
        '<section class="explorer-part" aria-labelledby="explorer-heat-title">'
        f'<h3 id="explorer-heat-title">The computer\u2019s reply to {escape(heat["move"])}</h3>'
        f'<p class="explorer-note" id="explorer-kept">The {term("reduction", "min-node reduction")} {verb} '
        f"<strong>{int(heat['kept'])} of {int(heat['possible'])}</strong> placements: the most "
        f"{term('annoyance', 'annoying')}, by \u2212{term('smoothness', 'smoothness')} + "
        f"{term('islands', 'islands')} (higher is worse for you).</p>"
        '<table class="heat-map" id="explorer-heat"><caption>Annoyance of a 2 and of a 4 in each empty cell; '
        "outlined: kept by the reduction</caption>"
        f"<tbody>{rows}</tbody></table>"
        f'<ul class="kept-list" aria-label="Placements kept">{kept_list}</ul></section>'
    )
