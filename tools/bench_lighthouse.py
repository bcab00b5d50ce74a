"""Lighthouse on the page, mobile and desktop: the four category scores and the load metrics, for docs/results.md.

Lighthouse (pinned in package.json's devDependencies, run from
``node_modules/.bin``) loads ``index.html?sw=off`` (the page without its
service worker, so every visit is a first one) from ``tools/serve.py`` in
Debian's Chromium with the project's flags (``tools/browser.py``), once per
form factor and run: **mobile** (Lighthouse's default, a moto g power,
simulated throttling) and **desktop** (``--preset=desktop``); the two
alternate, so a busy machine weighs on both alike.  Performance swings from
run to run, so each form factor keeps its **median run by performance score**
(of ``--runs``, default 3; the lower middle of an even count): every number
shown for it comes from that one run, never a mix of runs.

``--root`` measures another checkout (a worktree of an earlier commit, for a
before and after).  ``--bare`` measures in the same run the bare PyScript page
(``bare_page.py``: the checkout's PyScript and two interpreters alone), each
run of the page followed by one of the bare page, and shows for each form
factor the page, the bare page and page − bare, then #44's goals, met or not.

It is a measurement, not a test: it exits 0 whatever the scores, unless
Lighthouse itself fails twice on one run (2), or ``--check`` and a goal is not
met (1).  The table is Markdown; ``--out FILE.json`` keeps every run's numbers.

package.json pins ``third-party-web`` and ``legacy-javascript`` in
``overrides``: Lighthouse's ``@paulirish/trace_engine`` asks for them as
``latest``, which ``npm ci`` resolves again at each install and refuses once
a newer one is published.

    python tools/bench_lighthouse.py [--runs 3] [--out FILE.json] [--check] [--root DIR] [--bare]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bare_page import LABEL, temporary_bare_page  # noqa: E402
from bench_load import describe_run, git_commit, machine  # noqa: E402
from browser import CHROMIUM_ARGS, chromium_path  # noqa: E402
from serve import REPO_ROOT, start_server  # noqa: E402

LIGHTHOUSE = REPO_ROOT / "node_modules" / ".bin" / "lighthouse"
PAGE = "index.html?sw=off"
RUN_TIMEOUT_S = 300
ATTEMPTS = 2  # a run Lighthouse fails (NO_NAVSTART on a busy machine: "Please run Lighthouse again") is tried again

FORM_FACTORS: dict[str, tuple[str, ...]] = {"mobile": (), "desktop": ("--preset=desktop",)}
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
# Lighthouse's audit id, the row's name and how its numericValue reads.
METRICS: tuple[tuple[str, str, str], ...] = (
    ("first-contentful-paint", "FCP", "s"),
    ("largest-contentful-paint", "LCP", "s"),
    ("total-blocking-time", "TBT", "ms"),
    ("cumulative-layout-shift", "CLS", "unitless"),
    ("speed-index", "Speed Index", "s"),
    ("interactive", "TTI", "s"),
    ("total-byte-weight", "total byte weight", "bytes"),
)
# The goals (#25): the least category score for each form factor.
GOALS: dict[str, dict[str, float]] = {
    "mobile": {"performance": 0.95, "accessibility": 1.0, "best-practices": 1.0, "seo": 1.0},
    "desktop": {"performance": 0.98, "accessibility": 1.0, "best-practices": 1.0, "seo": 1.0},
}
# #44's goals for the page's own start (--bare), against the bare PyScript page's median runs on mobile: its
# performance at most this much below the bare page's, and these metrics at most this many ms above it ...
BARE_SCORE_MARGIN = 0.04
BARE_METRIC_MARGINS: dict[str, float] = {"total-blocking-time": 300.0, "first-contentful-paint": 300.0}
# ... and these least scores of the page's own, whatever the bare page scores.
OWN_GOALS: tuple[tuple[str, str, float], ...] = (
    ("desktop", "performance", 0.98),
    *((form_factor, category, 1.0) for form_factor in FORM_FACTORS for category in CATEGORIES[1:]),
)
PAGES = {"page": "the page", "bare": "the bare page"}
"""The pages of a --bare run, as its runs are keyed and as its tables name them."""


class LighthouseError(RuntimeError):
    """Lighthouse did not measure the page (it failed, or its report says why not)."""


# ---------------------------------------------------------------------------------------------------------------
# Pure parts: reading a report, the median run, the table (tested in tests/test_bench_lighthouse.py).


@dataclass(frozen=True)
class Run:
    """One Lighthouse run, as numbers: category scores (0–1), metrics (numericValue), and the audits that failed.

    A score or metric is ``None`` when the report has none (an audit that errored, TTI in a version without it).
    ``findings`` are ``"category: audit-id (title)"`` for each scored audit below 1 outside performance.
    """

    form_factor: str
    scores: dict[str, float | None]
    metrics: dict[str, float | None]
    findings: tuple[str, ...]
    lighthouse: str


def read_report(report: Mapping[str, Any]) -> Run:
    """The numbers of a Lighthouse JSON report (``--output=json``); raises if it carries a runtime error."""
    error = report.get("runtimeError")
    if error:
        raise LighthouseError(f"Lighthouse could not load the page: {error.get('code')}: {error.get('message')}")
    audits = report.get("audits", {})
    categories = report.get("categories", {})
    scores = {name: _number(categories.get(name, {}).get("score")) for name in CATEGORIES}
    metrics = {audit: _number(audits.get(audit, {}).get("numericValue")) for audit, _, _ in METRICS}
    findings = []
    for name in CATEGORIES[1:]:
        for ref in categories.get(name, {}).get("auditRefs", []):
            audit = audits.get(ref.get("id"), {})
            score = _number(audit.get("score"))
            if ref.get("weight", 0) > 0 and score is not None and score < 1:
                findings.append(f"{name}: {ref['id']} ({audit.get('title', '')})")
    form_factor = report.get("configSettings", {}).get("formFactor", "?")
    return Run(form_factor, scores, metrics, tuple(findings), str(report.get("lighthouseVersion", "?")))


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def median_run(runs: Sequence[Run]) -> Run:
    """The run with the median performance score (the lower middle of an even count; unscored runs sort first)."""
    if not runs:
        raise ValueError("no runs")
    ordered = sorted(runs, key=lambda run: (run.scores["performance"] is not None, run.scores["performance"] or 0.0))
    return ordered[(len(ordered) - 1) // 2]


def format_score(score: float | None) -> str:
    return "—" if score is None else f"{score:.2f}"


def format_metric(value: float | None, unit: str) -> str:
    """As Lighthouse shows it: ``1.9 s``, ``1,100 ms``, ``0.003``; bytes as ``7.19 MB (7,021 KiB)``."""
    if value is None:
        return "—"
    if unit == "s":
        return f"{value / 1000:.1f} s"
    if unit == "ms":
        return f"{value:,.0f} ms"
    if unit == "bytes":
        return f"{value / 1e6:.2f} MB ({value / 1024:,.0f} KiB)"
    return f"{value:.3f}"


def goal_mark(score: float | None, goal: float) -> str:
    """``≥ 0.95: met`` or ``not met``; an unscored category does not meet its goal."""
    verdict = "met" if score is not None and score >= goal else "not met"
    return f"≥ {goal:.2f}: {verdict}"


def unmet_goals(medians: Mapping[str, Run]) -> list[str]:
    """``"mobile performance 0.75 < 0.95"`` for each goal the median runs miss."""
    missed = []
    for form_factor, run in medians.items():
        for category, goal in GOALS[form_factor].items():
            score = run.scores[category]
            if score is None or score < goal:
                missed.append(f"{form_factor} {category} {format_score(score)} < {goal:.2f}")
    return missed


def score_range(runs: Sequence[Run]) -> str:
    """`` (runs 0.61–0.70)``: the performance scores' spread, empty for a single run."""
    scores = [run.scores["performance"] for run in runs if run.scores["performance"] is not None]
    if len(runs) < 2 or not scores:
        return ""
    return f" (runs {min(scores):.2f}–{max(scores):.2f})"


