"""The Lighthouse bench's reading and printing (``tools/bench_lighthouse.py``) on a hand-written report; no Lighthouse.

The fixture (``tests/data/lighthouse_mobile.json``) keeps only the fields the bench reads, with the numbers
measured by hand before the bench existed; a desktop report is the same file with other numbers.
"""

from __future__ import annotations

import contextlib
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


# --bare: the page and the bare PyScript page in one run, side by side (#44).


def both_run(
    performance: float | None,
    form_factor: str = "mobile",
    *,
    fcp: float | None = 1900.0,
    tbt: float | None = 1000.0,
    seo: float = 1.0,
    findings: tuple[str, ...] = (),
) -> Any:
    """A hand-made run with every metric: FCP and TBT as given, the rest fixed."""
    scores = {"performance": performance, "accessibility": 1.0, "best-practices": 1.0, "seo": seo}
    metrics = {
        "first-contentful-paint": fcp,
        "largest-contentful-paint": 2500.0,
        "total-blocking-time": tbt,
        "cumulative-layout-shift": 0.003,
        "speed-index": 3200.0,
        "interactive": None,
        "total-byte-weight": 14_400_000.0,
    }
    return bl.Run(form_factor, scores, metrics, findings, "12.8.2")


@pytest.mark.parametrize(
    ("page", "bare", "unit", "text"),
    [
        (0.82, 0.88, "score", "-0.06"),
        (1.0, 1.0, "score", "+0.00"),
        (2240.0, 1700.0, "s", "+0.5 s"),
        (1700.0, 1720.0, "s", "+0.0 s"),  # rounds to nothing: no "-0.0"
        (2150.4, 1100.0, "ms", "+1,050 ms"),
        (900.0, 1000.0, "ms", "-100 ms"),
        (0.0031, 0.0011, "unitless", "+0.002"),
        (14_400_000.0, 7_200_000.0, "bytes", "+7.20 MB (+7,031 KiB)"),
        (None, 1000.0, "ms", "—"),
        (1000.0, None, "s", "—"),
    ],
)
def test_format_difference_is_page_minus_bare_signed_in_the_rows_unit(
    page: float | None, bare: float | None, unit: str, text: str
) -> None:
    assert bl.format_difference(page, bare, unit) == text


def test_bare_table_of_one_run_each_shows_the_page_the_bare_page_and_the_difference() -> None:
    page = both_run(0.82, fcp=2240.0, tbt=1350.0, seo=0.9)
    bare = both_run(0.88, fcp=1700.0, tbt=900.0)
    assert bl.bare_table("mobile", [page], [bare]).splitlines() == [
        "| mobile | the page | the bare page | difference (page − bare) |",
        "|---|---|---|---|",
        "| performance | 0.82 | 0.88 | -0.06 |",
        "| accessibility | 1.00 | 1.00 | +0.00 |",
        "| best-practices | 1.00 | 1.00 | +0.00 |",
        "| seo | 0.90 | 1.00 | -0.10 |",
        "| FCP | 2.2 s | 1.7 s | +0.5 s |",
        "| LCP | 2.5 s | 2.5 s | +0.0 s |",
        "| TBT | 1,350 ms | 900 ms | +450 ms |",
        "| CLS | 0.003 | 0.003 | +0.000 |",
        "| Speed Index | 3.2 s | 3.2 s | +0.0 s |",
        "| total byte weight | 14.40 MB (14,062 KiB) | 14.40 MB (14,062 KiB) | +0.00 MB (+0 KiB) |",
    ]


def test_bare_table_takes_each_pages_own_median_run() -> None:
    # each page's numbers come from its own median run by performance, never a mix of runs
    page = [both_run(0.70, tbt=1500.0), both_run(0.80, tbt=1200.0), both_run(0.60, tbt=1800.0)]
    bare = [both_run(0.95, tbt=400.0), both_run(0.85, tbt=700.0), both_run(0.90, tbt=500.0)]
    lines = bl.bare_table("desktop", page, bare).splitlines()
    assert lines[0] == (
        "| desktop | the page (median of 3 runs) | the bare page (median of 3 runs) | difference (page − bare) |"
    )
    assert lines[2] == "| performance | 0.70 (runs 0.60–0.80) | 0.90 (runs 0.85–0.95) | -0.20 |"
    assert "| TBT | 1,500 ms | 500 ms | +1,000 ms |" in lines


