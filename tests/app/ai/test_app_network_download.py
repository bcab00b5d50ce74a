"""The page's side of the learned network's download: the folder it asks, the progress it shows, the answer."""

from __future__ import annotations

import asyncio
from typing import Any

from app.ai.network_download import download, duration_text, page_folder, progress_text, ready_text


def test_the_networks_folder_is_the_pages_own() -> None:
    assert page_folder("http://127.0.0.1:8000/") == "http://127.0.0.1:8000/"
    assert page_folder("http://h/app/index.html?seed=3#x") == "http://h/app/"
    assert page_folder("https://user.github.io/2048/?rows=2,2/0/0/0") == "https://user.github.io/2048/"


def test_progress_reads_in_kilobytes_with_the_rate_the_time_left_and_a_slow_line() -> None:
    assert progress_text({"stage": "downloading", "loaded": 3_100_000, "total": 9_700_000}) == (
        "Downloading the learned network: 3,100 of 9,700 KB (32.0 %)\u2026"
    )
    fast = {"stage": "downloading", "loaded": 3_100_000, "total": 9_700_000, "rate": 4_000_000, "left_s": 2}
    assert progress_text(fast) == (
        "Downloading the learned network: 3,100 of 9,700 KB (32.0 %), 4,000 KB/s, about 2 s left\u2026"
    )
    slow = {"stage": "downloading", "loaded": 1_234, "total": 31_518_967, "rate": 20_000, "left_s": 1576, "resumed": 2}
    assert progress_text(slow) == (
        "Downloading the learned network: 1 of 31,519 KB (0.0 %), 20 KB/s, about 26 min left (a slow line); "
        "resumed 2 times where the connection dropped\u2026"
    )
    assert progress_text({"stage": "downloading", "loaded": 500_000}) == "Downloading the learned network: 500 KB\u2026"
    assert progress_text({"stage": "checking"}).startswith("Checking the learned network")
    assert progress_text({"stage": "cache"}).startswith("Reading the learned network kept in this browser")
    assert progress_text({}) == "Asking for the learned network\u2026"
    assert ready_text({"bytes": 9_700_000, "shape": "4x6"}) == "Learned network ready (4x6, 9.7 MB)."
    assert ready_text({"bytes": 9_700_000, "shape": "4x6", "dropped": "it is cut at 5 bytes"}).endswith(
        "The copy this browser kept was bad (it is cut at 5 bytes): downloaded again."
    )


def test_durations_read_in_seconds_minutes_and_hours() -> None:
    assert [duration_text(s) for s in (0, 40, 89, 90, 1576, 3600, 3930)] == [
        "0 s",
        "40 s",
        "89 s",
        "2 min",
        "26 min",
        "1 h 0 min",
        "1 h 6 min",
    ]


class SlowWorker:
    """A client whose ``load_network`` takes a few progress polls, like a download of a few chunks."""

    def __init__(self, answer: dict[str, Any]) -> None:
        self.answer = answer
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.loaded = 0
        self.budgets: dict[str, float | None] = {}

    async def call(self, function: str, request: dict[str, Any], budget_ms: float | None) -> dict[str, Any]:
        self.calls.append((function, request))
        self.budgets[function] = budget_ms
        if function == "network_progress":
            self.loaded += 1_000_000
            return {"ok": True, "stage": "downloading", "loaded": self.loaded, "total": 3_000_000}
        while self.loaded < 3_000_000:
            await asyncio.sleep(0.001)
        return self.answer


def test_download_shows_each_progress_once_and_ends_with_the_workers_answer(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import app.ai.network_download as nd

    monkeypatch.setattr(nd, "POLL_S", 0.002)
    worker = SlowWorker({"ok": True, "bytes": 3_000_000, "shape": "4x6"})
    shown: list[str] = []
    answer = asyncio.run(download(worker, "http://h/", shown.append))
    assert answer == worker.answer
    assert ("load_network", {"base": "http://h/"}) in worker.calls
    assert worker.budgets["load_network"] is None  # no time limit: a slow line takes what it takes
    assert shown[:3] == [
        f"Downloading the learned network: {n},000 of 3,000 KB ({n * 100 / 3:.1f} %)\u2026" for n in (1, 2, 3)
    ]
    failed = asyncio.run(download(SlowWorker({"ok": False, "error": "cut short"}), "http://h/", shown.append))
    assert failed == {"ok": False, "error": "cut short"}


class DeadWorker(SlowWorker):
    """A worker that stops answering mid-download: the progress poll fails as the client reports it."""

    async def call(self, function: str, request: dict[str, Any], budget_ms: float | None) -> dict[str, Any]:
        if function == "network_progress" and self.loaded >= 1_000_000:
            return {"ok": False, "error": "the AI did not answer within 103.0 s", "restart": True}
        return await super().call(function, request, budget_ms)


def test_a_worker_that_dies_mid_download_ends_it_with_the_clients_restart_answer(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import app.ai.network_download as nd

    monkeypatch.setattr(nd, "POLL_S", 0.002)
    answer = asyncio.run(download(DeadWorker({"ok": True}), "http://h/", lambda _text: None))
    assert answer == {"ok": False, "error": "the AI did not answer within 103.0 s", "restart": True}