def markdown_table(all_runs: Mapping[str, Sequence[Run]]) -> str:
    """Scores then metrics, one column per form factor (its median run), the goals in the last column."""
    form_factors = list(all_runs)
    medians = {name: median_run(runs) for name, runs in all_runs.items()}
    heads = [f"{name} (median of {len(runs)} runs)" if len(runs) > 1 else name for name, runs in all_runs.items()]
    lines = [
        "| | " + " | ".join(heads) + " | goal (" + " / ".join(form_factors) + ") |",
        "|---|" + "---|" * len(form_factors) + "---|",
    ]
    for category in CATEGORIES:
        cells = [format_score(medians[name].scores[category]) for name in form_factors]
        if category == "performance":
            cells = [cell + score_range(all_runs[name]) for cell, name in zip(cells, form_factors)]
        goals = [goal_mark(medians[name].scores[category], GOALS[name][category]) for name in form_factors]
        lines.append(f"| {category} | " + " | ".join(cells) + " | " + " / ".join(goals) + " |")
    for audit, row, unit in METRICS:
        values = [medians[name].metrics[audit] for name in form_factors]
        if audit == "interactive" and all(value is None for value in values):
            continue  # not scored since Lighthouse 10, gone from 13's reports: the row shows while a version has it
        lines.append(f"| {row} | " + " | ".join(format_metric(value, unit) for value in values) + " | |")
    return "\n".join(lines)


