"""The learned network's download in the worker: a fake server serves good, cut, changed, larger, HTML and missing
files, in ranges or whole, and drops connections; a fake store keeps what the loader keeps."""

from __future__ import annotations

import asyncio
import json
import struct
import types
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_ntuple import DATA, MANIFEST, NETWORK, STAGED_NETWORK

from game2048.evaluation import learned, network_loader, ntuple_file
from game2048.evaluation.network_loader import NetworkLoader
from game2048.evaluation.ntuple_file import NetworkError
from game2048.evaluation.ntuple_shapes import shape_json
from game2048.evaluation.ntuple_tables_copy import TablesCopyReader, tables_parts

BASE = "http://page.test/app/"
FILE_URL = f"{BASE}networks/4x6.ntn?sha256={ntuple_file.sha256(DATA)}"
TABLES_URL = FILE_URL + "&tables=1"
TABLES = b"".join(bytes(part) for part in tables_parts(NETWORK, ntuple_file.sha256(DATA)))
HTML = b"<!DOCTYPE html><html><body>Not here: try again later</body></html>" * 30


class Response:
    """What ``fetch`` resolves to in the browser, as much of it as the loader reads."""

    def __init__(
        self, body: bytes, status: int = 200, chunk: int = 512, drop_after: int | None = None, **headers: str
    ) -> None:
        self.body_bytes, self.status, self.ok = body, status, 200 <= status < 300
        self.chunk, self.drop_after = chunk, drop_after
        self.headers = {name.replace("_", "-").lower(): value for name, value in headers.items()}
        self.body = self
        self.reads = 0

    async def text(self) -> str:
        return self.body_bytes.decode()

    def getReader(self) -> Response:  # noqa: N802 - the browser's name
        self.at = 0
        return self

    async def read(self) -> Any:
        if self.drop_after is not None and self.at >= self.drop_after:
            raise OSError("network error")
        self.reads += 1
        piece = self.body_bytes[self.at : self.at + self.chunk]
        self.at += len(piece)
        return types.SimpleNamespace(done=not piece, value=piece)


class Headers(dict):  # type: ignore[type-arg]
    """The browser's ``Headers.get``: names in any case."""

    def get(self, name: str, default: Any = None) -> Any:
        return super().get(name.lower(), default)


def _headers(response: Response) -> Response:
    response.headers = Headers(response.headers)
    return response


def server(files: dict[str, Any], ranges: bool = True, drops: tuple[int, ...] = ()):  # type: ignore[no-untyped-def]
    """A fake ``fetch`` serving ``files`` (path under BASE -> bytes, a Response or an exception to raise), with
    ranges unless told; each offset in ``drops`` cuts the connection once when the body reaches it."""
    asked: list[tuple[str, str]] = []
    pending = sorted(drops)

    async def fetch(url: str, headers: dict[str, str]) -> Response:
        asked.append((url, headers.get("Range", "")))
        path = url[len(BASE) :].split("?")[0]
        found = files.get(path)
        if isinstance(found, Exception):
            raise found
        if isinstance(found, Response):
            return _headers(found)
        if found is None:
            return _headers(Response(b"not found", 404))
        wanted = headers.get("Range")
        if not (ranges and wanted):
            drop = pending.pop(0) if pending and path.endswith(".ntn") else None
            return _headers(Response(found, drop_after=drop, content_length=str(len(found))))
        first, last = (int(x) for x in wanted.removeprefix("bytes=").split("-"))
        last = min(last, len(found) - 1)
        body = found[first : last + 1]
        drop = None
        if pending and first <= pending[0] <= last:
            drop = pending.pop(0) - first
        return _headers(Response(body, 206, drop_after=drop, content_range=f"bytes {first}-{last}/{len(found)}"))

    fetch.asked = asked  # type: ignore[attr-defined]
    return fetch


class Store:
    """The worker's Cache Storage, in memory: what the loader keeps, reads and drops."""

    def __init__(self, kept: dict[str, bytes] | None = None) -> None:
        self.kept = dict(kept or {})
        self.dropped: list[str] = []

    async def read(self, url: str) -> Response | None:
        body = self.kept.get(url)
        return None if body is None else _headers(Response(body))

    async def keep(self, url: str, data: bytearray) -> None:
        self.kept = {url: bytes(data)}

    async def keep_beside(self, url: str, parts: list[Any]) -> None:
        self.kept[url] = b"".join(bytes(part) for part in parts)

    async def drop(self, url: str) -> None:
        self.dropped.append(url)
        self.kept.pop(url, None)


