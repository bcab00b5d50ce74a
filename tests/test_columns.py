"""Column keys by table equal the board module's own transpose and column keys."""

from __future__ import annotations

from hypothesis import given

from game2048 import board as B
from game2048.columns import transposed

from strategies import boards, ranks


@given(boards(rank_strategy=ranks))
def test_table_transpose_equals_the_bit_trick(board: int) -> None:
    assert transposed(board) == B.transpose(board)


@given(boards(rank_strategy=ranks))
def test_rows_of_the_transposed_board_are_the_column_keys(board: int) -> None:
    assert B.row_keys(transposed(board)) == B.column_keys(board)
