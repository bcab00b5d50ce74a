"""Load-time benchmark: the page's start, cold and warm, beside the bare interpreters' floors; median of N loads.

Timed from the visit's navigation start by the page's own ``performance.now()`` (no Playwright overhead):

* **playable**: ``body[data-ready-ms]``, which the page sets with ``data-ready="true"`` once the board
  accepts keys; a key press is then checked to move the board, so "ready" really means playable.
* **AI ready**: the first ``performance.now()`` at which ``#ai-status`` says "AI ready" (the worker has its
  interpreter and its tables), read by a poll once per animation frame that returns the time itself.

The visits (``page_loads``): **cold**, a fresh Chromium with a new, empty on-disk profile (no HTTP cache,
compiled-code cache, CacheStorage, service worker or saved game); **warm**, a new tab of the same browser
once the cold visit is AI ready and its service worker controls the page: a player coming back.  The page
must not be opened with ``?sw=off`` here.

The floors (``--baseline``, ``bare_load``), each cold in a fresh profile, alternating with the page's loads:
bare MicroPython and bare Pyodide pages that import the interpreter from ``node_modules`` and run
``import sys``, no PyScript: what no page on that interpreter can beat.

Any console error or uncaught page error during a load fails the run.  The summary is a Markdown table
(with the date, commit, machine and Chromium version) ready for docs/results.md; ``--out FILE`` appends it.

    python tools/bench_load.py [--runs 5] [--no-ai] [--no-warm] [--baseline] [--out FILE] [--url-query seed=1]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser import CHROMIUM_ARGS, READY_SELECTOR, chromium_path, launch_chromium  # noqa: E402
from serve import ISOLATION_HEADERS, REPO_ROOT, start_server  # noqa: E402

LOAD_TIMEOUT_MS = 120_000
SW_TIMEOUT_MS = 120_000

# Goals from the issue, in seconds, on the median.
GOALS: dict[str, tuple[float, float]] = {
    "cold": (1.0, 4.5),  # playable, AI ready
    "warm": (0.6, 3.0),
}

AI_READY_AT_JS = """() => {
  const status = document.getElementById("ai-status");
  return status !== null && status.textContent.includes("AI ready") ? performance.now() : false;
}"""

# Resolves to "" once a service worker controls the page, else to why not (never hangs past the timeout).
SW_CONTROL_JS = """async (timeoutMs) => {
  if (!("serviceWorker" in navigator)) return "this browser has no service workers";
  const container = navigator.serviceWorker;
  const controlled = (async () => {
    await container.ready;
    if (!container.controller) {
      await new Promise((resolve) => container.addEventListener("controllerchange", resolve, { once: true }));
    }
    return "";
  })();
  const late = new Promise((resolve) =>
    setTimeout(() => resolve(`no service worker controls the page after ${timeoutMs} ms`), timeoutMs));
  return Promise.race([controlled, late]);
}"""

BOARD_JS = "els => els.map(e => [e.textContent.trim(), e.dataset.row, e.dataset.col].join(':')).sort()"


# ---------------------------------------------------------------------------------------------------------------
# Pure helpers: statistics, goals, the Markdown table (tested in tests/test_bench_load.py).


@dataclass(frozen=True)
class Summary:
    """Median, min and max of ``n`` timings in seconds."""

    median: float
    low: float
    high: float
    n: int


def summarize(values: Sequence[float | None]) -> Summary | None:
    """The summary of the measured values (``None`` entries are skipped); ``None`` if none was measured."""
    measured = [v for v in values if v is not None]
    if not measured:
        return None
    return Summary(statistics.median(measured), min(measured), max(measured), len(measured))


def format_summary(summary: Summary | None) -> str:
    """``0.93 s (min 0.90, max 1.02)``; a single value without its range; ``—`` when not measured."""
    if summary is None:
        return "—"
    text = f"{summary.median:.2f} s"
    if summary.n > 1:
        text += f" (min {summary.low:.2f}, max {summary.high:.2f})"
    return text


def goal_mark(summary: Summary | None, limit: float) -> str:
    """``≤ 1.0 s: met`` when the median is within the limit, ``not met`` above it, ``not measured`` without one."""
    if summary is None:
        verdict = "not measured"
    elif summary.median <= limit:
        verdict = "met"
    else:
        verdict = "not met"
    return f"≤ {limit:.1f} s: {verdict}"


@dataclass(frozen=True)
class Row:
    label: str
    playable: Summary | None
    ai: Summary | None
    goal: str


def page_row(label: str, playable: Summary | None, ai: Summary | None, goals: tuple[float, float]) -> Row:
    """A row of the page with its two goals marked (playable, AI ready)."""
    return Row(label, playable, ai, f"{goal_mark(playable, goals[0])} / {goal_mark(ai, goals[1])}")


def markdown_table(rows: Sequence[Row], runs: int) -> str:
    """The table: one line per row, medians of ``runs`` loads with their ranges, and the goal column."""
    lines = [
        f"| | playable (median of {runs}) | AI ready (median of {runs}) | goal |",
        "|---|---|---|---|",
    ]
    for row in rows:
        lines.append(f"| {row.label} | {format_summary(row.playable)} | {format_summary(row.ai)} | {row.goal} |")
    return "\n".join(lines)


def build_rows(series: dict[str, list[float | None]]) -> list[Row]:
    """The table's rows from the per-load series; a visit or floor with no series (not asked for) has no row.

    Keys: ``cold``/``warm`` (playable), ``cold_ai``/``warm_ai``, ``bare_micropython``, ``bare_pyodide``.
    """
    rows = [page_row("page, cold", summarize(series["cold"]), summarize(series.get("cold_ai", [])), GOALS["cold"])]
    if "warm" in series:
        rows.append(
            page_row(
                "page, warm (second visit)",
                summarize(series["warm"]),
                summarize(series.get("warm_ai", [])),
                GOALS["warm"],
            )
        )
    for key, label in (("bare_micropython", "bare MicroPython, cold"), ("bare_pyodide", "bare Pyodide, cold")):
        if key in series:
            rows.append(Row(label, summarize(series[key]), None, "floor"))
    return rows


def cpu_model(cpuinfo: str) -> str | None:
    """The first ``model name`` in the text of /proc/cpuinfo, or None."""
    for line in cpuinfo.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() == "model name" and value.strip():
            return value.strip()
    return None


def describe_run(
    command: str, date: str, commit: str | None, node: str, cpus: int | None, model: str | None, chromium: str
) -> str:
    """The line above the table: the command, date, commit, machine and browser."""
    machine = f"{node}, {cpus or '?'} CPUs" + (f" ({model})" if model else "")
    at = f" ({commit})" if commit else ""
    return f"`{command}`, {date}{at}; machine {machine}; Chromium {chromium}."


def run_line(tool: str, argv: list[str] | None, chromium: str, commit: str | None = None) -> str:
    """``describe_run`` for a bench run now on this machine: ``tools/TOOL`` with its arguments (``argv``, or the
    command line's), today's date, this checkout's commit unless ``commit`` names another."""
    node, cpus, model = machine()
    command = " ".join([f"tools/{tool}", *(sys.argv[1:] if argv is None else argv)])
    return describe_run(command, datetime.date.today().isoformat(), commit or git_commit(), node, cpus, model, chromium)


def phase_notes(label: str, python_starts: list[float | None], imports: list[float | None]) -> list[str]:
    """Where the page's Python started and how long its imports took (medians), if the page reports them."""
    start, took = summarize(python_starts), summarize(imports)
    if start is None or took is None:
        return []
    return [
        f"- {label}: the page's Python starts at {format_summary(start)}; "
        f"importing the game takes {format_summary(took)}."
    ]


# ---------------------------------------------------------------------------------------------------------------
# The browser side.


@dataclass
class Visit:
    playable: float
    ai: float | None = None
    python_start: float | None = None
    imports: float | None = None


@contextmanager
def fresh_profile(playwright: Any) -> Iterator[Any]:
    """A Chromium with a new, empty on-disk profile (a persistent context), removed afterwards.

    On disk, not an incognito context: Chromium keeps no compiled-code cache for incognito contexts.
    """
    with tempfile.TemporaryDirectory(prefix="bench-load-profile-") as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True, service_workers="allow"
        )
        try:
            yield context
        finally:
            context.close()


