"""Fetching a site file: its text, or ``FetchError`` saying why in words (and the status, when the server gave one)."""

from __future__ import annotations

from typing import Any

import pytest
from app_async import run_async
from fake_fetch import Response, Window

from app.browser.fetch_text import FetchError, fetch_ok, fetch_text


def test_the_text_of_a_file_that_is_there() -> None:
    window = Window([Response("{}")])
    assert run_async(lambda: fetch_text(window, "networks/4x6.json")) == "{}"
    assert window.asked == ["networks/4x6.json"]


@pytest.mark.parametrize(
    ("answer", "message", "status"),
    [
        (TypeError("Failed to fetch"), "the network did not answer", None),
        (Response("", 404), "the server answered HTTP 404", 404),
        (Response(RuntimeError("aborted")), "its answer broke off", 200),
    ],
)
def test_each_failure_is_a_fetch_error_that_says_why(answer: Any, message: str, status: int | None) -> None:
    with pytest.raises(FetchError, match=message) as caught:
        run_async(lambda: fetch_text(Window([answer]), "x.json"))
    assert caught.value.status == status


def test_fetch_ok_gives_the_answer_unread() -> None:
    answer = Response(RuntimeError("never read"))
    assert run_async(lambda: fetch_ok(Window([answer]), "x.py")) is answer
