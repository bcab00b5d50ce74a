"""AiClient: every failure of the worker comes back as an ``ok: false`` answer with a message, never an exception."""

from __future__ import annotations

import asyncio
import json
import time

from app_async import run_async
from real_worker import RealWorker, ai_worker

import app.ai.client as ai_client
from app.ai.client import AiClient


class Broken(RealWorker):
    def __init__(self, answer=None, exc=None, delay=0.0):
        self.answer, self.exc, self.delay = answer, exc, delay

    async def think(self, request_json):
        await asyncio.sleep(self.delay)
        if self.exc:
            raise self.exc
        return self.answer


ROWS = [[2, 2, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]


def _client(*workers, timeout_s: float = 5.0) -> tuple[AiClient, list[int]]:
    """A client whose attempt N starts ``workers[N - 1]`` (the last one again after that)."""
    started: list[int] = []

    def start(attempt):
        started.append(attempt)
        worker = workers[min(attempt, len(workers)) - 1]
        if isinstance(worker, BaseException):
            raise worker
        return worker

    return AiClient(start, start_timeout_s=timeout_s), started


def _think(worker, request=None):
    async def scenario():
        client, _ = _client(worker)
        assert await client.connect()
        return await client.think(request or {"rows": ROWS, "depth": None, "think_ms": 10})

    return run_async(scenario)


def test_a_real_decision_round_trips():
    answer = _think(RealWorker())
    assert answer["ok"] and answer["move"] in ("up", "right", "down", "left") and answer["depth"] >= 1


def test_a_rejected_request_is_an_error_answer():
    answer = _think(RealWorker(), {"rows": ROWS, "think_ms": 10, "preset": "no-such-preset"})
    assert answer["ok"] is False and "no-such-preset" in answer["error"]
    assert "restart" not in answer


def test_worker_exceptions_junk_and_bad_moves_become_messages():
    cases = [
        (Broken(exc=ValueError("worker crashed")), "worker crashed"),
        (Broken(answer="<html>"), "unreadable"),
        (Broken(answer=json.dumps({"move": "up"})), "no 'ok'"),
        (Broken(answer=json.dumps({"ok": True, "move": "sideways"})), "unknown move"),
    ]
    for worker, words in cases:
        answer = _think(worker)
        assert answer["ok"] is False and words in answer["error"], answer


class JsException(Exception):
    """Named as Pyodide names an error thrown by JavaScript (here: a worker that died)."""


def test_a_dead_worker_is_a_readable_message_and_asks_for_a_restart():
    answer = _think(Broken(exc=JsException("TypeError: Cannot read properties of undefined (reading 'apply')")))
    assert answer["ok"] is False and answer["restart"] is True
    assert "apply" not in answer["error"] and "no longer answers" in answer["error"]


def test_a_silent_worker_times_out(monkeypatch):
    monkeypatch.setattr(ai_client, "TIMEOUT_SLACK_S", 0.05)
    answer = _think(Broken(answer="{}", delay=5.0), {"rows": ROWS, "think_ms": 10})
    assert answer["ok"] is False and "did not answer" in answer["error"] and answer["restart"]


class NoStart(RealWorker):
    async def ready(self):
        raise ValueError("no memory")


class Silent(RealWorker):
    async def ready(self):
        await asyncio.sleep(60)


def test_a_worker_that_fails_to_start_twice_leaves_a_message():
    async def scenario():
        client, started = _client(NoStart())
        ok = await client.connect()
        return ok, client, started, await client.think({"rows": ROWS})

    ok, client, started, answer = run_async(scenario)
    assert not ok and not client.ready and started == [1, 2]
    assert "could not start" in client.error and "no memory" in client.error and "game still works" in client.error
    assert answer["ok"] is False


def test_starting_has_a_time_limit_and_one_retry():
    async def scenario():
        client, started = _client(Silent(), RealWorker(), timeout_s=0.2)
        return await client.connect(), client, started

    ok, client, started = run_async(scenario)
    assert ok and client.ready and started == [1, 2] and client.presets


def test_a_worker_that_never_answers_is_given_up_with_a_message():
    async def scenario():
        client, started = _client(Silent(), timeout_s=0.1)
        return await client.connect(), client, started

    ok, client, started = run_async(scenario)
    assert not ok and started == [1, 2] and "did not answer within 0.1 s" in client.error


def test_a_worker_file_that_does_not_load_is_said_plainly():
    async def scenario():
        client, _ = _client(RuntimeError("its file could not be loaded (HTTP 404)"))
        return await client.connect(), client

    ok, client = run_async(scenario)
    assert not ok and client.error.startswith("The AI could not start: its file could not be loaded (HTTP 404).")


def test_after_a_worker_died_a_restart_brings_a_new_one_and_the_ai_works_again():
    async def scenario():
        client, started = _client(
            Broken(exc=JsException("TypeError: Cannot read properties of undefined")), RealWorker()
        )
        assert await client.connect()
        failed = await client.think({"rows": ROWS, "think_ms": 10})
        not_ready = client.ready
        restarted = await client.restart()
        return failed, not_ready, restarted, await client.think({"rows": ROWS, "think_ms": 10}), started

    failed, not_ready, restarted, answer, started = run_async(scenario)
    assert failed["restart"] and not not_ready and restarted and answer["ok"] and started == [1, 2]


def test_restarts_are_limited():
    async def scenario():
        client, _ = _client(Broken(exc=JsException("dead")))
        results = []
        for _ in range(ai_client.MAX_RESTARTS + 1):
            results.append(await client.restart())
        return client, results

    client, results = run_async(scenario)
    assert results[-1] is False and "stopped working" in client.error


def test_while_it_starts_the_client_says_which_stage_it_is_in():
    seen = []

    class Watched(RealWorker):
        async def ready(self):
            seen.append(("ready", client.stage))
            return ai_worker.ready()

    def start(attempt):
        seen.append(("start", client.stage))
        return Watched()

    client = AiClient(start)

    async def scenario():
        assert client.stage == ""
        assert await client.connect()

    run_async(scenario)
    assert seen == [("start", ai_client.LOADING_STAGES[0]), ("ready", ai_client.LOADING_STAGES[1])]
    assert client.stage == ""


def test_once_ready_the_client_asks_for_the_other_presets_without_waiting_for_them():
    asked = []

    class Slow(RealWorker):
        async def prepare_other_presets(self):
            asked.append("prepare")
            await asyncio.sleep(0.2)
            asked.append("prepared")
            return "ok"

    async def scenario():
        client, _ = _client(Slow())
        assert await client.connect()
        assert client.ready and "prepared" not in asked  # connect did not wait for it
        await client._preparing
        return asked

    assert run_async(scenario) == ["prepare", "prepared"]


class HeldBack(RealWorker):
    """A worker that answers at once while the page's main thread is held back for longer than the call's
    limit (a background tab, a busy machine): the answer is read only once the thread is free again, when
    the limit is due too, as a browser queues a worker's message behind a timer that came due meanwhile."""

    def __init__(self, hold_s: float) -> None:
        self.hold_s = hold_s

    async def think(self, request_json):
        answer = ai_worker.think(request_json)
        loop = asyncio.get_running_loop()
        arrived = loop.create_future()

        def held() -> None:
            time.sleep(self.hold_s)  # the main thread does nothing else meanwhile
            # then the timers that came due run first, and the answer's message after them
            loop.call_soon(loop.call_soon, arrived.set_result, answer)

        loop.call_soon(held)
        return await arrived


def test_a_worker_whose_answer_waited_for_a_held_back_page_is_not_taken_for_dead(monkeypatch):
    monkeypatch.setattr(ai_client, "TIMEOUT_SLACK_S", 0.05)  # a limit of 0.1 s for 10 ms of thought
    answers = [_think(HeldBack(hold_s=0.3)) for _ in range(3)]
    assert all(answer["ok"] and answer["move"] in ("up", "right", "down", "left") for answer in answers), answers


def test_time_limits_count_the_pages_ticks_and_call_the_limit_one_tick_past_it(monkeypatch):
    async def scenario():
        started = time.monotonic()
        try:
            await ai_client._within(asyncio.sleep(10), 0.2)
        except TimeoutError:
            return time.monotonic() - started
        return None

    took = run_async(scenario)
    assert took is not None and 0.2 <= took < 0.6  # the limit and one tick (0.02 s), with room for a busy machine


def test_a_request_asked_while_the_other_presets_are_built_is_timed_from_when_they_are(monkeypatch):
    monkeypatch.setattr(ai_client, "TIMEOUT_SLACK_S", 0.05)

    class Building(RealWorker):
        """Takes its requests one at a time, as the worker does: a think waits for the tables."""

        built = False

        async def prepare_other_presets(self):
            await asyncio.sleep(0.4)  # longer than the think's limit of 0.1 s
            self.built = True
            return "ok"

        async def think(self, request_json):
            while not self.built:
                await asyncio.sleep(0.01)
            return ai_worker.think(request_json)

    async def scenario():
        client, _ = _client(Building(), timeout_s=5.0)
        assert await client.connect()
        return await client.think({"rows": ROWS, "think_ms": 10})

    answer = run_async(scenario)
    assert answer["ok"], answer


def test_a_worker_that_never_finishes_the_other_presets_is_restarted():
    class Stuck(RealWorker):
        async def prepare_other_presets(self):
            await asyncio.sleep(60)

    async def scenario():
        client, _ = _client(Stuck(), timeout_s=0.2)
        assert await client.connect()
        return await client.think({"rows": ROWS, "think_ms": 10}), client

    answer, client = run_async(scenario)
    assert not answer["ok"] and answer["restart"] and "building its tables within 0.2 s" in answer["error"]
    assert client.needs_restart


def test_a_call_the_dead_worker_never_answered_does_not_restart_the_worker_that_replaced_it(monkeypatch):
    """Issue 53: a progress poll asked of a worker that then died timed out after the AI had restarted on a new
    worker, and marked that good one for a restart (with the AI not ready meanwhile)."""
    monkeypatch.setattr(ai_client, "TIMEOUT_SLACK_S", 0.05)  # a limit of 0.1 s for 10 ms

    class Dying(RealWorker):
        async def network_progress(self, _request_json):
            await asyncio.sleep(60)  # it died: no answer ever comes

    async def scenario():
        client, _ = _client(Dying(), RealWorker())
        assert await client.connect()
        poll = asyncio.create_task(client.call("network_progress", {}, 10))
        await asyncio.sleep(0)  # asked of the first worker
        client.needs_restart = True  # meanwhile another call found it dead: the AI restarts on a new worker
        assert await client.restart()
        late = await poll
        return late, client.ready, client.needs_restart, await client.think({"rows": ROWS, "think_ms": 10})

    late, ready, needs_restart, answer = run_async(scenario)
    assert late["ok"] is False and "restart" not in late and "replaced since" in late["error"]
    assert ready and not needs_restart and answer["ok"]
