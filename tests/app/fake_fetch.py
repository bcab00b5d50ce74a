"""A browser window whose ``fetch`` answers from a list, for the tests of what fetches the site's files."""

from __future__ import annotations

from typing import Any


class Response:
    """A fetch's answer: ``ok`` for 200; ``text`` may be an exception, raised when read (an answer that broke off)."""

    def __init__(self, text: str | Exception, status: int = 200) -> None:
        self.ok, self.status, self._text = status == 200, status, text

    async def text(self) -> str:
        if isinstance(self._text, Exception):
            raise self._text
        return self._text


class Window:
    """Gives each answer in turn, raising an exception one (as a JavaScript network error is), and notes each URL."""

    def __init__(self, answers: list[Any]) -> None:
        self.answers = answers
        self.asked: list[str] = []

    async def fetch(self, url: str) -> Response:
        self.asked.append(url)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer
