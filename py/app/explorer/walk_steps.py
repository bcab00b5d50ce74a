"""The walk's steps replayed and put into words: what is known of each node at a step, and the notes on what the
walk shows and at which depth.

A trace (``game2048.search.stepwise``'s ``compact`` form, as the worker sends
it) lists the tree's nodes and the steps that visit them.  ``walk_state``
replays the steps up to one; ``value_text``, ``window_text`` and
``outline_html`` put what is then known into words (a node's value, its
window) or HTML (the tree so far).  The notes say what the walk shows and
why (``algorithm_note``) and at which depth and why (``depth_note``); ``""``
when there is nothing to say.  Plain functions, no DOM, so the tests read
them without a page.
"""

from html import escape

from game2048.values import INFINITY, format_value

try:  # names for annotations only: MicroPython skips annotations and has neither module
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
