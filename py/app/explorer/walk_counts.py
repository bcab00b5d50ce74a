"""The walk's counts: the table of each search's leaves, nodes and cuts on the walk's board, and the note on how
they compare with the AI's own search (the explorer's Iterations table).

``draw_counts`` fills the table element the view made (``WalkView.counts``);
``counts_note`` is a plain function of the counts, ``""`` when there is
nothing to compare.
"""

from app.explorer.glossary import mark_term

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

VARIANT_NAMES = (
    ((True, True), "Alpha-beta, moves ordered"),
    ((False, True), "Alpha-beta, natural order"),
    ((False, False), "Minimax (no pruning)"),
)
"""The table's rows in their order: (move ordering, pruning) and the search's name."""


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
