"""The page's side of the learned network's download: the folder it asks, the progress it shows, the answer."""

from __future__ import annotations

import asyncio
from typing import Any

from app.network_download import download, page_folder, progress_text, ready_text


def test_the_networks_folder_is_the_pages_own() -> None:
    assert page_folder("http://127.0.0.1:8000/") == "http://127.0.0.1:8000/"
    assert page_folder("http://h/app/index.html?seed=3#x") == "http://h/app/"
    assert page_folder("https://user.github.io/2048/?rows=2,2/0/0/0") == "https://user.github.io/2048/"


def test_progress_reads_as_megabytes_of_the_whole() -> None:
    assert progress_text({"stage": "downloading", "loaded": 3_100_000, "total": 9_700_000}) == (
        "Downloading the learned network, 3.1 of 9.7 MB\u2026"
    )
    assert progress_text({"stage": "downloading", "loaded": 500_000}) == "Downloading the learned network, 0.5 MB\u2026"
    assert progress_text({"stage": "checking"}).startswith("Checking the learned network")
    assert progress_text({}) == "Asking for the learned network\u2026"
    assert ready_text({"bytes": 9_700_000, "shape": "4x6"}) == "Learned network ready (4x6, 9.7 MB)."


class SlowWorker:
    """A client whose ``load_network`` takes a few progress polls, like a download of a few chunks."""

    def __init__(self, answer: dict[str, Any]) -> None:
        self.answer = answer
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.loaded = 0

    async def call(self, function: str, request: dict[str, Any], budget_ms: float) -> dict[str, Any]:
        self.calls.append((function, request))
        if function == "network_progress":
            self.loaded += 1_000_000
            return {"ok": True, "stage": "downloading", "loaded": self.loaded, "total": 3_000_000}
        while self.loaded < 3_000_000:
            await asyncio.sleep(0.001)
        return self.answer


def test_download_shows_each_progress_once_and_ends_with_the_workers_answer(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import app.network_download as nd

    monkeypatch.setattr(nd, "POLL_S", 0.002)
    worker = SlowWorker({"ok": True, "bytes": 3_000_000, "shape": "4x6"})
    shown: list[str] = []
    answer = asyncio.run(download(worker, "http://h/", shown.append))
    assert answer == worker.answer
    assert ("load_network", {"base": "http://h/"}) in worker.calls
    assert shown[:3] == [f"Downloading the learned network, {n}.0 of 3.0 MB\u2026" for n in (1, 2, 3)]
    failed = asyncio.run(download(SlowWorker({"ok": False, "error": "cut short"}), "http://h/", shown.append))
    assert failed == {"ok": False, "error": "cut short"}
