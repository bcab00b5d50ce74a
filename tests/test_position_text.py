"""A position as text: every board round-trips through a link, any text is a board or a reason a person reads."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import boards, ranks

from game2048 import board as B
from game2048.position_text import MAX_TEXT_CHARS, format_rows, parse_rows, parse_value

EXAMPLE = [[0, 2, 4, 8], [0, 0, 0, 0], [16, 0, 0, 32768], [2, 0, 0, 0]]


@given(boards(ranks))
def test_a_link_reads_back_as_the_same_board(board):
    text = format_rows(board)
    assert parse_rows(text) == board
    assert " " not in text and text.count("/") == 3


@given(boards(ranks), st.sampled_from([" ", ",", ", ", "\t"]), st.sampled_from([" / ", "\n", ";", "\r\n"]))
def test_rows_written_any_usual_way_read_the_same(board, cell_sep, row_sep):
    text = row_sep.join(cell_sep.join(str(v) for v in row) for row in B.to_rows(board))
    assert parse_rows(text) == board


def test_empty_cells_sixteen_on_a_line_and_python_lists():
    board = B.from_rows(EXAMPLE)
    assert parse_rows(". 2 4 8 / - . . . / 16 0 - 32768 / 2 . . .") == board
    assert parse_rows("0 2 4 8 0 0 0 0 16 0 0 32768 2 0 0 0") == board
    assert parse_rows(str(EXAMPLE)) == board
    assert parse_rows("\n0 2 4 8\n\n0 0 0 0\n16 0 0 32768\n2 0 0 0\n\n") == board
    assert parse_rows("0002 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0") == B.from_rows([[2, 0, 0, 0]] + [[0] * 4] * 3)


def _refusal(text: str) -> str:
    with pytest.raises(ValueError) as caught:
        parse_rows(text)
    return str(caught.value)


def test_refused_values_say_which_value_where_and_why():
    assert _refusal("6 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0") == "6 is not a power of two (row 1, column 1)"
    assert _refusal("0 0 0 0 / 0 0 0 0 / 0 0 65536 0 / 0 0 0 0") == (
        "65536 is above 32768, the largest tile the engine holds (row 3, column 3)"
    )
    assert "1 is not a tile" in _refusal("1 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0")
    assert '"x2" is not a number' in _refusal("x2 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0")
    assert '"-2" is not a number' in _refusal("-2 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0")
    assert '"\u00b2" is not a number' in _refusal("\u00b2 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0")  # a digit, not ASCII
    assert "above 32768" in _refusal("9" * 500 + " 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0")


def test_refused_shapes_say_what_a_board_is():
    assert _refusal("0 0 0 0 / 0 0 0 0 0 / 0 0 0 0 / 0 0 0 0") == "row 2 has 5 numbers, a row has 4"
    assert _refusal("0 0 0 0 / 0 0 0 0 / 0 0 0 0") == "the position has 3 rows, a board has 4"
    assert "empty" in _refusal(" / \n ")
    assert "characters long" in _refusal("0 " * MAX_TEXT_CHARS)


def test_a_single_value():
    assert [parse_value(t) for t in ("0", ".", "-", "2", " 2048 ", "32768")] == [0, 0, 0, 2, 2048, 32768]
    for bad in ("3", "1", "", "2.0", "1e3", "65536"):
        with pytest.raises(ValueError):
            parse_value(bad)


@given(st.text(max_size=300))
def test_any_text_is_a_board_or_a_reason(text):
    try:
        board = parse_rows(text)
    except ValueError as exc:
        assert str(exc) and len(str(exc)) < 200
    else:
        assert parse_rows(format_rows(board)) == board


tokens = st.one_of(
    st.sampled_from(["0", ".", "-", "2", "4", "6", "1", "32768", "65536", "x", "", "007"]),
    st.integers(min_value=-10, max_value=2**20).map(str),
)
separators = st.sampled_from([" ", ",", "\t", "/", "\n", ";", "[", "]", "  "])


@given(st.lists(st.tuples(tokens, separators), max_size=24))
def test_near_misses_are_a_board_or_a_reason(parts):
    text = "".join(token + sep for token, sep in parts)
    try:
        parse_rows(text)
    except ValueError as exc:
        assert str(exc)
