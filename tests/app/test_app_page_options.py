"""URL options: a good seed is used, a bad one is ignored with a notice that names it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.page_options import MAX_SEED, parse_page_options


@given(st.integers(min_value=0, max_value=MAX_SEED))
def test_whole_number_seeds_are_used(seed):
    options = parse_page_options(f"?seed={seed}")
    assert options.seed == seed and options.notices == ()


def test_no_seed_means_a_random_game_without_notice():
    assert parse_page_options("") == parse_page_options("?other=1")
    assert parse_page_options("").seed is None and parse_page_options("").notices == ()


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
