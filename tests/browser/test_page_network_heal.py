"""The learned network heals and downloads on any line (issue 39): a bad answer is never kept, a slow one resumes.

These tests serve the page from a server of their own (``tools/serve.py``'s
handler, listening on 127.0.0.1 only, stopped at the end of the module) whose
answers for ``networks/`` each test scripts: an HTML error page answered 200
before the real file, or a small valid network and its manifest (made here
with the repo's writer, ``ntuple_file.encode``) sent at 20 KB/s with the
connection dropped once partway.
"""

from __future__ import annotations

import json
import random
import time
from array import array
from collections.abc import Iterator
from http import HTTPStatus
from io import BytesIO
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from pagekit import AI_READY_TIMEOUT_MS, kept_networks, wait_ai_ready, wait_decisions, wait_kept_networks
from prerequisites import browser_missing
from serve import ProjectRequestHandler, parse_range, start_server

from game2048.evaluation import ntuple_file
from game2048.evaluation.ntuple_file import Network
from game2048.evaluation.ntuple_shapes import Shape, shape_json

ROOT = Path(__file__).resolve().parents[2]
READY = "document.getElementById('ai-status').textContent.startsWith('Learned network ready')"
FAILED = "document.getElementById('ai-status').textContent.includes('could not be used')"
ERROR_PAGE = (b"<!DOCTYPE html><html><head><title>503</title></head><body>" + b"Try again later. " * 118)[:2081]
WATCH_NETWORK_LINE = """() => { window.networkLines = [];
    const line = document.getElementById('ai-network');
    new MutationObserver(() => window.networkLines.push(line.textContent))
        .observe(line, {childList: true, characterData: true, subtree: true}); }"""


def small_network() -> tuple[bytes, bytes]:
    """A valid network of about 256 KB (random weights barely compress) and its manifest."""
    shape = Shape("test-small", ((0, 1, 2, 3, 4), (4, 5, 6, 7, 8), (0, 1, 2, 4, 5), (8, 9, 10, 11, 12)), 8)
    rng = random.Random(39)
    starts = shape.table_starts()
    tables = tuple(
        array("h", (rng.randint(-3000, 3000) for _ in range(end - start))) for start, end in zip(starts, starts[1:])
    )
    data = ntuple_file.encode(Network(shape, 0.25, tables))
    manifest = {"file": "4x6.ntn", "bytes": len(data), "sha256": ntuple_file.sha256(data), "shape": shape_json(shape)}
    return data, json.dumps(manifest).encode()


