"""URL options: a good seed or position is used, a bad one is ignored with a notice that names it and says why."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.browser.page_options import MAX_SEED, parse_page_options
from game2048 import board as B


@given(st.integers(min_value=0, max_value=MAX_SEED))
def test_whole_number_seeds_are_used(seed):
    options = parse_page_options(f"?seed={seed}")
    assert options.seed == seed and options.notices == ()


def test_no_seed_means_a_random_game_without_notice():
    for query in ("", "?other=1"):
        options = parse_page_options(query)
        assert options.seed is None and options.rows is None and options.notices == ()


def test_bad_seeds_are_ignored_with_a_notice():
    for raw in ("banana", "-3", "1.5", "", "%C2%B2", str(MAX_SEED + 1), "1e3"):
        options = parse_page_options(f"?seed={raw}")
        assert options.seed is None, raw
        assert len(options.notices) == 1 and "seed" in options.notices[0], raw


def test_the_last_seed_wins():
    assert parse_page_options("?seed=1&seed=2").seed == 2


def test_a_seed_longer_than_python_converts_is_ignored_with_a_notice():
    options = parse_page_options("?seed=" + "7" * 5000)
    assert options.seed is None and "seed" in options.notices[0] and len(options.notices[0]) < 300


@given(st.text())
def test_any_query_gives_options(query):
    options = parse_page_options(query)
    assert options.seed is None or 0 <= options.seed <= MAX_SEED


def test_an_overlong_query_is_ignored_whole():
    options = parse_page_options("?seed=1&x=" + "a" * 10_000)
    assert options.seed is None and "characters long" in options.notices[0]


def test_a_position_in_the_link_is_read():
    options = parse_page_options("?rows=0,2,4,8/0,0,0,0/0,0,0,0/2,0,0,0")
    assert options.rows == B.from_rows([[0, 2, 4, 8], [0] * 4, [0] * 4, [2, 0, 0, 0]]) and options.notices == ()
    spaced = parse_page_options("?rows=" + quote("0 2 4 8 / 0 0 0 0 / 0 0 0 0 / 2 0 0 0") + "&seed=5")
    assert spaced.rows == options.rows and spaced.seed == 5


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("0,6,0,0/0,0,0,0/0,0,0,0/2,0,0,0", "6 is not a power of two (row 1, column 2)"),
        ("65536,2,0,0/0,0,0,0/0,0,0,0/0,0,0,0", "65536 is above 32768, the largest tile"),
        ("0,2,0,0/0,0,0,0,0/0,0,0,0/0,0,0,0", "row 2 has 5 numbers, a row has 4"),
        ("0,2,0,0/0,0,0,0/0,0,0,0/0,0,0,0", "at least two tiles, it has 1"),
        ("", "the position is empty"),
        ("9" * 5000, "characters long"),
    ],
)
def test_a_bad_position_is_ignored_with_a_notice_that_says_why(raw, words):
    options = parse_page_options("?rows=" + quote(raw))
    assert options.rows is None and len(options.notices) == 1
    assert "?rows=" in options.notices[0] and words in options.notices[0], options.notices[0]
    assert len(options.notices[0]) < 300


@given(st.text(max_size=200))
def test_any_position_text_gives_options(raw):
    options = parse_page_options("?rows=" + quote(raw))
    assert options.rows is None or len(B.tile_values(options.rows)) >= 2
    assert (options.rows is None) == bool(options.notices)


def test_a_shared_games_move_is_read_and_a_bad_one_ignored_with_a_notice() -> None:
    from game2048.game_link import encode_game
    from game2048.game_record import GameRecord

    record = GameRecord(3)
    for direction in ("left", "up", "left", "up", "right"):
        record.append(direction)
    code = encode_game(record.seed, record.moves)
    options = parse_page_options(f"?game={code}&move=3")
    assert options.game is not None and options.move == 3 and options.notices == ()
    for bad in ("9", "-1", "x", "1" * 40):
        options = parse_page_options(f"?game={code}&move={bad}")
        assert options.game is not None and options.move == 0
        assert len(options.notices) == 1 and "&move=" in options.notices[0]
    assert parse_page_options("?move=2").move == 0  # without a game, nothing to open
