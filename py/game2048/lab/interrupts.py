"""Ctrl-C held back while big libraries import, then raised: an interrupted import is no clean exit.

numpy turns a KeyboardInterrupt inside its C imports into an ImportError ("PyCapsule_Import could not import
module 'datetime'"), exit code 1 and a page of traceback.  Imports take a second; the Ctrl-C waits that long
and then ends the command as any other does (``KeyboardInterrupt``, one line, 130).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def held_back() -> Iterator[None]:
    """Inside the block, a Ctrl-C is noted; at its end (an exception or not), a noted one is raised.

    Nothing changes outside the main thread, or when SIGINT is not Python's own handler (ignored by a shell
    for a background job, or someone else's).
    """
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    asked: list[bool] = []

    def note(signum: int, frame: Any) -> None:
        asked.append(True)

    signal.signal(signal.SIGINT, note)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if asked:
            raise KeyboardInterrupt
