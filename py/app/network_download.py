"""The page's side of the learned network's download: ask the worker, show how far it is, say how it ended.

The worker downloads and checks the file (``game2048.evaluation.network_loader``);
the page asks it to (``load_network``) and, while that runs, polls
``network_progress`` to show "Downloading the network, 3.1 of 9.7 MB".  The
answer is the worker's: ``ok`` with the network's size and shape, or the
message that says what was wrong, which the controls show before going back
to the preset the player had.  Plain Python for the page's MicroPython.
"""

import asyncio

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

POLL_S = 0.25
"""How often the page asks the worker how far the download is."""
LOAD_BUDGET_MS = 60000.0
"""The worker's time for a download (the client gives up after 5 x this plus slack: a slow line's 10 MB)."""
PROGRESS_BUDGET_MS = 20000.0
"""A progress poll waits while the worker decodes the file (seconds on a phone): never mistaken for a dead worker."""


def page_folder(base_uri: str) -> str:
    """The folder of the page's address (``document.baseURI``), ending in ``/``: where ``networks/`` lies."""
    address = base_uri.split("#")[0].split("?")[0]
    return address[: address.rfind("/") + 1]


def progress_text(progress: "dict[str, Any]") -> str:
    """What the status line says about a download in progress."""
    stage = progress.get("stage")
    if stage == "downloading":
        loaded, total = float(progress.get("loaded") or 0), float(progress.get("total") or 0)
        if total > 0:
            return f"Downloading the learned network, {loaded / 1e6:.1f} of {total / 1e6:.1f} MB\u2026"
        return f"Downloading the learned network, {loaded / 1e6:.1f} MB\u2026"
    if stage == "checking":
        return "Checking the learned network and building its tables\u2026"
    return "Asking for the learned network\u2026"


def ready_text(answer: "dict[str, Any]") -> str:
    """What the status line says once the network is in use."""
    size = float(answer.get("bytes") or 0) / 1e6
    return f"Learned network ready ({answer.get('shape')}, {size:.1f} MB)."


async def download(client: "Any", base: str, show: "Callable[[str], None]") -> "dict[str, Any]":
    """Have the worker load the network from ``base``, calling ``show`` with each progress text; its answer.

    The answer always has ``ok``: a failed call (a worker that died) comes
    back as the client's own failure answer, with ``restart`` when it needs one.
    """
    outcome: dict[str, Any] = {}

    async def load() -> None:
        outcome["answer"] = await client.call("load_network", {"base": base}, LOAD_BUDGET_MS)

    task = asyncio.create_task(load())
    shown = ""
    while "answer" not in outcome:
        progress = await client.call("network_progress", {}, PROGRESS_BUDGET_MS)
        text = progress_text(progress if progress.get("ok") else {})
        if text != shown:
            show(text)
            shown = text
        if "answer" in outcome:
            break
        await asyncio.sleep(POLL_S)
    await task
    return outcome["answer"]
