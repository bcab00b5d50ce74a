"""Offline after the first visit: the service worker (sw.js) caches every file the page and its AI load.

Each test serves the page from a server of its own (tools/serve.py's
``start_server``), so it can stop it: with the server gone, a reload must
still give a playable board and an AI that answers.  A new version of the
files must replace the whole cache, and ``?sw=off`` must remove it.
"""

from __future__ import annotations

import shutil
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from browser import READY_SELECTOR, watch_page
from pagekit import AI_READY_TIMEOUT_MS, assert_keys_move, wait_ai_ready, wait_kept_networks
from serve import start_server

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import offline  # noqa: E402

OFFLINE_READY = 'html[data-offline="ready"]'
VERSION_JS = "document.documentElement.dataset.offlineVersion"


def _open(browser: Any, base_url: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(service_workers="allow", viewport={"width": 900, "height": 1000})
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))  # the service worker's too
    page = context.new_page()
    watch_page(page, [])
    page.goto(f"{base_url}/index.html?seed=4")
    page.wait_for_selector(READY_SELECTOR, state="attached", timeout=AI_READY_TIMEOUT_MS)
    return context, page, requests


def _wait_offline_ready(page: Any) -> str:
    page.wait_for_selector(OFFLINE_READY, state="attached", timeout=AI_READY_TIMEOUT_MS)
    return page.evaluate(VERSION_JS)


def _offline_caches(page: Any) -> list[str]:
    return page.evaluate(f"caches.keys().then(names => names.filter(n => n.startsWith('{offline.CACHE_PREFIX}')))")


@pytest.fixture
def own_server():
    """Start a server for ``root`` (the repo unless told); it is stopped at the end if the test did not."""
    servers: list[Any] = []

    def _start(root: Path = ROOT) -> tuple[Any, str]:
        server, base_url = start_server(root, port=0)
        servers.append(server)
        return server, base_url

    yield _start
    for server in servers:
        server.shutdown()
        server.server_close()


def test_after_the_first_visit_play_and_the_ai_work_with_the_server_stopped(browser, own_server):
    server, base_url = own_server()
    context, page, requests = _open(browser, base_url)
    try:
        wait_ai_ready(page)  # the first visit fetches the worker's files too
        version = _wait_offline_ready(page)
        assert _offline_caches(page) == [offline.CACHE_PREFIX + version]
        # The list is complete: the first visit fetched nothing the cache lacks (and nothing elsewhere).
        cached = set(offline.offline_files(ROOT)) | {"sw.js", offline.MANIFEST_URL.lstrip("/")}
        fetched = {url.removeprefix(base_url + "/").split("?")[0] for url in requests if not url.startswith("blob:")}
        fetched.discard("")
        assert fetched - cached == set()
        assert all(url.startswith((base_url + "/", "blob:" + base_url + "/")) for url in requests)

        server.shutdown()
        server.server_close()
        with pytest.raises(urllib.error.URLError):
            urllib.request.urlopen(base_url + "/index.html", timeout=5)

        page.reload()
        page.wait_for_selector(READY_SELECTOR, state="attached", timeout=AI_READY_TIMEOUT_MS)
        assert_keys_move(page)
        wait_ai_ready(page)
        page.click("#ai-hint")
        page.wait_for_selector("#hint-arrow", state="visible", timeout=30_000)
        assert page.get_attribute("#hint-arrow", "data-direction") in {"up", "down", "left", "right"}
        assert _wait_offline_ready(page) == version
        assert page.console_errors == []
    finally:
        context.close()


def _copy_site(target: Path) -> None:
    for path in [*offline.offline_files(ROOT), "sw.js"]:
        (target / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / path, target / path)


def test_a_new_version_replaces_the_whole_cache_and_sw_off_removes_it(browser, own_server, tmp_path):
    _copy_site(tmp_path)
    _, base_url = own_server(tmp_path)
    context, page, _ = _open(browser, base_url)
    try:
        old = _wait_offline_ready(page)
        worker_file = tmp_path / "py" / "app" / "ai" / "worker.py"
        worker_file.write_text(worker_file.read_text() + "\n# a new version\n")

        page.reload()  # the browser finds the new version, caches it and says so; it reloads only when asked
        page.wait_for_selector(READY_SELECTOR, state="attached", timeout=AI_READY_TIMEOUT_MS)
        page.evaluate("window.__sameDocument = true")
        page.wait_for_selector("#update-notice:not([hidden])", timeout=AI_READY_TIMEOUT_MS)
        page.wait_for_timeout(8_000)  # the old page went on reloading itself 5 s after the new version was cached
        assert page.evaluate("window.__sameDocument === true"), "the page reloaded without the player"
        assert page.evaluate(VERSION_JS) == old
        page.click("#update-reload")
        page.wait_for_function(f"{VERSION_JS} && {VERSION_JS} !== '{old}'", timeout=AI_READY_TIMEOUT_MS)
        page.wait_for_selector(OFFLINE_READY, state="attached", timeout=AI_READY_TIMEOUT_MS)
        new = page.evaluate(VERSION_JS)
        assert _offline_caches(page) == [offline.CACHE_PREFIX + new]
        served = page.evaluate("fetch('./py/app/ai/worker.py').then(response => response.text())")
        assert served.endswith("# a new version\n")
        page.wait_for_selector(READY_SELECTOR, state="attached", timeout=AI_READY_TIMEOUT_MS)
        assert_keys_move(page)

        page.evaluate("caches.open('2048-network').then(cache => cache.put('networks/x.ntn', new Response('x')))")
        page.goto(f"{base_url}/index.html?sw=off")
        page.wait_for_selector('html[data-offline="off"]', state="attached", timeout=AI_READY_TIMEOUT_MS)
        assert _offline_caches(page) == []
        assert page.evaluate("caches.keys()") == []  # the learned network's cache too
        assert page.evaluate("navigator.serviceWorker.getRegistrations().then(found => found.length)") == 0
        assert page.console_errors == []
    finally:
        context.close()


