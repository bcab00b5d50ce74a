"""The long-task bench's numbers and summary (``tools/bench_long_tasks.py``) on hand-made loads; no browser."""

from __future__ import annotations

from typing import Any

import pytest
from tool_modules import load_tool

blt = load_tool("bench_long_tasks")


def loads_of(*per_load: list[list[float]]) -> Any:
    """Loads from each load's long tasks, ``[start, duration]`` in ms."""
    loads = blt.Loads()
    for tasks in per_load:
        loads.add(tasks)
    return loads


def test_blocking_time_is_each_long_tasks_time_over_50_ms() -> None:
    assert blt.blocking_ms([[0.0, 120.0], [300.0, 50.0], [400.0, 80.5]]) == pytest.approx(100.5)
    assert blt.blocking_ms([]) == 0.0


def test_loads_keep_each_loads_longest_task_blocking_time_and_count() -> None:
    loads = loads_of([[0.0, 120.0], [300.0, 80.0]], [], [[10.0, 400.0]])
    assert loads.longest == [120.0, 0.0, 400.0]
    assert loads.blocking == [100.0, 0.0, 350.0]
    assert loads.counts == [2, 0, 1]
    assert loads.medians() == (120.0, 100.0, 1)


def test_summary_without_the_bare_page_has_a_row_per_checkout_and_slowdown() -> None:
    loads = {
        (0, 1.0): loads_of([[0.0, 120.0]], [[0.0, 90.0]]),
        (0, 4.0): loads_of([[0.0, 1200.0], [0.0, 300.0]], [[0.0, 1400.0], [0.0, 100.0]]),
    }
    assert blt.summary_table(["/work/main"], [1.0, 4.0], loads, None) == [
        "| checkout | CPU | longest task, median (runs) | total blocking time, median | long tasks, median | loads |",
        "| --- | --- | --- | --- | --- | --- |",
        "| /work/main | x1 | 105 ms (120, 90) | 55 ms | 1 | 2 |",
        "| /work/main | x4 | 1300 ms (1200, 1400) | 1400 ms | 2 | 2 |",
    ]


def test_summary_with_the_bare_page_adds_page_minus_bare_per_checkout_and_slowdown() -> None:
    loads = {
        (0, 1.0): loads_of([[0.0, 120.0], [200.0, 60.0]]),
        (0, 4.0): loads_of([[0.0, 900.0], [1000.0, 300.0], [2000.0, 80.0]]),
        (1, 1.0): loads_of([[0.0, 80.0], [200.0, 70.0]]),
        (1, 4.0): loads_of([[0.0, 400.0]]),
        (2, 1.0): loads_of([[0.0, 100.0]]),
        (2, 4.0): loads_of([[0.0, 1000.0]]),
    }
    lines = blt.summary_table(["/work/main", "/tmp/before", "bare"], [1.0, 4.0], loads, 2)
    assert lines[2:8] == [
        "| /work/main | x1 | 120 ms (120) | 80 ms | 2 | 1 |",
        "| /work/main | x4 | 900 ms (900) | 1130 ms | 3 | 1 |",
        "| /tmp/before | x1 | 80 ms (80) | 50 ms | 2 | 1 |",
        "| /tmp/before | x4 | 400 ms (400) | 350 ms | 1 | 1 |",
        "| bare | x1 | 100 ms (100) | 50 ms | 1 | 1 |",
        "| bare | x4 | 1000 ms (1000) | 950 ms | 1 | 1 |",
    ]
    assert lines[8:] == [
        "| page − bare: /work/main | x1 | +20 ms | +30 ms | +1 | |",
        "| page − bare: /work/main | x4 | -100 ms | +180 ms | +2 | |",
        "| page − bare: /tmp/before | x1 | -20 ms | +0 ms | +1 | |",
        "| page − bare: /tmp/before | x4 | -600 ms | -600 ms | +0 | |",
    ]
