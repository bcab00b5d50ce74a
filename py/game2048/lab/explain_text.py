"""``search.explain``'s answer as plain text for the terminal: ``python -m game2048.lab explain --rows ...``.

The same structure the page's explorer draws, read by a person at a prompt:
the root moves with their values (exact or bound), one line per iteration,
the principal variation as small boards side by side, the computer's
placements after the chosen move with the reduction's counts, and pruning.
"""

from __future__ import annotations

from typing import Any

from ..values import format_value

BOARDS_PER_ROW = 4
"""Principal-variation boards printed side by side (each is 25 characters wide)."""


def format_explanation(explanation: dict[str, Any]) -> str:
    """Every part of the explanation, as lines of text."""
    decision = explanation["decision"]
    lines = [_board_lines(explanation["rows"], "position"), ""]
    lines.append(
        f"{decision['algorithm']} ({decision['preset']}): {decision['move'] or 'no move (lost)'}, "
        f"depth {decision['depth']}, {decision['nodes']:,} nodes in {decision['elapsed_ms']:.1f} ms"
        + (" (rescue search against 2s: the full search proved a loss)" if decision.get("rescued") else "")
    )
    lines += ["", "root moves"]
    for entry in explanation["root"]:
        if not entry["legal"]:
            lines.append(f"  {entry['move']:<6} illegal")
            continue
        kind = "exact" if entry["exact"] else f"{entry['bound']} bound, ≤"
        if entry["exact"] and entry["source"] == "exact_root":
            kind = "exact (searched again)"
        mark = "  <- chosen" if entry["chosen"] else ""
        lines.append(f"  {entry['move']:<6} {kind:<22} {format_value(entry['value'])}{mark}")
    lines += ["", "iterations", "  depth  move   value                nodes   cutoffs  table hits      ms"]
    for it in explanation["iterations"]:
        if it["completed"]:
            lines.append(
                f"  {it['depth']:>5}  {it['move']:<6} {format_value(it['value']):<18} {it['nodes']:>7,} "
                f"{it['cutoffs']:>9,} {it['table_hits']:>11,} {it['elapsed_ms']:>7.1f}"
            )
        else:
            lines.append(
                f"  {it['depth']:>5}  abandoned at the deadline{'':<1} {it['nodes']:>7,} {it['cutoffs']:>9,} "
                f"{it['table_hits']:>11,} {it['elapsed_ms']:>7.1f}"
            )
    pv = explanation.get("pv")
    if pv:
        lines += ["", f"principal variation ({len(pv['plies'])} plies, ends: {pv['end']})"]
        plies = pv["plies"]
        for start in range(0, len(plies), BOARDS_PER_ROW):
            lines.append(_side_by_side(plies[start : start + BOARDS_PER_ROW], start))
    heat = explanation.get("placements")
    if heat:
        verb = "keeps" if heat["reduction_used"] else "would keep (expectimax averages over all of them)"
        lines += [
            "",
            f"placements after {heat['move']}: the reduction {verb} {heat['kept']} of {heat['possible']}",
            "  annoyance (−smoothness + islands) of a 2 / a 4 in each empty cell, * = kept:",
        ]
        lines += _heat_lines(heat)
    pruning = explanation.get("pruning")
    if pruning:
        lines += ["", *_pruning_lines(pruning)]
    unfinished = explanation.get("analysis", {}).get("unfinished") or {}
    if unfinished:
        lines += ["", "cut short by the explanation's budget:"]
        lines += [f"  {part}: {why}" for part, why in unfinished.items()]
    return "\n".join(lines)


def _board_lines(rows: list[list[int]], title: str) -> str:
    return "\n".join([title, *(" ".join(f"{v or '.':>5}" for v in row) for row in rows)])


def _side_by_side(plies: list[dict[str, Any]], first: int) -> str:
    width = 25
    titles = [f"{first + i + 1}. {p['label']}"[:width] for i, p in enumerate(plies)]
    out = ["  ".join(f"{t:<{width}}" for t in titles)]
    for r in range(4):
        out.append("  ".join(f"{' '.join(f'{v or chr(46):>5}' for v in p['rows'][r]):<{width}}" for p in plies))
    return "\n".join(out)


def _heat_lines(heat: dict[str, Any]) -> list[str]:
    cells: dict[int, dict[int, dict[str, Any]]] = {}
    for c in heat["cells"]:
        cells.setdefault(c["cell"], {})[c["tile"]] = c
    out = []
    for r in range(4):
        parts = []
        for col in range(4):
            cell = cells.get(4 * r + col)
            if cell is None:
                parts.append(f"{heat['rows'][r][col]:>9}")
                continue
            two, four = cell[2], cell[4]
            two_text = f"{two['annoyance']:>3}{'*' if two['kept'] else ' '}"
            parts.append(f"{two_text}/{four['annoyance']:<3}{'*' if four['kept'] else ' '}")
        out.append("  " + " ".join(parts))
    return out


def _pruning_lines(pruning: dict[str, Any]) -> list[str]:
    depth = pruning["depth"]
    minimax = pruning["minimax_nodes"]
    how = "exact" if pruning["minimax_exact"] else f"estimate from depth {pruning['minimax_counted_depth']}"
    lines = [f"pruning at depth {depth}"]
    lines.append(f"  alpha-beta, last iteration: {pruning['search_nodes']:,} nodes")
    if minimax:
        share = 100 * pruning["search_nodes"] / minimax
        lines.append(f"  plain minimax on the same tree: {minimax:,} nodes ({how}); alpha-beta visits {share:.1f} %")
    for key, name in (("without_table", "transposition table"), ("without_ordering", "move ordering")):
        compared = pruning.get(key)
        if compared:
            saved = compared["without"] - compared["with"]
            lines.append(
                f"  without the {name} (depths 1..{compared['depth']}): {compared['without']:,} nodes "
                f"against {compared['with']:,}, {saved:+,} saved"
            )
    return lines
