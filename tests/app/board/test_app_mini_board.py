"""The page's small board: its tiles, the marked cell, and what a screen reader hears."""

from app.board.mini_board import board_words, mini_board


def test_a_small_board_is_heard_row_by_row_with_its_label() -> None:
    rows = [[2, 0, 4, 8], [0, 0, 0, 16], [0, 2, 0, 0], [32768, 0, 0, 4]]
    words = "2 \u00b7 4 8; \u00b7 \u00b7 \u00b7 16; \u00b7 2 \u00b7 \u00b7; 32768 \u00b7 \u00b7 4"
    assert board_words(rows) == words
    assert f'aria-label="The board: {words}"' in mini_board(rows, None, "The board")


def test_a_small_board_draws_each_tile_sized_by_its_digits_and_marks_one_cell() -> None:
    rows = [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 16384, 0], [0, 0, 0, 0]]
    html = mini_board(rows, 10, "After up")
    assert html.count('class="mini-cell ') == 16 and html.count('class="mini-cell empty"') == 14
    assert 'digits-5 marked">16384</span>' in html and 'digits-1">2</span>' in html
    assert 'aria-label="A &lt;b&gt;: ' in mini_board(rows, None, "A <b>")  # the label is escaped
