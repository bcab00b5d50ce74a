"""The panels bench's summary (``tools/bench_panels.py``) on hand-made openings; no browser."""

from __future__ import annotations

from tool_modules import load_tool

bp = load_tool("bench_panels")
EXPLORER, GAMES = bp.PANELS[0][0], bp.PANELS[1][0]


def test_each_panel_and_slowdown_gets_the_median_of_its_openings() -> None:
    times = {(EXPLORER, 1): [70.0, 50.0, 90.0], (EXPLORER, 4): [200.0, 260.0], (GAMES, 1): []}
    assert bp.summarize(times) == {(EXPLORER, 1): 70.0, (EXPLORER, 4): 230.0}


def test_the_goal_is_the_slowest_panels_median_at_each_slowdown() -> None:
    lines = bp.goal_lines({(EXPLORER, 1): 100.0, (GAMES, 1): 20.0, (EXPLORER, 4): 300.5, (GAMES, 4): 90.0})
    assert lines == [
        f"- CPU x1: the slowest first opening, {EXPLORER}, 100 ms ≤ 100 ms: met",
        f"- CPU x4: the slowest first opening, {EXPLORER}, 300 ms ≤ 300 ms: not met",  # 300.5 shown rounded
    ]
    assert bp.goal_lines({(GAMES, 2): 10.0}) == []  # no goal at x2


def test_the_table_has_a_row_per_panel_and_a_column_per_slowdown_with_every_opening() -> None:
    table = bp.markdown_table({(EXPLORER, 1): [65.2, 70.0, 61.0], (EXPLORER, 4): [181.0]}, [1, 4]).splitlines()
    assert table[0] == "| panel, first opening | CPU x1, median (each load) | CPU x4, median (each load) |"
    assert table[1] == "| --- | --- | --- |"
    assert table[2] == f"| {EXPLORER} | 65 ms (65, 70, 61) | 181 ms (181) |"
    assert table[3] == f"| {GAMES} | – | – |"
    assert len(table) == 2 + len(bp.PANELS)