def findings_notes(medians: Mapping[str, Run]) -> list[str]:
    """One line per failing audit outside performance, with the form factors that flagged it."""
    seen: dict[str, list[str]] = {}
    for form_factor, run in medians.items():
        for finding in run.findings:
            seen.setdefault(finding, []).append(form_factor)
    return [f"- {finding}: {', '.join(names)}" for finding, names in seen.items()]


def _signed(value: float, digits: int) -> str:
    """``+1,020`` or ``-0.04``: rounded first, so a difference that rounds to nothing shows as ``+0``, not ``-0``."""
    return f"{round(value, digits) + 0.0:+,.{digits}f}"


def format_difference(page: float | None, bare: float | None, unit: str) -> str:
    """page − bare in the row's unit (``score``, or a metric's as ``format_metric``): ``+0.3 s``, ``-0.04``."""
    if page is None or bare is None:
        return "—"
    difference = page - bare
    if unit == "score":
        return _signed(difference, 2)
    if unit == "s":
        return f"{_signed(difference / 1000, 1)} s"
    if unit == "ms":
        return f"{_signed(difference, 0)} ms"
    if unit == "bytes":
        return f"{_signed(difference / 1e6, 2)} MB ({_signed(difference / 1024, 0)} KiB)"
    return _signed(difference, 3)


def bare_table(form_factor: str, page_runs: Sequence[Run], bare_runs: Sequence[Run]) -> str:
    """One form factor: the page's median run, the bare page's median run, and page − bare, row by row."""
    page, bare = median_run(page_runs), median_run(bare_runs)
    heads = [
        f"{name} (median of {len(runs)} runs)" if len(runs) > 1 else name
        for name, runs in ((PAGES["page"], page_runs), (PAGES["bare"], bare_runs))
    ]
    lines = [f"| {form_factor} | {heads[0]} | {heads[1]} | difference (page − bare) |", "|---|---|---|---|"]
    for category in CATEGORIES:
        cells = [format_score(page.scores[category]), format_score(bare.scores[category])]
        if category == "performance":
            cells = [cells[0] + score_range(page_runs), cells[1] + score_range(bare_runs)]
        difference = format_difference(page.scores[category], bare.scores[category], "score")
        lines.append(f"| {category} | {cells[0]} | {cells[1]} | {difference} |")
    for audit, row, unit in METRICS:
        values = page.metrics[audit], bare.metrics[audit]
        if audit == "interactive" and values == (None, None):
            continue  # as in markdown_table
        cells = [format_metric(value, unit) for value in values]
        lines.append(f"| {row} | {cells[0]} | {cells[1]} | {format_difference(*values, unit)} |")
    return "\n".join(lines)


@dataclass(frozen=True)
class Goal:
    """One of #44's goals as the report states it (``mobile TBT 1,100 ms ≤ the bare page's 900 ms + 300 ms``),
    and whether the median runs meet it."""

    text: str
    met: bool


def _goal_metric(value: float | None, unit: str) -> str:
    """As ``format_metric``, seconds to the hundredth: a goal's margin is 0.3 s, so 0.1 s would round it away."""
    return f"{value / 1000:.2f} s" if value is not None and unit == "s" else format_metric(value, unit)


