"""The rules of a move, pinned by golden rows and by properties over random boards."""

from __future__ import annotations

import pytest
from board_helpers import flip, rank_at, tile_sum
from hypothesis import given
from strategies import boards, directions, ranks

from game2048 import board as B
from game2048 import move_tables
from game2048.board import Direction
from game2048.game import trace_move
from game2048.reference import move_rows, slide_line


@pytest.mark.parametrize(
    "row, expected, points",
    [
        ([2, 2, 2, 2], [4, 4, 0, 0], 8),  # two merges, each tile once
        ([2, 2, 4, 0], [4, 4, 0, 0], 4),  # the new 4 does not merge again
        ([4, 2, 2, 0], [4, 4, 0, 0], 4),
        ([2, 0, 0, 2], [4, 0, 0, 0], 4),  # gaps are skipped
        ([2, 2, 2, 0], [4, 2, 0, 0], 4),  # the pair nearest the wall merges first
        ([0, 0, 0, 2], [2, 0, 0, 0], 0),
        ([8, 4, 2, 2], [8, 4, 4, 0], 4),
        ([1024, 1024, 0, 0], [2048, 0, 0, 0], 2048),
        ([32768, 32768, 0, 0], [32768, 32768, 0, 0], 0),  # beyond 4-bit ranks: documented limit
        ([2, 4, 8, 16], [2, 4, 8, 16], 0),
    ],
)
def test_golden_rows_left(row: list[int], expected: list[int], points: int) -> None:
    board = B.from_rows([row, [0] * 4, [0] * 4, [0] * 4])
    moved, got = B.move(board, "left")
    assert B.to_rows(moved)[0] == expected
    assert got == points


def test_golden_board_every_direction() -> None:
    rows = [[2, 2, 4, 8], [0, 2, 0, 2], [4, 4, 4, 4], [0, 0, 0, 2]]
    board = B.from_rows(rows)
    assert B.to_rows(B.move(board, "up")[0]) == [[2, 4, 8, 8], [4, 4, 0, 2], [0, 0, 0, 4], [0, 0, 0, 2]]
    assert B.to_rows(B.move(board, "down")[0]) == [[0, 0, 0, 8], [0, 0, 0, 2], [2, 4, 0, 4], [4, 4, 8, 2]]
    assert B.to_rows(B.move(board, "left")[0]) == [[4, 4, 8, 0], [4, 0, 0, 0], [8, 8, 0, 0], [2, 0, 0, 0]]
    assert B.to_rows(B.move(board, "right")[0]) == [[0, 4, 4, 8], [0, 0, 0, 4], [0, 0, 8, 8], [0, 0, 0, 2]]


@given(boards(), directions)
def test_move_matches_reference(board: int, direction: Direction) -> None:
    expected_rows, expected_points = move_rows(B.to_rows(board), direction)
    moved, points = B.move(board, direction)
    assert B.to_rows(moved) == expected_rows
    assert points == expected_points


@given(boards(), directions)
def test_tile_sum_preserved(board: int, direction: Direction) -> None:
    assert tile_sum(B.move(board, direction)[0]) == tile_sum(board)


