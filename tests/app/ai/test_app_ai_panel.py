"""The AI panel's lines say what is true now: the learned network's line follows the preset and the worker in use.

Issue 53: after churn (presets changed, workers terminated), the AI restarted and played on, but "Checking the
learned network and building its tables…" stayed for more than 90 s: the download the dead worker ran held the
line, and the new worker was never asked for the network.
"""

from __future__ import annotations

import asyncio
import json
import types
from typing import Any

from app_async import run_async
from test_micropython_ai_side import FAKE_DOM

import app.ai.network_download as network_download
from app.ai.client import AiClient
from app.ai.controls import AiControls
from app.ai.panel import AiPanel

fakedom = types.ModuleType("fakedom")
exec(FAKE_DOM, fakedom.__dict__)  # noqa: S102 - the test suite's own fake DOM

PANEL_IDS = ["ai-" + name for name in ("hint", "step", "autoplay", "status", "algorithm", "think", "think-value")]
PANEL_IDS += ["ai-" + name for name in ("pause", "pause-value", "preset", "weights", "weights-reset", "readout")]
PANEL_IDS += ["ai-network", "weights-panel", "ai-preset-note"]
PRESETS = [
    {"name": "classic", "description": "ovolve's", "default_weights": {"max": 1.0}},
    {"name": "rows", "description": "nneonneo's", "default_weights": {"empty_weight": 270.0}},
    {"name": "learned", "description": "a network", "default_weights": {}, "download": True},
]
CHECKING = network_download.progress_text({"stage": "checking"})


class Quiet:
    """A view or session that takes every call and does nothing."""

    listeners: list[Any] = []

    def __getattr__(self, _name: str) -> Any:
        return lambda *args, **kw: None


class Store:
    def __init__(self) -> None:
        self.saved: dict[str, Any] = {"ai": {"algorithm": "expectimax", "preset": "rows"}}

    def settings(self) -> dict[str, Any]:
        return dict(self.saved)

    def save_settings(self, settings: dict[str, Any]) -> None:
        self.saved = settings


class Worker:
    """A worker whose network download checks the file for ``checking_s``; once ``terminated``, it answers nothing
    more (its calls never end, as a worker the browser terminated)."""

    def __init__(self, checking_s: float) -> None:
        self.checking_s = checking_s
        self.terminated = False
        self.loaded = False

    async def ready(self) -> str:
        return "ok"

    async def presets(self) -> str:
        return json.dumps(PRESETS)

    async def prepare_other_presets(self) -> str:
        return "ok"

    async def _alive(self) -> None:
        while self.terminated:
            await asyncio.sleep(3600)

    async def load_network(self, _request: str) -> str:
        await asyncio.sleep(self.checking_s)
        await self._alive()
        self.loaded = True
        return json.dumps({"ok": True, "bytes": 9_700_000, "shape": "4x6"})

    async def network_progress(self, _request: str) -> str:
        await self._alive()
        return json.dumps({"ok": True, "stage": "done" if self.loaded else "checking"})


def _page(workers: list[Worker]) -> tuple[Any, AiPanel, AiControls]:
    """The AI panel and controls over a fake document, the client's attempt N starting ``workers[N - 1]``."""
    document = fakedom.Document(PANEL_IDS)
    document.baseURI = "http://127.0.0.1:8000/index.html"
    client = AiClient(lambda attempt: workers[attempt - 1])
    panel = AiPanel(document, client, Store(), Quiet(), lambda f: f)
    controls = AiControls(document, Quiet(), Quiet(), client, panel, lambda f: f)
    return document, panel, controls


def _choose(document: Any, select: str, value: str) -> None:
    element = document.getElementById(select)
    element.value = value
    element.dispatch("change")


async def _until(test: Any, limit_s: float = 2.0) -> bool:
    """Whether ``test()`` came true within ``limit_s``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit_s
    while not test():
        if loop.time() > end:
            return False
        await asyncio.sleep(0.005)
    return True


def test_a_worker_restarted_while_it_checked_the_network_downloads_it_again_and_the_line_says_so(monkeypatch):
    """The player chose learned; the worker checking the network dies; the one that replaces it loads the network,
    and the network's line shows the new worker's download, then goes: never the dead worker's last words."""
    monkeypatch.setattr(network_download, "POLL_S", 0.005)
    first, second = Worker(checking_s=3600), Worker(checking_s=0.05)
    document, panel, controls = _page([first, second])
    line, status = document.getElementById("ai-network"), document.getElementById("ai-status")

    async def scenario() -> list[Any]:
        await controls.connect()
        _choose(document, "ai-preset", "learned")
        assert await _until(lambda: line.textContent == CHECKING and not line.hidden)
        first.terminated = True  # its calls never end from now on
        controls.fail({"ok": False, "error": "the AI did not answer within 3.5 s", "restart": True})  # as autoplay
        cleared = await _until(lambda: line.hidden)
        ready = await _until(lambda: status.textContent.startswith("Learned network ready"))
        return [cleared, line.textContent, ready, panel.settings.playing, panel.network_ready, second.loaded]

    assert run_async(scenario) == [True, "", True, "learned", True, True]


