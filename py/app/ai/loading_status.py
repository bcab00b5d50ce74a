"""The AI's start on its status line: the worker's loading stage and the seconds so far, once a second.

The AI takes seconds to start, so the player sees where it stands; only a new stage is said in the live region,
since a count read out every second would drown what the player does meanwhile.  Plain Python that MicroPython
runs (the page's main thread).
"""

import asyncio

from app.ai.client import LOADING_STAGES, SLOW_STEP_S, START_ATTEMPTS, START_TIMEOUT_S, AiClient
from app.ai.split import AiTeam

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
except ImportError:
    pass


def loading_status(stage: str, attempt: int, seconds: int, step_seconds: int) -> "tuple[str, str] | None":
    """The status line for the worker's ``stage`` at start ``attempt``, and its sentence to say; None off stage.

    ``seconds`` count from the start, ``step_seconds`` from when this stage of this attempt began: a stage that
    lasts ``SLOW_STEP_S`` or more is said to be unusually slow.
    """
    if stage not in LOADING_STAGES:
        return None
    step = LOADING_STAGES.index(stage) + 1
    again = ", trying again" if attempt > 1 else ""
    text = f"AI loading{again}, step {step} of {len(LOADING_STAGES)}: {stage}"
    slow = ""
    if step_seconds >= SLOW_STEP_S:
        slow = (
            f" \u2013 unusually slow (the server or this device); tried again after {START_TIMEOUT_S:g} s"
            if attempt < START_ATTEMPTS
            else f" \u2013 unusually slow; given up after {START_TIMEOUT_S:g} s"
        )
    return f"{text}\u2026 {seconds} s{slow}", text + (" (unusually slow)" if slow else "")


async def show_loading(
    client: "AiClient | AiTeam", loading: "Callable[[], bool]", set_status: "Callable[..., None]"
) -> None:
    """While ``loading()``, ``client``'s stage on the status line (``set_status(text, say=...)``) once a second."""
    seconds = 0
    said = ""
    step_seconds = 0
    step_of = ("", 0)  # (stage, attempt) the step's seconds count for
    while loading():
        stage, attempt = client.stage, client.attempts
        if (stage, attempt) != step_of:
            step_of, step_seconds = (stage, attempt), 0
        status = loading_status(stage, attempt, seconds, step_seconds)
        if status is not None:
            text, said_now = status
            set_status(text, say=said_now if said_now != said else "")
            said = said_now
        await asyncio.sleep(1)
        seconds += 1
        step_seconds += 1