def manifest_for(data: bytes, **more: Any) -> bytes:
    return json.dumps(
        {**MANIFEST, "file": "4x6.ntn", "bytes": len(data), "sha256": ntuple_file.sha256(data), **more}
    ).encode()


@pytest.fixture(autouse=True)
def no_network_installed(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(network_loader, "RANGE_FIRST", 2048)  # the test file is 9 KB: several ranges
    learned.install(None)
    yield
    learned.install(None)


async def _no_wait(_seconds: float) -> None:
    return None


def load(fetch, loader: NetworkLoader | None = None, store: Store | None = None) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    return asyncio.run((loader or NetworkLoader(sleep=_no_wait)).load(BASE, fetch, store))


def test_a_good_network_comes_in_ranges_is_checked_installed_and_kept() -> None:
    fetch = server({"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": DATA})
    loader, store = NetworkLoader(sleep=_no_wait), Store()
    answer = load(fetch, loader, store)
    assert answer == {
        "bytes": len(DATA),
        "shape": "test",
        "greedy": None,
        "cached": False,
        "dropped": "",
    }
    assert learned.installed() == NETWORK
    assert fetch.asked[0] == (BASE + "networks/4x6.json", "")
    assert fetch.asked[1] == (FILE_URL, "bytes=0-2047")
    assert all(url == FILE_URL for url, _ in fetch.asked[1:])
    assert fetch.asked[-1][1].endswith(f"-{len(DATA) - 1}")
    assert loader.progress["stage"] == "ready" and loader.progress["loaded"] == len(DATA)
    assert store.kept == {FILE_URL: DATA, TABLES_URL: TABLES}  # the file, and its tables decoded beside it


def test_a_kept_network_is_used_without_downloading_it_again() -> None:
    fetch = server({"networks/4x6.json": manifest_for(DATA)})  # the file is not on the server: offline
    answer = load(fetch, store=Store({FILE_URL: DATA}))
    assert answer["cached"] is True and learned.installed() == NETWORK
    assert [url for url, _ in fetch.asked] == [BASE + "networks/4x6.json"]


def test_the_decoded_copy_is_read_back_without_decoding_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    fetch = server({"networks/4x6.json": manifest_for(DATA)})  # offline
    store = Store({FILE_URL: DATA, TABLES_URL: TABLES})

    def no_decoding(*_args: Any) -> None:
        raise AssertionError("the file was decoded")

    monkeypatch.setattr(ntuple_file, "unpack_planes", no_decoding)
    monkeypatch.setattr(ntuple_file, "inflate", no_decoding)
    answer = load(fetch, store=store)
    assert answer["cached"] is True and answer["dropped"] == ""
    assert learned.installed() == NETWORK
    assert store.kept == {FILE_URL: DATA, TABLES_URL: TABLES} and store.dropped == []


def test_a_kept_file_without_its_decoded_copy_gets_one() -> None:
    store = Store({FILE_URL: DATA})  # kept before decoded copies were
    answer = load(server({"networks/4x6.json": manifest_for(DATA)}), store=store)
    assert answer["cached"] is True and learned.installed() == NETWORK
    assert store.kept == {FILE_URL: DATA, TABLES_URL: TABLES}


def _copy_header(**changes: Any) -> bytes:
    """``TABLES`` with its header's fields changed."""
    at = len(b"2048-ntuple-tables\n")
    (size,) = struct.unpack_from("<I", TABLES, at)
    header = {**json.loads(TABLES[at + 4 : at + 4 + size]), **changes}
    text = json.dumps(header).encode()
    return TABLES[:at] + struct.pack("<I", len(text)) + text + TABLES[at + 4 + size :]


@pytest.mark.parametrize(
    "copy",
    [
        pytest.param(TABLES[:-1], id="cut short"),
        pytest.param(TABLES[:30], id="cut in its header"),
        pytest.param(TABLES + b"\0", id="a byte too many"),
        pytest.param(TABLES[:-1] + bytes([TABLES[-1] ^ 1]), id="a changed byte"),
        pytest.param(DATA, id="the file, not a copy"),
        pytest.param(HTML, id="a web page"),
        pytest.param(_copy_header(sha256="0" * 64), id="of another file"),
        pytest.param(_copy_header(crc32=[0]), id="another count of tables"),
        pytest.param(_copy_header(shape={"name": "x"}), id="an unreadable shape"),
        pytest.param(b"2048-ntuple-tables\n\xff\xff\xff\xff", id="a header too long"),
    ],
)
def test_a_bad_decoded_copy_is_dropped_and_the_kept_file_decoded_again(copy: bytes) -> None:
    store = Store({FILE_URL: DATA, TABLES_URL: copy})
    answer = load(server({"networks/4x6.json": manifest_for(DATA)}), store=store)
    assert answer["cached"] is True and answer["dropped"] == ""  # nothing downloaded again: nothing to say
    assert learned.installed() == NETWORK
    assert store.dropped == [TABLES_URL] and store.kept == {FILE_URL: DATA, TABLES_URL: TABLES}


def test_a_store_that_cannot_keep_the_decoded_copy_still_gives_the_network() -> None:
    class Full(Store):
        async def keep_beside(self, url: str, parts: list[Any]) -> None:
            raise OSError("QuotaExceededError")

    store = Full()
    answer = load(server({"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": DATA}), store=store)
    assert answer["cached"] is False and learned.installed() == NETWORK
    assert store.kept == {FILE_URL: DATA}


@settings(max_examples=40, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0, max_value=len(TABLES)), max_size=12))
def test_the_decoded_copy_reads_the_same_however_its_chunks_fall(cuts: list[int]) -> None:
    bounds = [0, *sorted(cuts), len(TABLES)]
    reader = TablesCopyReader(json.loads(manifest_for(DATA)))
    for start, end in zip(bounds, bounds[1:]):
        reader.feed(TABLES[start:end])
    assert reader.network() == NETWORK


