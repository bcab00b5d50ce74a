"""Lighthouse on the page, mobile and desktop: the four category scores and the load metrics, for docs/results.md.

Lighthouse (pinned in package.json's devDependencies, run from
``node_modules/.bin``) loads ``index.html?sw=off`` (the page without its
service worker, so every visit is a first one) from ``tools/serve.py`` in
Debian's Chromium with the project's flags (``tools/browser.py``), once per
form factor and run:

* **mobile**: Lighthouse's default (a moto g power, simulated throttling);
* **desktop**: ``--preset=desktop``.

The two alternate, so a busy machine weighs on both alike.  Performance swings
from run to run, so each form factor keeps its **median run by performance
score** (of ``--runs``, default 3; the lower middle of an even count): every
number shown for it comes from that one run, never a mix of runs.

It is a measurement, not a test: it exits 0 whatever the scores, unless
Lighthouse itself fails twice on one run (2), or ``--check`` and a goal is not
met (1).  The table is Markdown; ``--out FILE.json`` keeps every run's numbers.

package.json pins ``third-party-web`` and ``legacy-javascript`` in
``overrides``: Lighthouse's ``@paulirish/trace_engine`` asks for them as
``latest``, which ``npm ci`` resolves again at each install and refuses once
a newer one is published.

``--root`` measures another checkout (a worktree of an earlier commit, for a
before and after), ``--bare`` the bare PyScript page (``bare_page.py``): what
PyScript and the two interpreters alone score.

    python tools/bench_lighthouse.py [--runs 3] [--out FILE.json] [--check] [--root DIR | --bare]
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
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--root", type=Path, default=REPO_ROOT, help="the checkout to serve (default: this one)")
    where.add_argument("--bare", action="store_true", help="the bare PyScript page instead (tools/bare_page.py)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.bare:
        with temporary_bare_page() as bare:
            return measure_all(args, bare, LABEL, argv)
    return measure_all(args, args.root, str(args.root), argv)


def measure_all(args: argparse.Namespace, root: Path, label: str, argv: list[str] | None) -> int:
    """Every run of both form factors on ``root``'s page, the report printed; the exit status."""
    chromium = chromium_path()
    all_runs: dict[str, list[Run]] = {name: [] for name in FORM_FACTORS}
    server, base_url = start_server(root, port=0)
    started = time.perf_counter()
    try:
        for number in range(1, args.runs + 1):
            for form_factor in FORM_FACTORS:
                run = measure(f"{base_url}/{PAGE}", form_factor, chromium)
                all_runs[form_factor].append(run)
                scores = ", ".join(f"{name} {format_score(run.scores[name])}" for name in CATEGORIES)
                print(f"run {number}/{args.runs} {form_factor}: {scores}", flush=True)
    except LighthouseError as exc:
        print(f"bench-lighthouse: {exc}", file=sys.stderr)
        return 2
    finally:
        server.shutdown()
        server.server_close()

    medians = {name: median_run(runs) for name, runs in all_runs.items()}
    node, cpus, model = machine()
    command = " ".join(["tools/bench_lighthouse.py", *(sys.argv[1:] if argv is None else argv)])
    date = datetime.date.today().isoformat()
    heading = describe_run(command, date, git_commit(), node, cpus, model, chromium_version(chromium))
    heading += f" Lighthouse {medians['mobile'].lighthouse}, page `{PAGE}` of {label}."
    notes = findings_notes(medians)
    report = "\n".join([heading, "", markdown_table(all_runs), *(["", *notes] if notes else [])])
    print(f"\n{report}\n\n({args.runs} run{'s' if args.runs > 1 else ''} in {time.perf_counter() - started:.0f} s)")
    if args.out is not None:
        raw = {
            "command": command,
            "date": date,
            "page": PAGE,
            "runs": {name: [asdict(run) for run in runs] for name, runs in all_runs.items()},
            "median": {name: asdict(run) for name, run in medians.items()},
        }
        args.out.write_text(json.dumps(raw, indent=2) + "\n", encoding="utf-8")
    missed = unmet_goals(medians)
    if args.check and missed:
        print("goals not met: " + "; ".join(missed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
