"""The explorer's "Compare with the other algorithm" in CPython: the request it makes, the answer it draws."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

from app_async import run_async
from test_app_explanation_view import Checker
from test_app_explorer import Client, Document, Element

from app.ai import worker as ai_worker
from app.browser.storage import MemoryBackend, Storage
from app.explorer.compare_view import MAX_DEPTH, MIN_DEPTH, compare_depth, compare_html
from app.explorer.panel import Explorer
from game2048.board import from_rows
from game2048.search.comparison import compare

ISSUE_ROWS = [[0, 0, 2, 2], [0, 4, 8, 16], [2, 8, 32, 64], [4, 16, 128, 256]]
OTHER_ROWS = [[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]]


class WorkerClient(Client):
    """``explain`` as the explorer's tests answer it, and any other export by the real worker module."""

    def __init__(self, fail: bool = False) -> None:
        super().__init__()
        self.calls: list[tuple[str, dict]] = []
        self.fail = fail

    async def call(self, function, request, budget_ms):
        self.calls.append((function, request))
        if self.fail:
            return {"ok": False, "error": "the AI stopped working (test)", "restart": True}
        return json.loads(getattr(ai_worker, function)(json.dumps(request)))


def _explorer(client: WorkerClient) -> tuple[Explorer, Document]:
    document = Document()
    for name in ("explorer-compare-row", "explorer-compare", "explorer-compare-view"):
        document.elements[name] = Element(name)
    document.elements["explorer-compare-row"].hidden = True
    session = SimpleNamespace(game=SimpleNamespace(board=from_rows(ISSUE_ROWS)))
    failed: list[dict] = []
    explorer = Explorer(document, client, session, Storage(MemoryBackend()), lambda f: f, failed.append)
    explorer.failed = failed
    return explorer, document


def _show(explorer: Explorer, client: WorkerClient, rows: list[list[int]], depth: int) -> None:
    request = {"rows": rows, "think_ms": 50, "depth": None, "algorithm": "alphabeta", "preset": None, "weights": {}}
    answer = run_async(lambda: client.explain({**explorer.request_for(request), "depth": depth}))
    explorer.show(answer, request, from_rows(rows))


def _text(html: str) -> str:
    checker = Checker()
    checker.feed(html)
    assert checker.open == []  # well formed
    return re.sub(r"\s+", " ", " ".join(checker.texts))


def test_the_button_compares_the_explained_board_with_its_preset_and_draws_where_they_part() -> None:
    client = WorkerClient()
    explorer, document = _explorer(client)
    row, view = document.elements["explorer-compare-row"], document.elements["explorer-compare-view"]
    assert row.hidden  # nothing explained yet: nothing to compare
    _show(explorer, client, ISSUE_ROWS, depth=6)
    assert not row.hidden
    assert document.elements["explorer-compare"].listeners["click"]  # a click spawns this; run to its end here
    run_async(explorer.compare.compare)
    function, request = client.calls[-1]
    assert function == "compare" and request["rows"] == ISSUE_ROWS
    assert (request["algorithm"], request["preset"], request["depth"]) == ("alphabeta", None, MAX_DEPTH)
    html = view.innerHTML
    text = _text(html)
    assert 'data-algorithm="alphabeta" data-move="up"' in html
    assert 'data-algorithm="expectimax" data-move="right"' in html
    assert "preset classic, depth 4 for both" in text
    assert "They part over right: alpha-beta assumes the computer answers it with its worst reply" in text
    assert "if the computer answers each move with its worst reply" in text and "on average over every tile" in text
    assert html.count('<tr data-move="') == 4 and "illegal" in text  # down is illegal on this board
    assert document.elements["explorer-compare"].textContent == "Compare with the other algorithm"
    # Another board explained: the comparison of the last one goes.
    _show(explorer, client, OTHER_ROWS, depth=2)
    assert view.innerHTML == ""


def test_a_failed_comparison_says_why_and_hands_a_dead_worker_over() -> None:
    client = WorkerClient(fail=True)
    explorer, document = _explorer(client)
    _show(explorer, client, ISSUE_ROWS, depth=3)
    run_async(explorer.compare.compare)
    assert "The comparison failed: the AI stopped working" in document.elements["explorer-compare-view"].innerHTML
    assert explorer.failed and explorer.failed[0]["restart"]


def test_the_depth_is_the_decision_s_kept_between_two_and_four() -> None:
    assert [compare_depth(d) for d in (None, 1, 2, 3, 4, 9)] == [MIN_DEPTH, 2, 2, 3, 4, 4]


def test_when_both_agree_the_drawing_says_so() -> None:
    text = _text(compare_html(compare(from_rows(ISSUE_ROWS), "snake", 2)))
    assert "Here they choose the same move" in text and "They agree on left" in text
