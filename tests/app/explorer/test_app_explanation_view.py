"""The explanation drawn as HTML in CPython: every part of a real explanation, well formed and escaped, its
heading, its board, the parts cut short, the status line."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from app.explorer.explanation_view import explanation_heading, render_explanation, status_text, team_note
from game2048.board import from_rows
from game2048.search import explain

ROWS = [[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]]


class Checker(HTMLParser):
    """Counts the open and closed tags: the drawing is well formed."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open.pop() == tag

    def handle_data(self, data):
        self.texts.append(data)


def test_the_drawing_shows_every_part_of_a_real_explanation_and_is_well_formed() -> None:
    explanation = explain(from_rows(ROWS), depth=4, rescue=False, analysis_ms=10_000)
    html = render_explanation(explanation)
    checker = Checker()
    checker.feed(html)
    assert checker.open == []
    text = " ".join(checker.texts)
    for heading in ("Root moves", "Iterations", "Principal variation", "Pruning"):
        assert heading in text
    assert html.count('<li class="root-move') == 4
    assert html.count('class="pv-ply') == len(explanation["pv"]["plies"]) == 7
    bounds = [e for e in explanation["root"] if e["legal"] and not e["exact"]]
    assert html.count("\u2264 ") == len(bounds) and ("Exact values" in html) == bool(bounds)
    heat = explanation["placements"]
    assert f"{heat['kept']} of {heat['possible']}" in text
    # The heat map's text equivalent: every empty cell says both scores in words.
    assert len(re.findall(r'aria-label="row \d, column \d: a 2 scores -?\d+', html)) == heat["possible"] // 2
    assert "exact" in text and "alpha-beta visits" in text
    assert status_text(explanation).startswith(f"{explanation['decision']['move']} at depth 4")


def test_expectimax_says_it_does_not_prune() -> None:
    html = render_explanation(explain(from_rows(ROWS), depth=2, algorithm="expectimax", analysis_ms=1000))
    assert "Expectimax does not prune" in html and "Exact values" not in html
    # Its chance node, not the min-node reduction's heat map (which expectimax does not use).
    assert 'id="explorer-chance"' in html and 'id="explorer-heat"' not in html and "would keep" not in html


def test_labels_are_escaped() -> None:
    explanation = explain(from_rows(ROWS), depth=2, rescue=False, analysis_ms=1000)
    explanation["analysis"]["unfinished"] = {"<pv>": "a <b>reason</b>"}
    assert "<pv>" not in render_explanation(explanation) and "&lt;pv&gt;" in render_explanation(explanation)


def test_the_parts_cut_short_are_listed_in_a_fixed_order_whatever_the_answers_order() -> None:
    explanation = explain(from_rows(ROWS), depth=2, rescue=False, analysis_ms=1000)
    explanation["analysis"]["unfinished"] = {"zz": "?", "without_ordering": "time", "pv": "time", "exact_root": "time"}
    html = render_explanation(explanation)
    names = ("Exact values:", "Principal variation:", "Without the move ordering:", "zz:")
    assert [html.index(name) for name in names] == sorted(html.index(name) for name in names)


def test_the_learned_patterns_draw_as_a_heat_map_with_words_for_each_cell() -> None:
    from test_ntuple import NETWORK

    from game2048.evaluation import learned

    learned.install(NETWORK)
    try:
        explanation = explain(
            from_rows([[0, 2, 4, 8], [0, 0, 2, 16], [0, 0, 0, 4], [0, 0, 0, 2]]), depth=1, preset="learned"
        )
    finally:
        learned.install(None)
    html = render_explanation(explanation)
    assert 'id="explorer-patterns"' in html and "What the network sees after" in html
    assert html.count('class="heat heat-') >= 16 and "row 4, column 4" in html
    assert "The patterns that add most" in html
    assert 'id="explorer-patterns"' not in render_explanation(
        explain(from_rows([[2, 2, 0, 0]] + [[0] * 4] * 3), depth=1)
    )


def test_every_explanation_starts_with_the_board_it_explains_and_the_chosen_moves_arrow() -> None:
    explanation = explain(from_rows(ROWS), depth=3, analysis_ms=1000)
    html = render_explanation(explanation)
    assert html.index('id="explorer-board"') < html.index('id="explorer-root"')
    assert 'data-rows="2,4,8,0/0,2,0,0/4,0,0,16/2,0,0,2"' in html
    arrow = {"up": "\u2191", "right": "\u2192", "down": "\u2193", "left": "\u2190"}[explanation["decision"]["move"]]
    assert f'<span class="explained-arrow" aria-hidden="true">{arrow}</span>' in html
    assert "digits-2" in html  # the 16: small boards size each number by its digits


def test_the_status_says_when_one_of_several_workers_searched_the_explained_decision():
    assert team_note(1, "expectimax") == "" and team_note(3, "alphabeta") == ""
    assert "among 3 workers" in team_note(3, "expectimax") and "One worker searched" in team_note(3, "expectimax")


def test_the_explanation_is_headed_by_the_move_and_the_search_that_chose_it():
    """Issue 54: two explanations of one board, by alpha-beta and expectimax, said neither search nor preset."""
    board = from_rows([[0, 0, 2, 2], [0, 4, 8, 16], [2, 8, 32, 64], [4, 16, 128, 256]])
    for algorithm, preset in (("alphabeta", "classic"), ("expectimax", "rows")):
        explanation = explain(board, depth=2, algorithm=algorithm, preset=preset, analysis_ms=1000)
        move = explanation["decision"]["move"]
        heading = (
            f"Why {move} \u2014 {'alpha-beta' if algorithm == 'alphabeta' else algorithm}, preset {preset}, depth 2"
        )
        html = render_explanation(explanation)
        assert f'<h3 id="explorer-title" class="explorer-title">{heading}</h3>' in html
        assert html.index('id="explorer-title"') < html.index('id="explorer-board"')
    lost = {"move": None, "algorithm": "alphabeta", "preset": "classic", "depth": 0}
    assert explanation_heading(lost) == "No legal move \u2014 alpha-beta, preset classic"
    rescued = {"move": "up", "algorithm": "alphabeta", "preset": "<b>", "depth": 7, "rescued": True}
    assert explanation_heading(rescued).endswith("preset <b>, depth 7, vs 2s")
    assert "&lt;b&gt;" in render_explanation(dict(explanation, decision=dict(explanation["decision"], preset="<b>")))
