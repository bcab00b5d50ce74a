"""AiControls' status line: while the AI starts (the stage, the seconds, a slow stage named, each stage said once), and
after a hint (the move that follows it takes its place, with its depth and why it differs)."""

from __future__ import annotations

import asyncio
import types
from typing import Any

from app_async import run_async
from fakes import FakeClock, FakeView
from test_app_ai_panel import PANEL_IDS, Store, _choose, fakedom

import app.ai.controls as ai_controls
from app.ai.client import LOADING_STAGES, SLOW_STEP_S, START_ATTEMPTS
from app.ai.controls import AiControls, show_loading
from app.ai.controls import loading_status as status_of
from app.ai.panel import AiPanel
from app.board.play import Intent, PlaySession
from app.browser.storage import MemoryBackend, Storage
from app.games.saved_games import SavedGames
from game2048.board import from_rows
from game2048.game import Game

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


# -- the status line after a hint (issue 54) ------------------------------------------------------------------------

ISSUE_ROWS = [[0, 0, 2, 2], [0, 4, 8, 16], [2, 8, 32, 64], [4, 16, 128, 256]]
"""The issue's board: alpha-beta hints up, expectimax right."""
READOUT_IDS = ["readout-" + name for name in ("algorithm", "preset", "move", "depth", "nodes", "nps", "cutoffs")]
READOUT_IDS += ["readout-time", "readout-workers"]


class HintView(FakeView):
    """The session's fake view, with the hint arrow the controls show."""

    def __init__(self) -> None:
        super().__init__()
        self.hint: str | None = None

    def show_hint(self, direction):
        self.hint = direction

    def hide_hint(self):
        self.hint = None

    def slide(self, outcome):  # as the page's view: a move takes the hint's arrow away
        super().slide(outcome)
        self.hide_hint()


class ScriptedClient:
    """A ready AI whose ``think`` answers come from ``script`` (move, depth, algorithm) in turn."""

    ready, error, needs_restart, working = True, None, False, 1

    def __init__(self, script: list[tuple[str, int, str]]) -> None:
        self.script = list(script)
        self.presets = [{"name": name, "default_weights": {"max": 1.0}} for name in ("classic", "rows")]
        self.thinks = 0

    async def think(self, request):
        self.thinks += 1
        move, depth, algorithm = self.script.pop(0)
        preset = {"alphabeta": "classic", "expectimax": "rows"}[algorithm]
        return {"ok": True, "move": move, "depth": depth, "algorithm": algorithm, "preset": preset, "elapsed_ms": 9.0}


def _controls(script: list[tuple[str, int, str]]) -> tuple[AiControls, PlaySession, HintView, Any]:
    view = HintView()
    game = Game.from_position(from_rows(ISSUE_ROWS), seed=3)
    session = PlaySession(game, view, SavedGames(Storage(MemoryBackend())), lambda: Game.new(4), slide_seconds=0.001)
    session.start()
    document = fakedom.Document(PANEL_IDS + READOUT_IDS)
    client = ScriptedClient(script)
    panel = AiPanel(document, client, Store(), view, lambda f: f)
    return AiControls(document, session, view, client, panel, lambda f: f), session, view, document


async def _settled(controls: AiControls, session: PlaySession) -> None:
    """Until the AI has answered and the session has played what it was given."""
    for _ in range(500):
        await asyncio.sleep(0.002)
        if not controls.thinking and not session.busy and not controls._wiring.tasks:
            return
    raise AssertionError("the AI never settled")


def test_an_ai_step_after_a_hint_replaces_it_and_says_why_its_move_differs():
    controls, session, view, document = _controls([("up", 5, "alphabeta"), ("left", 6, "alphabeta")])
    status = document.getElementById("ai-status")

    async def scenario() -> list[Any]:
        controls.hint()
        await _settled(controls, session)
        shown = [status.textContent, view.hint, view.announced[-1]]
        before = session.game.moves
        controls.step()
        await _settled(controls, session)
        return [*shown, status.textContent, view.hint, session.game.moves - before]

    hint, arrow, said, after, arrow_after, moves = run_async(scenario)
    assert (hint, arrow, said) == ("Hint: up (depth 5)", "up", "Hint: up")
    clause = "a deeper search (depth 6) changed its mind from the hint\u2019s up (depth 5)"
    assert after == f"AI step: left (depth 6); {clause}" and "Hint" not in after.split(";")[0]
    assert arrow_after is None and moves == 1
    assert after in view.announced  # the reason is said too; the move itself the session says


def test_the_players_own_move_after_a_hint_replaces_it_and_another_move_says_so():
    controls, session, view, document = _controls([("up", 5, "alphabeta"), ("up", 5, "alphabeta")])
    status = document.getElementById("ai-status")

    async def scenario() -> list[str]:
        controls.hint()
        await _settled(controls, session)
        session.submit(Intent.move("left"))
        await _settled(controls, session)
        said = [status.textContent]
        session.submit(Intent.move("right"))  # a move after that one: no hint to compare it with
        await _settled(controls, session)
        said.append(status.textContent)
        controls.hint()
        await _settled(controls, session)
        session.submit(Intent("undo"))
        await _settled(controls, session)
        return [*said, status.textContent]

    chose, kept, undone = run_async(scenario)
    assert chose == "You played left; the hint was up (depth 5): you chose another move"
    assert kept == chose
    assert undone == "Hint up withdrawn: a move was taken back"


def test_the_first_autoplay_move_after_a_hint_replaces_it_with_its_depth():
    controls, session, _view, document = _controls([("right", 5, "alphabeta"), ("right", 7, "alphabeta")])
    status = document.getElementById("ai-status")
    said: list[str] = []

    def first_move(event: str, *_: Any) -> None:
        if event == "move":
            said.append(status.textContent)
            controls.stop_autoplay()  # one autoplay move is enough

    async def scenario() -> None:
        controls.hint()
        await _settled(controls, session)
        session.listeners.append(first_move)
        controls.start_autoplay()
        await _settled(controls, session)

    run_async(scenario)
    assert said == ["Autoplay: right (depth 7), the hint\u2019s move"]


def test_the_preset_said_on_an_algorithm_switch_stays_visible_through_a_hint():
    controls, session, _view, document = _controls([("up", 5, "alphabeta")])
    controls.panel.worker_ready()
    note, status = document.getElementById("ai-preset-note"), document.getElementById("ai-status")

    async def scenario() -> list[Any]:
        _choose(document, "ai-algorithm", "alphabeta")  # the saved settings play expectimax with rows
        said = note.textContent
        controls.hint()
        await _settled(controls, session)
        return [said, status.textContent, note.textContent, note.hidden]

    said, hint, kept, hidden = run_async(scenario)
    assert said.startswith("Now playing Alpha-beta with the classic preset (it was rows)")
    assert hint == "Hint: up (depth 5)" and kept == said and not hidden
