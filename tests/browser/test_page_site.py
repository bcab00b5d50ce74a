"""``make site`` behind a plain static server: the game, the AI and offline play, with no header of the project's.

The folder tools/site.py writes is served by ``python -m http.server`` in a
subprocess (its default MIME table, no cross-origin isolation), as GitHub
Pages or a CDN would serve it; after a first visit the server is stopped and
the page must still play and answer from the service worker's cache.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import READY_SELECTOR, watch_page
from pagekit import (
    AI_READY_TIMEOUT_MS,
    assert_keys_move,
    decisions,
    engine_rows,
    read_board,
    wait_ai_ready,
    wait_decisions,
)
from tool_modules import load_tool

ROOT = Path(__file__).resolve().parents[2]
OFFLINE_READY = 'html[data-offline="ready"]'
SEED = 4


def _build_site(out: Path) -> None:
    """tools/site.py's ``build`` (loaded by path: ``site`` is the standard library's module)."""
    load_tool("site").build(out)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except (urllib.error.URLError, OSError):
        return False


@pytest.fixture
def static_site(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """The site, served by ``python -m http.server`` until the test stops it (or the end of the test)."""
    folder = tmp_path / "site"
    _build_site(folder)
    port = _free_port()
    command = [sys.executable, "-m", "http.server", "--directory", str(folder), "--bind", "127.0.0.1", str(port)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while not _answers(base_url + "/index.html"):
            assert server.poll() is None and time.monotonic() < deadline, "http.server did not start"
            time.sleep(0.1)
        yield server, base_url
    finally:
        server.terminate()
        server.wait(timeout=10)


def _ask_ai_for_a_move(page: Any) -> None:
    wait_ai_ready(page)
    before = decisions(page)
    page.keyboard.press("n")
    wait_decisions(page, before + 1)


def test_the_site_plays_with_its_ai_behind_a_plain_server_and_offline_once_it_is_gone(browser, static_site):
    server, base_url = static_site
    context = browser.new_context(service_workers="allow", viewport={"width": 900, "height": 1000})
    requests: list[str] = []
    failed: list[str] = []
    context.on("request", lambda request: requests.append(request.url))  # the service worker's too
    context.on("response", lambda response: failed.append(response.url) if response.status >= 400 else None)
    try:
        page = context.new_page()
        watch_page(page, [])
        page.goto(f"{base_url}/index.html?seed={SEED}")
        page.wait_for_selector(READY_SELECTOR, state="attached", timeout=AI_READY_TIMEOUT_MS)
        assert page.evaluate("crossOriginIsolated") is False  # none of tools/serve.py's headers
        played = []
        for key, direction in (("ArrowLeft", "left"), ("ArrowUp", "up"), ("ArrowRight", "right")):
            page.keyboard.press(key)
            played.append(direction)
            assert read_board(page) == engine_rows(SEED, played), f"after {key}"
        _ask_ai_for_a_move(page)
        page.wait_for_selector(OFFLINE_READY, state="attached", timeout=AI_READY_TIMEOUT_MS)
        assert failed == []
        assert all(url.startswith((base_url + "/", "blob:" + base_url + "/")) for url in requests)

        server.terminate()
        server.wait(timeout=10)
        assert not _answers(base_url + "/index.html")
        page.reload()
        page.wait_for_selector(READY_SELECTOR, state="attached", timeout=AI_READY_TIMEOUT_MS)
        assert_keys_move(page)
        _ask_ai_for_a_move(page)
        page.wait_for_selector(OFFLINE_READY, state="attached", timeout=AI_READY_TIMEOUT_MS)
        assert page.console_errors == []
    finally:
        context.close()
