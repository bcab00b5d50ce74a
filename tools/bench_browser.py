"""Send search requests to the page's AI worker in Chromium and collect the answers (for ``tools/bench.py``).

``bench.html`` starts ``py/app/ai/worker.py`` as PyScript named workers
with ``pyscript-worker.toml``, exactly as the page (``py/app/main.py``) does, and
exposes the team's ``think`` (``app.ai.split``) to JavaScript as ``window.benchThink``; this
module opens that page with ``tools/browser.page_session`` (the project's
server and Chromium flags) and calls it once per request, one at a time, so
each search has the worker to itself, as in the game.

Usage from the command line (one request, for a quick look)::

    python tools/bench_browser.py '{"rows": [[2,2,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,4]], "think_ms": 100}'
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser import page_session  # noqa: E402  (tools/ is not a package)

BENCH_PAGE = "/bench.html"
WORKER_READY_TIMEOUT_MS = 180_000
"""Two interpreters start (page and worker) and the worker builds every table: slow on a busy machine."""


def _call(page: Any, base_url: str, function: str, request: dict[str, Any]) -> dict[str, Any]:
    """One call of the worker's ``function`` (``load_network`` gets the page's folder as its ``base``)."""
    if function == "load_network":
        request = {**request, "base": base_url.rstrip("/") + "/"}
    answer: dict[str, Any] = json.loads(
        page.evaluate("([f, r]) => window.benchCall(f, r)", [function, json.dumps(request)])
    )
    if not answer.get("ok"):
        raise RuntimeError(f"the worker's {function} failed: {answer.get('error')}")
    return answer


def _check_page(page: Any, base_url: str, requests_log: list[str]) -> None:
    """A bench through a broken page measures nothing worth printing: console errors or foreign requests stop it."""
    if page.console_errors:
        raise RuntimeError("the bench page logged errors: " + "; ".join(page.console_errors))
    foreign = [url for url in requests_log if not url.startswith((base_url, "blob:" + base_url, "data:"))]
    if foreign:
        raise RuntimeError(f"the bench page made requests outside its origin: {foreign}")


def bench_path(workers: int) -> str:
    """The bench page with the page's team of ``workers`` AI workers (``app.ai.split``)."""
    return f"{BENCH_PAGE}?workers={workers}"


def think_in_chromium(
    requests: Sequence[dict[str, Any]], before: Sequence[tuple[str, dict[str, Any]]] = (), workers: int = 1
) -> list[tuple[dict[str, Any], float]]:
    """(the team's answer, round trip in ms seen by the page's main thread) for each request, in order.

    ``before``: (export, request) calls made first, such as ``("load_network", {})`` for the
    learned preset; one that fails stops the bench with the worker's message.  ``workers``: the AI's
    workers, as ``?workers=`` gives the page (expectimax shares each decision among them).
    """
    out: list[tuple[dict[str, Any], float]] = []
    session = page_session(path=bench_path(workers), ready_timeout_ms=WORKER_READY_TIMEOUT_MS)
    with session as (page, base_url, requests_log):
        for function, request in before:
            _call(page, base_url, function, request)
        for request in requests:
            reply = json.loads(page.evaluate("request => window.benchThink(request)", json.dumps(request)))
            out.append((json.loads(reply["answer"]), float(reply["round_trip_ms"])))
        _check_page(page, base_url, requests_log)
    return out


def calls_in_chromium(calls: Sequence[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The worker's answers to (export, request) calls, in order, in one page."""
    with page_session(path=bench_path(1), ready_timeout_ms=WORKER_READY_TIMEOUT_MS) as (page, base_url, requests_log):
        answers = [_call(page, base_url, function, request) for function, request in calls]
        _check_page(page, base_url, requests_log)
    return answers


def main(argv: Sequence[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    ((answer, round_trip),) = think_in_chromium([json.loads(argv[0])])
    print(json.dumps(answer, indent=1))
    print(f"round trip {round_trip:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
