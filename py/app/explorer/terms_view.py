"""The explorer's evaluation, term by term: "Why this move" (the terms of the chosen move's line beside the
runner-up's) and, for the learned network, its heat map of cell shares and its patterns drawn.

Every term is shown as its weight times the raw value read from the board,
with its unit, and their product ("empty cells: 2.7 × ln(7 empty cells) =
5.254"), so a person can rebuild each cell of the table from the board drawn
beside it; the table's last row adds the terms up to the evaluation.  The
network's heat map says what it shows (each weight shared among the cells
its pattern reads, so a cell read by more patterns collects more) and how its
total relates to the move's value in the why table.  Plain functions returning
HTML, every text escaped; MicroPython runs them in the page.
"""

from html import escape

from app.board.mini_board import mini_board
from app.explorer.drawing import cell_name, number, signed
from app.explorer.glossary import term, word_term

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from typing import Any
except ImportError:
    pass

HALF = "\u00bd"


def why_section(
    why: "dict[str, Any] | None",
    algorithm: Any,
    bounds: bool = False,
    ran_out: bool = False,
    shapes: "list[list[int]] | None" = None,
) -> str:
    """The chosen move's line beside the runner-up's: each term of the evaluation at their ends, and what decides.

    With only bounds for the other moves (alpha-beta, the box unticked or out of time) there is no runner-up's
    value to compare with: the section says so, and how to get one.  ``shapes`` (the learned network's
    patterns' cells) draws each pattern where it is named.
    """
    if not why and algorithm == "expectimax" and ran_out:
        return (
            '<section class="explorer-part" aria-labelledby="explorer-why-title">'
            '<h3 id="explorer-why-title">Why this move</h3>'
            '<p class="explorer-why" id="explorer-why">The explanation\u2019s time ran out before each term\u2019s '
            "expectation over the tiles was added up: a longer think time gives the explanation more.</p></section>"
        )
    if not why and bounds and algorithm == "alphabeta":
        return (
            '<section class="explorer-part" aria-labelledby="explorer-why-title">'
            '<h3 id="explorer-why-title">Why this move</h3>'
            '<p class="explorer-why" id="explorer-why">Every other move was only proved no better than this one '
            f"(a {term('bound', 'bound')}), so there is no runner-up\u2019s value to compare it with: tick "
            "\u201cExact value for every move\u201d, or press Exact values, to see the runner-up term by term.</p>"
            "</section>"
        )
    if not why:
        return ""
    if why.get("kind") == "expected":
        return expected_why_section(why, shapes)
    mine, theirs = why["chosen"], why["runner_up"]
    a, b = escape(str(mine["move"])), escape(str(theirs["move"]))
    deciding = why.get("deciding")
    margin = escape(number(why["margin"]))
    if why["margin"] == 0:
        sentence = f"<strong>{a}</strong> and {b} are worth the same: the search plays the first it tried"
    elif deciding and deciding[1] > 0:
        sentence = (
            f"<strong>{a}</strong> over {b}: at the end of its line, {term_words(str(deciding[0]), shapes)} "
            f"<strong>{escape(signed(deciding[1]))}</strong> decides most"
        )
    else:
        sentence = f"<strong>{a}</strong> over {b}: no single term favours {a} at the lines\u2019 ends"
    how = "an expectation over the tiles" if algorithm == "expectimax" else "the minimax value of the line"
    return (
        '<section class="explorer-part" aria-labelledby="explorer-why-title">'
        '<h3 id="explorer-why-title">Why this move</h3>'
        f'<p class="explorer-why" id="explorer-why">{sentence}; the moves\u2019 values differ by {margin} '
        f"({how}).</p>"
        '<div class="lines-compared">'
        f"{mini_board(mine['rows'], None, 'End of the line after ' + str(mine['move']))}"
        f"{mini_board(theirs['rows'], None, 'End of the line after ' + str(theirs['move']))}</div>"
        f'<p class="explorer-note">Each term is its {term("weight", "weight")} times a number read from the '
        "board at the end of the line (drawn above), in its unit; the terms add up to the board\u2019s "
        f"{term('evaluation', 'evaluation')}.</p>"
        '<div class="table-scroll"><table class="terms" id="explorer-terms">'
        f"<caption>The {term('evaluation', 'evaluation')} of the board at the end of each line, term by term"
        "</caption>"
        f'<thead><tr><th scope="col">Term</th><th scope="col">{a}</th><th scope="col">{b}</th>'
        f'<th scope="col">{a} \u2212 {b}</th></tr></thead>'
        f"<tbody>{''.join(term_rows(why, shapes))}</tbody>"
        f"{_sum_row(why, 'The evaluation (their sum)')}</table></div></section>"
    )