def test_a_staged_network_comes_back_from_its_decoded_copy() -> None:
    data = ntuple_file.encode(STAGED_NETWORK)
    manifest = {"bytes": len(data), "sha256": ntuple_file.sha256(data), "shape": shape_json(STAGED_NETWORK.shape)}
    reader = TablesCopyReader(manifest)
    reader.feed(b"".join(bytes(part) for part in tables_parts(STAGED_NETWORK, manifest["sha256"])))
    assert reader.network() == STAGED_NETWORK


@pytest.mark.parametrize(
    "kept, why",
    [
        (HTML, "not a network file (a web page"),
        (DATA[:-1] + b"\0", "SHA-256 differs (a changed byte)"),
        (DATA[:4000], "cut at 4,000 bytes"),
        (DATA + b"more", "larger than its manifest says"),
    ],
)
def test_a_bad_kept_copy_is_dropped_said_and_downloaded_again(kept: bytes, why: str) -> None:
    store = Store({FILE_URL: kept})
    fetch = server({"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": DATA})
    answer = load(fetch, store=store)
    assert why in answer["dropped"] and answer["cached"] is False
    assert store.dropped == [FILE_URL] and store.kept == {FILE_URL: DATA, TABLES_URL: TABLES}
    assert learned.installed() == NETWORK


def test_a_dropped_connection_resumes_from_the_byte_it_stopped_at() -> None:
    fetch = server({"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": DATA}, drops=(1024, 5120, 5120))
    waits: list[float] = []

    async def wait(seconds: float) -> None:
        waits.append(seconds)

    loader = NetworkLoader(sleep=wait)
    load(fetch, loader)
    assert learned.installed() == NETWORK
    assert (FILE_URL, "bytes=1024-3071") in fetch.asked  # cut mid-range: on at once from its byte
    assert [r for _, r in fetch.asked].count("bytes=5120-7167") == 3  # cut before a byte came: after a wait
    assert waits == [1.0, 2.0] and loader.progress["resumed"] == 3


def test_a_server_without_ranges_is_read_whole_even_after_a_drop() -> None:
    fetch = server({"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": DATA}, ranges=False, drops=(4096,))
    load(fetch)
    assert learned.installed() == NETWORK


