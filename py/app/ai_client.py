"""The page's side of the AI worker: JSON requests out, answers in, failures turned into answers.

The search runs in the PyScript worker named ``ai`` (``py/app/ai_worker.py``),
never on the main thread.  This client hides how it is reached: everything
that can go wrong (the worker failed to start, raised, answered something
unreadable, or went silent) comes back as ``{"ok": False, "error": ...}``,
so the controls have one path for failure: show the message, stop autoplay,
leave the game alone.

It takes the worker object (or an awaitable of it) from outside, so CPython
tests can hand it a fake.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Awaitable

# A worker that has not answered by then is treated as failed: 5 x the think time plus slack.
TIMEOUT_FACTOR = 5.0
TIMEOUT_SLACK_S = 3.0


class AiClient:
    """Talks JSON to the worker's exported ``think``, ``presets`` and ``ready``."""

    def __init__(self) -> None:
        self.worker: Any = None
        self.presets: list[dict[str, Any]] = []
        self.error: str | None = None

    @property
    def ready(self) -> bool:
        return self.worker is not None and self.error is None

    async def connect(self, worker: Awaitable[Any] | Any) -> bool:
        """Wait for the worker, build its tables and read its presets; False (and ``error``) on failure."""
        try:
            if hasattr(worker, "__await__"):
                worker = await worker
            warm = await worker.ready()
            if str(warm) != "ok":
                raise RuntimeError(f"the worker's warm-up answered {warm!r}")
            presets = json.loads(str(await worker.presets()))
            if not isinstance(presets, list) or not presets:
                raise RuntimeError("the worker listed no evaluation presets")
        except Exception as exc:  # noqa: BLE001 - whatever broke, the game stays playable without the AI
            self.error = f"The AI could not start: {_describe(exc)}"
            return False
        self.worker = worker
        self.presets = presets
        return True

    async def think(self, request: dict[str, Any]) -> dict[str, Any]:
        """One decision; always a dict with ``ok``; never raises."""
        if self.worker is None:
            return {"ok": False, "error": self.error or "the AI is not ready yet"}
        budget_s = float(request.get("think_ms") or 100) / 1000.0
        timeout = budget_s * TIMEOUT_FACTOR + TIMEOUT_SLACK_S
        try:
            raw = await asyncio.wait_for(_awaitable(self.worker.think(json.dumps(request))), timeout)
        except asyncio.TimeoutError:
            return {"ok": False, "error": f"the AI did not answer within {timeout:.1f} s"}
        except Exception as exc:  # noqa: BLE001 - a worker exception becomes a message
            return {"ok": False, "error": f"the AI failed: {_describe(exc)}"}
        try:
            answer = json.loads(str(raw))
        except ValueError:
            return {"ok": False, "error": f"the AI answered something unreadable: {str(raw)[:80]!r}"}
        if not isinstance(answer, dict) or "ok" not in answer:
            return {"ok": False, "error": "the AI's answer has no 'ok' field"}
        if answer["ok"] and answer.get("move") not in ("up", "right", "down", "left", None):
            return {"ok": False, "error": f"the AI answered an unknown move {answer.get('move')!r}"}
        return answer


async def _awaitable(value: Any) -> Any:
    """Await a JS promise / coroutine, or pass a plain value through (a synchronous fake)."""
    if hasattr(value, "__await__"):
        return await value
    return value


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    last = text[-1] if text else ""
    return f"{type(exc).__name__}: {last}" if last else type(exc).__name__