def term_rows(why: "dict[str, Any]", shapes: "list[list[int]] | None" = None) -> "list[str]":
    """The terms table's rows: each term for the chosen move and the runner-up as weight × raw value = product
    (the raw value read from the board, in its unit), and their difference."""
    mine, theirs = why["chosen"], why["runner_up"]
    parts_a = mine.get("weighted") or [None] * len(mine["terms"])
    parts_b = theirs.get("weighted") or [None] * len(theirs["terms"])
    rows = []
    for (name, x), (_, y), (_, d), part_a, part_b in zip(
        mine["terms"], theirs["terms"], why["differences"], parts_a, parts_b
    ):
        cells = term_cell(part_a, x, str(name), str(mine["move"]))
        cells += term_cell(part_b, y, str(name), str(theirs["move"]))
        rows.append(f'<tr><th scope="row">{term_words(str(name), shapes)}</th>{cells}<td>{escape(signed(d))}</td></tr>')
    return rows


def _sum_row(why: "dict[str, Any]", label: str) -> str:
    """The table's foot: the terms of each line added up (the evaluation, or its expectation), and the difference."""
    x = sum(float(v) for _, v in why["chosen"]["terms"])
    y = sum(float(v) for _, v in why["runner_up"]["terms"])
    return (
        f'<tfoot><tr class="terms-sum"><th scope="row">{escape(label)}</th>'
        f'<td id="explorer-terms-sum">{escape(number(x))}</td><td>{escape(number(y))}</td>'
        f"<td>{escape(signed(x - y))}</td></tr></tfoot>"
    )


def term_formula(part: "dict[str, Any]") -> str:
    """A term as its weight times what it counts, in words: "2.7 × ln(7 empty cells)", "0.1 × −26 rank steps
    between neighbours"; an expected term (expectimax) is its weight times the average over the tiles."""
    weight = number(float(part["weight"]))
    unit = str(part["unit"])
    form = str(part.get("form") or "")
    raw = float(part["raw"])
    if part.get("expected"):
        factor = number(float(part["factor"]))
        if unit.startswith("probability"):
            return f"{weight} \u00d7 {factor}, the {unit}"
        if form:
            return f"{weight} \u00d7 {factor}, the average {form}({unit}) ({number(raw)} {unit} on average)"
        return f"{weight} \u00d7 {factor} {unit} on average"
    if form:
        counted = f"{number(raw)} {unit}" if raw else f"0 {unit}, counted as {HALF}"
        return f"{weight} \u00d7 {form}({counted})"
    return f"{weight} \u00d7 {number(raw)} {unit}"


def term_cell(part: "dict[str, Any] | None", value: float, name: str, move: str) -> str:
    """One term of one line: its weight × raw value (with its unit) = its value; the raw value and the weight
    are also the cell's data (``data-raw``, ``data-weight``)."""
    shown = escape(number(value))
    if part is None:
        return f"<td>{shown}</td>"
    formula = term_formula(part)
    said = f"{name} after {move}: {formula} = {number(value)}"
    return (
        f'<td class="term-cell" data-raw="{escape(str(part["raw"]))}" data-weight="{escape(str(part["weight"]))}" '
        f'title="{escape(said)}"><span class="term-formula">{escape(formula)}</span> '
        f'<span class="term-value">= {shown}</span></td>'
    )


def term_words(name: str, shapes: "list[list[int]] | None" = None) -> str:
    """A term's name as the explorer shows it: its glossary meaning on hover and focus, and a learned pattern
    ("pattern 3") drawn beside its number when ``shapes`` holds the patterns' cells."""
    key = word_term(name)
    words = term(key, name) if key is not None else escape(name)
    if name.startswith("pattern ") and shapes:
        number = int(name.split(" ")[1])
        if 1 <= number <= len(shapes):
            return pattern_glyph(number, shapes[number - 1]) + words
    return words


def pattern_glyph(number: int, cells: "list[int]") -> str:
    """A learned pattern drawn: the board's 16 cells with the pattern's filled, and its number."""
    on = set(int(c) for c in cells)
    grid = "".join(f'<span class="pg-cell{" pg-on" if i in on else ""}"></span>' for i in range(16))
    words = escape(f"pattern {number}: {pattern_cells([int(c) for c in cells])}")
    return (
        f'<span class="pattern-glyph" role="img" aria-label="{words}" title="{words}" data-pattern="{number}">'
        f'<span class="pg-grid">{grid}</span><span class="pg-number" aria-hidden="true">{number}</span></span>'
    )