class Script:
    """What the server answers for ``networks/`` in the current test."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}  # path -> bytes served from memory (with ranges) instead of the repo's
        self.error_pages = 0  # this many requests for the network file get ERROR_PAGE, status 200
        self.rate = 0  # bytes a second for the files above (0: as fast as it goes)
        self.drop_at: int | None = None  # the network's connection is cut once, when its body reaches this byte
        self.network_requests: list[str] = []  # the Range header of each request for the network file


SCRIPT = Script()


class ScriptedHandler(ProjectRequestHandler):
    """The project's handler, with ``SCRIPT``'s answers for the network and its manifest."""

    def send_head(self):  # type: ignore[no-untyped-def]
        path = urlsplit(self.path).path.lstrip("/")
        if path == "networks/4x6.ntn":
            SCRIPT.network_requests.append(self.headers.get("Range") or "")
            if SCRIPT.error_pages > 0:
                SCRIPT.error_pages -= 1
                return self._send(ERROR_PAGE, "text/html; charset=utf-8", HTTPStatus.OK)
        if path in SCRIPT.files:
            return self._send_file(SCRIPT.files[path])
        return super().send_head()

    def _send_file(self, body: bytes) -> BytesIO | None:
        wanted = parse_range(self.headers.get("Range"), len(body))
        if wanted is False:
            self.send_response(HTTPStatus.REQUESTED_RANGE_NOT_SATISFIABLE)
            self.send_header("Content-Range", f"bytes */{len(body)}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        if not isinstance(wanted, tuple):
            return self._send(body, "application/octet-stream", HTTPStatus.OK)
        first, last = wanted
        self._first = first
        return self._send(body[first : last + 1], "application/octet-stream", HTTPStatus.PARTIAL_CONTENT, first, body)

    def _send(self, part: bytes, kind: str, status: int, first: int = 0, whole: bytes | None = None) -> BytesIO:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(part)))
        if whole is not None:
            self.send_header("Content-Range", f"bytes {first}-{first + len(part) - 1}/{len(whole)}")
        self.end_headers()
        self._first = first
        return BytesIO(part)

    def copyfile(self, source: Any, outputfile: Any) -> None:
        if not (SCRIPT.rate and urlsplit(self.path).path.lstrip("/") == "networks/4x6.ntn"):
            super().copyfile(source, outputfile)
            return
        at = getattr(self, "_first", 0)
        piece = max(SCRIPT.rate // 20, 256)  # 20 writes a second
        while chunk := source.read(piece):
            if SCRIPT.drop_at is not None and at <= SCRIPT.drop_at < at + len(chunk):
                cut, SCRIPT.drop_at = SCRIPT.drop_at - at, None
                outputfile.write(chunk[:cut])
                outputfile.flush()
                self.close_connection = True
                raise ConnectionResetError("the test drops the connection")
            outputfile.write(chunk)
            outputfile.flush()
            at += len(chunk)
            time.sleep(len(chunk) / SCRIPT.rate)


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    """This module's own server (127.0.0.1 only), in place of the session's; stopped when the module ends."""
    reason = browser_missing()
    if reason:
        pytest.skip(reason)
    server, base_url = start_server(ROOT, port=0, host="127.0.0.1", handler=ScriptedHandler)
    yield base_url
    server.shutdown()
    server.server_close()


@pytest.fixture(autouse=True)
def fresh_script() -> Iterator[Script]:
    global SCRIPT
    SCRIPT = Script()
    yield SCRIPT
    SCRIPT = Script()


def test_an_html_answer_is_refused_kept_nowhere_and_the_next_load_gets_the_real_file_with_the_service_worker(
    open_page, fresh_script
):
    fresh_script.error_pages = 1
    run = open_page("seed=7", service_workers="allow")
    page = run.page
    page.wait_for_selector('html[data-offline="ready"]', state="attached", timeout=AI_READY_TIMEOUT_MS)
    wait_ai_ready(page)
    page.click("#weights-panel summary")
    page.select_option("#ai-preset", "learned")
    page.wait_for_function(FAILED, timeout=120_000)
    status = page.text_content("#ai-status")
    assert "not a network file (a web page" in status, status
    assert "cut short" not in status and "14,333,336" not in status
    assert "tried again on the next load" in status
    assert page.input_value("#ai-preset") == "classic"  # what the AI plays
    assert kept_networks(page) == 0  # the error page is kept nowhere
    saved = json.loads(page.evaluate("localStorage.getItem('game2048:settings')"))
    assert saved["ai"]["preset"] == "learned"  # the player's choice stays

    started = time.monotonic()
    run.reload()  # the server is fixed: the next load tries again, and the real file comes
    wait_ai_ready(page)
    page.wait_for_function(READY, timeout=120_000)
    healed_s = time.monotonic() - started
    assert healed_s < 120
    print(f"\nafter an HTML answer, the service worker on: the real network ready {healed_s:.1f} s after the reload")
    assert len(fresh_script.network_requests) >= 2
    wait_kept_networks(page, 2)  # the file, and its decoded tables written beside it in the background
    assert page.input_value("#ai-preset") == "learned"
    page.keyboard.press("i")
    wait_decisions(page, 1, timeout_ms=60_000)
    assert page.get_attribute("#ai-readout", "data-preset") == "learned"
    assert run.errors == []


def test_a_download_at_20_kb_s_resumes_across_a_dropped_connection_while_the_ai_plays_its_stand_in(
    open_page, fresh_script
):
    data, manifest = small_network()
    fresh_script.files = {"networks/4x6.ntn": data, "networks/4x6.json": manifest}
    fresh_script.rate = 20_000
    fresh_script.drop_at = 60_000
    run = open_page("seed=8")
    page = run.page
    wait_ai_ready(page)
    page.evaluate(WATCH_NETWORK_LINE)
    page.click("#weights-panel summary")
    started = time.monotonic()
    page.select_option("#ai-preset", "learned")
    page.wait_for_function("document.getElementById('ai-network').textContent.includes('KB/s')", timeout=60_000)
    # Meanwhile: the list shows what the AI plays, a hint does not hide the download, a slider keeps the choice.
    assert page.input_value("#ai-preset") == "classic"
    page.keyboard.press("i")
    wait_decisions(page, 1, timeout_ms=60_000)
    assert page.get_attribute("#ai-readout", "data-preset") == "classic"
    assert page.text_content("#ai-network").startswith("Downloading the learned network: ")
    assert page.is_visible("#ai-network")
    page.locator("#ai-weights input[type=range]").first.fill("0")
    saved = json.loads(page.evaluate("localStorage.getItem('game2048:settings')"))
    assert saved["ai"]["preset"] == "learned"

    page.wait_for_function(READY, timeout=len(data) // 20_000 * 1000 * 4 + 60_000)
    print(
        f"\n{len(data):,} bytes at 20 KB/s, cut once at 60,000: ready {time.monotonic() - started:.1f} s after choosing"
    )
    lines = page.evaluate("window.networkLines")
    assert any("resumed 1 time where the connection dropped" in line for line in lines), lines[-5:]
    assert any(f"of {round(len(data) / 1000):,} KB" in line for line in lines), lines[-5:]
    assert fresh_script.network_requests[:2] == [f"bytes=0-{len(data) - 1}", f"bytes=60000-{len(data) - 1}"]
    assert not page.is_visible("#ai-network")
    assert page.input_value("#ai-preset") == "learned"
    page.keyboard.press("i")
    wait_decisions(page, 2, timeout_ms=60_000)
    assert page.get_attribute("#ai-readout", "data-preset") == "learned"
    assert run.errors == []


@pytest.mark.parametrize(
    "bad, said",
    [
        (lambda data: data[:-1] + bytes([data[-1] ^ 1]), "(a changed byte)"),
        (lambda data: data[:100_000], "cut at 100,000 bytes: its manifest says"),
        (lambda data: data * 2, "larger than its manifest says: {double:,} bytes, not {size:,}; refused before"),
    ],
    ids=["changed-byte", "cut", "larger"],
)
def test_a_bad_file_is_said_truly_kept_nowhere_and_the_next_choice_fetches_it_again(open_page, fresh_script, bad, said):
    data, manifest = small_network()
    fresh_script.files = {"networks/4x6.ntn": bad(data), "networks/4x6.json": manifest}
    run = open_page("seed=9")
    page = run.page
    wait_ai_ready(page)
    page.click("#weights-panel summary")
    page.select_option("#ai-preset", "learned")
    page.wait_for_function(FAILED, timeout=60_000)
    status = page.text_content("#ai-status")
    assert said.format(size=len(data), double=2 * len(data)) in status, status
    assert kept_networks(page) == 0
    assert page.input_value("#ai-preset") == "classic"
    fresh_script.files["networks/4x6.ntn"] = data  # the server is fixed: choosing it again fetches it again
    page.select_option("#ai-preset", "learned")
    page.wait_for_function(READY, timeout=60_000)
    wait_kept_networks(page, 2)  # the file and its decoded tables
    assert page.input_value("#ai-preset") == "learned"
    assert run.errors == []


def test_a_bad_copy_an_older_page_kept_is_dropped_said_and_downloaded_again(open_page, fresh_script):
    data, manifest = small_network()
    fresh_script.files = {"networks/4x6.ntn": data, "networks/4x6.json": manifest}
    run = open_page("seed=10", service_workers="allow")
    page = run.page
    wait_ai_ready(page)
    digest = json.loads(manifest)["sha256"]
    page.evaluate(  # what the service worker of before kept: any answer of status 200, here an error page
        """digest => caches.open('2048-network').then(cache => cache.put(
            new URL('networks/4x6.ntn?sha256=' + digest, document.baseURI),
            new Response('<!DOCTYPE html><html>Bad gateway</html>', {headers: {'Content-Type': 'text/html'}})))""",
        digest,
    )
    page.click("#weights-panel summary")
    page.select_option("#ai-preset", "learned")
    page.wait_for_function(READY, timeout=120_000)
    status = page.text_content("#ai-status")
    assert "The copy this browser kept was bad" in status and "not a network file" in status, status
    assert fresh_script.network_requests  # fetched afresh
    kept = page.evaluate(
        """digest => caches.open('2048-network').then(cache => cache.match(
            new URL('networks/4x6.ntn?sha256=' + digest, document.baseURI))).then(r => r.arrayBuffer())
            .then(b => b.byteLength)""",
        digest,
    )
    assert kept == len(data)
    assert run.errors == []
