"""The hot path's inlined copies are still the canonical text they copy.

The search inlines ``move_tables.afterstates`` (row keys, the transposed board's
column keys, the four moves) and ``board.has_win_tile`` because a call per
node costs more than the work; each copy says so in a comment.  These tests
read the source and fail when a copy and its original drift apart, so the
rule lives in one place and its copies follow it.
"""

from __future__ import annotations

import inspect

import pytest

from game2048 import board as B
from game2048 import move_tables
from game2048.evaluation import corner
from game2048.search import alphabeta_tree, expectimax, placements


def _lines(function) -> list[str]:
    return [line.strip() for line in inspect.getsource(function).splitlines() if line.strip()]


def _block(lines: list[str], first: str, count: int) -> list[str]:
    start = next(i for i, line in enumerate(lines) if line.startswith(first))
    return lines[start : start + count]


CANONICAL = _lines(move_tables.afterstates)
KEYS = _block(CANONICAL, "r0 = board", 9)
"""Row keys r0..r3, the transposed board x, column keys k0..k3."""
MOVES = _block(CANONICAL, "col_up[k0]", 4)
"""The boards after up, right, down, left from those keys."""
WIN = inspect.getsource(B.has_win_tile).split("return bool(")[1].rsplit(")", 1)[0].split(" and ", 1)[1]
"""The win-tile test once ``child & eights`` is known non-zero."""


def _count(lines: list[str], block: list[str]) -> int:
    return sum(lines[i : i + len(block)] == block for i in range(len(lines)))


@pytest.mark.parametrize(
    "function, keys, moves, wins",
    [
        (alphabeta_tree._player_node, 1, 1, 1),
        (alphabeta_tree._frontier_node, 1, 1, 1),
        (expectimax._Searcher.__init__, 1, 1, 0),  # player
        (expectimax._make_last_layer, 1, 1, 0),
        (placements.make_placements, 1, 0, 0),
        (corner.make_evaluator, 1, 0, 0),
    ],
)
def test_each_inlined_copy_is_the_canonical_text(function, keys, moves, wins):
    lines = _lines(function)
    assert _count(lines, KEYS) == keys
    assert _count(lines, MOVES) == moves
    assert sum(WIN in line for line in lines) == wins
    marked = sum("move_tables.afterstates" in line and "inlined" in line for line in lines)
    assert marked == keys, "each copy names its original"


def test_the_canonical_blocks_are_what_they_claim():
    assert KEYS[0] == "r0 = board & 0xFFFF" and KEYS[-1] == "k3 = x >> 48"
    assert len(MOVES) == 4 and MOVES[-1].startswith("row_left[r0]")
    assert WIN.startswith("(child & eights) >> 3")