def pattern_cells(cells: "list[int]") -> str:
    """A pattern's cells for a person, row by row: "row 4: columns 1, 2, 3; row 3: columns 1, 2"."""
    rows: list[int] = []
    columns: dict[int, list[int]] = {}
    for cell in cells:
        row = cell // 4 + 1
        if row not in columns:
            rows.append(row)
            columns[row] = []
        columns[row].append(cell % 4 + 1)
    return "; ".join(
        f"row {row}: column{'s' if len(columns[row]) > 1 else ''} {', '.join(str(c) for c in columns[row])}"
        for row in rows
    )


def expected_why_section(why: "dict[str, Any]", shapes: "list[list[int]] | None" = None) -> str:
    """Expectimax's why: each term's expectation over the tiles at the horizon, for both moves, and which decides.

    The expected terms add up to each move's value, so the difference splits
    into the terms' differences: the deciding term is the one with the largest
    share, and the terms that favour the other move are named against it.
    """
    mine, theirs = why["chosen"], why["runner_up"]
    a, b = escape(str(mine["move"])), escape(str(theirs["move"]))
    deciding, margin = why.get("deciding"), float(why["margin"])
    against = why.get("against") or []
    if margin == 0:
        sentence = f"<strong>{a}</strong> and {b} are worth the same: the search plays the first it tried"
    elif deciding and deciding[1] > 0:
        share = why.get("share")
        part = (
            f"{round(100 * share)} % of the difference"
            if share is not None and share <= 1
            else "more than the whole difference"
        )
        sentence = (
            f"<strong>{a}</strong> over {b}: {term_words(str(deciding[0]), shapes)} decides most, "
            f"<strong>{escape(signed(deciding[1]))}</strong> in expectation ({part}, "
            f"{escape(number(margin))})"
        )
        if against:
            named = ", ".join(f"{term_words(str(n), shapes)} {escape(signed(d))}" for n, d in against)
            sentence += f"; against it: {named}"
    else:
        sentence = f"<strong>{a}</strong> over {b}: no single term favours {a} in expectation"
    horizon = f"{term('horizon', 'horizon')} (depth {int(why.get('depth') or 0)})"
    exactness = (
        "they add up to each move\u2019s value"
        if why.get("exact")
        else "they add up to each move\u2019s value but for values the search reused from its cache"
    )
    return (
        '<section class="explorer-part" aria-labelledby="explorer-why-title">'
        '<h3 id="explorer-why-title">Why this move</h3>'
        f'<p class="explorer-why" id="explorer-why">{sentence}.</p>'
        f'<p class="explorer-note">Expectimax scores a move by the average, over every tile the game may place '
        f"(each with its probability), of the {term('evaluation', 'evaluation')} at the {horizon}, the best move "
        f"taken at each turn; each term below is that average for one term of the evaluation, its "
        f"{term('weight', 'weight')} times the average of what it counts, and {exactness}.</p>"
        '<div class="table-scroll"><table class="terms" id="explorer-terms">'
        "<caption>Each term of the evaluation, expected at the horizon after each move</caption>"
        f'<thead><tr><th scope="col">Term</th><th scope="col">{a}</th><th scope="col">{b}</th>'
        f'<th scope="col">{a} \u2212 {b}</th></tr></thead>'
        f"<tbody>{''.join(term_rows(why, shapes))}</tbody>"
        f"{_sum_row(why, 'The expected evaluation (their sum)')}</table></div></section>"
    )


