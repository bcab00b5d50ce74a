"""The explanation drawn as HTML: its heading and status line, the board it is about, the root moves as bars,
the iterations, the principal variation as small boards, and the whole panel body put together.

``render_explanation`` assembles the parts in their order on the page; the
parts with modules of their own are the why and its terms (``terms_view``),
the computer's reply as a heat map (``reply_view``) and the pruning table
(``pruning_view``).  Plain functions of the worker's explanation, so CPython
tests read them without a browser and the replay draws its own explanations
with them; every text is escaped.
"""

from html import escape

from app.board.mini_board import mini_board
from app.board.view import ARROWS
from app.explorer.drawing import bar_width, signed
from app.explorer.glossary import term
from app.explorer.pruning_view import pruning_section
from app.explorer.reply_view import chance_section, placements_section
from app.explorer.terms_view import patterns_section, why_section
from game2048.values import fixed, format_value

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from typing import Any
except ImportError:
    pass

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


def status_text(explanation: dict[str, Any]) -> str:
    """The status line: the move, its depth, nodes and time, then the explanation's own time."""
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
        chance_section(explanation.get("chance"))
        if decision.get("algorithm") == "expectimax"
        else placements_section(explanation.get("placements")),
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
            text = "best" if gap == 0 else signed(-gap)
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


def _iterations_section(iterations: list[dict[str, Any]]) -> str:
    """The iterative deepening as a table: one row per depth, its own counts, an abandoned depth said so."""
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
    """The principal variation as small boards, the placed tile outlined, and where the line ends."""
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