def watch_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(f"console.error: {msg.text}") if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    return errors


def wait_ready(page: Any, errors: list[str], what: str) -> None:
    """Until ``body[data-ready="true"]``; a page that never gets there fails with the errors it logged."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_selector(READY_SELECTOR, state="attached", timeout=LOAD_TIMEOUT_MS)
    except PlaywrightTimeout:
        raise RuntimeError(
            f"{what}: not ready after {LOAD_TIMEOUT_MS / 1000:.0f} s; console errors: {errors}"
        ) from None


def _optional_ms(page: Any, attribute: str) -> float | None:
    raw = page.get_attribute("body", attribute)
    try:
        return float(raw) / 1000.0 if raw is not None else None
    except ValueError:
        return None


def check_keys_move(page: Any) -> None:
    """One of the four arrow keys changes the board (the saved game of a second visit may be stuck one way)."""
    before = page.eval_on_selector_all("#board .tile", BOARD_JS)
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"):
        page.keyboard.press(key)
        page.wait_for_selector('#board[data-settled="true"]', state="attached")
        if page.eval_on_selector_all("#board .tile", BOARD_JS) != before:
            return
    raise RuntimeError("no arrow key moved the board after data-ready: the marker is set too early")


def visit(page: Any, url: str, wait_ai: bool, what: str) -> Visit:
    """Open ``url`` in ``page`` and time it; raises on any console error."""
    errors = watch_errors(page)
    page.goto(url)
    wait_ready(page, errors, what)
    playable = _optional_ms(page, "data-ready-ms")
    if playable is None:
        raise RuntimeError(f"{what}: the page is ready but has no body[data-ready-ms]")
    python_start = _optional_ms(page, "data-python-start-ms")
    imported = _optional_ms(page, "data-imported-ms")
    check_keys_move(page)
    result = Visit(playable, python_start=python_start)
    if python_start is not None and imported is not None:
        result.imports = imported - python_start
    if wait_ai:
        result.ai = page.wait_for_function(AI_READY_AT_JS, timeout=LOAD_TIMEOUT_MS).json_value() / 1000.0
    if errors:
        raise RuntimeError(f"{what}: console errors during the load: {errors}")
    return result


def page_loads(playwright: Any, url: str, wait_ai: bool, warm: bool) -> tuple[Visit, Visit | None]:
    """A cold visit in a fresh profile, then (``warm``) the second visit in the same profile.

    The second visit waits for the first to reach AI ready (playable without ``wait_ai``) and for its
    service worker to control it; the first tab is then closed and a new tab opens the same URL, with the
    HTTP cache, the compiled-code cache, the service worker's cache and the saved game.  It fails if no
    service worker controls it.
    """
    with fresh_profile(playwright) as context:
        first = context.new_page()
        cold = visit(first, url, wait_ai, "cold visit")
        if not warm:
            return cold, None
        why_not = first.evaluate(SW_CONTROL_JS, SW_TIMEOUT_MS)
        if why_not:
            raise RuntimeError(f"cold visit: {why_not}; a second visit would not be warm")
        if first.evaluate("document.documentElement.dataset.offline") == "failed":
            raise RuntimeError("cold visit: the page says offline caching failed (html[data-offline=failed])")
        first.close()
        second = context.new_page()
        warm_visit = visit(second, url, wait_ai, "warm visit")
        if not second.evaluate("navigator.serviceWorker.controller !== null"):
            raise RuntimeError("warm visit: no service worker controls the second visit")
        return cold, warm_visit


BARE_PAGE = """<!doctype html><html><head><link rel="icon" href="data:,"></head><body>
<script type="module">
const { LOADER } = await import("MODULE");
const interpreter = await LOADER();
interpreter.runPython("import sys");
document.body.dataset.readyMs = String(Math.round(performance.now()));
document.body.dataset.ready = "true";
</script></body></html>"""

FLOORS: dict[str, tuple[str, str]] = {
    "bare_micropython": (
        "loadMicroPython",
        "./node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs",
    ),
    "bare_pyodide": ("loadPyodide", "./node_modules/pyodide/pyodide.mjs"),
}


def bare_page(loader: str, module: str) -> str:
    return BARE_PAGE.replace("LOADER", loader).replace("MODULE", module)


def bare_load(playwright: Any, base_url: str, floor: str) -> float:
    """Seconds from navigation to a bare interpreter that has run ``import sys``.

    The page is served from memory on the same origin with the page's headers: a module script that imports
    the interpreter's ES module (``FLOORS``), awaits its loader, runs ``import sys`` and sets ``data-ready-ms``.
    """
    loader, module = FLOORS[floor]
    path = f"/__bench_{floor}.html"
    body = bare_page(loader, module)
    headers = {**ISOLATION_HEADERS, "Cache-Control": "no-cache"}
    with fresh_profile(playwright) as context:
        context.route(
            f"{base_url}{path}",
            lambda route: route.fulfill(status=200, content_type="text/html", body=body, headers=headers),
        )
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(f"{base_url}{path}")
        wait_ready(page, errors, floor)
        if errors:
            raise RuntimeError(f"{floor}: console errors during the load: {errors}")
        return float(page.get_attribute("body", "data-ready-ms")) / 1000.0


def chromium_version(playwright: Any) -> str:
    browser = launch_chromium(playwright)
    try:
        return browser.version
    finally:
        browser.close()


def git_commit() -> str | None:
    """The short commit of the working tree, with ``+changes`` when it has uncommitted ones (read only)."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=REPO_ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO_ROOT, capture_output=True, text=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return head + ("+changes" if dirty else "")