def test_the_network_line_goes_when_the_preset_is_no_longer_learned_and_comes_back_with_it(monkeypatch):
    monkeypatch.setattr(network_download, "POLL_S", 0.005)
    worker = Worker(checking_s=0.3)
    document, panel, controls = _page([worker])
    line, status = document.getElementById("ai-network"), document.getElementById("ai-status")

    async def scenario() -> list[Any]:
        await controls.connect()
        _choose(document, "ai-preset", "learned")
        assert await _until(lambda: line.textContent == CHECKING)
        _choose(document, "ai-preset", "classic")
        shown = [(line.hidden, line.textContent)]
        _choose(document, "ai-preset", "learned")  # the same download, still checking
        shown.append((line.hidden, line.textContent))
        _choose(document, "ai-algorithm", "alphabeta")  # brings its own preset, classic
        shown.append((line.hidden, line.textContent))
        said_before = status.textContent
        assert await _until(lambda: worker.loaded and panel.network_ready)
        _choose(document, "ai-preset", "learned")  # the network is in: it plays at once
        return [*shown, said_before == status.textContent, panel.settings.playing, panel.settings.stand_in]

    assert run_async(scenario) == [(True, ""), (False, CHECKING), (True, ""), True, "learned", None]


def test_an_algorithm_switch_says_the_preset_it_plays_on_a_note_of_its_own_until_the_settings_change():
    """Issue 54: the switch was said on the status line, which the next hint overwrote; the note stays."""
    document, panel, _controls = _page([Worker(checking_s=0)])
    note, status = document.getElementById("ai-preset-note"), document.getElementById("ai-status")
    heard: list[str] = []
    panel.view = types.SimpleNamespace(announce=heard.append)

    async def scenario() -> list[Any]:
        await _controls.connect()
        before = status.textContent
        _choose(document, "ai-algorithm", "alphabeta")  # from expectimax with rows
        switched = [note.hidden, note.textContent, status.textContent == before, heard[-1] == note.textContent]
        _choose(document, "ai-algorithm", "expectimax")
        back = note.textContent
        document.getElementById("ai-think").value = "3"
        document.getElementById("ai-think").dispatch("input")  # another setting: the note has said its piece
        return [*switched, back, note.hidden, note.textContent]

    hidden, said, status_kept, heard_it, back, hidden_after, after = run_async(scenario)
    assert not hidden and status_kept and heard_it
    assert said.startswith("Now playing Alpha-beta with the classic preset (it was rows)")
    assert back.startswith("Now playing Expectimax with the rows preset (it was classic)")
    assert hidden_after and after == ""


def test_the_networks_story_shows_while_the_players_preset_is_the_network_and_goes_with_it():
    """Issue 54: the network's story sits by the preset, as the page wires it (``page.wire_story``): shown while
    the player's choice is learned, downloading or in, hidden when another preset or an algorithm's own comes."""
    from app.ai.story_panel import NetworkStory

    document = fakedom.Document(PANEL_IDS + ["network-story", "network-story-body", "explorer-story-row"])
    document.baseURI = "http://127.0.0.1:8000/index.html"
    client = AiClient(lambda _attempt: Worker(checking_s=0.05))
    panel = AiPanel(document, client, Store(), Quiet(), lambda f: f)
    controls = AiControls(document, Quiet(), Quiet(), client, panel, lambda f: f)
    story = NetworkStory(document, lambda f: f, lambda _key: None)
    panel.on_settings_shown.append(lambda: story.show(panel.network_chosen()))
    story.show(panel.network_chosen())
    box, row = document.getElementById("network-story"), document.getElementById("explorer-story-row")

    async def scenario() -> list[Any]:
        shown = [box.hidden]  # before the worker lists its presets: rows is saved
        await controls.connect()
        shown.append(box.hidden)
        _choose(document, "ai-preset", "learned")  # its download starts: the story shows at once
        shown.append((box.hidden, row.hidden, panel.settings.playing))
        assert await _until(lambda: panel.network_ready)
        shown.append(box.hidden)
        _choose(document, "ai-preset", "classic")
        shown.append((box.hidden, row.hidden))
        _choose(document, "ai-preset", "learned")
        _choose(document, "ai-algorithm", "alphabeta")  # brings its own preset, classic
        shown.append((box.hidden, panel.settings.preset))
        return shown

    assert run_async(scenario) == [True, True, (False, False, "rows"), False, (True, True), (True, "classic")]
