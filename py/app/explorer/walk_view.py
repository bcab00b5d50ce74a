"""The walk's drawing and its text: its controls, created in the empty ``<section id="tree-walk">``, the tree at a
step, and the steps replayed and put into words.

``WalkView`` holds the tree on show (the worker's trace, its counts, the
step ``index``) and draws it: only the path from the root to the current
node and that node's children (or its siblings, for a leaf), so a depth-3
tree of thousands of nodes stays fast.  The step's sentence is drawn inside
the current node, and each step keeps that node in view (the step buttons
stick to the top of the walk), after a click too, when the page has handed
the keys back to the board.  ``TreeWalk`` builds on it.

A trace (``game2048.search.stepwise``'s ``compact`` form, as the worker sends
it) lists the tree's nodes and the steps that visit them.  ``walk_state``
replays the steps up to one; ``value_text``, ``window_text`` and
``outline_html`` put what is then known into words (a node's value, its
window) or HTML (the tree so far).  The notes say what the walk shows and
why (``algorithm_note``), at which depth and why (``depth_note``), how its
counts compare with the AI's own search (``counts_note``); ``""`` when there
is nothing to say.  These are plain functions, no DOM, so the tests read
them without a page.
"""

from html import escape

from app.browser.js_guard import JsCallError, js_call
from app.browser.wiring import Wiring
from app.explorer.drawing import board_words
from app.explorer.glossary import mark_term, term
from game2048.values import INFINITY, format_value

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

CUT = "\u03b1 \u2265 \u03b2"


def alpha_text(alpha: float | None) -> str:
    return format_value(-INFINITY if alpha is None else alpha)


def beta_text(beta: float | None) -> str:
    return format_value(INFINITY if beta is None else beta)


def children_of(trace: dict[str, Any]) -> dict[int, list[int]]:
    """Each node's children, in the order they are tried (ids grow in that order)."""
    children: dict[int, list[int]] = {node["id"]: [] for node in trace["nodes"]}
    for node in trace["nodes"]:
        if node["parent"] is not None:
            children[node["parent"]].append(node["id"])
    return children


def walk_state(trace: dict[str, Any], index: int) -> dict[int, dict[str, Any]]:
    """What is known once steps ``0..index`` have run: ``{node id: {"status", ...}}`` for every node reached.

    ``status`` is ``active`` (entered, not returned), ``done`` (with ``value``
    and ``bound``) or ``pruned`` (with the ``alpha`` and ``beta`` of its cut);
    ``alpha``, ``beta`` (current window, ``None`` infinite, absent without
    pruning) and ``best`` (best child value so far) for inner nodes.
    """
    state: dict[int, dict[str, Any]] = {}
    for step in trace["steps"][: index + 1]:
        node, event = step["node"], step["event"]
        window = {key: step[key] for key in ("alpha", "beta") if key in step}
        if event == "enter":
            state[node] = dict(window, status="active", best=None)
        elif event in ("leaf", "won", "lost"):
            state[node] = dict(window, status="done", value=step["value"], bound="exact")
        elif event == "backup":
            state[node].update(best=step["best"], last=step["child"], **window)
        elif event == "cut":
            for child in step["pruned"]:
                state[child] = {"status": "pruned", "alpha": step["alpha"], "beta": step["beta"]}
        elif event == "return":
            state[node].update(status="done", value=step["value"], bound=step["bound"])
    return state


def value_text(info: dict[str, Any]) -> str:
    """A reached node's value as known: exact, a bound, or the best so far."""
    if info["status"] == "pruned":
        return f"pruned: {CUT} (\u03b1 = {alpha_text(info['alpha'])}, \u03b2 = {beta_text(info['beta'])})"
    if info["status"] == "done":
        sign = {"upper": "\u2264 ", "lower": "\u2265 "}.get(info.get("bound") or "", "")
        return f"value {sign}{format_value(info['value'])}"
    best = info.get("best")
    return "searching" if best is None else f"best so far {format_value(best)}"


OUTLINE_LIMIT = 300
"""Nodes the tree-so-far lists at most (a depth-3 minimax reaches thousands); the rest are counted."""


