"""The page loads from its own origin alone, without a console error, and shows the engine's opening."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser import READY_SELECTOR
from pagekit import AI_READY_TIMEOUT_MS, engine_rows, read_best, read_board, read_score, wait_ai_ready, wait_decisions
from serve import ISOLATION_HEADERS
from tool_modules import load_tool

ROOT = Path(__file__).resolve().parents[2]


def test_page_loads_clean_and_shows_the_seeded_opening(open_page):
    run = open_page("seed=1")
    page = run.page
    assert page.get_attribute("body", "data-ready") == "true"
    assert not page.is_visible("#loading")
    assert read_board(page) == engine_rows(1)
    assert read_score(page) == 0 and read_best(page) == 0
    assert "Python" in page.text_content("footer")
    page.keyboard.press("ArrowLeft")
    assert read_board(page) == engine_rows(1, ["left"])
    assert run.errors == []


def test_nothing_but_the_html_holds_the_first_paint_and_the_panels_are_styled_once_loaded(open_page):
    """The first screen's style is inline; the panels' stylesheets and the classic scripts load without holding
    the first paint (Resource Timing's ``renderBlockingStatus``), and each panel's style applies once it arrived."""
    run = open_page("seed=5")
    page = run.page
    entries = page.evaluate(
        "performance.getEntriesByType('resource').map(e => [e.name.split('/').pop(), e.renderBlockingStatus])"
    )
    assert {"guarded.js", "start-watch.js", "explorer.css", "editor.css"} <= {name for name, _ in entries}
    assert [name for name, status in entries if status != "non-blocking"] == []
    page.wait_for_function("[...document.querySelectorAll('link[rel=stylesheet]')].every(l => l.media === 'all')")
    styled = {  # one rule of each panel's file, read on its (hidden) element
        "#explorer": ("backgroundColor", "rgb(243, 237, 226)"),  # explorer.css
        "#games-panel": ("backgroundColor", "rgb(243, 237, 226)"),  # games-panel.css
        "#replay-view": ("position", "fixed"),  # replay-view.css
        "#tree-walk": ("backgroundColor", "rgb(238, 228, 218)"),  # tree-walk.css
        "#editor-bar": ("backgroundColor", "rgb(238, 228, 218)"),  # editor.css
    }
    for selector, (name, value) in styled.items():
        assert page.eval_on_selector(selector, f"e => getComputedStyle(e).{name}") == value, selector
    assert run.errors == []


@pytest.mark.parametrize("service_workers", ["allow", "block"])
def test_no_request_leaves_the_origin(open_page, service_workers):
    run = open_page("seed=2", service_workers=service_workers)
    run.page.keyboard.press("ArrowDown")
    read_board(run.page)
    wait_ai_ready(run.page)  # the worker's own loads count too
    if service_workers == "allow":  # and the service worker's: it fetches every file it caches
        run.page.wait_for_selector('html[data-offline="ready"]', state="attached", timeout=AI_READY_TIMEOUT_MS)
        # icon-512.png is fetched by the service worker alone: its requests are recorded too.
        assert any(url.endswith("/icons/icon-512.png") for url in run.requests)
    run.page.click("#ai-hint")
    wait_decisions(run.page, 1)
    assert run.requests, "no request recorded: the recorder is broken"
    # blob: URLs of this origin are in-memory objects (PyScript starts its worker from one), not network requests.
    local = (run.base_url + "/", "blob:" + run.base_url + "/", "data:")
    outside = [url for url in run.requests if not url.startswith(local)]
    assert outside == []
    assert any(url.endswith("/pyodide.asm.wasm") for url in run.requests)


def test_small_phone_width_fits_the_board(open_page):
    run = open_page("seed=3", viewport={"width": 320, "height": 640})
    box = run.page.locator("#board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 320
    run.page.click("#weights-panel summary")  # the widest part of the page, open
    scroll_width = run.page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= 320, "the page scrolls sideways on a 320 px phone"
    assert read_board(run.page) == engine_rows(3)


def _start_blocked(browser, server_url, answer):
    """A page whose ``main.py`` is answered by ``answer(route)`` while ``blocked``; (page, context, blocked)."""
    blocked = {"on": True}
    context = browser.new_context(service_workers="block")

    def route(request_route):
        if blocked["on"]:
            answer(request_route)
        else:
            request_route.continue_()

    context.route("**/py/app/main.py", route)
    page = context.new_page()
    uncaught: list[str] = []
    page.on("pageerror", lambda error: uncaught.append(str(error)))
    page.goto(f"{server_url}/index.html?seed=3")
    return page, context, blocked, uncaught


def test_a_start_whose_python_cannot_be_downloaded_says_so_and_retry_starts_the_page(browser, server_url):
    page, context, blocked, uncaught = _start_blocked(browser, server_url, lambda r: r.abort("connectionreset"))
    page.wait_for_selector("#retry-start:not([hidden])", timeout=20_000)
    assert "could not be downloaded" in page.text_content("#loading-text")
    assert page.is_hidden("#loading .spinner")
    assert uncaught == []  # PyScript's failure is said by the page, not left uncaught
    blocked["on"] = False
    page.click("#retry-start")
    page.wait_for_selector('body[data-ready="true"]', state="attached", timeout=30_000)
    assert page.is_hidden("#loading")
    context.close()


def test_a_start_that_stalls_says_so_within_15_seconds(browser, server_url):
    stalled = []
    page, context, _blocked, _ = _start_blocked(browser, server_url, stalled.append)  # never answered
    page.wait_for_selector("#retry-start:not([hidden])", timeout=20_000)
    assert "has not started after 15 s" in page.text_content("#loading-text")
    assert stalled
    context.close()


def test_a_server_that_dies_right_after_the_html_is_said_within_15_seconds(browser, server_url):
    """Every file after the HTML is refused, start-watch.js and the stylesheets among them: the inline
    watchdog says so, naming a file, and Retry reloads."""
    context = browser.new_context(service_workers="block")
    try:
        html = (ROOT / "index.html").read_text()

        def route(request_route):
            if request_route.request.url.split("?")[0].endswith("/index.html"):
                request_route.fulfill(status=200, content_type="text/html", body=html)
            else:
                request_route.abort("connectionrefused")

        context.route("**/*", route)
        page = context.new_page()
        page.goto(f"{server_url}/index.html?seed=3", wait_until="commit")
        page.wait_for_selector("#retry-start:not([hidden])", state="attached", timeout=15_000)
        text = page.text_content("#loading-text")
        assert "could not be downloaded" in text and "server stopped answering" in text, text
    finally:
        context.close()


def test_a_page_opened_from_a_file_says_so_at_once(browser):
    """From file:// the browser refuses the page's module scripts: said as that, not as a server that stopped."""
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        page.goto((ROOT / "index.html").as_uri())
        page.wait_for_selector("#retry-start:not([hidden])", state="attached", timeout=5_000)
        assert "opened as a file" in page.text_content("#loading-text")
        page.wait_for_timeout(16_000)  # past the start's deadline and every refused file: the message stays
        assert "opened as a file" in page.text_content("#loading-text")
    finally:
        context.close()


def test_each_step_of_the_start_ends_in_a_task_of_its_own_on_a_slow_phone(browser, server_url):
    """With the CPU slowed 4× (a mid-range phone), no long task of the main thread holds the ends of two
    steps of the page's start (``app.page.pause``'s marks): between two steps the browser had the thread
    back, to answer a tap or paint.  A step that only slept a millisecond ran on in the same task."""
    long_tasks_js = load_tool("bench_long_tasks").LONG_TASKS_JS
    context = browser.new_context(service_workers="block", viewport={"width": 400, "height": 800})
    try:
        context.add_init_script(script=long_tasks_js)
        page = context.new_page()
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
        page.goto(f"{server_url}/index.html?sw=off&seed=3")
        page.wait_for_selector(READY_SELECTOR, state="attached", timeout=AI_READY_TIMEOUT_MS)
        marks = page.evaluate(
            "performance.getEntriesByType('mark').filter(m => m.name.startsWith('2048:'))"
            ".map(m => [m.name, m.startTime])"
        )
        tasks = page.evaluate("window.__longTasks")
    finally:
        context.close()
    assert len(marks) >= 5, marks
    for start, duration in tasks:
        inside = [name for name, at in marks if start < at < start + duration]
        assert len(inside) <= 1, f"one task of {duration:.0f} ms from {start:.0f} ms ends the steps {inside}"


# When the AI worker reports that Pyodide began to load (PyScript's "py:progress" on the main thread).
AI_LOADING_AT_JS = """addEventListener("py:progress", (event) => {
  if (event.detail === "Loading interpreter" && window.__aiLoadingAt === undefined) {
    window.__aiLoadingAt = performance.now();
  }
});"""


def test_the_ai_worker_begins_loading_pyodide_before_the_page_is_playable(open_page):
    """The worker's steps before Pyodide each wait for the main thread; the page's start lets them through
    before its own work (``guarded.js``'s ``aiWorkerLoading``), so Pyodide's download and compilation run
    beside the page's start instead of after it."""
    run = open_page("seed=3", prepare=lambda context: context.add_init_script(script=AI_LOADING_AT_JS))
    run.page.wait_for_function("window.__aiLoadingAt !== undefined", timeout=AI_READY_TIMEOUT_MS)
    loading_at = run.page.evaluate("window.__aiLoadingAt")
    playable_at = float(run.page.get_attribute("body", "data-ready-ms"))
    assert loading_at < playable_at, (
        f"Pyodide began to load at {loading_at:.0f} ms, the page was playable at {playable_at:.0f} ms"
    )
    assert run.errors == []


def _guarded_page(browser: Any, server_url: str, isolated: bool) -> tuple[Any, Any]:
    """A page of the server's origin with ``guarded.js`` alone, cross-origin isolated or not."""
    context = browser.new_context()
    headers = ISOLATION_HEADERS if isolated else {}
    html = '<!doctype html><title>guarded</title><script src="./guarded.js"></script>'
    context.route(
        f"{server_url}/guarded-only.html",
        lambda route: route.fulfill(status=200, content_type="text/html", headers=headers, body=html),
    )
    page = context.new_page()
    page.goto(f"{server_url}/guarded-only.html")
    assert page.evaluate("crossOriginIsolated") is isolated
    return context, page


# The outcome of aiWorkerLoading(capMs) and how long it took, in ms.
TIMED_WAIT_JS = """async (capMs) => {
  const started = performance.now();
  const began = await aiWorkerLoading(capMs);
  return [began, performance.now() - started];
}"""


def test_ai_worker_loading_waits_for_the_worker_no_longer_than_its_cap(browser, server_url):
    """No worker reports: false once the cap has passed; the worker's report: true at once, also when it came
    before the wait; a page without cross-origin isolation gets no reports, so it does not wait at all."""
    context, page = _guarded_page(browser, server_url, isolated=True)
    try:
        began, waited = page.evaluate(TIMED_WAIT_JS, 150)
        assert began is False and 140 <= waited < 2_000
        page.evaluate("dispatchEvent(new CustomEvent('py:progress', {detail: 'Loading Storage'}))")
        assert page.evaluate(TIMED_WAIT_JS, 150)[0] is False  # an earlier step is not the interpreter's load
        page.evaluate("dispatchEvent(new CustomEvent('py:progress', {detail: 'Loading interpreter'}))")
        began, waited = page.evaluate(TIMED_WAIT_JS, 10_000)
        assert began is True and waited < 1_000
    finally:
        context.close()
    context, page = _guarded_page(browser, server_url, isolated=False)
    try:
        began, waited = page.evaluate(TIMED_WAIT_JS, 10_000)
        assert began is False and waited < 1_000
    finally:
        context.close()
