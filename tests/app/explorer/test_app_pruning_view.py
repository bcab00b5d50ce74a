"""The explorer's pruning table in CPython: it says at which depths it compared, and the saving at the deepest."""

from __future__ import annotations

import re

from app.explorer.explanation_view import render_explanation
from game2048 import board as B
from game2048.search import explain


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _iterations(hits: list[int]) -> list[dict]:
    return [{"depth": d, "completed": True, "table_hits": h} for d, h in enumerate(hits, 1)]


def test_a_comparison_cut_short_says_its_depths_and_why_the_table_saved_nothing_there() -> None:
    from app.explorer.pruning_view import pruning_section

    nodes = [3, 14, 47, 160]
    compared = {
        "depth": 4,
        "searched": 8,
        "with": sum(nodes),
        "without": sum(nodes),
        "at_depth": [160, 160],
        "by_depth": [[d, n, n] for d, n in enumerate(nodes, 1)],
    }
    pruning = {
        "depth": 8,
        "search_nodes": 15957,
        "minimax_nodes": None,
        "without_table": compared,
        "without_ordering": {
            **compared,
            "at_depth": [160, 150],
            "by_depth": [*compared["by_depth"][:3], [4, 160, 150]],
        },
    }
    text = _text(pruning_section(pruning, "alphabeta", _iterations([0, 0, 0, 0, 0, 3, 17, 77])))
    assert "compared at depths 1\u20134 (the search reached 8; the explanation\u2019s time allowed no deeper" in text
    assert "At depth 4 alone: 160 without it, 160 with it: saves nothing at this depth: the search first met a " in text
    assert "board twice at depth 6 (Table hits, in Iterations)" in text
    assert "At depth 4 alone: 150 without it, 160 with it: costs 10 (7 %)." in text
    assert "Saving by depth" in text and "depth 4: \u22127 %" in text


def test_a_full_comparison_says_the_saving_at_the_search_s_own_depth_and_how_it_grew() -> None:
    board = B.from_rows([[0, 0, 2, 2], [0, 4, 8, 16], [2, 8, 32, 64], [4, 16, 128, 256]])
    explanation = explain(board, depth=8, rescue=False, analysis_ms=600_000)
    text = _text(render_explanation(explanation))
    table = explanation["pruning"]["without_table"]
    with_8, without_8 = table["at_depth"]
    assert without_8 > with_8  # at depth 8 the table saves nodes on this board
    assert f"compared at depths 1\u20138. At depth 8 alone: {without_8:,} without it, {with_8:,} with it: saves" in text
    assert "Saving by depth: depth 5: " in text
