"""The walk's drawing: its controls, created in the empty ``<section id="tree-walk">``, and the tree at a step.

``WalkView`` holds the tree on show (the worker's trace, its counts, the
step ``index``) and draws it: only the path from the root to the current
node and that node's children (or its siblings, for a leaf), so a depth-3
tree of thousands of nodes stays fast.  The step's sentence is drawn inside
the current node, beside its board (the page's small board,
``app.board.mini_board``, heard as every other), and each step keeps that node
in view (the step buttons stick to the top of the walk), after a click too,
when the page has handed the keys back to the board.  ``TreeWalk`` builds on
it; the words come from ``walk_steps``, the counts table from ``walk_counts``.
"""

from app.board.mini_board import mini_board
from app.browser.js_guard import JsCallError, js_call
from app.browser.wiring import Wiring
from app.explorer.glossary import term
from app.explorer.walk_steps import outline_html, value_text, walk_state, window_text

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from typing import Any
except ImportError:
    pass


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

    def _board(self, node: dict[str, Any]) -> Any:
        """A node's board: the explorer's small board, in a box of its own that keeps its size beside the text."""
        box = self._el("div", "tw-board")
        box.innerHTML = mini_board(ranks_to_rows(node["ranks"]), None, board_label(node))
        return box

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
        self.kids_title.textContent = f"{capitalized(parent['label'])}: its {what}, in the order tried"
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
            item.appendChild(self._board(node))
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


def ranks_to_rows(ranks: str) -> list[list[int]]:
    """The four rows of tile values of a compact board (one hex rank per cell, reading order)."""
    values = [1 << int(c, 16) if c != "0" else 0 for c in ranks]
    return [values[r * 4 : r * 4 + 4] for r in range(4)]


def capitalized(label: str) -> str:
    """A node's label (lower case, as the worker writes it) at the start of a sentence: MicroPython's str has no
    ``capitalize``."""
    return f"{label[:1].upper()}{label[1:]}"


def board_label(node: dict[str, Any]) -> str:
    """What a node's board is called before its tiles are read out: "This board" at the root, else "After up"."""
    label = str(node["label"])
    return capitalized(label) if node["parent"] is None else f"After {label}"
