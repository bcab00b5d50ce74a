"""The explorer's controller in CPython: its toggle, the "Exact values" request, decisions handed over, the
glossary link."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from app_async import run_async

from app.browser.storage import MemoryBackend, Storage
from app.explorer.panel import ANALYSIS_MS_RANGE, Explorer, analysis_ms
from game2048.board import from_rows
from game2048.search import explain

ROWS = [[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]]


class Element:
    def __init__(self, element_id: str) -> None:
        self.id = element_id
        self.hidden = False
        self.disabled = False
        self.textContent = ""
        self.innerHTML = ""
        self.attributes: dict[str, str] = {}
        self.listeners: dict[str, list] = {}

    def setAttribute(self, name, value):  # noqa: N802 - the DOM's names
        self.attributes[name] = str(value)

    def getAttribute(self, name):  # noqa: N802
        return self.attributes.get(name)

    def addEventListener(self, event, handler):  # noqa: N802
        self.listeners.setdefault(event, []).append(handler)

    def click(self, target=None):
        for handler in self.listeners.get("click", []):
            handler(SimpleNamespace(target=target or self))


class Document:
    def __init__(self) -> None:
        self.elements = {
            name: Element(name)
            for name in ("explorer-toggle", "explorer", "explorer-status", "explorer-decision", "explorer-exact")
        }
        self.elements["explorer"].hidden = True

    def getElementById(self, element_id):  # noqa: N802
        return self.elements.get(element_id)


class Client:
    """Answers ``explain`` with the real engine, as the worker does."""

    def __init__(self) -> None:
        self.requests: list[dict] = []

    async def explain(self, request):
        self.requests.append(request)
        explanation = explain(
            from_rows(request["rows"]),
            think_ms=request.get("think_ms") or 100,
            depth=request.get("depth"),
            exact_root=request.get("exact_root", False),
            analysis_ms=request["analysis_ms"],
        )
        return {**explanation["decision"], "explanation": explanation, "ok": True}


def _explorer(storage: Storage | None = None) -> tuple[Explorer, Document, Client]:
    document = Document()
    client = Client()
    session = SimpleNamespace(game=SimpleNamespace(board=from_rows(ROWS)))
    explorer = Explorer(document, client, session, storage or Storage(MemoryBackend()), lambda f: f)
    return explorer, document, client


@pytest.mark.parametrize(
    ("think_ms", "expected"), [(10, ANALYSIS_MS_RANGE[0]), (500, 500), (10_000, ANALYSIS_MS_RANGE[1])]
)
def test_the_explanation_time_follows_the_think_time_within_its_range(think_ms: float, expected: float) -> None:
    assert analysis_ms(think_ms) == expected


def test_the_toggle_opens_closes_and_is_remembered() -> None:
    storage = Storage(MemoryBackend())
    explorer, document, _ = _explorer(storage)
    assert not explorer.wants_explanation()
    document.elements["explorer-toggle"].click()
    assert explorer.wants_explanation() and document.elements["explorer-toggle"].attributes["aria-expanded"] == "true"
    again, _, _ = _explorer(storage)
    assert again.wants_explanation()
    again.toggle()
    assert not again.wants_explanation() and storage.settings()["explorer"] is False


def test_exact_values_ask_the_same_depth_again_and_draw_every_move_exact() -> None:
    explorer, document, client = _explorer()
    request = {"rows": ROWS, "think_ms": 50, "depth": None, "algorithm": "alphabeta", "preset": None, "weights": {}}
    asked = explorer.request_for(request)
    answer = run_async(lambda: client.explain({**asked, "depth": 4}))
    explorer.show(answer, request, from_rows(ROWS))
    decision = document.elements["explorer-decision"]
    assert decision.getAttribute("data-depth") == "4" and decision.getAttribute("data-explained") == "1"
    run_async(explorer.exact_values)
    exact = client.requests[-1]
    assert exact["depth"] == 4 and exact["exact_root"] is True
    assert decision.getAttribute("data-explained") == "2"
    assert "\u2264 " not in decision.innerHTML


def test_a_pattern_reads_row_by_row() -> None:
    from app.explorer.terms_view import pattern_cells

    assert pattern_cells([12, 13, 14, 8, 9, 10]) == "row 4: columns 1, 2, 3; row 3: columns 1, 2, 3"
    assert pattern_cells([3, 7]) == "row 1: column 4; row 2: column 4"


def test_opening_focuses_the_heading_and_closing_gives_the_board_the_focus() -> None:
    document = Document()
    focused: list[str] = []
    for name in ("explorer-heading", "board"):
        document.elements[name] = Element(name)
        document.elements[name].focus = lambda name=name: focused.append(name)
    session = SimpleNamespace(game=SimpleNamespace(board=from_rows(ROWS)))
    explorer = Explorer(document, Client(), session, Storage(MemoryBackend()), lambda f: f)
    explorer.toggle()
    assert explorer.is_open and focused == ["explorer-heading"]
    explorer.toggle()
    assert not explorer.is_open and focused == ["explorer-heading", "board"]


def test_why_this_move_stays_and_says_why_when_it_has_no_runner_up_to_compare():
    from app.explorer.terms_view import why_section

    out_of_time = why_section(None, "expectimax", bounds=False, ran_out=True)
    assert 'id="explorer-why"' in out_of_time and "time ran out" in out_of_time
    bounds_only = why_section(None, "alphabeta", bounds=True)
    assert 'id="explorer-why"' in bounds_only and "only proved no better" in bounds_only
    assert why_section(None, "expectimax") == ""


def test_a_decision_handed_over_is_explained_when_the_panel_opens_at_its_depth_with_its_fate():
    explorer, document, client = _explorer()
    request = {"rows": ROWS, "think_ms": 50, "depth": 3, "algorithm": "alphabeta", "preset": None, "weights": {}}
    move = explain(from_rows(ROWS), depth=3)["decision"]["move"]

    async def scenario() -> list:
        explorer.remember(request, from_rows(ROWS), "Shown as a hint: not played.", move)
        await asyncio.sleep(0.01)
        asked = len(client.requests)  # closed: nothing asked
        explorer.toggle()
        for _ in range(500):
            await asyncio.sleep(0.002)
            if explorer.shown:
                break
        return [asked, client.requests[-1]["depth"], explorer.explained_board() == from_rows(ROWS), explorer.fate_text]

    assert run_async(scenario) == [0, 3, True, "Shown as a hint: not played."]
    assert f"Why {move}" in document.elements["explorer-decision"].innerHTML


def test_a_handed_over_decision_is_dropped_when_a_newer_one_is_shown_first_and_said_when_it_searched_otherwise():
    explorer, document, client = _explorer()
    request = {"rows": ROWS, "think_ms": 50, "depth": 2, "algorithm": "alphabeta", "preset": None, "weights": {}}

    async def scenario() -> list:
        explorer.remember(request, from_rows(ROWS), "Played.", "up")
        answer = await client.explain(explorer.request_for(request))
        explorer.show(answer, request, from_rows(ROWS))  # a newer decision, explained as it came
        explorer.toggle()
        await asyncio.sleep(0.01)
        dropped = [len(client.requests), explorer.shown]
        explorer.toggle()
        move = answer["move"]
        other = next(m for m in ("up", "right", "down", "left") if m != move)
        explorer.remember(request, from_rows(ROWS), "Played.", other)  # as if a team's search had chosen another
        explorer.toggle()
        for _ in range(500):
            await asyncio.sleep(0.002)
            if explorer.shown == 2:
                break
        return [*dropped, explorer.fate_text, other, move]

    asked, shown, fate, other, move = run_async(scenario)
    assert (asked, shown) == (1, 1)
    assert fate == f"Played. (It was {other}; searched again here at the same depth, the search chose {move}.)"


def test_a_glossary_link_followed_opens_the_explorer_and_its_glossary_at_the_entry_with_the_focus() -> None:
    """Issue 54: the network's story links its words to the glossary, which lives in the explorer (closed)."""
    document = Document()
    document.elements["glossary"] = Element("glossary")
    document.elements["glossary"].open = False
    entry = document.elements["gloss-td-learning"] = Element("gloss-td-learning")
    done: list[str] = []
    entry.scrollIntoView = lambda: done.append("scrolled")
    entry.focus = lambda: done.append("focused")
    entry.previousElementSibling = None  # no word before it: the entry itself comes into view
    storage = Storage(MemoryBackend())
    explorer = Explorer(document, Client(), SimpleNamespace(), storage, lambda f: f)
    assert not explorer.is_open
    explorer.show_entry("td-learning")
    assert explorer.is_open and document.elements["explorer-toggle"].attributes["aria-expanded"] == "true"
    assert document.elements["glossary"].open and done == ["scrolled", "focused"]
    assert entry.attributes["tabindex"] == "-1" and storage.settings()["explorer"] is True
    explorer.show_entry("no-such-entry")  # an entry the list lacks: the glossary opened, nothing else
    assert explorer.is_open
