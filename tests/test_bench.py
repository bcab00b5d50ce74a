"""The bench (``tools/bench.py``): frozen positions, statistics, table, a tiny CPython run, the worker in Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest
from prerequisites import browser_missing
from tool_modules import load_tool

from game2048 import board as B
from game2048.bench_positions import EARLY_MOVE, POSITIONS, generate

ROOT = Path(__file__).resolve().parents[1]


bench = load_tool("bench")


def test_at_least_20_distinct_live_positions_in_three_phases() -> None:
    assert len(POSITIONS) >= 20
    assert len({p.board for p in POSITIONS}) == len(POSITIONS)
    assert {p.phase for p in POSITIONS} == {"early", "middle", "late"}
    for p in POSITIONS:
        assert B.legal_moves(p.board), p.name
        assert B.max_rank(p.board) < 11, p.name


def test_phases_match_their_definitions() -> None:
    for p in POSITIONS:
        top = B.max_rank(p.board)
        if p.phase == "early":
            assert p.move_number == EARLY_MOVE and top <= 7
        elif p.phase == "middle":
            assert 8 <= top <= 9
        else:
            assert top >= 10


def test_generation_is_reproducible() -> None:
    # The frozen positions came from generate(); the same call gives the same boards on any machine.
    first = generate(per_phase=1)
    assert first == generate(per_phase=1)
    frozen = {(p.phase, p.seed, p.move_number): p.board for p in POSITIONS}
    early = first[0]
    assert frozen[(early.phase, early.seed, early.move_number)] == early.board


@pytest.mark.parametrize(
    "values, q, expected",
    [([1, 2, 3, 4, 5], 50, 3), ([1, 2, 3, 4, 5], 10, 1.4), ([10], 99, 10), ([0, 100], 99, 99), ([3, 1, 2], 100, 3)],
)
def test_percentile_interpolates_like_numpy(values: list[float], q: float, expected: float) -> None:
    assert bench.percentile(values, q) == pytest.approx(expected)


def test_percentile_of_nothing_is_an_error() -> None:
    with pytest.raises(ValueError):
        bench.percentile([], 50)


def test_summary_and_table() -> None:
    samples = [
        bench.Sample("a", "early", "up", 6, 20_000, 100.0, 101.0),
        bench.Sample("b", "late", "left", 8, 30_000, 110.0, 112.0),
        bench.Sample("c", "late", "down", 7, 10_000, 50.0, 51.0),
    ]
    s = bench.summary(samples)
    assert s["depth median"] == 7 and s["depth p10"] == pytest.approx(6.2)
    assert s["nodes/s median"] == 200_000
    assert s["think ms max"] == 110.0
    assert s["depth median (late)"] == 7.5 and "depth median (middle)" not in s
    table = bench.format_table({"CPython": s, "Chromium": s})
    assert "CPython" in table.splitlines()[0] and "Chromium" in table.splitlines()[0]
    assert any(line.startswith("nodes/s median") and "200,000" in line for line in table.splitlines())


def test_a_failed_search_stops_the_bench_with_the_workers_message() -> None:
    with pytest.raises(RuntimeError, match="unknown preset"):
        bench.sample_from_answer(POSITIONS[0], {"ok": False, "error": "unknown preset 'x'"}, 1.0)


def test_cpython_only_run_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--cpython-only", "--think-ms", "5", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert f"{len(POSITIONS)} positions" in out
    lines = {line.split("  ")[0]: line for line in out.splitlines()}
    assert "depth median" in lines and "think ms p99" in lines
    searches = int(lines["searches"].split()[-1])
    assert searches == len(POSITIONS)


def test_explain_adds_a_column_of_the_same_searches_explained(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--cpython-only", "--explain", "--think-ms", "5", "--repeat", "1", "--warmup", "0"]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if line.split() == ["CPython", "explained"])
    assert header
    searches = next(line for line in out.splitlines() if line.startswith("searches"))
    assert searches.split()[1:] == [str(len(POSITIONS))] * 2


def test_bad_options_are_refused() -> None:
    with pytest.raises(SystemExit):
        bench.main(["--think-ms", "0", "--cpython-only"])


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))
def test_the_page_worker_answers_in_chromium() -> None:
    from bench_browser import think_in_chromium  # tools/ is on sys.path since tools/bench.py was loaded

    requests = bench.requests_for(POSITIONS[:2], 30, 1, "alphabeta") + [
        {"rows": [[3, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]},
        {"rows": B.to_rows(POSITIONS[0].board), "depth": 3},
    ]
    replies = think_in_chromium(requests)
    for (answer, round_trip), request in zip(replies[:2], requests):
        assert answer["ok"] is True and answer["id"] == request["id"]
        assert answer["depth"] >= 1 and answer["think_ms"] == 30
        assert round_trip >= answer["elapsed_ms"]
    assert replies[2][0]["ok"] is False and "power of two" in replies[2][0]["error"]
    # Pyodide computes the same fixed-depth answer as CPython.
    from game2048.search import best_move

    expected = best_move(POSITIONS[0].board, depth=3)
    assert (replies[3][0]["move"], replies[3][0]["score"]) == (expected.move, expected.score)
