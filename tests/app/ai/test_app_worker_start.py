"""Starting the AI's worker: a worker file that cannot be fetched is said in the start's own words."""

from __future__ import annotations

from typing import Any

import pytest
from app_async import run_async
from fake_fetch import Response, Window

from app.ai.worker_start import AI_WORKER_SRC, worker_starter


@pytest.mark.parametrize(
    ("answer", "message"),
    [(TypeError("Failed to fetch"), r"\(network error\)"), (Response("", 503), r"\(HTTP 503\)")],
)
def test_the_start_says_why_the_workers_file_could_not_be_loaded(answer: Any, message: str) -> None:
    window = Window([answer])
    start = worker_starter(window, document=None, workers={})
    with pytest.raises(RuntimeError, match="its file could not be loaded " + message):
        run_async(lambda: start(1))
    assert window.asked == [AI_WORKER_SRC]
