"""The Lighthouse bench's reading and printing (``tools/bench_lighthouse.py``) on a hand-written report; no Lighthouse.

The fixture (``tests/data/lighthouse_mobile.json``) keeps only the fields the bench reads, with the numbers
measured by hand before the bench existed; a desktop report is the same file with other numbers.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from tool_modules import load_tool

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "data" / "lighthouse_mobile.json"


bl = load_tool("bench_lighthouse")


def mobile_report() -> dict[str, Any]:
    report: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return report


def desktop_report(performance: float = 0.87, tbt: float = 310.0) -> dict[str, Any]:
    report = copy.deepcopy(mobile_report())
    report["configSettings"]["formFactor"] = "desktop"
    report["categories"]["performance"]["score"] = performance
    report["audits"]["total-blocking-time"]["numericValue"] = tbt
    report["audits"]["first-contentful-paint"]["numericValue"] = 406.7
    return report


def run_with(performance: float | None, form_factor: str = "mobile", tbt: float = 1000.0) -> Any:
    scores = {"performance": performance, "accessibility": 1.0, "best-practices": 1.0, "seo": 1.0}
    metrics = {audit: None for audit, _, _ in bl.METRICS} | {"total-blocking-time": tbt}
    return bl.Run(form_factor, scores, metrics, (), "12.8.2")


def test_read_report_takes_the_four_scores_and_the_metrics() -> None:
    run = bl.read_report(mobile_report())
    assert run.form_factor == "mobile"
    assert run.lighthouse == "12.8.2"
    assert run.scores == {"performance": 0.75, "accessibility": 1.0, "best-practices": 1.0, "seo": 0.9}
    assert run.metrics["total-blocking-time"] == pytest.approx(1100.4)
    assert run.metrics["interactive"] == 8800.0
    assert run.metrics["total-byte-weight"] == 14_400_000


def test_findings_are_the_failing_weighted_audits_outside_performance() -> None:
    # TBT fails but is performance; inspector-issues fails with weight 0; target-size is not applicable (null)
    run = bl.read_report(mobile_report())
    assert run.findings == ("seo: meta-description (Document does not have a meta description)",)


def test_a_missing_audit_or_category_score_reads_as_none() -> None:
    report = mobile_report()
    del report["audits"]["interactive"]
    report["categories"]["accessibility"]["score"] = None  # Lighthouse's way of saying an audit errored
    run = bl.read_report(report)
    assert run.metrics["interactive"] is None
    assert run.scores["accessibility"] is None


def test_a_runtime_error_is_a_failure_of_lighthouse() -> None:
    report = mobile_report()
    report["runtimeError"] = {"code": "NO_FCP", "message": "The page did not paint any content."}
    with pytest.raises(bl.LighthouseError, match="NO_FCP"):
        bl.read_report(report)


def test_median_run_is_the_middle_performance_score_and_the_lower_middle_of_an_even_count() -> None:
    runs = [run_with(0.70, tbt=1), run_with(0.50, tbt=2), run_with(0.90, tbt=3)]
    assert bl.median_run(runs).metrics["total-blocking-time"] == 1  # the whole run, not a mix of runs
    assert bl.median_run(runs[:2]).scores["performance"] == 0.50
    assert bl.median_run([run_with(None), run_with(0.6), run_with(0.8)]).scores["performance"] == 0.6
    with pytest.raises(ValueError):
        bl.median_run([])


@pytest.mark.parametrize(
    ("value", "unit", "text"),
    [
        (1933.8, "s", "1.9 s"),
        (1100.4, "ms", "1,100 ms"),
        (0.00328, "unitless", "0.003"),
        (14_400_000, "bytes", "14.40 MB (14,062 KiB)"),
        (None, "s", "—"),
    ],
)
def test_format_metric_reads_like_lighthouse(value: float | None, unit: str, text: str) -> None:
    assert bl.format_metric(value, unit) == text


def test_goal_marks_and_unmet_goals() -> None:
    assert bl.goal_mark(0.95, 0.95) == "≥ 0.95: met"
    assert bl.goal_mark(0.94, 0.95) == "≥ 0.95: not met"
    assert bl.goal_mark(None, 1.0) == "≥ 1.00: not met"
    medians = {"mobile": bl.read_report(mobile_report()), "desktop": bl.read_report(desktop_report(0.99))}
    assert bl.unmet_goals(medians) == [
        "mobile performance 0.75 < 0.95",
        "mobile seo 0.90 < 1.00",
        "desktop seo 0.90 < 1.00",
    ]


def test_markdown_table_of_one_run_each() -> None:
    runs = {"mobile": [bl.read_report(mobile_report())], "desktop": [bl.read_report(desktop_report())]}
    assert bl.markdown_table(runs).splitlines() == [
        "| | mobile | desktop | goal (mobile / desktop) |",
        "|---|---|---|---|",
        "| performance | 0.75 | 0.87 | ≥ 0.95: not met / ≥ 0.98: not met |",
        "| accessibility | 1.00 | 1.00 | ≥ 1.00: met / ≥ 1.00: met |",
        "| best-practices | 1.00 | 1.00 | ≥ 1.00: met / ≥ 1.00: met |",
        "| seo | 0.90 | 0.90 | ≥ 1.00: not met / ≥ 1.00: not met |",
        "| FCP | 1.9 s | 0.4 s | |",
        "| LCP | 2.5 s | 2.5 s | |",
        "| TBT | 1,100 ms | 310 ms | |",
        "| CLS | 0.003 | 0.003 | |",
        "| Speed Index | 3.2 s | 3.2 s | |",
        "| TTI | 8.8 s | 8.8 s | |",
        "| total byte weight | 14.40 MB (14,062 KiB) | 14.40 MB (14,062 KiB) | |",
    ]


def test_markdown_table_of_several_runs_shows_the_median_run_and_the_spread() -> None:
    mobile = [bl.read_report(desktop_report(score, tbt)) for score, tbt in ((0.6, 900.0), (0.8, 500.0), (0.7, 700.0))]
    runs = {"mobile": mobile, "desktop": mobile}
    lines = bl.markdown_table(runs).splitlines()
    assert lines[0] == "| | mobile (median of 3 runs) | desktop (median of 3 runs) | goal (mobile / desktop) |"
    assert lines[2].startswith("| performance | 0.70 (runs 0.60–0.80) | 0.70 (runs 0.60–0.80) |")
    assert "| TBT | 700 ms | 700 ms | |" in lines


def test_the_tti_row_goes_when_no_run_has_it() -> None:
    report = mobile_report()
    del report["audits"]["interactive"]
    run = bl.read_report(report)
    table = bl.markdown_table({"mobile": [run], "desktop": [run]})
    assert "| TTI |" not in table
    assert "| Speed Index |" in table


def test_findings_notes_name_the_form_factors_once_per_audit() -> None:
    medians = {"mobile": bl.read_report(mobile_report()), "desktop": bl.read_report(desktop_report())}
    assert bl.findings_notes(medians) == [
        "- seo: meta-description (Document does not have a meta description): mobile, desktop"
    ]


def test_measure_tries_a_failed_run_once_more(monkeypatch: pytest.MonkeyPatch) -> None:
    outcomes: list[Any] = [bl.LighthouseError("NO_NAVSTART"), mobile_report()]

    def fake_run(url: str, form_factor: str, chromium: str) -> dict[str, Any]:
        outcome = outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return dict(outcome)

    monkeypatch.setattr(bl, "run_lighthouse", fake_run)
    assert bl.measure("http://x/index.html", "mobile", "chromium").scores["performance"] == 0.75
    outcomes[:] = [bl.LighthouseError("first"), bl.LighthouseError("second")]
    with pytest.raises(bl.LighthouseError, match="second"):
        bl.measure("http://x/index.html", "mobile", "chromium")
