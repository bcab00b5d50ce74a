"""Late-move reductions: what they may change (how deep a late move is looked at) and what they may not.

The exact search is pinned by ``test_alphabeta_equivalence`` (minimax over the
reduced tree); these tests say how the search with reductions relates to it.
"""

from __future__ import annotations

import pytest
from test_alphabeta_equivalence import game_positions

from game2048.bench_positions import POSITIONS
from game2048.evaluation import presets
from game2048.search import alphabeta, best_move
from game2048.search.alphabeta import REDUCE_MIN_DEPTH
from game2048.search.clock import Deadline

EVALUATE = presets.get("classic").make()


def _search(board: int, depth: int, reductions: bool):
    return alphabeta.search(board, EVALUATE, Deadline(None), depth=depth, reductions=reductions)


@pytest.mark.parametrize("depth", range(1, REDUCE_MIN_DEPTH + 1))
def test_searches_too_shallow_to_reduce_are_the_exact_search(depth: int) -> None:
    # The root is never reduced and a player node needs REDUCE_MIN_DEPTH moves to go, so up to that depth
    # the two searches are the same search: same move, value and node count.
    for board in game_positions()[:: 6 if depth < REDUCE_MIN_DEPTH else 12]:
        with_, without = _search(board, depth, True), _search(board, depth, False)
        assert (with_.move, with_.score, with_.nodes) == (without.move, without.score, without.nodes), hex(board)


@pytest.mark.parametrize("depth", (REDUCE_MIN_DEPTH + 1, REDUCE_MIN_DEPTH + 2))
def test_reductions_only_ever_lower_the_value(depth: int) -> None:
    # A skipped late move is a max option not taken, so every value is that of a smaller tree: never above the
    # exact minimax.  Equality is common (the skipped moves were not best).
    lower = 0
    for board in game_positions()[::8]:
        with_, without = _search(board, depth, True), _search(board, depth, False)
        assert with_.score <= without.score, hex(board)
        assert with_.move is not None
        lower += with_.score < without.score
    assert lower < len(game_positions()[::8]) / 2


def test_reductions_search_fewer_nodes_at_the_same_depth() -> None:
    depth = REDUCE_MIN_DEPTH + 2
    with_ = sum(_search(p.board, depth, True).nodes for p in POSITIONS)
    without = sum(_search(p.board, depth, False).nodes for p in POSITIONS)
    assert with_ < 0.85 * without


def test_best_move_is_exact_by_default_and_reduces_on_request() -> None:
    board = POSITIONS[8].board
    depth = REDUCE_MIN_DEPTH + 2
    assert best_move(board, depth=depth).nodes == _search(board, depth, False).nodes
    assert alphabeta.search(board, EVALUATE, Deadline(None), depth=depth).nodes == _search(board, depth, False).nodes
    assert best_move(board, depth=depth, reductions=True).nodes == _search(board, depth, True).nodes
    assert _search(board, depth, True).nodes != _search(board, depth, False).nodes
