"""The explorer's pruning table: alpha-beta's nodes beside a plain minimax's, and what the transposition table
and the move ordering save.

The two aids are judged by the same deepening with one of them off, in what
is left of the explanation's time, so they are often compared at shallower
depths than the search reached, where they save little: the table says at
which depths it compared, and the saving at the deepest of them, that
depth's own nodes with and without, and how it grew depth by depth; a
saving of nothing says why (no board met twice yet, or no cut to bring
forward).  Plain functions returning HTML; MicroPython runs them in the page.
"""

from app.explorer.glossary import term
from game2048.values import fixed

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from typing import Any
except ImportError:
    pass

GROWTH_DEPTHS = 4
"""How many of the deepest compared depths the row lists, to show the saving growing with depth."""


def pruning_section(pruning: "dict[str, Any] | None", algorithm: Any, iterations: "list[Any] | None" = None) -> str:
    """The table, or why there is none (expectimax does not prune); ``iterations`` (the explanation's) says at
    which depth the search first found a board in its table."""
    if not pruning:
        text = (
            "Expectimax does not prune: it averages over every tile the game may place. Its cutoffs are "
            "unlikely tile sequences and cache hits (see Iterations)."
            if algorithm == "expectimax"
            else "No search to compare."
        )
        return (
            '<section class="explorer-part" aria-labelledby="explorer-pruning-title">'
            f'<h3 id="explorer-pruning-title">Pruning</h3><p class="explorer-note">{text}</p></section>'
        )
    depth = int(pruning["depth"])
    rows = [
        f'<tr><th scope="row">{term("alpha-beta")}, depth {depth} alone</th>'
        f"<td>{int(pruning['search_nodes']):,}</td><td></td></tr>"
    ]
    minimax = pruning.get("minimax_nodes")
    if minimax:
        how = (
            "exact"
            if pruning["minimax_exact"]
            else f"estimate (counted to depth {int(pruning['minimax_counted_depth'])})"
        )
        share = 100 * int(pruning["search_nodes"]) / int(minimax)
        rows.append(
            f'<tr><th scope="row">Plain {term("minimax", "minimax")}, same tree</th><td>{int(minimax):,}</td>'
            f"<td>{how}; alpha-beta visits {fixed(share, 1)} %</td></tr>"
        )
    first_hit = next((int(it["depth"]) for it in iterations or [] if it.get("completed") and it["table_hits"]), None)
    for key, name in (
        ("without_table", term("transposition-table", "transposition table")),
        ("without_ordering", term("move-ordering", "move ordering")),
    ):
        compared = pruning.get(key)
        if compared:
            idle = _table_idle(first_hit, int(compared["depth"])) if key == "without_table" else ""
            rows.append(_aid_row(compared, name, idle, depth))
    return (
        '<section class="explorer-part" aria-labelledby="explorer-pruning-title">'
        '<h3 id="explorer-pruning-title">Pruning</h3><div class="table-scroll">'
        '<table class="pruning" id="explorer-pruning"><caption>Nodes each search visited. Without the table or '
        "the ordering, the same deepening runs again in what is left of the explanation\u2019s time, and is "
        "compared depth by depth at the depths it finished</caption>"
        '<thead><tr><th scope="col">Search</th><th scope="col">Nodes</th><th scope="col">Compared</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div></section>"
    )


def _table_idle(first_hit: "int | None", depth: int) -> str:
    """Why the table saves nothing up to ``depth``, when the search found no board in it there (it saves only
    when the search meets a board again); "" when it did."""
    if first_hit is None:
        return "the search met no board twice at any depth (Table hits, in Iterations)"
    if first_hit > depth:
        return f"the search first met a board twice at depth {first_hit} (Table hits, in Iterations)"
    return ""


def _saving(without: int, with_: int) -> str:
    """What an aid saves: "saves 1,234 (12 %)", "saves nothing", or "costs 56" (switched off, it did better)."""
    saved = without - with_
    if saved == 0:
        return "saves nothing"
    share = f" ({fixed(100 * abs(saved) / without, 0)} %)" if without else ""
    return f"{'saves' if saved > 0 else 'costs'} {abs(saved):,}{share}"


def _aid_row(compared: "dict[str, Any]", name: str, idle: str, searched: int) -> str:
    """One aid's row: compared at depths 1..k, the saving at depth k alone, and how it grew depth by depth."""
    depth = int(compared["depth"])
    by_depth = compared.get("by_depth") or []
    if compared.get("at_depth"):
        with_k, without_k = (int(n) for n in compared["at_depth"])
    else:  # an answer without the per-depth counts: the totals over depths 1..k
        with_k, without_k = int(compared["with"]), int(compared["without"])
    where = f"depths 1\u2013{depth}" if depth > 1 else "depth 1"
    shallower = (
        f" (the search reached {searched}; the explanation\u2019s time allowed no deeper comparison)"
        if depth < searched
        else ""
    )
    text = (
        f"compared at {where}{shallower}. At depth {depth} alone: {without_k:,} without it, {with_k:,} with it: "
        f"{_saving(without_k, with_k)}"
    )
    if without_k == with_k and idle:
        text += f" at this depth: {idle}"
    text += "."
    steps = [step for step in by_depth if int(step[0]) > 1][-GROWTH_DEPTHS:]
    if len(steps) > 1 and any(int(without) != int(with_) for _, with_, without in steps):
        grown = ", ".join(f"depth {int(d)}: {_share(int(without), int(with_))}" for d, with_, without in steps)
        text += f" Saving by depth: {grown}."
    total = f" Over {where}: {int(compared['without']):,} against {int(compared['with']):,}." if depth > 1 else ""
    return (
        f'<tr data-compared-depth="{depth}"><th scope="row">Without the {name}</th><td>{without_k:,}</td>'
        f"<td>{text}{total}</td></tr>"
    )


def _share(without: int, with_: int) -> str:
    """A saving as a signed share of the nodes without the aid: "+12 %", "0 %", "−3 %"."""
    if not without or without == with_:
        return "0 %"
    value = 100 * (without - with_) / without
    return ("+" if value > 0 else "\u2212") + fixed(abs(value), 0) + " %"
