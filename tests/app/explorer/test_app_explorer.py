"""The explorer in CPython: its drawing of real explanations, its toggle, and the "Exact values" request."""

from __future__ import annotations

import asyncio
import re
from html.parser import HTMLParser
from types import SimpleNamespace

import pytest
from app_async import run_async

from app.browser.storage import MemoryBackend, Storage
from app.explorer.panel import ANALYSIS_MS_RANGE, Explorer, analysis_ms, render_explanation, status_text
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


class Checker(HTMLParser):
    """Counts the open and closed tags: the drawing is well formed."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open.pop() == tag

    def handle_data(self, data):
        self.texts.append(data)


def _explorer(storage: Storage | None = None) -> tuple[Explorer, Document, Client]:
    document = Document()
    client = Client()
    session = SimpleNamespace(game=SimpleNamespace(board=from_rows(ROWS)))
    explorer = Explorer(document, client, session, storage or Storage(MemoryBackend()), lambda f: f)
    return explorer, document, client


def test_the_drawing_shows_every_part_of_a_real_explanation_and_is_well_formed() -> None:
    explanation = explain(from_rows(ROWS), depth=4, rescue=False, analysis_ms=10_000)
    html = render_explanation(explanation)
    checker = Checker()
    checker.feed(html)
    assert checker.open == []
    text = " ".join(checker.texts)
    for heading in ("Root moves", "Iterations", "Principal variation", "Pruning"):
        assert heading in text
    assert html.count('<li class="root-move') == 4
    assert html.count('class="pv-ply') == len(explanation["pv"]["plies"]) == 7
    bounds = [e for e in explanation["root"] if e["legal"] and not e["exact"]]
    assert html.count("\u2264 ") == len(bounds) and ("Exact values" in html) == bool(bounds)
    heat = explanation["placements"]
    assert f"{heat['kept']} of {heat['possible']}" in text
    # The heat map's text equivalent: every empty cell says both scores in words.
    assert len(re.findall(r'aria-label="row \d, column \d: a 2 scores -?\d+', html)) == heat["possible"] // 2
    assert "exact" in text and "alpha-beta visits" in text
    assert status_text(explanation).startswith(f"{explanation['decision']['move']} at depth 4")


def test_expectimax_says_it_does_not_prune() -> None:
    html = render_explanation(explain(from_rows(ROWS), depth=2, algorithm="expectimax", analysis_ms=1000))
    assert "Expectimax does not prune" in html and "Exact values" not in html
    # Its chance node, not the min-node reduction's heat map (which expectimax does not use).
    assert 'id="explorer-chance"' in html and 'id="explorer-heat"' not in html and "would keep" not in html


def test_labels_are_escaped() -> None:
    explanation = explain(from_rows(ROWS), depth=2, rescue=False, analysis_ms=1000)
    explanation["analysis"]["unfinished"] = {"<pv>": "a <b>reason</b>"}
    assert "<pv>" not in render_explanation(explanation) and "&lt;pv&gt;" in render_explanation(explanation)


def test_the_parts_cut_short_are_listed_in_a_fixed_order_whatever_the_answers_order() -> None:
    explanation = explain(from_rows(ROWS), depth=2, rescue=False, analysis_ms=1000)
    explanation["analysis"]["unfinished"] = {"zz": "?", "without_ordering": "time", "pv": "time", "exact_root": "time"}
    html = render_explanation(explanation)
    names = ("Exact values:", "Principal variation:", "Without the move ordering:", "zz:")
    assert [html.index(name) for name in names] == sorted(html.index(name) for name in names)


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


def test_the_learned_patterns_draw_as_a_heat_map_with_words_for_each_cell() -> None:
    from test_ntuple import NETWORK

    from game2048.evaluation import learned

    learned.install(NETWORK)
    try:
        explanation = explain(
            from_rows([[0, 2, 4, 8], [0, 0, 2, 16], [0, 0, 0, 4], [0, 0, 0, 2]]), depth=1, preset="learned"
        )
    finally:
        learned.install(None)
    html = render_explanation(explanation)
    assert 'id="explorer-patterns"' in html and "What the network sees after" in html
    assert html.count('class="heat heat-') >= 16 and "row 4, column 4" in html
    assert "The patterns that add most" in html
    assert 'id="explorer-patterns"' not in render_explanation(
        explain(from_rows([[2, 2, 0, 0]] + [[0] * 4] * 3), depth=1)
    )


def test_a_pattern_reads_row_by_row() -> None:
    from app.explorer.terms_view import pattern_cells

    assert pattern_cells([12, 13, 14, 8, 9, 10]) == "row 4: columns 1, 2, 3; row 3: columns 1, 2, 3"
    assert pattern_cells([3, 7]) == "row 1: column 4; row 2: column 4"


def test_every_explanation_starts_with_the_board_it_explains_and_the_chosen_moves_arrow() -> None:
    explanation = explain(from_rows(ROWS), depth=3, analysis_ms=1000)
    html = render_explanation(explanation)
    assert html.index('id="explorer-board"') < html.index('id="explorer-root"')
    assert 'data-rows="2,4,8,0/0,2,0,0/4,0,0,16/2,0,0,2"' in html
    arrow = {"up": "\u2191", "right": "\u2192", "down": "\u2193", "left": "\u2190"}[explanation["decision"]["move"]]
    assert f'<span class="explained-arrow" aria-hidden="true">{arrow}</span>' in html
    assert "digits-2" in html  # the 16: small boards size each number by its digits


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


def test_the_status_says_when_one_of_several_workers_searched_the_explained_decision():
    from app.explorer.panel import team_note

    assert team_note(1, "expectimax") == "" and team_note(3, "alphabeta") == ""
    assert "among 3 workers" in team_note(3, "expectimax") and "One worker searched" in team_note(3, "expectimax")


def test_why_this_move_stays_and_says_why_when_it_has_no_runner_up_to_compare():
    from app.explorer.terms_view import why_section

    out_of_time = why_section(None, "expectimax", bounds=False, ran_out=True)
    assert 'id="explorer-why"' in out_of_time and "time ran out" in out_of_time
    bounds_only = why_section(None, "alphabeta", bounds=True)
    assert 'id="explorer-why"' in bounds_only and "only proved no better" in bounds_only
    assert why_section(None, "expectimax") == ""


def test_the_explanation_is_headed_by_the_move_and_the_search_that_chose_it():
    """Issue 54: two explanations of one board, by alpha-beta and expectimax, said neither search nor preset."""
    from app.explorer.panel import explanation_heading

    board = from_rows([[0, 0, 2, 2], [0, 4, 8, 16], [2, 8, 32, 64], [4, 16, 128, 256]])
    for algorithm, preset in (("alphabeta", "classic"), ("expectimax", "rows")):
        explanation = explain(board, depth=2, algorithm=algorithm, preset=preset, analysis_ms=1000)
        move = explanation["decision"]["move"]
        heading = (
            f"Why {move} \u2014 {'alpha-beta' if algorithm == 'alphabeta' else algorithm}, preset {preset}, depth 2"
        )
        html = render_explanation(explanation)
        assert f'<h3 id="explorer-title" class="explorer-title">{heading}</h3>' in html
        assert html.index('id="explorer-title"') < html.index('id="explorer-board"')
    lost = {"move": None, "algorithm": "alphabeta", "preset": "classic", "depth": 0}
    assert explanation_heading(lost) == "No legal move \u2014 alpha-beta, preset classic"
    rescued = {"move": "up", "algorithm": "alphabeta", "preset": "<b>", "depth": 7, "rescued": True}
    assert explanation_heading(rescued).endswith("preset <b>, depth 7, vs 2s")
    assert "&lt;b&gt;" in render_explanation(dict(explanation, decision=dict(explanation["decision"], preset="<b>")))


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