def outline_html(trace: dict[str, Any], state: dict[int, dict[str, Any]], current: int) -> str:
    """The nodes reached so far as a nested list, root first, children in the order tried.

    Each says its move or placement and what is known of its value; a pruned
    branch is greyed with the cutoff that pruned it (α ≥ β and the window);
    the current node is marked.  At most ``OUTLINE_LIMIT`` nodes are listed.
    """
    nodes = trace["nodes"]
    children: dict[int, list[int]] = {}
    for node in nodes:
        if node["parent"] is not None and node["id"] in state:
            children.setdefault(node["parent"], []).append(node["id"])
    listed = [0]

    def item(node_id: int) -> str:
        listed[0] += 1
        node, info = nodes[node_id], state[node_id]
        here = " tw-o-here" if node_id == current else ""
        kids = [k for k in children.get(node_id, []) if listed[0] < OUTLINE_LIMIT]
        inner = "".join(item(k) for k in kids if listed[0] < OUTLINE_LIMIT)
        below = f'<ul class="tw-o-list">{inner}</ul>' if inner else ""
        return (
            f'<li class="tw-o tw-o-{info["status"]}{here}" data-id="{node_id}">'
            f'<span class="tw-o-label">{escape(str(node["label"]))}</span> '
            f'<span class="tw-o-value">{escape(value_text(info))}</span>{below}</li>'
        )

    if not nodes or 0 not in state:
        return ""
    tree = item(0)
    more = len(state) - listed[0]
    rest = f'<p class="tw-o-more">\u2026 and {more} more nodes reached</p>' if more > 0 else ""
    return f'<ul class="tw-o-list tw-o-root">{tree}</ul>{rest}'


def window_text(info: dict[str, Any]) -> str:
    if "alpha" not in info:
        return ""
    return f"\u03b1 = {alpha_text(info['alpha'])}, \u03b2 = {beta_text(info['beta'])}"


def algorithm_note(algorithm: Any, preset: Any) -> str:
    """What the walk shows when the AI plays another algorithm than alpha-beta, and why; ``""`` otherwise."""
    if algorithm != "expectimax":
        return ""
    evaluation = f" ({preset})" if preset else ""
    return (
        "The AI plays expectimax, but this walk shows alpha-beta, with the reduction, on the same board and "
        f"with expectimax\u2019s evaluation{evaluation}. Why: expectimax\u2019s computer is chance, not an "
        "opponent. Its chance nodes average every 2 and every 4 in every empty cell, each weighted by its "
        "probability (a 2: 0.9, a 4: 0.1, shared evenly among the empty cells), so every placement counts "
        "toward the average and none can be cut with \u03b1 and \u03b2. Alpha-beta\u2019s computer is an "
        "opponent (min) that places only its most annoying tiles, and that is what lets it prune. So the move "
        "found here may differ from the one expectimax chose above."
    )


def depth_note(trace: dict[str, Any], smallest: dict[str, Any] | None) -> str:
    """Why the walk is at its depth (``smallest``: the depths passed over for pruning nothing), and, when its
    tree has no cut, why nothing was pruned; ``""`` when there is nothing to say."""
    said = []
    if smallest is not None:
        skipped = smallest.get("skipped") or []
        for passed in skipped:
            said.append(f"At depth {passed['depth']} alpha-beta prunes nothing on this board. {passed['no_cut']}")
        if not skipped and trace["pruning"]:
            said.append(f"Depth {trace['depth']}: the smallest at which alpha-beta prunes on this board.")
    if trace.get("no_cut"):
        said.append(f"At depth {trace['depth']}: {trace['no_cut']}")
    return " ".join(said)


