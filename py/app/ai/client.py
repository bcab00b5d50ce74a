"""The page's side of the AI worker: JSON requests out, answers in, failures turned into answers.

The search runs in a PyScript worker (``py/app/ai/worker.py``), never on the
main thread.  This client hides how it is reached: everything that can go
wrong (the worker failed to start, raised, answered something unreadable,
died, or went silent) comes back as ``{"ok": False, "error": ...}``, so the
controls have one path for failure: show the message, stop autoplay, leave
the game alone.  Starting has a time limit and one retry; a worker that
fails during a search (not a refused request: the call itself) is marked
for a restart, which ``restart()`` performs with a new worker.

Time limits count the page's progress, not wall time alone (``_within``):
the clock advances by ticks of the page's own timer (``app.browser.clock``:
the browser's, which a clock set back does not stop), a tick that comes late
(a background tab, a busy machine, a slow phone holding the main thread)
counts as one tick, and a call is given up only at a second tick past its
limit, so an answer that arrived while the page was held back is read
first.  A call's clock starts once the worker has finished building the
other presets' tables, which it does before answering.

Workers come from a ``start_worker(attempt)`` callable (the page creates a
script tag; CPython tests hand in fakes).
"""

import asyncio
import json

from app.browser.clock import monotonic, sleep

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

# A worker that has not answered by then is treated as failed: 5 x the think time plus slack.
TIMEOUT_FACTOR = 5.0
TIMEOUT_SLACK_S = 3.0
START_TIMEOUT_S = 45.0
"""One attempt to start the worker: its interpreter and tables take 3-10 s here, about 20 s on a phone four times
slower; a stalled download is tried again after this, and the AI given up after ``START_ATTEMPTS`` of them."""
TICKS_PER_LIMIT = 10
"""A time limit is counted in this many ticks of the page's timer (``_within``)."""
SLOW_STEP_S = 15
"""A loading step taking longer than this is said to be unusually slow (``app.ai.controls.show_loading``)."""
START_ATTEMPTS = 2
MAX_RESTARTS = 3
"""Restarts after a worker died during a search, per page: a worker that keeps dying is left dead."""
GAME_STILL_WORKS = "The game still works; reload the page to try again."
LOADING_STAGES = ("starting Python (Pyodide) in a worker", "building the search tables")
"""What the worker is doing while it starts, in order (the page shows "step n of 2")."""