def bare_goals(page: Mapping[str, Run], bare: Mapping[str, Run]) -> list[Goal]:
    """#44's goals on the median runs of the page and of the bare page, by form factor; a number missing meets none."""
    goals = []
    score, floor = page["mobile"].scores["performance"], bare["mobile"].scores["performance"]
    met = score is not None and floor is not None and score >= floor - BARE_SCORE_MARGIN - 1e-9
    text = f"mobile performance {format_score(score)} ≥ the bare page's {format_score(floor)} − {BARE_SCORE_MARGIN:.2f}"
    goals.append(Goal(text, met))
    units = {audit: (row, unit) for audit, row, unit in METRICS}
    for audit, margin in BARE_METRIC_MARGINS.items():
        row, unit = units[audit]
        value, base = page["mobile"].metrics[audit], bare["mobile"].metrics[audit]
        met = value is not None and base is not None and value <= base + margin
        shown = [_goal_metric(number, unit) for number in (value, base, margin)]
        goals.append(Goal(f"mobile {row} {shown[0]} ≤ the bare page's {shown[1]} + {shown[2]}", met))
    for form_factor, category, least in OWN_GOALS:
        score = page[form_factor].scores[category]
        goals.append(
            Goal(f"{form_factor} {category} {format_score(score)} ≥ {least:.2f}", score is not None and score >= least)
        )
    return goals


def goal_lines(goals: Sequence[Goal]) -> list[str]:
    """``- mobile performance 0.90 ≥ the bare page's 0.92 − 0.04: met``, one line per goal."""
    return [f"- {goal.text}: {'met' if goal.met else 'not met'}" for goal in goals]


def bare_report(all_runs: Mapping[str, Mapping[str, Sequence[Run]]]) -> tuple[list[str], list[Goal]]:
    """A --bare run's report under its heading (a table per form factor, #44's goals, the failing audits), and
    the goals."""
    page = {name: median_run(runs) for name, runs in all_runs["page"].items()}
    bare = {name: median_run(runs) for name, runs in all_runs["bare"].items()}
    lines = []
    for form_factor in all_runs["page"]:
        lines += [bare_table(form_factor, all_runs["page"][form_factor], all_runs["bare"][form_factor]), ""]
    goals = bare_goals(page, bare)
    lines += ["Goals (#44):", *goal_lines(goals)]
    notes = findings_notes({**page, **{f"{name} ({PAGES['bare']})": run for name, run in bare.items()}})
    return lines + (["", *notes] if notes else []), goals


# ---------------------------------------------------------------------------------------------------------------
# Running Lighthouse.


def run_lighthouse(url: str, form_factor: str, chromium: str) -> dict[str, Any]:
    """One Lighthouse run of ``url``: its JSON report; raises ``LighthouseError`` if the CLI fails."""
    if not LIGHTHOUSE.exists():
        raise LighthouseError(f"{LIGHTHOUSE} is missing: run 'npm ci' (or make deps)")
    with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as folder:
        report_path = Path(folder) / "report.json"
        command = [
            str(LIGHTHOUSE),
            url,
            *FORM_FACTORS[form_factor],
            "--output=json",
            f"--output-path={report_path}",
            f"--chrome-flags={' '.join(CHROMIUM_ARGS)}",
            "--quiet",
            "--no-enable-error-reporting",
        ]
        env = {**os.environ, "CHROME_PATH": chromium}
        try:
            done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise LighthouseError(f"Lighthouse ({form_factor}) took more than {RUN_TIMEOUT_S} s") from None
        if done.returncode != 0 or not report_path.exists():
            raise LighthouseError(f"Lighthouse ({form_factor}) failed with status {done.returncode}: {done.stderr}")
        report: dict[str, Any] = json.loads(report_path.read_text(encoding="utf-8"))
        return report


def measure(url: str, form_factor: str, chromium: str) -> Run:
    """One run's numbers, tried again once if Lighthouse fails; the second failure is raised."""
    for attempt in range(1, ATTEMPTS + 1):
        try:
            return read_report(run_lighthouse(url, form_factor, chromium))
        except LighthouseError as exc:
            if attempt == ATTEMPTS:
                raise
            print(f"bench-lighthouse: {exc}; trying again", file=sys.stderr, flush=True)
    raise AssertionError("unreachable")