def test_the_learned_network_once_downloaded_plays_with_the_server_stopped(browser, own_server):
    server, base_url = own_server()
    context, page, requests = _open(browser, base_url)
    try:
        wait_ai_ready(page)
        _wait_offline_ready(page)
        assert not any(".ntn" in url for url in requests)  # not part of the page's cache: fetched when chosen
        page.click("#weights-panel summary")
        page.select_option("#ai-preset", "learned")
        ready = "document.getElementById('ai-status').textContent.startsWith('Learned network ready')"
        page.wait_for_function(ready, timeout=AI_READY_TIMEOUT_MS)
        wait_kept_networks(page, 2)  # the file and its decoded tables: the reload below reads the tables

        server.shutdown()
        server.server_close()
        page.reload()
        page.wait_for_selector(READY_SELECTOR, state="attached", timeout=AI_READY_TIMEOUT_MS)
        wait_ai_ready(page)
        page.wait_for_function(ready, timeout=AI_READY_TIMEOUT_MS)  # the saved choice, from the cache
        page.keyboard.press("i")
        page.wait_for_selector("#hint-arrow", state="visible", timeout=60_000)
        assert page.get_attribute("#ai-readout", "data-preset") == "learned"
        assert page.console_errors == []
    finally:
        context.close()


def test_with_the_server_stopped_the_panels_built_on_first_opening_open_styled_and_whole(browser, own_server):
    """The panels the start no longer builds (the explorer, the weight sliders, the editor, Your games, the replay)
    come from the offline cache like the rest: opened for the first time with the server gone, each is there with
    its content and style."""
    server, base_url = own_server()
    context, page, _ = _open(browser, base_url)
    try:
        wait_ai_ready(page)
        _wait_offline_ready(page)
        server.shutdown()
        server.server_close()
        page.reload()
        page.wait_for_selector(READY_SELECTOR, state="attached", timeout=AI_READY_TIMEOUT_MS)
        wait_ai_ready(page)
        assert page.locator("#tree-walk *").count() == 0 and page.locator("#ai-weights *").count() == 0

        page.keyboard.press("e")
        assert page.is_visible("#explorer") and page.evaluate("document.activeElement.id") == "explorer-heading"
        assert page.locator("#tw-build").count() == 1 and page.locator("#glossary-list dd").count() > 40
        page.wait_for_function("[...document.querySelectorAll('link[rel=stylesheet]')].every(l => l.media === 'all')")
        assert page.eval_on_selector("#explorer", "e => getComputedStyle(e).backgroundColor") == "rgb(243, 237, 226)"
        page.keyboard.press("e")

        page.click("#weights-panel summary")
        page.wait_for_selector("#ai-weights input[type=range]")
        assert page.is_visible("#ai-weights-note")

        assert page.locator("#editor-cells").count() == 0
        page.keyboard.press("t")
        assert page.get_attribute("#edit-toggle", "aria-pressed") == "true" and page.is_visible("#editor-cells")
        assert page.evaluate("document.activeElement.dataset.cell") == "0"
        assert page.eval_on_selector("#editor-bar", "e => getComputedStyle(e).backgroundColor") == "rgb(238, 228, 218)"
        page.keyboard.press("t")
        assert page.is_hidden("#editor-cells")

        page.keyboard.press("g")
        assert page.is_visible("#games-panel") and page.evaluate("document.activeElement.id") == "games-heading"
        assert page.eval_on_selector("#games-panel", "e => getComputedStyle(e).backgroundColor") == "rgb(243, 237, 226)"
        page.keyboard.press("g")
        page.keyboard.press("v")
        assert page.is_visible("#replay-view") and page.text_content("#replay-title") == "This game"
        assert page.eval_on_selector("#replay-view", "e => getComputedStyle(e).position") == "fixed"
        page.keyboard.press("Escape")
        assert page.is_hidden("#replay-view")
        assert page.console_errors == []
    finally:
        context.close()
