"""Chromium for tests, benchmarks and the soak run: the one place that knows how to start it here.

``playwright install`` cannot download its own browsers on these machines, so
Playwright for Python drives Debian's ``/usr/bin/chromium`` with the flags
below (headless, no sandbox as root, and no background traffic that would
show up as a request leaving the origin).

``page_session()`` is the short way in: it starts ``tools/serve.py`` on a free
port, launches Chromium, opens the page, waits until the game accepts input
(``body[data-ready="true"]``) and yields ``(page, base_url, requests_log)``.
Every request the page makes is appended to ``requests_log`` as a URL string,
and console errors / page errors to ``page.console_errors`` (a list of str).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve import REPO_ROOT, start_server  # noqa: E402  (tools/ is not a package)

CHROMIUM_PATH = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS: list[str] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
READY_SELECTOR = 'body[data-ready="true"]'
DEFAULT_READY_TIMEOUT_MS = 60_000


def chromium_path() -> str:
    """The Chromium binary, or a clear error saying how to get one."""
    if Path(CHROMIUM_PATH).exists():
        return CHROMIUM_PATH
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    raise FileNotFoundError(
        f"Chromium not found at {CHROMIUM_PATH}; install Debian's package (apt-get install -y chromium) "
        "or set CHROMIUM_PATH"
    )


def launch_chromium(playwright: Any, **kw: Any) -> Any:
    """Launch the system Chromium with the project's flags; extra ``args`` are appended."""
    args = CHROMIUM_ARGS + list(kw.pop("args", []))
    kw.setdefault("headless", True)
    return playwright.chromium.launch(executable_path=chromium_path(), args=args, **kw)


@contextmanager
def served_chromium(root: Path = REPO_ROOT) -> Iterator[tuple[Any, str]]:
    """``tools/serve.py`` serving ``root`` on a free port and the system Chromium: yields ``(browser,
    base_url)``; both are stopped on the way out (the benches' common frame)."""
    from playwright.sync_api import sync_playwright

    server, base_url = start_server(root, port=0)
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            try:
                yield browser, base_url
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()


def watch_page(page: Any, requests_log: list[str]) -> None:
    """Record every request and every console error / uncaught page error on ``page``."""
    errors: list[str] = []
    page.console_errors = errors
    page.on("request", lambda request: requests_log.append(request.url))
    page.on("console", lambda msg: errors.append(f"console.{msg.type}: {msg.text}") if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))


def open_game(
    page: Any, base_url: str, path: str = "/index.html", query: str = "", timeout_ms: int = DEFAULT_READY_TIMEOUT_MS
) -> None:
    """Navigate to the page and wait until the game accepts input."""
    url = base_url + path + (("?" + query.lstrip("?")) if query else "")
    page.goto(url)
    page.wait_for_selector(READY_SELECTOR, state="attached", timeout=timeout_ms)


@contextmanager
def page_session(
    path: str = "/index.html",
    query: str = "",
    root: Path | str = REPO_ROOT,
    viewport: dict[str, int] | None = None,
    ready_timeout_ms: int = DEFAULT_READY_TIMEOUT_MS,
    **context_kw: Any,
) -> Iterator[tuple[Any, str, list[str]]]:
    """Server + Chromium + the page, ready for input; yields (page, base_url, requests_log)."""
    from playwright.sync_api import sync_playwright

    server, base_url = start_server(root, port=0)
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            try:
                context = browser.new_context(viewport=viewport or {"width": 1000, "height": 900}, **context_kw)
                page = context.new_page()
                requests_log: list[str] = []
                watch_page(page, requests_log)
                open_game(page, base_url, path, query, ready_timeout_ms)
                yield page, base_url, requests_log
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()