def test_bare_table_keeps_tti_while_either_page_has_it() -> None:
    with_tti = both_run(0.8)
    with_tti.metrics["interactive"] = 8800.0
    assert "| TTI | 8.8 s | — | — |" in bl.bare_table("mobile", [with_tti], [both_run(0.9)]).splitlines()
    assert "| TTI |" not in bl.bare_table("mobile", [both_run(0.8)], [both_run(0.9)])


def medians_of(mobile: Any, desktop: Any) -> dict[str, Any]:
    return {"mobile": mobile, "desktop": desktop}


def test_bare_goals_all_met_at_their_edges() -> None:
    # mobile: performance exactly 0.04 under the bare page's, TBT exactly 300 ms and FCP exactly 0.3 s over it
    page = medians_of(both_run(0.84, fcp=2000.0, tbt=1200.0), both_run(0.98, "desktop"))
    bare = medians_of(both_run(0.88, fcp=1700.0, tbt=900.0), both_run(1.0, "desktop"))
    goals = bl.bare_goals(page, bare)
    assert bl.goal_lines(goals) == [
        "- mobile performance 0.84 ≥ the bare page's 0.88 − 0.04: met",
        "- mobile TBT 1,200 ms ≤ the bare page's 900 ms + 300 ms: met",
        "- mobile FCP 2.00 s ≤ the bare page's 1.70 s + 0.30 s: met",
        "- desktop performance 0.98 ≥ 0.98: met",
        "- mobile accessibility 1.00 ≥ 1.00: met",
        "- mobile best-practices 1.00 ≥ 1.00: met",
        "- mobile seo 1.00 ≥ 1.00: met",
        "- desktop accessibility 1.00 ≥ 1.00: met",
        "- desktop best-practices 1.00 ≥ 1.00: met",
        "- desktop seo 1.00 ≥ 1.00: met",
    ]
    assert all(goal.met for goal in goals)


def test_bare_goals_not_met_just_past_their_edges() -> None:
    page = medians_of(both_run(0.83, fcp=2001.0, tbt=1201.0, seo=0.92), both_run(0.97, "desktop"))
    bare = medians_of(both_run(0.88, fcp=1700.0, tbt=900.0), both_run(0.90, "desktop"))
    missed = [goal.text for goal in bl.bare_goals(page, bare) if not goal.met]
    assert missed == [
        "mobile performance 0.83 ≥ the bare page's 0.88 − 0.04",
        "mobile TBT 1,201 ms ≤ the bare page's 900 ms + 300 ms",
        "mobile FCP 2.00 s ≤ the bare page's 1.70 s + 0.30 s",
        "desktop performance 0.97 ≥ 0.98",
        "mobile seo 0.92 ≥ 1.00",
    ]


def test_a_bare_goal_with_a_number_missing_is_not_met() -> None:
    page = medians_of(both_run(None, tbt=None), both_run(1.0, "desktop"))
    bare = medians_of(both_run(0.88, fcp=None), both_run(1.0, "desktop"))
    lines = bl.goal_lines(bl.bare_goals(page, bare))
    assert lines[:3] == [
        "- mobile performance — ≥ the bare page's 0.88 − 0.04: not met",
        "- mobile TBT — ≤ the bare page's 1,000 ms + 300 ms: not met",
        "- mobile FCP 1.90 s ≤ the bare page's — + 0.30 s: not met",
    ]


def test_bare_report_has_a_table_per_form_factor_then_the_goals_and_the_findings() -> None:
    finding = "seo: meta-description (Document does not have a meta description)"
    all_runs = {
        "page": {"mobile": [both_run(0.9)], "desktop": [both_run(0.99, "desktop", findings=(finding,))]},
        "bare": {"mobile": [both_run(0.9, findings=(finding,))], "desktop": [both_run(1.0, "desktop")]},
    }
    parts, goals = bl.bare_report(all_runs)
    lines = "\n".join(parts).splitlines()
    assert lines[0] == "| mobile | the page | the bare page | difference (page − bare) |"
    assert lines[12] == ""
    assert lines[13] == "| desktop | the page | the bare page | difference (page − bare) |"
    assert lines[25:27] == ["", "Goals (#44):"]
    assert lines[27:37] == bl.goal_lines(goals)
    assert lines[37:] == ["", f"- {finding}: desktop, mobile (the bare page)"]


