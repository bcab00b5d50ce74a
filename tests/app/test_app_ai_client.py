"""AiClient: every failure of the worker comes back as an ``ok: false`` answer with a message, never an exception."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import app.ai_client as ai_client
from app.ai_client import AiClient
from app_async import run_async

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "py" / "app"))
import ai_worker  # noqa: E402  (the real worker module, run in CPython)


class RealWorker:
    """The worker's exported functions, called as the page calls them (async, JSON strings)."""

    async def ready(self):
        return ai_worker.ready()

    async def presets(self):
        return ai_worker.presets()

    async def think(self, request_json):
        return ai_worker.think(request_json)


class Broken(RealWorker):
    def __init__(self, answer=None, exc=None, delay=0.0):
        self.answer, self.exc, self.delay = answer, exc, delay

    async def think(self, request_json):
        await asyncio.sleep(self.delay)
        if self.exc:
            raise self.exc
        return self.answer


ROWS = [[2, 2, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]


def _think(worker, request=None):
    async def scenario():
        client = AiClient()
        assert await client.connect(worker)
        return await client.think(request or {"rows": ROWS, "depth": None, "think_ms": 10})
    return run_async(scenario)


def test_a_real_decision_round_trips():
    answer = _think(RealWorker())
    assert answer["ok"] and answer["move"] in ("up", "right", "down", "left") and answer["depth"] >= 1


def test_a_rejected_request_is_an_error_answer():
    answer = _think(RealWorker(), {"rows": ROWS, "think_ms": 10, "preset": "no-such-preset"})
    assert answer["ok"] is False and "no-such-preset" in answer["error"]


def test_worker_exceptions_junk_and_bad_moves_become_messages():
    cases = [(Broken(exc=RuntimeError("worker crashed")), "worker crashed"),
             (Broken(answer="<html>"), "unreadable"),
             (Broken(answer=json.dumps({"move": "up"})), "no 'ok'"),
             (Broken(answer=json.dumps({"ok": True, "move": "sideways"})), "unknown move")]
    for worker, words in cases:
        answer = _think(worker)
        assert answer["ok"] is False and words in answer["error"], answer


def test_a_silent_worker_times_out(monkeypatch):
    monkeypatch.setattr(ai_client, "TIMEOUT_SLACK_S", 0.05)
    answer = _think(Broken(answer="{}", delay=5.0), {"rows": ROWS, "think_ms": 10})
    assert answer["ok"] is False and "did not answer" in answer["error"]


def test_a_worker_that_fails_to_start_leaves_a_message():
    class NoStart(RealWorker):
        async def ready(self):
            raise RuntimeError("no memory")

    async def scenario():
        client = AiClient()
        ok = await client.connect(NoStart())
        return ok, client, await client.think({"rows": ROWS})

    ok, client, answer = run_async(scenario)
    assert not ok and not client.ready and "no memory" in client.error
    assert answer["ok"] is False
