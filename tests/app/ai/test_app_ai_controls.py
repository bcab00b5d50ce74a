"""AiControls' status line while the AI starts: the stage, the seconds, a slow stage named, and each stage said once."""

from __future__ import annotations

import types

from app_async import run_async
from fakes import FakeClock

import app.ai.controls as ai_controls
from app.ai.client import LOADING_STAGES, SLOW_STEP_S, START_ATTEMPTS
from app.ai.controls import loading_status as status_of
from app.ai.controls import show_loading

FIRST, SECOND = LOADING_STAGES


def test_a_stage_shows_its_step_and_the_seconds_so_far():
    assert status_of(FIRST, 1, 3, 3) == (
        f"AI loading, step 1 of 2: {FIRST}\u2026 3 s",
        f"AI loading, step 1 of 2: {FIRST}",
    )
    text, said = status_of(SECOND, 2, 40, 1)
    assert text.startswith(f"AI loading, trying again, step 2 of 2: {SECOND}\u2026 40 s")
    assert said == f"AI loading, trying again, step 2 of 2: {SECOND}"


def test_a_slow_stage_says_what_happens_next():
    text, said = status_of(FIRST, 1, SLOW_STEP_S, SLOW_STEP_S)
    assert "unusually slow (the server or this device); tried again after" in text
    assert said.endswith(" (unusually slow)")
    text, _ = status_of(FIRST, START_ATTEMPTS, SLOW_STEP_S, SLOW_STEP_S)
    assert "unusually slow; given up after" in text


def test_no_status_outside_the_loading_stages():
    assert status_of("", 1, 5, 5) is None


def test_each_stage_is_said_once_while_its_seconds_count(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(ai_controls, "monotonic", clock.monotonic)
    monkeypatch.setattr(ai_controls, "sleep", clock.sleep)
    client = types.SimpleNamespace(stage=FIRST, attempts=1)
    shown: list[tuple[str, str]] = []
    stages = [FIRST, FIRST, SECOND, ""]

    def loading() -> bool:
        if not stages:
            return False
        client.stage = stages.pop(0)
        return True

    run_async(lambda: show_loading(client, loading, lambda text, say: shown.append((text, say))))
    assert [text.rsplit("\u2026", 1)[1] for text, _ in shown] == [" 0 s", " 1 s", " 2 s"]
    assert [bool(say) for _, say in shown] == [True, False, True]


def test_the_seconds_shown_are_the_clocks_not_a_count_of_ticks(monkeypatch):
    """A tick that comes late (a slow phone, a background tab) shows the seconds that really passed."""
    clock = FakeClock()

    async def late(seconds):
        await clock.sleep(seconds * 2)

    monkeypatch.setattr(ai_controls, "monotonic", clock.monotonic)
    monkeypatch.setattr(ai_controls, "sleep", late)
    client = types.SimpleNamespace(stage=FIRST, attempts=1)
    shown: list[str] = []
    turns = iter(range(4))
    run_async(lambda: show_loading(client, lambda: next(turns, None) is not None, lambda text, say: shown.append(text)))
    assert [text.rsplit("\u2026", 1)[1] for text in shown] == [" 0 s", " 2 s", " 4 s", " 6 s"]