@given(boards(), directions)
def test_score_is_sum_of_merged_values_and_no_tile_merges_twice(board: int, direction: Direction) -> None:
    moved, points = B.move(board, direction)
    journeys, merged_cells = trace_move(board, direction)
    # Every tile goes somewhere exactly once, and a merged cell receives exactly two equal tiles:
    # a third tile arriving (2+2+4 -> 8) would be a tile merging twice.
    assert sorted(j.src for j in journeys) == [i for i in range(16) if (board >> (4 * i)) & 0xF]
    arrivals: dict[int, list[int]] = {}
    for j in journeys:
        arrivals.setdefault(j.dst, []).append(j.rank)
    for cell, arrived in arrivals.items():
        if cell in merged_cells:
            assert len(arrived) == 2 and arrived[0] == arrived[1]
            assert rank_at(moved, cell // 4, cell % 4) == arrived[0] + 1
        else:
            assert len(arrived) == 1 and rank_at(moved, cell // 4, cell % 4) == arrived[0]
    assert len(set(merged_cells)) == len(merged_cells)
    assert points == sum(1 << rank_at(moved, c // 4, c % 4) for c in merged_cells)


@given(boards(), directions)
def test_symmetry_rotation(board: int, direction: Direction) -> None:
    """Moving a rotated board equals rotating the moved board (with the direction rotated too)."""
    clockwise = {
        B.UP: B.RIGHT,
        B.RIGHT: B.DOWN,
        B.DOWN: B.LEFT,
        B.LEFT: B.UP,
    }
    moved, points = B.move(board, direction)
    moved_rot, points_rot = B.move(B.rotate(board), clockwise[direction])
    assert moved_rot == B.rotate(moved)
    assert points_rot == points


@given(boards(), directions)
def test_symmetry_mirror(board: int, direction: Direction) -> None:
    swap = {
        B.LEFT: B.RIGHT,
        B.RIGHT: B.LEFT,
        B.UP: B.UP,
        B.DOWN: B.DOWN,
    }
    moved, points = B.move(board, direction)
    assert B.move(B.mirror(board), swap[direction]) == (B.mirror(moved), points)


@given(boards(), directions)
def test_symmetry_transpose(board: int, direction: Direction) -> None:
    swap = {
        B.LEFT: B.UP,
        B.UP: B.LEFT,
        B.RIGHT: B.DOWN,
        B.DOWN: B.RIGHT,
    }
    moved, points = B.move(board, direction)
    assert B.move(B.transpose(board), swap[direction]) == (B.transpose(moved), points)


@given(boards(), directions)
def test_illegal_move_changes_nothing(board: int, direction: Direction) -> None:
    moved, points = B.move(board, direction)
    if direction not in B.legal_moves(board):
        assert moved == board and points == 0
    else:
        assert moved != board


@given(boards())
def test_game_over_iff_full_and_no_equal_neighbours(board: int) -> None:
    rows = B.to_rows(board)
    full = all(v for row in rows for v in row)
    pairs = any(rows[r][c] == rows[r][c + 1] for r in range(4) for c in range(3)) or any(
        rows[r][c] == rows[r + 1][c] for r in range(3) for c in range(4)
    )
    occupied_pairs = pairs and full  # on a full board every neighbour pair is of two tiles
    assert B.is_game_over(board) == (board == 0 or (full and not occupied_pairs))


def test_game_over_golden() -> None:
    lost = B.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    assert B.is_game_over(lost)
    assert B.legal_moves(lost) == []
    alive = B.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 4]])
    assert not B.is_game_over(alive)


@given(boards(ranks))
def test_rows_round_trip(board: int) -> None:
    assert B.from_rows(B.to_rows(board)) == board


@given(boards(ranks))
def test_symmetries_are_a_group_of_eight(board: int) -> None:
    assert B.transpose(B.transpose(board)) == board
    assert B.mirror(B.mirror(board)) == board
    assert flip(flip(board)) == board
    b = board
    for _ in range(4):
        b = B.rotate(b)
    assert b == board
    assert B.rotate(board) == B.mirror(B.transpose(board))
    assert sorted(B.symmetries(board)) == sorted(B.symmetries(B.rotate(board)))


@given(boards(ranks))
def test_cell_helpers_agree_with_rows(board: int) -> None:
    rows = B.to_rows(board)
    assert B.empty_cells(board) == [4 * r + c for r in range(4) for c in range(4) if not rows[r][c]]
    assert B.count_empty(board) == len(B.empty_cells(board))
    assert B.max_rank(board) == max((v.bit_length() - 1 for row in rows for v in row if v), default=0)
    assert tile_sum(board) == sum(map(sum, rows))
    for c in range(4):
        assert B.line_ranks(B.column_key(board, c)) == tuple(rank_at(board, r, c) for r in range(4))


def test_a_cell_is_named_by_its_row_and_column_counted_from_one_top_left_first() -> None:
    rank_two = B.place(0, 6, 1)
    assert B.to_rows(rank_two)[1][2] == 2  # cell 6 is the second row's third cell
    assert [B.cell_name(cell) for cell in (0, 3, 6, 15)] == [
        "row 1, column 1",
        "row 1, column 4",
        "row 2, column 3",
        "row 4, column 4",
    ]


@pytest.mark.parametrize(
    "rows, message",
    [
        ([[0] * 4] * 3, "4 rows of 4"),
        ([[0] * 4] * 3 + [[0] * 3], "4 rows of 4"),
        ([[3, 0, 0, 0]] + [[0] * 4] * 3, "power of two"),
        ([[1, 0, 0, 0]] + [[0] * 4] * 3, "power of two"),
        ([[-2, 0, 0, 0]] + [[0] * 4] * 3, "power of two"),
        ([[65536, 0, 0, 0]] + [[0] * 4] * 3, "power of two"),
        ([["2", 0, 0, 0]] + [[0] * 4] * 3, "is an int"),
        ([[True, 0, 0, 0]] + [[0] * 4] * 3, "is an int"),
    ],
)
def test_from_rows_refuses_impossible_boards(rows: list, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        B.from_rows(rows)


def test_a_move_is_named_by_its_string_and_nothing_else() -> None:
    board = B.from_rows([[2, 0, 0, 0]] + [[0] * 4] * 3)
    assert B.move(board, "right") == B.move(board, B.RIGHT)
    assert B.DIRECTIONS == ("up", "right", "down", "left")
    for wrong in ("sideways", "Right", None, 1, ["left"]):
        with pytest.raises(ValueError, match="a move is one of up, right, down, left"):
            B.move(board, wrong)


def test_the_line_rule_and_the_tables_agree_with_the_plain_slide_on_every_line() -> None:
    for key in range(1 << 16):
        out, points, _ = slide_line([1 << r if r else 0 for r in B.line_ranks(key)])
        assert B.slide_line(key) == (B.line_key([B.rank_of(v) for v in out]), points)
        assert move_tables.ROW_LEFT[key] == B.slide_line(key)[0] and move_tables.SCORE_LEFT[key] == points
        rev = B.reverse_line(key)
        assert move_tables.ROW_RIGHT[key] == B.reverse_line(move_tables.ROW_LEFT[rev])
        assert move_tables.SCORE_RIGHT[key] == move_tables.SCORE_LEFT[rev]


@given(boards(rank_strategy=ranks))
def test_afterstates_are_the_four_moves_by_table(board: int) -> None:
    assert move_tables.afterstates(board) == tuple(B.move(board, d)[0] for d in B.DIRECTIONS)


@given(boards(rank_strategy=ranks))
def test_the_spread_tables_transpose_the_board(board: int) -> None:
    spread = move_tables.spread_tables()
    keys = B.row_keys(board)
    transposed = spread[0][keys[0]] | spread[1][keys[1]] | spread[2][keys[2]] | spread[3][keys[3]]
    assert transposed == B.transpose(board) and B.row_keys(transposed) == B.column_keys(board)


@given(boards(rank_strategy=ranks))
def test_has_win_tile_is_a_rank_of_11_or_more(board: int) -> None:
    assert B.has_win_tile(board) == (B.max_rank(board) >= B.WIN_RANK)
