"""``compare-runs`` and Welch's test: statistics over training runs, against values worked out by hand."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from game2048.evaluation.ntuple_shapes import parse_shape
from game2048.lab import cli
from game2048.lab.training.compare_runs import GREEDY_FILE, run_greedy, welch_test
from game2048.lab.training.trainer import TrainOptions, greedy_results, train


def test_welch_on_two_pairs_of_equal_spread_has_two_degrees_of_freedom_and_the_closed_form_p() -> None:
    # a = 0, 2 and b = 3, 5: means 1 and 4, sample variances 2 and 2.  t = -3 / sqrt(2/2 + 2/2) = -3 / sqrt 2;
    # df = (1 + 1)^2 / (1^2/1 + 1^2/1) = 2; for 2 degrees of freedom P(|T| >= |t|) = 1 - |t| / sqrt(2 + t^2).
    test = welch_test([0, 2], [3, 5])
    t = -3 / math.sqrt(2)
    assert test.t == pytest.approx(t) and test.df == pytest.approx(2)
    assert test.p == pytest.approx(1 - abs(t) / math.sqrt(2 + t * t)) and test.p == pytest.approx(0.16795, abs=1e-5)


def test_welch_with_unequal_spread_against_a_hand_worked_t_df_and_an_integrated_p() -> None:
    # a = 100, 110, 120: mean 110, variance 100; b = 90, 100: mean 95, variance 50.
    # shares 100/3 and 50/2 = 25; t = 15 / sqrt(100/3 + 25) = 15 / sqrt(175/3);
    # df = (175/3)^2 / ((100/3)^2 / 2 + 25^2 / 1) = (30625/9) / (5000/9 + 625) = 30625 / 10625 = 2.88235...
    test = welch_test([100, 110, 120], [90, 100])
    assert test.t == pytest.approx(15 / math.sqrt(175 / 3))
    assert test.df == pytest.approx(30625 / 10625)
    assert test.p == pytest.approx(_p_by_integration(test.t, test.df), abs=1e-6)


def test_the_p_value_is_students_for_whole_and_fractional_degrees_of_freedom() -> None:
    # one value a side apart by d with the same spread: t and df follow from the sample variances.
    test = welch_test([0.0, 2.0, 4.0], [1.0, 3.0, 5.0, 7.0, 9.0])  # variances 4 and 10: shares 4/3 and 2
    assert test.t == pytest.approx(-3 / math.sqrt(4 / 3 + 2))
    assert test.df == pytest.approx((10 / 3) ** 2 / ((4 / 3) ** 2 / 2 + 2**2 / 4))
    assert test.p == pytest.approx(_p_by_integration(test.t, test.df), abs=1e-6)


def test_welch_refuses_groups_it_cannot_test() -> None:
    with pytest.raises(ValueError, match="at least two"):
        welch_test([1.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="spread"):
        welch_test([3.0, 3.0], [3.0, 3.0])


def _p_by_integration(t: float, df: float, steps: int = 20_000) -> float:
    """``P(|T| >= |t|)`` as 1 minus twice Simpson's integral of Student's density from 0 to |t|: another road."""
    scale = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)

    def density(x: float) -> float:
        return scale * (1 + x * x / df) ** (-(df + 1) / 2)

    h = abs(t) / steps
    total = density(0.0) + density(abs(t))
    total += sum((4 if i % 2 else 2) * density(i * h) for i in range(1, steps))
    return 1 - 2 * total * h / 3


def _runs(folder: Path, results: dict[str, tuple[float, float, float]]) -> list[str]:
    """Run folders holding only their greedy results (name: mean score, 2048 rate, 8192 rate)."""
    paths = []
    for name, (mean, rate_2048, rate_8192) in results.items():
        run = folder / name
        run.mkdir()
        greedy = {
            "games": 1000,
            "seed": 1,
            "mean_score": mean,
            "rate_2048": rate_2048,
            "rate_8192": rate_8192,
            "rate_16384": 0.0,
            "rate_32768": 0.0,
        }
        (run / GREEDY_FILE).write_text(json.dumps(greedy))
        paths.append(str(run))
    return paths


def test_compare_runs_prints_each_run_the_spread_and_welch_as_worked_out_by_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ours = _runs(tmp_path, {"ours-1": (100_000, 0.95, 0.50), "ours-2": (90_000, 0.97, 0.40)})
    theirs = _runs(tmp_path, {"theirs-1": (85_000, 0.92, 0.45), "theirs-2": (95_000, 0.94, 0.45)})
    assert cli.main(["compare-runs", *ours, "--against", *theirs]) == 0
    printed = capsys.readouterr().out
    first, rest = printed.split("group 2: 2 runs")
    second, welch = rest.split("Welch's t-test, group 1 against group 2")
    assert first.startswith("group 1: 2 runs") and f"{tmp_path / 'ours-2'}" in first
    # ours: scores 100,000 and 90,000: mean 95,000, sd sqrt(5e7) = 7,071; 2048 in 95 % and 97 %: mean 96 %, sd 1.4 %.
    assert _cells(first, "mean") == ["95,000", "96.0%", "45.0%", "0.0%", "0.0%"]
    assert _cells(first, "sd") == ["7,071", "1.4%", "7.1%", "0.0%", "0.0%"]
    assert _cells(first, "range") == ["90,000–100,000", "95.0%–97.0%", "40.0%–50.0%", "0.0%–0.0%", "0.0%–0.0%"]
    assert _cells(second, "mean") == ["90,000", "93.0%", "45.0%", "0.0%", "0.0%"]
    assert _cells(second, "sd") == ["7,071", "1.4%", "0.0%", "0.0%", "0.0%"]
    # Two runs a group and equal variances: df = 2 and p = 1 - |t| / sqrt(2 + t^2).
    # Scores: t = 5,000 / sqrt(5e7/2 + 5e7/2) = 1/sqrt 2 = 0.707, p = 1 - 0.707 / sqrt 2.5 = 0.553.
    # 2048: t = 0.03 / sqrt(0.0002/2 + 0.0002/2) = 2.121, p = 1 - 2.121 / sqrt 6.5 = 0.168.
    # 8192: the same means (t = 0), and all the spread in one group of two: df = 1.
    assert _cells(welch, "mean") == ["score", "0.71", "2.0", "0.553"]
    assert _cells(welch, "2048") == ["2.12", "2.0", "0.168"]
    assert _cells(welch, "8192") == ["0.00", "1.0", "1.000"]
    assert _cells(welch, "16384")[:3] == ["–", "–", "Welch's"]  # no spread at all: no test


def _cells(block: str, label: str) -> list[str]:
    """The cells after ``label`` of the row it begins (empty columns are not cells) in a block of the output."""
    for line in block.splitlines():
        cells = line.split()
        if cells and cells[0] == label:
            return cells[1:]
    raise AssertionError(f"no row {label!r} in {block}")


def test_a_run_without_greedy_results_is_played_once_and_again_after_it_trains_on(tmp_path: Path) -> None:
    run = tmp_path / "run"
    options = TrainOptions(shape="2x4", games=400, block=200, seed=4)
    _, weights = train(options, run)
    found = run_greedy(run, games=30)
    assert found == {**greedy_results(parse_shape("2x4"), weights, 30, 1), "trained_games": 400}
    assert json.loads((run / GREEDY_FILE).read_text()) == found
    assert run_greedy(run, games=999) == found  # read back, not played again
    train(TrainOptions(shape="2x4", games=600, block=200, seed=4), run, resume=True)
    assert run_greedy(run, games=30)["trained_games"] == 600


def test_compare_runs_refuses_a_folder_with_no_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["compare-runs", str(tmp_path)])
    assert exit_info.value.code == 2 and "holds neither a training run" in capsys.readouterr().err
