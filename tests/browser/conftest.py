"""Browser fixtures: one server per session, one Chromium per test module, a fresh context per test.

Starting Chromium costs about a second and loading Pyodide a few more, so
the browser is shared by a module's tests; each test gets its own context (its own localStorage
and cache), so tests cannot leak saved games into each other.  Every test
here is marked ``browser`` and skipped, with the reason, where Chromium,
Playwright or node_modules are missing (``make test`` installs them).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from browser import READY_SELECTOR, launch_chromium, watch_page  # noqa: E402
from serve import start_server  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from prerequisites import browser_missing  # noqa: E402

READY_TIMEOUT_MS = 90_000


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    reason = browser_missing()
    if reason:
        pytest.skip(reason)
    server, base_url = start_server(ROOT, port=0)
    yield base_url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser(server_url: str) -> Iterator[Any]:
    """One Chromium per test module: Playwright's sync API must be closed again before any other test
    in the session (tests/test_bench.py drives its own Chromium) starts one of its own."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


class PageRun:
    """A page under test with what it did: requests (every URL) and console/page errors."""

    def __init__(self, context: Any, page: Any, base_url: str, requests: list[str]) -> None:
        self.context = context
        self.page = page
        self.base_url = base_url
        self.requests = requests

    @property
    def errors(self) -> list[str]:
        return self.page.console_errors

    def new_tab(self) -> Any:
        """Another ready page of the same origin in this context (shares localStorage, hears its events)."""
        page = self.context.new_page()
        watch_page(page, [])
        page.goto(f"{self.base_url}/index.html")
        page.wait_for_selector(READY_SELECTOR, state="attached", timeout=READY_TIMEOUT_MS)
        return page

    def goto(self, query: str = "") -> None:
        url = f"{self.base_url}/index.html" + (f"?{query}" if query else "")
        self.page.goto(url)
        self.page.wait_for_selector(READY_SELECTOR, state="attached", timeout=READY_TIMEOUT_MS)

    def reload(self) -> None:
        self.page.reload()
        self.page.wait_for_selector(READY_SELECTOR, state="attached", timeout=READY_TIMEOUT_MS)

    def set_storage(self, items: dict[str, str]) -> None:
        """Put items into the origin's localStorage before the game page first loads (not on reloads)."""
        self.context.add_init_script(
            script="(items => { if (sessionStorage.getItem('test:seeded')) return;"
            " sessionStorage.setItem('test:seeded', '1');"
            " for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); })(" + json.dumps(items) + ")"
        )


@pytest.fixture
def open_page(browser: Any, server_url: str) -> Iterator[Callable[..., PageRun]]:
    """Factory: ``open_page(query="", storage=None, prepare=None, **context_options)`` -> a ready ``PageRun``.

    Service workers are blocked unless ``service_workers="allow"`` is passed."""
    contexts: list[Any] = []

    def _open(
        query: str = "",
        storage: dict[str, str] | None = None,
        prepare: Callable[[Any], None] | None = None,
        **context_kw: Any,
    ) -> PageRun:
        context_kw.setdefault("viewport", {"width": 900, "height": 1000})
        # The page registers a service worker (sw.js) that serves it from its cache once installed; routes
        # (``prepare``) do not see what it serves, so tests run without it unless they ask for it
        # (service_workers="allow": test_page_offline.py, test_page_load.py's request check).
        context_kw.setdefault("service_workers", "block")
        context = browser.new_context(**context_kw)
        contexts.append(context)
        if prepare is not None:  # routes or init scripts, before the page first loads
            prepare(context)
        requests: list[str] = []
        context.on("request", lambda request: requests.append(request.url))
        page = context.new_page()
        watch_page(page, [])
        run = PageRun(context, page, server_url, requests)
        if storage:
            run.set_storage(storage)
        run.goto(query)
        return run

    yield _open
    for context in contexts:
        context.close()
