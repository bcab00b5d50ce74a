"""The computer's placements: incremental scores equal the from-scratch definition in ``reference``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import boards

from game2048 import board as B
from game2048 import reference
from game2048.search import placements as P


def grid_board(rows: list[list[int]]) -> int:
    return B.from_rows(rows)


def test_direct_scores_on_a_hand_made_board() -> None:
    board = grid_board([[2, 4, 0, 2], [2, 0, 0, 0], [0, 0, 8, 0], [0, 0, 0, 0]])
    # Smoothness: row 0: |1-2| + |2-1| = 2; column 0: |1-1| = 0; nothing else has a neighbour in its line.
    assert reference.smoothness(board) == -2
    # Islands: {2 at (0,0), 2 at (1,0)}, {4}, {2 at (0,3)}, {8}.
    assert reference.islands(board) == 4
    assert reference.annoyance(board) == 6


def test_lone_two_in_a_corner_invites_a_four_in_its_row_or_column() -> None:
    board = grid_board([[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    # A 4 in row 0 or column 0 costs |1 - 2| = 1 of smoothness and adds an island: score 3;
    # a 4 elsewhere scores 2, a 2 next to the 2 joins its island (1), a 2 elsewhere scores 2.
    expected = [board | (2 << (4 * cell)) for cell in (1, 2, 3, 4, 8, 12)]
    assert reference.placements(board) == expected
    assert P.make_placements()(board) == expected


@given(boards(min_tiles=1))
def test_incremental_deltas_equal_the_direct_scores(board: int) -> None:
    if B.count_empty(board) == 0:
        return
    base = reference.annoyance(board)
    deltas = P.placement_deltas(board)
    assert len(deltas) == 2 * B.count_empty(board)
    for cell, rank, delta in deltas:
        assert base + delta == reference.annoyance(B.place(board, cell, rank)), (hex(board), cell, rank)


@given(boards())
def test_fast_placements_equal_the_direct_ones(board: int) -> None:
    assert P.make_placements()(board) == reference.placements(board)


@given(boards(rank_strategy=st.integers(0, 3)))
def test_fast_placements_with_many_small_equal_tiles(board: int) -> None:
    # Ranks 0..3 only: islands of 2s and 4s touching the placed cell from several sides, the hard case.
    assert P.make_placements()(board) == reference.placements(board)


@given(boards(rank_strategy=st.integers(0, 4)))
def test_twos_only_placements_equal_the_direct_ones_with_rank_1(board: int) -> None:
    # The rescue search's computer: the most annoying 2s, even where a 4 would annoy more.
    twos = P.make_placements(twos_only=True)(board)
    assert twos == reference.placements(board, ranks=(1,))
    assert all(B.count_empty(child) == B.count_empty(board) - 1 for child in twos)
    assert all(P.rank_mask(child, 1) != P.rank_mask(board, 1) for child in twos)


def test_twos_only_keeps_the_worst_two_where_the_full_reduction_places_a_four() -> None:
    board = grid_board([[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    # The full reduction places 4s in the lone 2's row and column (above); among 2s, every cell that does not
    # touch the 2 adds an island and costs no smoothness, while the two that touch it join its island.
    expected = [board | (1 << (4 * cell)) for cell in range(2, 16) if cell != 4]
    assert P.make_placements(twos_only=True)(board) == expected


@given(boards())
def test_component_count_of_a_rank_mask_is_its_island_count(board: int) -> None:
    total = 0
    for rank in range(1, 16):
        total += P.COMPONENTS[P.rank_mask(board, rank)]
    assert total == reference.islands(board)


def test_component_count_joins_through_a_ring() -> None:
    # A ring of 2s around the centre: one island, even though its cells meet only around the corner.
    board = grid_board([[2, 2, 2, 0], [2, 0, 2, 0], [2, 2, 2, 0], [0, 0, 0, 2]])
    assert P.COMPONENTS[P.rank_mask(board, 1)] == 2
    assert reference.islands(board) == 2


def test_rank_mask_marks_exactly_the_cells_of_that_rank() -> None:
    board = grid_board([[2, 4, 0, 2], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 32768]])
    assert P.rank_mask(board, 1) == (1 << 0) | (1 << 12)
    assert P.rank_mask(board, 2) == 1 << 4
    assert P.rank_mask(board, 15) == 1 << 60
    assert bin(P.rank_mask(board, 0)).count("1") == 12


def test_full_board_has_no_placements() -> None:
    board = grid_board([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    assert reference.placements(board) == []
    assert P.make_placements()(board) == []


@pytest.mark.parametrize("cell", range(16))
def test_single_tile_smoothness_table_matches_direct(cell: int) -> None:
    board = B.place(
        grid_board([[8, 0, 0, 2], [0, 0, 0, 0], [0, 0, 0, 0], [64, 0, 0, 0]]) & ~(0xF << (4 * cell)), cell, 3
    )
    table = P.smoothness_table()
    rows_and_cols = sum(table[k] for k in B.row_keys(board)) + sum(table[k] for k in B.column_keys(board))
    assert -rows_and_cols == reference.smoothness(board)
