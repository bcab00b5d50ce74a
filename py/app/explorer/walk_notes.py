"""The sentences beside the walk's tree: what it shows and why, at which depth and why, how its counts compare.

Plain functions of the worker's answer (and the AI's algorithm), so the
tests read them without a page; ``""`` when there is nothing to say.
"""

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from typing import Any
except ImportError:
    pass


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