class AiClient:
    """Talks JSON to the worker: ``think``, ``explain`` and any other export by ``call``; ``presets``, ``ready``."""

    def __init__(self, start_worker: Callable[[int], Any], start_timeout_s: float = START_TIMEOUT_S) -> None:
        self.start_worker = start_worker
        self.start_timeout_s = start_timeout_s
        self.worker: Any = None
        self.presets: list[dict[str, Any]] = []
        self.error: str | None = None
        self.needs_restart = False
        self.attempts = 0  # workers started so far (each gets its own name)
        self.restarts = 0
        self.stage = ""  # while starting: one of LOADING_STAGES; "" otherwise
        self._preparing: Any = None  # the task asking for the other presets' tables, kept until it ends
        self._prepared = asyncio.Event()  # set once that task has ended (or was never needed)
        self._prepared.set()

    @property
    def ready(self) -> bool:
        return self.worker is not None and self.error is None and not self.needs_restart

    @property
    def review_lanes(self) -> int:
        """Review batches worth sending at once (``AiTeam``'s, one a worker): one worker grades one at a time."""
        return 1

    async def connect(self) -> bool:
        """Start a worker, build its tables and read its presets, twice at most; False (and ``error``) on failure."""
        self.worker, self.error, self.needs_restart = None, None, False
        reason = "no attempt was made"
        for _ in range(START_ATTEMPTS):
            self.attempts += 1
            try:
                worker, presets = await _within(self._start(self.attempts), self.start_timeout_s)
            except asyncio.TimeoutError:  # noqa: UP041 - MicroPython has no builtin TimeoutError
                reason = f"it did not answer within {self.start_timeout_s:g} s"
                continue
            except Exception as exc:  # noqa: BLE001 - whatever broke, the game stays playable without the AI
                reason = _describe(exc)
                continue
            self.worker, self.presets = worker, presets
            return True
        self.error = f"The AI could not start: {reason}. {GAME_STILL_WORKS}"
        return False

    async def _start(self, attempt: int) -> tuple[Any, list[dict[str, Any]]]:
        try:
            self.stage = LOADING_STAGES[0]
            worker = await _awaitable(self.start_worker(attempt))
            self.stage = LOADING_STAGES[1]
            return worker, await self._warm_up(worker)
        finally:
            self.stage = ""

    async def _warm_up(self, worker: Any) -> list[dict[str, Any]]:
        """The worker's ``ready()`` (tables and a warm-up search), then its presets."""
        warm = await _awaitable(worker.ready())
        if str(warm) != "ok":
            raise RuntimeError(f"the worker's warm-up answered {str(warm)[:80]!r}")
        try:
            presets = json.loads(str(await _awaitable(worker.presets())))
        except ValueError:
            raise RuntimeError("the worker's list of presets is not readable") from None
        if (
            not isinstance(presets, list)
            or not presets
            or not all(
                isinstance(p, dict) and isinstance(p.get("name"), str) and isinstance(p.get("default_weights"), dict)
                for p in presets
            )
        ):
            raise RuntimeError("the worker listed no usable evaluation presets")
        self._prepared = asyncio.Event()
        self._preparing = asyncio.create_task(self._prepare_other_presets(worker, self._prepared))
        return presets

    async def _prepare_other_presets(self, worker: Any, prepared: asyncio.Event) -> None:
        """The worker's other presets' tables, built while the page goes on; a request asked meanwhile waits.

        Not awaited by ``connect``: the AI is ready with the default presets.
        A failure here shows at the next request, as any worker failure does.
        """
        try:
            await _awaitable(worker.prepare_other_presets())
        except Exception:  # noqa: BLE001 - the next request reports a worker that broke
            pass
        finally:
            prepared.set()

    async def restart(self) -> bool:
        """A new worker after one died during a search; False once ``MAX_RESTARTS`` are used up."""
        if self.restarts >= MAX_RESTARTS:
            self.error = f"The AI stopped working {self.restarts + 1} times. {GAME_STILL_WORKS}"
            return False
        self.restarts += 1
        return await self.connect()

    async def think(self, request: dict[str, Any]) -> dict[str, Any]:
        """One decision; always a dict with ``ok``; never raises."""
        return _known_move(await self.call("think", request, float(request.get("think_ms") or 100)))

    async def explain(self, request: dict[str, Any]) -> dict[str, Any]:
        """One decision with its explanation (the worker's ``explain``): its think time plus ``analysis_ms``."""
        budget_ms = float(request.get("think_ms") or 100) + float(request.get("analysis_ms") or 0)
        return _known_move(await self.call("explain", request, budget_ms))

    async def call(self, function: str, request: dict[str, Any], budget_ms: "float | None") -> dict[str, Any]:
        """The worker's exported ``function`` on ``request`` (JSON both ways); always a dict with ``ok``.

        ``budget_ms`` is the time the worker was asked to take: the call is
        given up, and the worker marked for a restart, after
        ``TIMEOUT_FACTOR`` times that plus ``TIMEOUT_SLACK_S`` of the page's
        progress (``_within``), counted once the worker has built the other
        presets' tables (``START_TIMEOUT_S`` for those).  ``None``: no limit,
        for a call whose length is not the worker's to choose (the network's
        download on a slow line); its caller watches the worker otherwise.
        """
        if not self.ready:
            return {"ok": False, "error": self.error or "the AI is not ready yet"}
        if not self._prepared.is_set():
            try:
                await _within(self._prepared.wait(), self.start_timeout_s)
            except asyncio.TimeoutError:  # noqa: UP041 - MicroPython has no builtin TimeoutError
                self.needs_restart = True
                error = f"the AI did not finish building its tables within {self.start_timeout_s:g} s"
                return {"ok": False, "error": error, "restart": True}
        timeout = 0.0 if budget_ms is None else budget_ms / 1000.0 * TIMEOUT_FACTOR + TIMEOUT_SLACK_S
        worker = self.worker
        try:
            exported = getattr(worker, function)
            called = exported(json.dumps(request))
            raw = await (_awaitable(called) if budget_ms is None else _within(called, timeout))
        except asyncio.TimeoutError:  # noqa: UP041 - MicroPython has no builtin TimeoutError
            return self._failed(worker, f"the AI did not answer within {timeout:.1f} s")
        except Exception as exc:  # noqa: BLE001 - the worker itself failed: it is restarted before the next try
            return self._failed(worker, f"the AI stopped working ({_describe(exc)})")
        try:
            answer = json.loads(str(raw))
        except ValueError:
            return {"ok": False, "error": f"the AI answered something unreadable: {str(raw)[:80]!r}"}
        if not isinstance(answer, dict) or "ok" not in answer:
            return {"ok": False, "error": "the AI's answer has no 'ok' field"}
        return answer

    def _failed(self, worker: Any, error: str) -> dict[str, Any]:
        """The answer to a call that ``worker`` failed: a restart, unless a new worker has replaced it meanwhile
        (a call asked of the worker before, ended by its death): the new one is not restarted for it."""
        if worker is not self.worker:
            return {"ok": False, "error": f"{error}; that worker has been replaced since"}
        self.needs_restart = True
        return {"ok": False, "error": error, "restart": True}


