"""The explorer's terms in CPython: each as weight × the raw value read from the board, the network's heat map
captioned with what it shows, and its total tied to the move's value."""

from __future__ import annotations

import re

from test_app_explanation_view import Checker

from app.explorer.explanation_view import render_explanation
from game2048 import board as B
from game2048.search import explain

ISSUE_ROWS = [[0, 0, 2, 2], [0, 4, 8, 16], [2, 8, 32, 64], [4, 16, 128, 256]]


def _cells(html: str, name: str) -> list[dict[str, str]]:
    """The two term cells (chosen move, runner-up) of the terms table's row ``name``."""
    row = re.search(rf"<tr><th scope=\"row\">(?:(?!</th>).)*>{re.escape(name)}</span></th>(.*?)</tr>", html)
    assert row, name
    return [
        {"raw": raw, "weight": weight, "text": re.sub(r"<[^>]+>", "", text)}
        for raw, weight, text in re.findall(
            r'<td class="term-cell" data-raw="([^"]+)" data-weight="([^"]+)"[^>]*>(.*?)</td>', row.group(1)
        )
    ]


def test_each_term_is_drawn_as_weight_times_the_count_of_the_board_drawn_beside_it() -> None:
    explanation = explain(B.from_rows(ISSUE_ROWS), depth=5, exact_root=True, analysis_ms=10_000)
    why = explanation["why"]
    html = render_explanation(explanation)
    empty = _cells(html, "empty cells")
    assert len(empty) == 2
    for cell, line in zip(empty, (why["chosen"], why["runner_up"]), strict=True):
        count = B.count_empty(B.from_rows(line["rows"]))  # the end board drawn above the table
        assert float(cell["raw"]) == count and float(cell["weight"]) == 2.7
        assert cell["text"].startswith(f"2.7 \u00d7 ln({count} empty cells) = ")
    largest = _cells(html, "largest tile")
    assert [float(c["raw"]) for c in largest] == [
        B.max_rank(B.from_rows(line["rows"])) for line in (why["chosen"], why["runner_up"])
    ]
    smooth = _cells(html, "smoothness")[0]
    assert smooth["text"].startswith("0.1 \u00d7 \u2212") and "rank steps between neighbours = \u2212" in smooth["text"]
    # The foot adds the terms up: the evaluation of each end board.
    total = sum(value for _, value in why["chosen"]["terms"])
    assert re.search(r'<td id="explorer-terms-sum">([^<]+)</td>', html).group(1) == _value(total)
    checker = Checker()
    checker.feed(html)
    assert checker.open == []


def _value(value: float) -> str:
    from app.explorer.drawing import number

    return number(value)


def test_expectimax_s_terms_are_weights_times_averages() -> None:
    explanation = explain(B.from_rows(ISSUE_ROWS), depth=3, algorithm="expectimax", preset="classic")
    html = render_explanation(explanation)
    cell = _cells(html, "empty cells")[0]
    assert ", the average ln(empty cells) (" in cell["text"] and "empty cells on average)" in cell["text"]
    assert "The expected evaluation (their sum)" in html


def test_a_formula_says_a_full_board_s_half_cell_and_a_negative_weight() -> None:
    from app.explorer.terms_view import term_formula

    full = {"weight": 2.7, "raw": 0.0, "unit": "empty cells", "form": "ln", "factor": -0.693, "expected": False}
    assert term_formula(full) == "2.7 \u00d7 ln(0 empty cells, counted as \u00bd)"
    mono = {"weight": -47.0, "raw": 1234.6, "unit": "steps", "form": "", "factor": 1234.6, "expected": False}
    assert term_formula(mono) == "\u221247 \u00d7 1235 steps"
    lost = {"weight": -1e9, "raw": 0.25, "unit": "probability of a lost board", "form": "", "factor": 0.25}
    assert term_formula({**lost, "expected": True}) == "\u22121000M \u00d7 0.25, the probability of a lost board"


def test_the_network_s_heat_map_says_what_a_share_is_and_ties_its_total_to_the_move_s_value() -> None:
    from test_ntuple import NETWORK

    from game2048.evaluation import learned

    learned.install(NETWORK)
    try:
        explanation = explain(B.from_rows(ISSUE_ROWS), depth=3, preset="learned", exact_root=True, analysis_ms=10_000)
    finally:
        learned.install(None)
    html = render_explanation(explanation)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    assert "weigh most" not in text  # the old caption, which the picture contradicted
    reads = explanation["patterns"]["reads"]
    assert f"from \u00d7{min(reads)} to \u00d7{max(reads)} here" in text
    assert "a share says where the value is read, not what one tile is worth" in text
    assert 'aria-describedby="gloss-cell-share"' in html
    assert html.count('class="pattern-reads"') == 16
    move = explanation["decision"]["move"]
    chosen = next(e for e in explanation["root"] if e["chosen"])
    totals = re.search(r'id="explorer-patterns-totals">(.*?)</p>', html).group(1)
    totals = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", totals))
    assert f"The search valued {move} at {_value(chosen['value'])}" in totals
    assert f"evaluation is {_value(explanation['patterns']['evaluation'])}" in totals
    assert "2 more moves and tiles on (at the end of the line it expects)" in totals
