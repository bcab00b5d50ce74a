"""The review bench's summary (``tools/bench_review.py``) on hand-made reviews, and its game; no browser."""

from __future__ import annotations

from tool_modules import load_tool

from game2048.game import Game

br = load_tool("bench_review")


def _review(seconds: float, tasks: list[float] | None = None) -> object:
    return br.Review(seconds, tasks or [], {"best": 3, "good": 1}, "rows")


def test_the_benchs_game_is_the_long_games_first_moves_all_the_players() -> None:
    record = br.game(40)
    assert len(record.moves) == 40 and record.ai_moves() == 0
    game = Game.new(record.seed)
    for move in record.moves:
        assert game.play(move).moved  # every move legal where it is played


def test_the_table_gives_each_modes_median_every_review_and_its_long_tasks() -> None:
    reviews = {"preset": [_review(2.0), _review(1.0, [60.0]), _review(3.0)], "network": []}
    table = br.markdown_table(reviews, 1000).splitlines()
    assert table[0].startswith("| review of 1,000 moves, graded by |")
    assert table[2] == "| preset (rows) | 2.0 s (2.0, 1.0, 3.0) | 1 (60 ms) |"
    assert len(table) == 3  # no row for a mode without reviews


def test_the_goal_is_the_median_against_a_minute_a_thousand_moves_and_no_long_task() -> None:
    assert br.goal_lines({"preset": [_review(59.0), _review(61.0), _review(10.0)]}, 1000) == [
        "- preset: median 59.0 s ≤ 60 s and 0 long tasks (goal 0): met"
    ]
    assert br.goal_lines({"network": [_review(1.0, [51.0])]}, 500) == [
        "- network: median 1.0 s ≤ 30 s and 1 long tasks (goal 0): not met"
    ]


def test_the_parity_line_says_where_the_pages_grades_differ_from_the_engines() -> None:
    same = br.parity_line("preset", {"best": 3, "good": 1}, {"best": 3, "good": 1, "blunder": 0})
    assert same == "- preset: best 3, good 1, inaccuracy 0, mistake 0, blunder 0; the engine's own grades"
    differs = br.parity_line("network", {"best": 2, "good": 2}, {"best": 3, "good": 1})
    assert differs.endswith("differs from the engine: best: page 2, engine 3; good: page 2, engine 1")
