"""app.explorer.walk_view in CPython: a node's board is the explorer's small board, read from the trace's compact
form and named for its node."""

from app.board.mini_board import mini_board
from app.explorer.walk_view import board_label, ranks_to_rows

ROWS = [[2, 0, 4, 8], [0, 0, 0, 16], [0, 2, 0, 0], [32768, 0, 0, 4]]
RANKS = "102300040100f002"
"""``ROWS`` as the worker sends a node's board: one hex rank per cell, in reading order."""


def test_a_compact_board_reads_back_as_its_rows() -> None:
    assert ranks_to_rows(RANKS) == ROWS
    assert ranks_to_rows("0" * 16) == [[0] * 4] * 4


def test_a_nodes_board_is_named_for_the_node_before_its_tiles_are_read_out() -> None:
    assert board_label({"label": "this board", "parent": None}) == "This board"
    assert board_label({"label": "up", "parent": 0}) == "After up"
    assert board_label({"label": "2 at row 1, column 3", "parent": 1}) == "After 2 at row 1, column 3"
    words = "2 \u00b7 4 8; \u00b7 \u00b7 \u00b7 16; \u00b7 2 \u00b7 \u00b7; 32768 \u00b7 \u00b7 4"
    assert f'aria-label="After up: {words}"' in mini_board(ranks_to_rows(RANKS), None, "After up")