def test_run_all_alternates_the_page_and_the_bare_page_within_each_form_factor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[tuple[str, str]] = []

    def fake_measure(url: str, form_factor: str, chromium: str) -> Any:
        calls.append((url, form_factor))
        return both_run(0.9, form_factor)

    monkeypatch.setattr(bl, "measure", fake_measure)
    all_runs = bl.run_all({"page": "http://page", "bare": "http://bare"}, 2, "chromium")
    each_run = [
        ("http://page", "mobile"),
        ("http://bare", "mobile"),
        ("http://page", "desktop"),
        ("http://bare", "desktop"),
    ]
    assert calls == each_run * 2
    assert {page: {name: len(runs) for name, runs in by.items()} for page, by in all_runs.items()} == {
        "page": {"mobile": 2, "desktop": 2},
        "bare": {"mobile": 2, "desktop": 2},
    }


class FakeServer:
    def shutdown(self) -> None:
        pass

    def server_close(self) -> None:
        pass


def fake_bench(monkeypatch: pytest.MonkeyPatch, page_mobile: Any, bare_mobile: Any, tmp_path: Path) -> list[Any]:
    """main() without Lighthouse, a browser or a server: the runs are the ones given; the roots it served."""
    served: list[Any] = []

    def fake_server(root: Path, port: int) -> tuple[FakeServer, str]:
        served.append(root)
        return FakeServer(), f"http://{len(served)}"

    def fake_run_all(urls: Any, runs: int, chromium: str) -> dict[str, dict[str, list[Any]]]:
        chosen = {"page": page_mobile, "bare": bare_mobile}
        return {page: {"mobile": [chosen[page]], "desktop": [both_run(1.0, "desktop")]} for page in urls}

    @contextlib.contextmanager
    def fake_bare_page(root: Path) -> Any:
        yield tmp_path / "bare-of" / root.name

    monkeypatch.setattr(bl, "chromium_path", lambda: "chromium")
    monkeypatch.setattr(bl, "chromium_version", lambda chromium: "1.0")
    monkeypatch.setattr(bl, "start_server", fake_server)
    monkeypatch.setattr(bl, "run_all", fake_run_all)
    monkeypatch.setattr(bl, "temporary_bare_page", fake_bare_page)
    monkeypatch.setattr(bl, "git_commit", lambda: "abc1234")
    return served


def test_bare_measures_the_chosen_root_beside_its_bare_page_and_prints_the_goals(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    served = fake_bench(monkeypatch, both_run(0.96, tbt=1400.0), both_run(0.98, tbt=900.0), tmp_path)
    out = tmp_path / "runs.json"
    assert bl.main(["--root", str(tmp_path / "before"), "--bare", "--out", str(out)]) == 0  # no --check: 0
    assert served == [tmp_path / "before", tmp_path / "bare-of" / "before"]
    printed = capsys.readouterr().out
    assert "| TBT | 1,400 ms | 900 ms | +500 ms |" in printed
    assert "- mobile TBT 1,400 ms ≤ the bare page's 900 ms + 300 ms: not met" in printed
    raw = json.loads(out.read_text(encoding="utf-8"))
    assert raw["median"]["mobile"]["metrics"]["total-blocking-time"] == 1400.0
    assert raw["bare_runs"]["mobile"][0]["metrics"]["total-blocking-time"] == 900.0
    assert {"text": "mobile TBT 1,400 ms ≤ the bare page's 900 ms + 300 ms", "met": False} in raw["bare_goals"]


def test_check_with_bare_fails_on_a_goal_of_44_that_the_old_goals_do_not_have(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # mobile 0.95 meets #25's 0.95, but is 0.05 under the bare page's 1.00
    fake_bench(monkeypatch, both_run(0.95, tbt=900.0), both_run(1.0, tbt=900.0), tmp_path)
    assert bl.main(["--check"]) == 0
    assert bl.main(["--check", "--bare"]) == 1
    assert capsys.readouterr().err == "goals not met: mobile performance 0.95 ≥ the bare page's 1.00 − 0.04\n"