@pytest.mark.parametrize(
    "files, message",
    [
        ({}, "manifest could not be downloaded: the server answered HTTP 404"),
        ({"networks/4x6.json": b"<html>"}, "manifest is not JSON"),
        ({"networks/4x6.json": b'{"file": "4x6.ntn"}'}, "lacks its file, size, SHA-256 or shape"),
        ({"networks/4x6.json": manifest_for(DATA, file="../x")}, "names its file or size wrongly"),
        ({"networks/4x6.json": manifest_for(DATA, bytes=0)}, "names its file or size wrongly"),
        ({"networks/4x6.json": manifest_for(DATA)}, "network could not be downloaded: the server answered HTTP 404"),
        ({"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": HTML}, "not a network file (a web page"),
        (
            {"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": Response(HTML, content_type="text/html")},
            "not a network file (a web page",
        ),
        (
            {"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": DATA[:-100]},
            f"cut at {len(DATA) - 100:,} bytes",
        ),
        (
            {"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": Response(DATA[:-100])},
            f"cut at {len(DATA) - 100:,} bytes: its manifest says {len(DATA):,}",
        ),
        ({"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": DATA[:-1] + b"\0"}, "(a changed byte)"),
        ({"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": DATA + b"<html>"}, "larger than its manifest"),
        (
            {"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": Response(DATA * 3)},
            f"larger than its manifest says: more than its {len(DATA):,} bytes came; refused before reading on",
        ),
        (
            {"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": TypeError("Failed to fetch")},
            f"6 attempts in a row brought no byte, at 0 of its {len(DATA):,} bytes "
            "(the network could not be downloaded (Failed to fetch))",
        ),
        (
            {"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": Response(b"busy", 503)},
            "6 attempts in a row brought no byte",
        ),
    ],
)
def test_a_network_that_cannot_be_used_says_why_and_installs_and_keeps_nothing(files: dict, message: str) -> None:
    loader, store = NetworkLoader(sleep=_no_wait), Store()
    with pytest.raises(NetworkError) as caught:
        load(server(files), loader, store)
    assert message in str(caught.value)
    assert learned.installed() is None and store.kept == {}
    assert loader.progress["stage"] == "failed" and loader.progress["error"] == str(caught.value)


def test_a_file_far_larger_than_its_manifest_is_refused_before_its_body_is_read() -> None:
    huge = Response(DATA, 206, content_range="bytes 0-2047/200000000")
    with pytest.raises(NetworkError, match=f"200,000,000 bytes, not {len(DATA):,}; refused before reading on"):
        load(server({"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": huge}))
    assert huge.reads == 0
    whole = Response(DATA, content_length="200000000", content_type="text/html")
    with pytest.raises(NetworkError, match=rf"200,000,000 bytes \(a web page\), not {len(DATA):,}"):
        load(server({"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": whole}))
    assert whole.reads == 0


def test_progress_has_the_rate_and_the_time_left_by_the_clock() -> None:
    now = [0.0]

    def clock() -> float:
        now[0] += 0.1  # each reading a tenth of a second later: 512 bytes a read, 5,120 bytes a second
        return now[0]

    seen: list[dict[str, Any]] = []
    loader = NetworkLoader(clock=clock, sleep=_no_wait)
    fetch = server({"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": DATA})

    async def watched(url: str, headers: dict[str, str]) -> Response:
        seen.append(dict(loader.progress))
        return await fetch(url, headers)

    asyncio.run(loader.load(BASE, watched))
    later = [p for p in seen if p["loaded"] >= 4096]
    assert later and all(5000 <= p["rate"] <= 5200 for p in later)
    assert all(p["left_s"] == round((len(DATA) - p["loaded"]) / p["rate"]) for p in later)


def test_the_workers_load_network_answers_ok_or_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.ai import worker as ai_worker

    fetch = server({"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": DATA})
    monkeypatch.setattr(ai_worker, "_browser_fetch", lambda: fetch)
    monkeypatch.setattr(ai_worker, "_browser_store", lambda: None)
    monkeypatch.setattr(ai_worker, "_loader", NetworkLoader())
    answer = json.loads(asyncio.run(ai_worker.load_network(json.dumps({"base": BASE}))))
    assert answer == {"ok": True, "bytes": len(DATA), "shape": "test", "greedy": None, "cached": False, "dropped": ""}
    assert json.loads(ai_worker.network_progress("{}"))["stage"] == "ready"
    bad = json.loads(asyncio.run(ai_worker.load_network(json.dumps({"base": "no-slash"}))))
    assert bad["ok"] is False and "page's folder" in bad["error"]
    monkeypatch.setattr(ai_worker, "_browser_fetch", lambda: server({}))
    missing = json.loads(asyncio.run(ai_worker.load_network(json.dumps({"base": BASE}))))
    assert missing == {
        "ok": False,
        "error": "the network's manifest could not be downloaded: the server answered HTTP 404",
    }