def patterns_section(patterns: "dict[str, Any] | None", explanation: "dict[str, Any] | None" = None) -> str:
    """The learned evaluation's view of the chosen move's afterstate: each cell's share of the network's value.

    The caption says what a share is (each looked-up weight split equally
    among the cells its pattern's image reads, so a cell read by more images
    collects more), and a sentence ties this board's total to the move's value
    in the why table (``explanation``'s root and depth): a later board's.
    """
    if not patterns:
        return ""
    shares = [float(v) for v in patterns["cells"]]
    reads = [int(n) for n in (patterns.get("reads") or [])]
    low, high = min(shares), max(shares)
    rows = []
    for r in range(4):
        cells = []
        for col in range(4):
            index = 4 * r + col
            share = shares[index]
            tile = int(patterns["rows"][r][col])
            level = 0 if high == low else round(4 * (share - low) / (high - low))
            read = f", read by {reads[index]} pattern images" if reads else ""
            words = f"{cell_name(index)}, {'tile ' + str(tile) if tile else 'empty'}{read}: adds {number(share)}"
            count = f'<span class="pattern-reads">\u00d7{reads[index]}</span>' if reads else ""
            cells.append(
                f'<td class="heat heat-{level}" title="{escape(words)}" aria-label="{escape(words)}">'
                f'<span class="pattern-tile">{tile or ""}</span><span>{escape(number(share))}</span>'
                f"{count}</td>"
            )
        rows.append(f"<tr>{''.join(cells)}</tr>")
    shapes = patterns.get("shapes") or []
    top = "".join(f"<li>{top_pattern(p, shapes)}: {escape(number(float(p['value'])))}</li>" for p in patterns["top"])
    drawn = "".join(
        f"<li>{pattern_glyph(number, cells)}pattern {number}</li>" for number, cells in enumerate(shapes, 1)
    )
    network = term("n-tuple-network", "network")
    share_word = term("cell-share", "a cell\u2019s share")
    images = sum(reads) // len(shapes[0]) if reads and shapes and shapes[0] else 0
    if reads and images:
        caption = (
            f"Each cell\u2019s share of the network\u2019s value: each of the {images} weights it looked up "
            f"({len(shapes)} patterns \u00d7 {images // len(shapes)} images) is split equally among the "
            f"{len(shapes[0])} cells its image reads. A cell read by more images collects more, whether it holds a "
            f"tile or is empty (from \u00d7{min(reads)} to \u00d7{max(reads)} here: the small number in each "
            f"cell), so a share says where the value is read, not what one tile is worth; darker adds more "
            f"({share_word})"
        )
    else:
        caption = (
            "Each cell\u2019s share of the network\u2019s value (every pattern\u2019s weight shared among its "
            f"cells); darker adds more ({share_word})"
        )
    return (
        '<section class="explorer-part" aria-labelledby="explorer-patterns-title">'
        f'<h3 id="explorer-patterns-title">What the network sees after {escape(str(patterns["move"]))}</h3>'
        f'<p class="explorer-note" id="explorer-patterns-sum">Its patterns expect '
        f"<strong>{escape(number(float(patterns['value'])))}</strong> more points; the tiles are worth "
        f"{escape(number(float(patterns['tiles'])))} already.</p>"
        f"{_totals_note(patterns, explanation)}"
        f'<p class="explorer-note">The {network} reads {len(shapes) or "its"} {term("pattern", "patterns")} of '
        f"cells, each on the board and its 7 rotations and mirror images; the tiles a pattern sees pick one "
        f"learned {term('network-weight', 'weight')}, and the weights add up to its value.</p>"
        f'<ul class="pattern-list" id="explorer-pattern-shapes" aria-label="The network’s patterns">{drawn}</ul>'
        f'<table class="heat-map" id="explorer-patterns"><caption>{caption}</caption>'
        f"<tbody>{''.join(rows)}</tbody></table>"
        f'<p class="explorer-note">The patterns that add most, where they were read:</p>'
        f'<ol class="kept-list" id="explorer-patterns-top">{top}</ol></section>'
    )


def _totals_note(patterns: "dict[str, Any]", explanation: "dict[str, Any] | None") -> str:
    """How this board's total relates to the move's value (the why table's sum): two boards, moves apart."""
    move = escape(str(patterns["move"]))
    evaluation = patterns.get("evaluation")
    said = (
        f"Right after {move}, before the game places its tile, this board\u2019s "
        f"{term('evaluation', 'evaluation')} is <strong>{escape(number(float(evaluation)))}</strong> "
        "(the patterns and the tiles\u2019 points)."
        if evaluation is not None
        else f"This is the board right after {move}, before the game places its tile."
    )
    explanation = explanation or {}
    decision = explanation.get("decision") or {}
    chosen = next((e for e in explanation.get("root") or [] if e.get("move") == patterns["move"]), None)
    depth = int(decision.get("depth") or 0)
    if chosen is not None and chosen.get("value") is not None and depth > 1:
        later = (
            "averaged over the tiles the game may place"
            if decision.get("algorithm") == "expectimax"
            else "at the end of the line it expects"
        )
        split = ", which the why table above splits term by term (its sum)" if explanation.get("why") else ""
        said += (
            f" The search valued {move} at <strong>{escape(number(float(chosen['value'])))}</strong>: the "
            f"evaluation of the boards at its {term('horizon', 'horizon')}, {depth - 1} more "
            f"move{'s' if depth > 2 else ''} and tiles on ({later}){split}. Other boards, so another total."
        )
    return f'<p class="explorer-note" id="explorer-patterns-totals">{said}</p>'


def top_pattern(found: "dict[str, Any]", shapes: "list[list[int]]") -> str:
    """One of the strongest features: its pattern drawn with its number, and the cells it was read on."""
    cells = [int(c) for c in found["cells"]]
    number = int(found.get("number") or 0)
    where = escape(pattern_cells(cells))
    if 1 <= number <= len(shapes):
        return f"{pattern_glyph(number, cells)}pattern {number}, read on {where}"
    return where