def chromium_version(chromium: str) -> str:
    """``156.0.8078.108`` from ``chromium --version`` (Debian's wrapper prints noise on stderr), or ``?``."""
    try:
        words = subprocess.run([chromium, "--version"], capture_output=True, text=True, timeout=30).stdout.split()
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    return next((word for word in words if word[:1].isdigit()), "?")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each form factor; the median is shown (3)")
    parser.add_argument("--out", type=Path, help="write every run's numbers and the medians to this JSON file")
    parser.add_argument("--check", action="store_true", help="exit 1 when a goal is not met")
    parser.add_argument("--root", type=Path, default=REPO_ROOT, help="the checkout to serve (default: this one)")
    parser.add_argument("--bare", action="store_true", help="and the bare PyScript page beside it (tools/bare_page.py)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.bare:
        with temporary_bare_page(args.root) as bare:  # its PyScript and interpreters
            return measure_all(args, {"page": args.root, "bare": bare}, argv)
    return measure_all(args, {"page": args.root}, argv)


def run_all(urls: Mapping[str, str], runs: int, chromium: str) -> dict[str, dict[str, list[Run]]]:
    """Every run, by page and form factor: for each run number and form factor, each page in turn (``urls``' order)."""
    all_runs: dict[str, dict[str, list[Run]]] = {page: {name: [] for name in FORM_FACTORS} for page in urls}
    for number in range(1, runs + 1):
        for form_factor in FORM_FACTORS:
            for page, url in urls.items():
                run = measure(url, form_factor, chromium)
                all_runs[page][form_factor].append(run)
                scores = ", ".join(f"{name} {format_score(run.scores[name])}" for name in CATEGORIES)
                which = f", {PAGES[page]}" if len(urls) > 1 else ""
                print(f"run {number}/{runs} {form_factor}{which}: {scores}", flush=True)
    return all_runs


def measure_all(args: argparse.Namespace, roots: Mapping[str, Path], argv: list[str] | None) -> int:
    """Every run of both form factors on each root's page (``PAGES``' keys), the report printed; the exit status."""
    chromium = chromium_path()
    servers = {page: start_server(root, port=0) for page, root in roots.items()}
    started = time.perf_counter()
    try:
        all_runs = run_all({page: f"{url}/{PAGE}" for page, (_, url) in servers.items()}, args.runs, chromium)
    except LighthouseError as exc:
        print(f"bench-lighthouse: {exc}", file=sys.stderr)
        return 2
    finally:
        for server, _ in servers.values():
            server.shutdown()
            server.server_close()

    medians = {name: median_run(runs) for name, runs in all_runs["page"].items()}
    node, cpus, model = machine()
    command = " ".join(["tools/bench_lighthouse.py", *(sys.argv[1:] if argv is None else argv)])
    date = datetime.date.today().isoformat()
    heading = describe_run(command, date, git_commit(), node, cpus, model, chromium_version(chromium))
    heading += f" Lighthouse {medians['mobile'].lighthouse}, page `{PAGE}` of {roots['page']}"
    missed = unmet_goals(medians)
    raw: dict[str, Any] = {
        "command": command,
        "date": date,
        "page": PAGE,
        "runs": {name: [asdict(run) for run in runs] for name, runs in all_runs["page"].items()},
        "median": {name: asdict(run) for name, run in medians.items()},
    }
    if "bare" in all_runs:
        heading += f", each run followed by one of {LABEL}."
        body, goals = bare_report(all_runs)
        missed += [goal.text for goal in goals if not goal.met]
        raw["bare_runs"] = {name: [asdict(run) for run in runs] for name, runs in all_runs["bare"].items()}
        raw["bare_median"] = {name: asdict(median_run(runs)) for name, runs in all_runs["bare"].items()}
        raw["bare_goals"] = [asdict(goal) for goal in goals]
    else:
        heading += "."
        notes = findings_notes(medians)
        body = [markdown_table(all_runs["page"]), *(["", *notes] if notes else [])]
    report = "\n".join([heading, "", *body])
    print(f"\n{report}\n\n({args.runs} run{'s' if args.runs > 1 else ''} in {time.perf_counter() - started:.0f} s)")
    if args.out is not None:
        args.out.write_text(json.dumps(raw, indent=2) + "\n", encoding="utf-8")
    if args.check and missed:
        print("goals not met: " + "; ".join(missed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
