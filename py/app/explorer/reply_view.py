"""The computer's reply to the chosen move, as a heat map over the empty cells: expectimax's chance node (each
cell's 2 and 4 against the weighted mean) or alpha-beta's placements (each cell's annoyance, the kept ones outlined).

Both draw the board's four rows alike (``_heat_rows``): a tile shows its
value, an empty cell its shade and its figures, with the same words in its
``aria-label`` for a screen reader.  Plain functions returning HTML, every
text escaped; MicroPython runs them in the page.
"""

from html import escape

from app.explorer.drawing import cell_name, signed
from app.explorer.glossary import term
from game2048.values import fixed, format_value

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass


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


def chance_section(chance: dict[str, Any] | None) -> str:
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
            f"{cell_name(index)}: a 2 (probability {fixed(cell['p_two'], 3)}) leaves "
            f"{format_value(cell['two'] - mean)} from the mean, a 4 ({fixed(cell['p_four'], 3)}) "
            f"{format_value(cell['four'] - mean)}"
        )
        return (
            f'<td class="heat heat-{level}" title="{escape(words)}" aria-label="{escape(words)}">'
            f"<span>2: {escape(signed(cell['two'] - mean))}</span>"
            f"<span>4: {escape(signed(cell['four'] - mean))}</span></td>"
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


def placements_section(heat: dict[str, Any] | None) -> str:
    """Alpha-beta's reply after the chosen move: each empty cell's annoyance for a 2 and a 4, the placements the
    min-node reduction keeps outlined and listed."""
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
            f"{cell_name(index)}: a 2 scores {two['annoyance']}"
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