def machine() -> tuple[str, int | None, str | None]:
    try:
        model = cpu_model(Path("/proc/cpuinfo").read_text())
    except OSError:
        model = None
    return platform.node(), os.cpu_count(), model


def _fmt(value: float | None) -> str:
    return f"{value:.2f} s" if value is not None else "—"


def describe_visit(label: str, result: Visit) -> str:
    text = f"{label}: playable {_fmt(result.playable)}"
    if result.ai is not None:
        text += f", AI ready {_fmt(result.ai)}"
    if result.python_start is not None and result.imports is not None:
        text += f" (Python starts {_fmt(result.python_start)}, imports {_fmt(result.imports)})"
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="loads of each kind (default 5)")
    parser.add_argument("--no-ai", action="store_true", help="do not wait for the AI worker")
    parser.add_argument("--no-warm", action="store_true", help="no second visit")
    parser.add_argument("--baseline", action="store_true", help="also time bare MicroPython and bare Pyodide pages")
    parser.add_argument("--out", type=Path, help="append the Markdown table to this file")
    parser.add_argument("--url-query", default="seed=1", help="the page's query string (default seed=1)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    query = args.url_query.lstrip("?")
    if "sw=off" in query.split("&"):
        parser.error("the warm visit needs the service worker: drop sw=off from --url-query (or use --no-warm)")
    from playwright.sync_api import sync_playwright

    wait_ai, warm = not args.no_ai, not args.no_warm
    series: dict[str, list[float | None]] = {"cold": [], "cold_ai": []}
    if warm:
        series.update(warm=[], warm_ai=[])
    if args.baseline:
        series.update({floor: [] for floor in FLOORS})
    phases: dict[str, tuple[list[float | None], list[float | None]]] = {"cold": ([], []), "warm": ([], [])}

    server, base_url = start_server(REPO_ROOT, port=0)
    url = f"{base_url}/index.html" + (f"?{query}" if query else "")
    started = time.perf_counter()
    try:
        with sync_playwright() as playwright:
            chromium = chromium_version(playwright)
            for run in range(1, args.runs + 1):
                cold, second = page_loads(playwright, url, wait_ai, warm)
                parts = [describe_visit("cold", cold)]
                visits = [("cold", cold)] + ([("warm", second)] if second is not None else [])
                if second is not None:
                    parts.append(describe_visit("warm", second))
                for key, result in visits:
                    series[key].append(result.playable)
                    series[f"{key}_ai"].append(result.ai)
                    phases[key][0].append(result.python_start)
                    phases[key][1].append(result.imports)
                if args.baseline:
                    for floor in FLOORS:
                        seconds = bare_load(playwright, base_url, floor)
                        series[floor].append(seconds)
                        parts.append(f"{floor.replace('_', ' ')} {seconds:.2f} s")
                print(f"load {run}/{args.runs}: " + "; ".join(parts), flush=True)
    finally:
        server.shutdown()
        server.server_close()

    node, cpus, model = machine()
    command = " ".join(["tools/bench_load.py", *(sys.argv[1:] if argv is None else argv)])
    heading = describe_run(command, datetime.date.today().isoformat(), git_commit(), node, cpus, model, chromium)
    notes = phase_notes("cold", *phases["cold"]) + phase_notes("warm (second visit)", *phases["warm"])
    report = "\n".join([heading, "", markdown_table(build_rows(series), args.runs), *([""] + notes if notes else [])])
    print(f"\n{report}\n\n({args.runs} run{'s' if args.runs > 1 else ''} in {time.perf_counter() - started:.0f} s)")
    if args.out is not None:
        with args.out.open("a", encoding="utf-8") as out:
            out.write("\n" + report + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
