"""The load benchmark's pure parts (``tools/bench_load.py``): medians, goal marks, the Markdown table. No browser."""

from __future__ import annotations

from pathlib import Path

import pytest
from tool_modules import load_tool

ROOT = Path(__file__).resolve().parents[1]


bl = load_tool("bench_load")


def test_summarize_takes_the_median_min_and_max_and_skips_unmeasured() -> None:
    s = bl.summarize([3.0, 1.0, None, 2.5, 10.0, 0.5])
    assert s == bl.Summary(median=2.5, low=0.5, high=10.0, n=5)
    assert bl.summarize([4.0, 1.0]).median == 2.5  # an even count: the mean of the middle two
    assert bl.summarize([]) is None
    assert bl.summarize([None, None]) is None


def test_format_summary_shows_the_range_only_for_several_loads() -> None:
    assert bl.format_summary(bl.Summary(0.934, 0.9, 1.021, 5)) == "0.93 s (min 0.90, max 1.02)"
    assert bl.format_summary(bl.Summary(4.1, 4.1, 4.1, 1)) == "4.10 s"
    assert bl.format_summary(None) == "—"


@pytest.mark.parametrize(
    ("median", "verdict"),
    [(0.99, "met"), (1.0, "met"), (1.01, "not met"), (7.0, "not met")],
)
def test_goal_mark_compares_the_median_with_the_limit(median: float, verdict: str) -> None:
    # min and max on the other side of the limit must not matter: the goal is on the median
    summary = bl.Summary(median, low=median - 0.5, high=median + 0.5, n=5)
    assert bl.goal_mark(summary, 1.0) == f"≤ 1.0 s: {verdict}"


def test_goal_mark_without_a_measurement() -> None:
    assert bl.goal_mark(None, 4.5) == "≤ 4.5 s: not measured"


def test_build_rows_and_table_with_every_visit_and_floor() -> None:
    series = {
        "cold": [0.95, 0.93, 1.2],
        "cold_ai": [4.0, 4.6, 4.2],
        "warm": [0.7, 0.65, 0.62],
        "warm_ai": [2.0, 2.9, 3.5],
        "bare_micropython": [0.3, 0.28, 0.31],
        "bare_pyodide": [2.5, 2.4, 2.6],
    }
    table = bl.markdown_table(bl.build_rows(series), runs=3)
    assert table.splitlines() == [
        "| | playable (median of 3) | AI ready (median of 3) | goal |",
        "|---|---|---|---|",
        "| page, cold | 0.95 s (min 0.93, max 1.20) | 4.20 s (min 4.00, max 4.60) | ≤ 1.0 s: met / ≤ 4.5 s: met |",
        "| page, warm (second visit) | 0.65 s (min 0.62, max 0.70) | 2.90 s (min 2.00, max 3.50) "
        "| ≤ 0.6 s: not met / ≤ 3.0 s: met |",
        "| bare MicroPython, cold | 0.30 s (min 0.28, max 0.31) | — | floor |",
        "| bare Pyodide, cold | 2.50 s (min 2.40, max 2.60) | — | floor |",
    ]


def test_build_rows_leaves_out_what_was_not_asked_for() -> None:
    rows = bl.build_rows({"cold": [1.5], "cold_ai": [None]})  # --no-warm --no-ai, no --baseline
    assert [row.label for row in rows] == ["page, cold"]
    assert rows[0].ai is None
    assert rows[0].goal == "≤ 1.0 s: not met / ≤ 4.5 s: not measured"
    table = bl.markdown_table(rows, runs=1)
    assert table.splitlines()[-1] == "| page, cold | 1.50 s | — | ≤ 1.0 s: not met / ≤ 4.5 s: not measured |"


def test_every_table_line_has_the_same_number_of_cells() -> None:
    series = {"cold": [1.0, 2.0], "cold_ai": [3.0, 4.0], "warm": [0.5, 0.6], "warm_ai": [None, None]}
    series.update(bare_micropython=[0.2, 0.3], bare_pyodide=[2.0, 2.1])
    lines = bl.markdown_table(bl.build_rows(series), runs=2).splitlines()
    assert len(lines) == 6
    assert {line.count("|") for line in lines} == {5}


def test_cpu_model_reads_the_first_model_name() -> None:
    cpuinfo = "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel\t\t: 85\nmodel name\t: Intel(R) Xeon(R) CPU\n\n"
    cpuinfo += "processor\t: 1\nmodel name\t: Another\n"
    assert bl.cpu_model(cpuinfo) == "Intel(R) Xeon(R) CPU"
    assert bl.cpu_model("processor\t: 0\nmodel\t\t: 85\n") is None


def test_describe_run_names_command_date_commit_machine_and_browser() -> None:
    line = bl.describe_run("tools/bench_load.py --baseline", "2026-11-23", "abc1234", "vm", 2, "Xeon", "156.0")
    assert line == "`tools/bench_load.py --baseline`, 2026-11-23 (abc1234); machine vm, 2 CPUs (Xeon); Chromium 156.0."
    assert bl.describe_run("b", "d", None, "vm", None, None, "1") == "`b`, d; machine vm, ? CPUs; Chromium 1."


def test_phase_notes_only_when_the_page_reports_both_marks() -> None:
    assert bl.phase_notes("cold", [2.0, 2.2, 2.1], [0.2, 0.3, 0.25]) == [
        "- cold: the page's Python starts at 2.10 s (min 2.00, max 2.20); "
        "importing the game takes 0.25 s (min 0.20, max 0.30)."
    ]
    assert bl.phase_notes("cold", [None, None], [None, None]) == []
    assert bl.phase_notes("warm", [], []) == []


def test_bare_pages_import_their_interpreters_loader() -> None:
    for floor, (loader, module) in bl.FLOORS.items():
        page = bl.bare_page(loader, module)
        assert f'const {{ {loader} }} = await import("{module}");' in page, floor
        assert f"await {loader}();" in page
        assert (ROOT / module).is_file() or not (ROOT / "node_modules").exists(), module