def counts_note(
    trace: dict[str, Any], variants: list[dict[str, Any]], search: dict[str, Any] | None, algorithm: Any
) -> str:
    """How the walk's counts compare with the AI's own search (the explorer's Iterations table), and why."""
    if not search:
        return ""
    mine = None
    for variant in variants:
        if (variant["ordering"], variant["pruning"]) == (trace["ordering"], True):
            mine = variant
    if mine is None:
        return ""
    cuts, closed, nodes = mine.get("cuts", 0), mine.get("closed_at_last", 0), mine["nodes"]
    order = "moves ordered" if trace["ordering"] else "natural order"
    cut_words = f"{cuts} {'cut' if cuts == 1 else 'cuts'}"
    closed_words = f"{closed} {'window' if closed == 1 else 'windows'} closed at a last child"
    if algorithm == "expectimax":
        head = (
            "The explorer\u2019s Iterations table above is expectimax\u2019s, which prunes nothing: the last row is "
            "what the AI\u2019s alpha-beta counts on this board."
        )
    else:
        head = f"The last row is the explorer\u2019s Iterations table\u2019s row for depth {search['depth']}."
    if cuts + closed == search["cutoffs"] and nodes - 1 == search["nodes"]:
        return (
            f"{head} It agrees with this walk\u2019s alpha-beta ({order}): its {search['nodes']} nodes are these "
            f"{nodes} without the root, and its {search['cutoffs']} cutoffs are these {cut_words} and "
            f"{closed_words}, where nothing was left to prune."
        )
    table = " and keeps a transposition table" if search["depth"] >= 3 else ""
    return (
        f"{head} It differs from this walk\u2019s alpha-beta ({order}: {cut_words}, {nodes} nodes): it counts a "
        "cutoff whenever \u03b1 \u2265 \u03b2, also at a node\u2019s last child, where nothing is left to prune "
        f"(here {closed_words}); it counts the moves and placements tried, not the root; and it searches in "
        "another order (the depth before\u2019s best move first, then up, right, down, left; each computer "
        f"node\u2019s lowest placement of the depth before first){table}."
    )


DEPTH_CHOICES = (
    ("auto", "smallest that prunes (2 or 3)"),
    ("2", "2 (player, computer, player)"),
    ("3", "3 (and computer, player)"),
)
"""The depth list: (value, text); ``auto`` asks the worker for the smallest depth at which alpha-beta prunes."""
SCROLL_NEAREST = '{"block": "nearest", "inline": "nearest", "behavior": "auto"}'
"""``scrollIntoView``'s options, as JSON for the browser to parse (a plain object in any interpreter): the least
scrolling that shows the node, at once (no smooth scrolling: less motion)."""
NAV_CLEARANCE = 8
"""CSS px between the sticky step buttons and the current node scrolled into view below them."""
STEP_BUTTONS = (
    ("start", "Start", "Start: the first step (Home)"),
    ("back", "\u25c0 Back", "Step back (\u2190)"),
    ("next", "Next \u25b6", "Next step (\u2192)"),
    ("end", "End", "End: the last step (End)"),
)
"""The step buttons in their order on the page: (action, text, label)."""
KIND_NAMES = {
    "max": "player (max)",
    "min": "computer (min)",
    "leaf": "leaf",
    "won": "win",
    "lost": "loss",
}
VARIANT_NAMES = (
    ((True, True), "Alpha-beta, moves ordered"),
    ((False, True), "Alpha-beta, natural order"),
    ((False, False), "Minimax (no pruning)"),
)
ALPHA, BETA = "\u03b1", "\u03b2"


