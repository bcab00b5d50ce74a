"""URL options: a good seed is used, a bad one is ignored with a notice that names it."""

from __future__ import annotations

from hypothesis import given, strategies as st

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
