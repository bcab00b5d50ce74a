"""Fetching one of the site's files with the browser's ``fetch``, every way it can fail said in words.

A JavaScript network error, an answer other than 200 and an answer that breaks
off each raise ``FetchError`` with a message for a person ("the server
answered HTTP 404"), so a caller says why in its own sentence and never sees
a JavaScript exception.  Plain Python for the page's MicroPython; the browser's
``window`` comes in as an argument, so a test hands in a fake one.
"""

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass


class FetchError(Exception):
    """A file that could not be fetched; ``status`` is the server's answer, None when the network gave none."""

    def __init__(self, message: str, status: "int | None" = None) -> None:
        super().__init__(message)
        self.status = status


async def fetch_ok(window: Any, url: str) -> Any:
    """The browser's answer for ``url`` when it is 200 (its body unread); ``FetchError`` otherwise."""
    try:
        response = await window.fetch(url)
    except Exception:  # noqa: BLE001 - a JavaScript network error
        raise FetchError("the network did not answer") from None
    if not response.ok:
        raise FetchError(f"the server answered HTTP {response.status}", response.status)
    return response


async def fetch_text(window: Any, url: str) -> str:
    """The text at ``url``; ``FetchError`` for a network error, an answer that is not 200, or one that broke off."""
    response = await fetch_ok(window, url)
    try:
        return str(await response.text())
    except Exception:  # noqa: BLE001 - the answer broke off
        raise FetchError("its answer broke off", response.status) from None