class WalkView:
    """The walk's elements inside its section and the drawing of the tree on show at step ``index``."""

    def __init__(self, document: Any, wiring: Wiring) -> None:
        """Create the controls in the empty section; ``wiring`` keeps the scroll callback's proxy alive."""
        self.document = document
        self.trace: dict[str, Any] | None = None
        self.variants: list[dict[str, Any]] = []
        self.unreduced: dict[str, Any] | None = None
        self.search: dict[str, Any] | None = None
        self.children: dict[int, list[int]] = {}
        self.index = 0
        self.here_item: Any = None  # the current node's item in the path (``render``)
        self.section = document.getElementById("tree-walk")
        self._build_markup()
        self._scroll_proxy = wiring.create_proxy(lambda *_args: self._scroll_current())
        wiring.proxies.append(self._scroll_proxy)

    def _el(self, tag: str, cls: str = "", text: str = "", **attributes: str) -> Any:
        element = self.document.createElement(tag)
        if cls:
            element.className = cls
        if text:
            element.textContent = text
        for key, value in attributes.items():
            element.setAttribute(key.replace("_", "-"), value)
        return element

    def _build_markup(self) -> None:
        el = self._el
        title = el("h3", "tw-title", "Alpha-beta step by step")
        intro = el("p", "tw-intro")
        intro.innerHTML = (
            "The real game tree of the board explained above (the board in play until the AI has been asked; "
            "built again for each board the AI explains), "
            f"walked {term('node', 'node')} by node: the player (max) moves, the computer (min) places its most "
            f"{term('annoyance', 'annoying')} tiles. Watch {term('alpha', ALPHA)} and {term('beta', BETA)} "
            "travel down, values back up, and branches pruned once \u03b1 \u2265 \u03b2 "
            f"({term('cutoff', 'a cutoff')}). A value marked \u2264 is an {term('upper-bound', 'upper bound')}, "
            f"\u2265 a {term('lower-bound', 'lower bound')}: what a cut left known; a {term('leaf', 'leaf')} is "
            f"scored by the {term('evaluation', 'evaluation')}."
        )
        options = el("div", "tw-options")
        self.build_button = el(
            "button", "button tw-build", "Build the tree for this board", type="button", id="tw-build"
        )
        depth_label = el("label", "tw-option")
        depth_label.append(el("span", "", "Depth"))
        self.depth_select = el("select", "", id="tw-depth")
        for value, text in DEPTH_CHOICES:
            option = el("option", "", text)
            option.value = value
            self.depth_select.appendChild(option)
        self.depth_select.value = DEPTH_CHOICES[0][0]
        depth_label.appendChild(self.depth_select)
        self.ordering_box = el("input", "", type="checkbox", id="tw-ordering")
        self.pruning_box = el("input", "", type="checkbox", id="tw-pruning")
        self.ordering_box.checked = True
        self.pruning_box.checked = True
        switches = []
        for box, text in (
            (self.ordering_box, "Move ordering"),
            (self.pruning_box, "Prune with \u03b1 and \u03b2 (off: plain minimax)"),
        ):
            label = el("label", "tw-switch")
            label.append(box, el("span", "", text))
            switches.append(label)
        options.append(self.build_button, depth_label, *switches)
        self.status = el("p", "tw-status", "", role="status", id="tw-status")
        self.algorithm_note = el("p", "tw-note", "", id="tw-algorithm", hidden="")
        self.depth_note = el("p", "tw-note", "", id="tw-depth-note", hidden="")
        self.counts = el("table", "tw-counts", id="tw-counts", hidden="")
        self.counts_note = el("p", "tw-note", "", id="tw-counts-note", hidden="")
        nav = el("div", "tw-nav", role="group", aria_label="Steps")
        self.nav = nav
        self.step_buttons = {}
        for action, text, label in STEP_BUTTONS:
            button = el("button", "button small tw-step", text, type="button", id=f"tw-{action}", aria_label=label)
            button.title = label
            self.step_buttons[action] = button
            nav.appendChild(button)
        self.position = el("span", "tw-position", "", id="tw-position")
        nav.appendChild(self.position)
        # The step's sentence is drawn inside the current node (``render``); a screen reader hears it from here.
        self.explain = el("p", "tw-explain", "", id="tw-explain")
        self.said = el("p", "sr-only", "", id="tw-said", aria_live="polite")
        self.path = el("ol", "tw-path", id="tw-path", aria_label="Path from the root to the current node")
        self.kids_title = el("p", "tw-kids-title", "", id="tw-kids-title")
        self.kids = el("ul", "tw-children", id="tw-children", aria_labelledby="tw-kids-title")
        self.outline_title = el("p", "tw-kids-title", "The tree so far: every node reached, pruned ones greyed")
        self.outline = el("div", "tw-outline", id="tw-outline")
        self.tree = el("div", "tw-tree", id="tw-tree", hidden="")
        self.tree.append(nav, self.said, self.path, self.kids_title, self.kids, self.outline_title, self.outline)
        self.section.replaceChildren(
            title,
            intro,
            options,
            self.status,
            self.algorithm_note,
            self.depth_note,
            self.counts,
            self.counts_note,
            self.tree,
        )

    def update_buttons(self) -> None:
        """The step buttons as the step on show allows (``TreeWalk`` adds its build button)."""
        steps = len(self.trace["steps"]) if self.trace else 0
        # aria-disabled, not disabled: a disabled button drops the focus, and the keys with it, at either end.
        at_start = steps == 0 or self.index == 0
        at_end = steps == 0 or self.index >= steps - 1
        for action, off in (("start", at_start), ("back", at_start), ("next", at_end), ("end", at_end)):
            self.step_buttons[action].setAttribute("aria-disabled", "true" if off else "false")

    def _set_status(self, text: str, error: bool = False) -> None:
        self.status.textContent = text
        self.status.className = "tw-status error" if error else "tw-status"

    @staticmethod
    def _note(element: Any, text: str) -> None:
        element.textContent = text
        element.hidden = not text

    def _mini_board(self, ranks: str) -> Any:
        board = self._el("div", "tw-mini", role="img", aria_label=_board_words(ranks))
        for value in ranks_to_values(ranks):
            board.appendChild(
                self._el(
                    "span",
                    f"tw-cell tw-v{min(value, 4096)} digits-{len(str(value))}" if value else "tw-cell",
                    str(value) if value else "",
                )
            )
        return board

    def render(self, scroll: bool = True) -> None:
        """Draw step ``index``: the path with α/β and values, the sentence inside the current node, its children.

        ``scroll``: keep the current node, with its sentence, in view (a step taken; not a tree just built).
        """
        trace = self.trace
        assert trace is not None
        steps, nodes = trace["steps"], trace["nodes"]
        step = steps[self.index]
        state = walk_state(trace, self.index)
        current = step["node"]
        self.position.textContent = f"Step {self.index + 1} of {len(steps)}"
        self.explain.textContent = step["text"]
        self.said.textContent = f"Step {self.index + 1}: {step['text']}"
        self.section.setAttribute("data-step", str(self.index))
        self.section.setAttribute("data-event", step["event"])
        path = []
        node: int | None = current
        while node is not None:
            path.append(node)
            node = nodes[node]["parent"]
        self.outline.innerHTML = outline_html(trace, state, current)
        self.path.replaceChildren()
        for depth, node_id in enumerate(reversed(path)):
            self.path.appendChild(self._path_item(nodes[node_id], state.get(node_id), depth, node_id == current))
        self.update_buttons()
        if scroll:
            self._keep_in_view()
        # The current node's children; a leaf shows its siblings instead, itself marked.
        shown_parent = current if self.children[current] else nodes[current]["parent"]
        self.kids.replaceChildren()
        if shown_parent is None:
            self.kids_title.textContent = ""
            return
        parent = nodes[shown_parent]
        what = "moves" if parent["kind"] == "max" else "placements"
        label = parent["label"]  # lower case, as the worker writes it; MicroPython has no str.capitalize
        self.kids_title.textContent = f"{label[:1].upper()}{label[1:]}: its {what}, in the order tried"
        for child_id in self.children[shown_parent]:
            marks = []
            if child_id == current:
                marks.append("tw-here")
            if step["event"] == "backup" and step.get("child") == child_id:
                marks.append("tw-backed")
            self.kids.appendChild(self._child_item(nodes[child_id], state.get(child_id), marks))

    def _keep_in_view(self) -> None:
        """Scroll the current node into view once this event is over: after a click, the page hands the keys
        back to the board (``app.browser.panel_focus.KeysBack``), and focusing the board may scroll it into view."""
        window = getattr(self.document, "defaultView", None)
        if window is None:
            self._scroll_current()
            return
        try:
            js_call(window, window, "setTimeout", self._scroll_proxy, 0)
        except JsCallError:
            self._scroll_current()

    def _scroll_current(self) -> None:
        """The least scrolling that shows the current node and its sentence; the outline's own box follows."""
        here = self.here_item
        if here is None:
            return
        window = getattr(self.document, "defaultView", None)
        try:
            if window is None:  # CPython's fake page: neither a window nor its guard
                here.scrollIntoView()
                return
            options = js_call(window, js_call(window, window, "JSON"), "parse", SCROLL_NEAREST)
            # Below the sticky step buttons, however tall they are now (wrapped on a narrow screen, a larger text).
            here.style.scrollMarginTop = f"{self.nav.offsetHeight + NAV_CLEARANCE}px"
            js_call(window, here, "scrollIntoView", options)
            marked = js_call(window, self.outline, "querySelector", ".tw-o-here")
            if marked:
                top = marked.getBoundingClientRect().top - self.outline.getBoundingClientRect().top
                self.outline.scrollTop = self.outline.scrollTop + top - self.outline.clientHeight / 2
        except JsCallError:
            return

    def _path_item(self, node: dict[str, Any], info: dict[str, Any] | None, depth: int, here: bool) -> Any:
        """A node of the path: the current one with its board and the step's sentence, the others on one line."""
        el = self._el
        item = el("li", "tw-node tw-here" if here else "tw-node", data_kind=node["kind"], data_id=str(node["id"]))
        if here:
            item.setAttribute("aria-current", "step")
            item.appendChild(self._mini_board(node["ranks"]))
        text = el("div", "tw-node-text")
        text.appendChild(el("span", "tw-label", node["label"]))
        text.appendChild(el("span", "tw-kind", KIND_NAMES.get(node["kind"], node["kind"])))
        if info is not None:
            window = window_text(info)
            if window and info["status"] != "pruned":
                text.appendChild(el("span", "tw-window", window))
            text.appendChild(el("span", "tw-value", value_text(info)))
        item.appendChild(text)
        if here:
            item.appendChild(self.explain)
            self.here_item = item
        return item

    def _child_item(self, node: dict[str, Any], info: dict[str, Any] | None, marks: list[str]) -> Any:
        el = self._el
        status = "pending" if info is None else info["status"]
        classes = " ".join(["tw-child", f"tw-{status}"] + marks)
        item = el("li", classes, data_id=str(node["id"]), data_status=status)
        item.appendChild(el("span", "tw-label", node["label"]))
        item.appendChild(el("span", "tw-kind", KIND_NAMES.get(node["kind"], node["kind"])))
        item.appendChild(el("span", "tw-value", "not reached yet" if info is None else value_text(info)))
        return item


def draw_counts(
    el: Callable[..., Any],
    table: Any,
    trace: dict[str, Any],
    variants: list[dict[str, Any]],
    unreduced: dict[str, Any] | None,
    search: dict[str, Any] | None,
) -> None:
    """Fill ``table`` with the leaves, nodes and cuts of each search of ``trace``'s board, the one shown marked;
    then the search without the reduction and the AI's own alpha-beta, when the worker counted them."""
    table.replaceChildren()
    table.appendChild(
        el("caption", "", f"Leaves, nodes and cuts of this tree at depth {trace['depth']}: each search run once")
    )
    head = el("tr")
    head.append(el("th", "", "Search", scope="col"))
    for text, entry in (("Leaves", "leaf"), ("Nodes", "node"), ("Cuts", "cutoff")):
        cell = el("th", "", scope="col")
        word = el("span", "", text)
        mark_term(word, entry)
        cell.appendChild(word)
        head.appendChild(cell)
    table.appendChild(head)
    by_switches = {(v["ordering"], v["pruning"]): v for v in variants}
    shown = (trace["ordering"], trace["pruning"])
    for key, name in VARIANT_NAMES:
        variant = by_switches.get(key)
        if variant is None:
            continue
        row = el("tr", "tw-current" if key == shown or (not key[1] and not shown[1]) else "")
        row.setAttribute("data-variant", f"{'ordered' if key[0] else 'natural'}-{'pruning' if key[1] else 'minimax'}")
        row.append(
            el("th", "", name, scope="row"),
            el("td", "", str(variant["leaves"])),
            el("td", "", str(variant["nodes"])),
            el("td", "", str(variant.get("cuts", 0))),
        )
        table.appendChild(row)
    if unreduced:
        over = unreduced.get("over")
        row = el("tr", "tw-unreduced")
        row.setAttribute("data-variant", "unreduced")
        row.append(
            el("th", "", "The same search, every 2 and 4 in every empty cell (no min-node reduction)", scope="row"),
            el("td", "", f"over {int(over):,}" if over else str(unreduced["leaves"])),
            el("td", "", f"over {int(over):,}" if over else str(unreduced["nodes"])),
            el("td", "", "\u2013" if over else str(unreduced.get("cuts", 0))),
        )
        table.appendChild(row)
    if search:
        row = el("tr", "tw-search")
        row.setAttribute("data-variant", "search")
        row.append(
            el(
                "th",
                "",
                f"The AI\u2019s own alpha-beta, depth {search['depth']} (as the explorer\u2019s Iterations "
                "table counts: cutoffs, nodes without the root)",
                scope="row",
            ),
            el("td", "", "\u2013"),
            el("td", "", str(search["nodes"])),
            el("td", "", str(search["cutoffs"])),
        )
        table.appendChild(row)
    table.hidden = False


def ranks_to_values(ranks: str) -> list[int]:
    """The 16 tile values of a compact board (one hex rank per cell, reading order)."""
    return [1 << int(c, 16) if c != "0" else 0 for c in ranks]


def _board_words(ranks: str) -> str:
    """The board as a screen reader hears it: ``drawing.board_words``, as every small board of the explorer."""
    values = ranks_to_values(ranks)
    return board_words([values[r * 4 : r * 4 + 4] for r in range(4)])
