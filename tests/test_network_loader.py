"""The learned network's download in the worker: a fake server serves good, cut, changed and missing files."""

from __future__ import annotations

import asyncio
import json
import sys
import types
from typing import Any

import pytest
from test_ntuple import DATA, MANIFEST, NETWORK

from game2048.evaluation import learned, ntuple_file
from game2048.evaluation.network_loader import NetworkLoader
from game2048.evaluation.ntuple_file import NetworkError

BASE = "http://page.test/app/"


class Response:
    """What ``fetch`` resolves to in the browser, as much of it as the loader reads."""

    def __init__(self, body: bytes, status: int = 200, chunk: int = 4096, drop_after: int | None = None) -> None:
        self.body_bytes, self.status, self.ok = body, status, 200 <= status < 300
        self.chunk, self.drop_after = chunk, drop_after
        self.body = self

    async def text(self) -> str:
        return self.body_bytes.decode()

    def getReader(self) -> Response:  # noqa: N802 - the browser's name
        self.at = 0
        return self

    async def read(self) -> Any:
        if self.drop_after is not None and self.at >= self.drop_after:
            raise OSError("network error")
        piece = self.body_bytes[self.at : self.at + self.chunk]
        self.at += len(piece)
        return types.SimpleNamespace(done=not piece, value=piece)


def server(files: dict[str, Any]):  # type: ignore[no-untyped-def]
    """A fake ``fetch`` serving ``files`` (path under BASE -> bytes or Response); anything else is a 404."""
    asked: list[str] = []

    async def fetch(url: str) -> Response:
        asked.append(url)
        path = url[len(BASE) :].split("?")[0]
        found = files.get(path)
        if isinstance(found, Exception):
            raise found
        if isinstance(found, Response):
            return found
        return Response(found) if found is not None else Response(b"not found", 404)

    fetch.asked = asked  # type: ignore[attr-defined]
    return fetch


def manifest_for(data: bytes, **more: Any) -> bytes:
    return json.dumps(
        {**MANIFEST, "file": "4x6.ntn", "bytes": len(data), "sha256": ntuple_file.sha256(data), **more}
    ).encode()


@pytest.fixture(autouse=True)
def no_network_installed():  # type: ignore[no-untyped-def]
    learned.install(None)
    yield
    learned.install(None)


def load(fetch, loader: NetworkLoader | None = None) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    return asyncio.run((loader or NetworkLoader()).load(BASE, fetch))


def test_a_good_network_is_downloaded_by_its_digest_checked_and_installed() -> None:
    fetch = server({"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": DATA})
    loader = NetworkLoader()
    answer = load(fetch, loader)
    assert answer["bytes"] == len(DATA) and answer["shape"] == "test"
    assert learned.installed() == NETWORK
    assert fetch.asked == [BASE + "networks/4x6.json", f"{BASE}networks/4x6.ntn?sha256={ntuple_file.sha256(DATA)}"]
    assert loader.progress == {"stage": "ready", "loaded": len(DATA), "total": len(DATA), "error": ""}


@pytest.mark.parametrize(
    "files, message",
    [
        ({}, "manifest could not be downloaded: the server answered HTTP 404"),
        ({"networks/4x6.json": b"<html>"}, "manifest is not JSON"),
        ({"networks/4x6.json": b'{"file": "4x6.ntn"}'}, "lacks its file, size, SHA-256 or shape"),
        ({"networks/4x6.json": manifest_for(DATA, file="../x")}, "names its file or size wrongly"),
        ({"networks/4x6.json": manifest_for(DATA)}, "network could not be downloaded: the server answered HTTP 404"),
        ({"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": DATA[:-100]}, "cut short"),
        (
            {"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": Response(DATA, drop_after=8192)},
            "cut short: the download stopped after 8,192 bytes",
        ),
        ({"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": DATA[:-1] + b"\0"}, "SHA-256 differs"),
        ({"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": DATA + b"<html>"}, "SHA-256 differs"),
        ({"networks/4x6.json": manifest_for(DATA, bytes=1 << 40), "networks/4x6.ntn": DATA}, "cut short"),
        (
            {"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": TypeError("Failed to fetch")},
            "Failed to fetch",
        ),
    ],
)
def test_a_network_that_cannot_be_used_says_why_and_installs_nothing(files: dict, message: str) -> None:
    loader = NetworkLoader()
    with pytest.raises(NetworkError, match=message.replace("(", r"\(")):
        load(server(files), loader)
    assert learned.installed() is None
    assert loader.progress["stage"] == "failed" and message.split(":")[0] in loader.progress["error"]


def test_the_workers_load_network_answers_ok_or_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    from app import ai_worker

    fetch = server({"networks/4x6.json": manifest_for(DATA), "networks/4x6.ntn": DATA})
    monkeypatch.setitem(sys.modules, "js", types.SimpleNamespace(fetch=fetch))
    monkeypatch.setattr(ai_worker, "_loader", NetworkLoader())
    answer = json.loads(asyncio.run(ai_worker.load_network(json.dumps({"base": BASE}))))
    assert answer == {"ok": True, "bytes": len(DATA), "shape": "test", "greedy": None}
    assert json.loads(ai_worker.network_progress("{}"))["stage"] == "ready"
    bad = json.loads(asyncio.run(ai_worker.load_network(json.dumps({"base": "no-slash"}))))
    assert bad["ok"] is False and "page's folder" in bad["error"]
    monkeypatch.setitem(sys.modules, "js", types.SimpleNamespace(fetch=server({})))
    missing = json.loads(asyncio.run(ai_worker.load_network(json.dumps({"base": BASE}))))
    assert missing == {
        "ok": False,
        "error": "the network's manifest could not be downloaded: the server answered HTTP 404",
    }
