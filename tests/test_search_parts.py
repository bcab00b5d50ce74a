"""One expectimax decision shared among workers: the moves dealt, each part's search, and the merged decision.

The merge itself runs on the page's main thread (``split_merge.merge``, in MicroPython); these tests pin it to
one worker's search, as the page's workers run it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import boards

from game2048 import board as B
from game2048.evaluation import rows
from game2048.game import Game
from game2048.move_tables import afterstates
from game2048.search import SearchOptions, decide_part, expectimax
from game2048.search.clock import Deadline
from game2048.search.split_merge import merge

EVALUATE = rows.make_evaluator()


def legal(board: int) -> list[int]:
    return [i for i, after in enumerate(afterstates(board)) if after != board]


@settings(max_examples=200, deadline=None)
@given(boards(min_tiles=1), st.integers(min_value=1, max_value=8))
def test_the_moves_are_dealt_once_each(board, parts):
    shares = expectimax.split_moves(board, parts)
    assert len(shares) == parts
    dealt = [index for share in shares for index in share]
    assert sorted(dealt) == legal(board)
    assert all(list(share) == sorted(share) for share in shares)
    assert expectimax.split_moves(board, parts) == shares  # every worker computes the same shares
    sizes = [len(share) for share in shares]
    assert max(sizes) - min(sizes) <= 1 or max(sizes) <= 2  # no worker idle while another has three


def test_the_most_open_moves_go_to_different_workers():
    board = B.from_rows([[2, 0, 0, 0], [4, 0, 0, 0], [8, 0, 0, 0], [16, 2, 4, 8]])
    shares = expectimax.split_moves(board, 2)
    assert all(shares) and sorted(i for s in shares for i in s) == legal(board)


def _parts(board: int, parts: int, depth: int | None, deadline_ms: float | None = None) -> list[dict]:
    answers = []
    for k in range(parts):
        deadline = Deadline(deadline_ms) if deadline_ms is not None else Deadline(None)
        answers.append(expectimax.search_part(board, EVALUATE, deadline, k, parts, depth=depth))
    return answers


@settings(max_examples=30, deadline=None)
@given(boards(min_tiles=2), st.integers(min_value=2, max_value=4), st.sampled_from([1, 2, 3]))
def test_merged_parts_decide_as_one_search_at_a_fixed_depth(board, parts, depth):
    one = expectimax.search(board, EVALUATE, Deadline(None), depth=depth)
    merged = merge(_parts(board, parts, depth), {"think_ms": 100, "depth": depth, "preset": "rows"})
    if one.move is None:
        assert merged is None
        return
    assert merged is not None
    assert (merged["move"], merged["depth"]) == (one.move, depth)
    assert merged["score"] == pytest.approx(one.score, rel=1e-9)


def test_a_missing_part_costs_depth_not_the_answer():
    board = Game.new(5).board
    parts = _parts(board, 2, None, deadline_ms=60)
    both = merge(parts, {"think_ms": 60, "depth": None})
    assert both is not None and both["depth"] >= 3
    alone = merge(parts[:1], {"think_ms": 60, "depth": None})
    assert alone is not None and alone["depth"] == expectimax.SHARED_DEPTH
    shared = expectimax.search(board, EVALUATE, Deadline(None), depth=expectimax.SHARED_DEPTH)
    assert alone["move"] == shared.move and alone["score"] == pytest.approx(shared.score)


def test_the_merge_keeps_the_deepest_depth_every_move_has():
    parts = [
        {
            "moves": [0, 2],
            "iterations": [[1, [[0, 5.0], [2, 4.0]]], [2, [[0, 3.0], [2, 4.0]]], [3, [[0, 9.0]]], [4, [[0, 1.0]]]],
        },
        {"moves": [0, 2], "iterations": [[1, [[0, 5.0], [2, 4.0]]], [2, [[0, 3.0], [2, 4.0]]], [3, [[2, 7.0]]]]},
    ]
    merged = merge(parts, {"think_ms": 100})
    assert (merged["move"], merged["depth"], merged["score"]) == ("up", 3, 9.0)


def test_an_exhausted_part_stands_for_every_deeper_depth_and_ties_keep_the_first_move():
    parts = [
        {
            "moves": [1, 3],
            "iterations": [[1, [[1, 2.0], [3, 2.0]]], [2, [[1, 6.0], [3, 1.0]]], [3, [[1, 6.0]]], [4, [[1, 6.0]]]],
        },
        {
            "moves": [1, 3],
            "iterations": [[1, [[1, 2.0], [3, 2.0]]], [2, [[1, 6.0], [3, 1.0]]], [3, [[3, 6.0]]]],
            "exhausted": True,
        },
    ]
    merged = merge(parts, {"think_ms": 100})
    assert (merged["move"], merged["depth"], merged["score"]) == ("right", 4, 6.0)


def test_one_part_alone_at_a_fixed_depth_past_the_shared_ones_decides_nothing():
    board = Game.new(7).board
    parts = _parts(board, 2, 3)
    assert merge(parts[:1], {"think_ms": 100, "depth": 3}) is None
    assert merge(parts[1:], {"think_ms": 100, "depth": 3}) is None


def test_no_legal_move_merges_to_nothing():
    lost = B.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    assert merge(_parts(lost, 2, 3), {"think_ms": 100, "depth": 3}) is None


def test_a_worker_with_no_move_of_its_own_still_searches_the_shared_depths():
    board = B.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 0]])  # right and down only
    idle = expectimax.search_part(board, EVALUATE, Deadline(None), 3, 4, depth=None)
    assert [depth for depth, _ in idle["iterations"]] == [1, expectimax.SHARED_DEPTH]
    assert [len(root) for _, root in idle["iterations"]] == [2, 2]
    working = expectimax.search_part(board, EVALUATE, Deadline(30), 0, 4)
    assert [len(root) for _, root in working["iterations"][expectimax.SHARED_DEPTH :]] == [1] * (
        len(working["iterations"]) - expectimax.SHARED_DEPTH
    )


def test_decide_part_refuses_alpha_beta_and_parts_out_of_range():
    board = Game.new(1).board
    with pytest.raises(ValueError, match="only expectimax"):
        decide_part(board, SearchOptions(algorithm="alphabeta", depth=2), 0, 2)
    for part, parts in ((2, 2), (-1, 2), (0, 0), (0, 99), (True, 2)):
        with pytest.raises(ValueError):
            decide_part(board, SearchOptions(algorithm="expectimax", depth=2), part, parts)


@pytest.mark.parametrize("request_fields", [{"think_ms": 100, "depth": None}, {"think_ms": 100, "depth": 2}])
def test_the_merged_answer_is_a_search_results_as_one_worker_answers(request_fields) -> None:
    from dataclasses import fields

    from game2048.search.result import SearchResult

    board = Game.new(5).board
    merged = merge(_parts(board, 2, 2), {**request_fields, "preset": "rows"})
    assert merged is not None
    own = {f.name: merged[f.name] for f in fields(SearchResult)}
    if request_fields["depth"] is None:
        assert own["think_ms"] == 100.0
    else:
        assert own["think_ms"] is None  # a fixed depth has no time limit, as SearchResult says
    assert {**SearchResult(**own).to_dict(), "ok": True, "workers": 2} == merged  # nodes_per_second too