async def _within(awaitable: Any, limit_s: float) -> Any:
    """What ``awaitable`` gives, or ``asyncio.TimeoutError`` once the page has progressed ``limit_s`` without it.

    The page's progress is counted in ticks of its own timer, ``limit_s /
    TICKS_PER_LIMIT`` apart; a tick that comes late counts as one tick, not as
    the time the page was held back, and the limit is called only at the
    second tick past it, so an answer that arrived meanwhile is read first.
    """
    task = asyncio.create_task(_awaitable(awaitable))
    expired: list[bool] = []

    async def watch() -> None:
        tick = limit_s / TICKS_PER_LIMIT
        counted = 0.0
        past = False
        while True:
            last = monotonic()
            await sleep(tick)
            counted += min(monotonic() - last, tick)
            if counted >= limit_s - tick / 2:
                if past:
                    break
                past = True
        expired.append(True)
        task.cancel()

    watchdog = asyncio.create_task(watch())
    try:
        return await task
    except asyncio.CancelledError:
        if expired:
            raise asyncio.TimeoutError from None  # noqa: UP041 - MicroPython has no builtin TimeoutError
        raise
    finally:
        watchdog.cancel()
        if not task.done():  # the call itself was cancelled: so is what it waited for
            task.cancel()


def _known_move(answer: dict[str, Any]) -> dict[str, Any]:
    """The answer, or a failure if it names a move the page does not know."""
    if answer["ok"] and answer.get("move") not in ("up", "right", "down", "left", None):
        return {"ok": False, "error": f"the AI answered an unknown move {answer.get('move')!r}"}
    return answer


async def _awaitable(value: Any) -> Any:
    """Await a JS promise / coroutine, or pass a plain value through (a synchronous fake).

    MicroPython's coroutines are generators and its JS promises bare thenables:
    neither has ``__await__``, so ``send`` and ``then`` mark them.
    """
    if hasattr(value, "__await__") or hasattr(value, "send") or hasattr(value, "then"):
        return await value
    return value


def _describe(exc: BaseException) -> str:
    """What went wrong, for a person: the last line of the message, without JavaScript's internals."""
    text = str(exc).strip().splitlines()
    last = text[-1][:160] if text else ""
    if type(exc).__name__ == "JsException" or last.startswith(("TypeError: Cannot read", "JsException")):
        return "its worker no longer answers (it may have run out of memory or failed to load)"
    if isinstance(exc, RuntimeError) and last:  # the client's and the page's own words
        return last
    return f"{type(exc).__name__}: {last}" if last else type(exc).__name__
