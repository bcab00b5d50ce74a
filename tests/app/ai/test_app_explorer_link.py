"""The explorer opened after a hint explains that hint (issue 54): the decision is handed over, not lost.

Before, opening the explorer after a hint said "Ask the AI for a hint or a step": the hint, asked while the
explorer was closed (or before it was built, at its first opening), was never explained.
"""

from __future__ import annotations

import asyncio
from typing import Any

from app_async import run_async
from test_app_ai_controls import ISSUE_ROWS, READOUT_IDS, HintView, _settled
from test_app_ai_panel import PANEL_IDS, Store, fakedom

from app.ai.controls import HINTED, PLAYED, AiControls
from app.ai.explorer_link import ExplorerLink, unexplained
from app.ai.panel import AiPanel
from app.board.play import PlaySession
from app.browser.storage import MemoryBackend, Storage
from app.explorer.panel import Explorer
from app.games.saved_games import SavedGames
from game2048.board import from_rows, to_rows
from game2048.game import Game
from game2048.search import best_move, explain

EXPLORER_IDS = ["explorer-toggle", "explorer", "explorer-heading", "explorer-status", "explorer-decision"]
DEPTH = 3


class EngineClient:
    """A ready AI answering with the real engine at a fixed depth (``think``), and explaining as the worker does."""

    ready, error, needs_restart, working = True, None, False, 1
    presets = [{"name": "classic", "default_weights": {"max": 1.0}}]

    def __init__(self) -> None:
        self.explained: list[dict[str, Any]] = []

    async def think(self, request):
        await asyncio.sleep(0)
        result = best_move(from_rows(request["rows"]), depth=DEPTH, algorithm=request["algorithm"], preset="classic")
        return dict(result.to_dict(), ok=True)

    async def explain(self, request):
        self.explained.append(request)
        explanation = explain(
            from_rows(request["rows"]),
            think_ms=request.get("think_ms") or 100,
            depth=request.get("depth"),
            algorithm=request["algorithm"],
            preset="classic",
            exact_root=request.get("exact_root", False),
            analysis_ms=request["analysis_ms"],
        )
        return dict(explanation["decision"], explanation=explanation, ok=True)


def _page() -> tuple[AiControls, PlaySession, Any, EngineClient]:
    view = HintView()
    game = Game.from_position(from_rows(ISSUE_ROWS), seed=3)
    session = PlaySession(game, view, SavedGames(Storage(MemoryBackend())), lambda: Game.new(4), slide_seconds=0.001)
    session.start()
    document = fakedom.Document(PANEL_IDS + READOUT_IDS + EXPLORER_IDS)
    client = EngineClient()
    store = Store()
    store.saved = {"ai": {"algorithm": "alphabeta", "preset": "classic"}}
    panel = AiPanel(document, client, store, view, lambda f: f)
    return AiControls(document, session, view, client, panel, lambda f: f), session, document, client


def _build_explorer(controls: AiControls, session: PlaySession, document: Any, client: EngineClient) -> Explorer:
    """As ``page.build_explorer`` does at the explorer's first opening."""
    explorer = Explorer(document, client, session, Store(), lambda f: f, controls.fail)
    controls.explorer = explorer
    return explorer


async def _explained(document: Any, count: str = "1") -> None:
    for _ in range(2000):
        if document.getElementById("explorer-decision").getAttribute("data-explained") == count:
            return
        await asyncio.sleep(0.002)
    raise AssertionError("nothing was explained")


def test_the_explorer_built_after_a_hint_explains_that_hint_when_it_opens():
    controls, session, document, client = _page()
    decision = document.getElementById("explorer-decision")

    async def scenario() -> list[Any]:
        controls.hint()
        await _settled(controls, session)
        hinted = controls.hints.hint.move
        explorer = _build_explorer(controls, session, document, client)
        asked_while_closed = len(client.explained)
        explorer.toggle()  # the first opening
        await _explained(document)
        return [hinted, asked_while_closed, client.explained[-1], decision.innerHTML, explorer.fate_text]

    hinted, asked_while_closed, request, html, fate = run_async(scenario)
    assert asked_while_closed == 0  # nothing is searched for a closed explorer
    assert request["rows"] == ISSUE_ROWS and request["depth"] == DEPTH  # the hint's board, at the hint's depth
    assert f"Why {hinted} \u2014 alpha-beta, preset classic, depth {DEPTH}" in html
    assert f"The AI chose <strong>{hinted}" in html and fate == HINTED
    assert "Ask the AI" not in document.getElementById("explorer-status").textContent


def test_a_built_but_closed_explorer_explains_the_last_decision_when_it_opens_and_not_before():
    controls, session, document, client = _page()
    explorer = _build_explorer(controls, session, document, client)

    async def scenario() -> list[Any]:
        controls.hint()
        await _settled(controls, session)
        board = session.game.board
        controls.step()  # the last decision: the step, which was played
        await _settled(controls, session)
        asked = len(client.explained)
        explorer.toggle()
        await _explained(document)
        return [asked, explorer.explained_board() == board, explorer.fate_text]

    assert run_async(scenario) == [0, True, PLAYED]


def test_only_a_decision_without_its_explanation_is_handed_over_kept_until_the_explorer_is_built():
    link = ExplorerLink()
    request = {"rows": to_rows(from_rows(ISSUE_ROWS)), "algorithm": "alphabeta", "depth": None}
    assert unexplained({"move": "up", "depth": 5, "explanation": {}}, request, 1, HINTED) is None
    assert unexplained({"move": None, "depth": 0}, request, 1, HINTED) is None
    assert unexplained(None, None, 0, HINTED) is None
    untold = unexplained({"move": "up", "depth": 5}, request, 7, HINTED)
    assert untold == (dict(request, depth=5), 7, HINTED, "up")
    link.fate(HINTED, {"move": "up", "depth": 5}, request, 7)  # no explorer yet: kept for it
    told: list[Any] = []
    link.attach(type("Explorer", (), {"remember": lambda _self, *untold: told.append(untold)})())
    assert told == [untold]
