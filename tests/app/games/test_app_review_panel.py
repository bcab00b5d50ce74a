"""The replay's review part: it grades through the worker in batches with progress, Cancel stops it, a finished
review is kept and shown again, and a worst move opens the replay there with its arrows."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

from app_async import run_async

from app.ai import worker
from app.browser.storage import MemoryBackend, Storage
from app.games.review_panel import IDS, ReviewPanel
from app.games.review_store import ReviewStore, record_key
from game2048.board import legal_moves
from game2048.evaluation import learned
from game2048.game_record import GameRecord, positions

SIZE = f"{learned.manifest()['bytes'] / 1e6:.0f} MB"
"""The shipped network's download, as the question says it."""


class Element:
    def __init__(self, document: Document, element_id: str) -> None:
        self.document, self.id = document, element_id
        self.hidden = self.disabled = False
        self.textContent = self.innerHTML = ""
        self.max = self.value = "0"
        self.attributes: dict[str, str] = {}
        self.listeners: dict[str, list] = {}

    def addEventListener(self, event, handler):  # noqa: N802 - the DOM's names
        self.listeners.setdefault(event, []).append(handler)

    def setAttribute(self, name, value):  # noqa: N802
        self.attributes[name] = str(value)

    def focus(self) -> None:
        self.document.focused = self.id

    def click(self, target=None) -> None:
        for handler in self.listeners.get("click", []):
            handler(SimpleNamespace(target=target or self))


class Document:
    def __init__(self) -> None:
        self.elements = {name: Element(self, name) for name in (*IDS, "review-move-text")}
        self.focused = ""

    def getElementById(self, element_id):  # noqa: N802
        return self.elements.get(element_id)


class View:
    """The replay as the review sees it: the record, its positions, the step, ``go``, and the two hooks."""

    def __init__(self, document: Document, record: GameRecord) -> None:
        self.document, self.record = document, record
        self.steps = positions(record)
        self.step = 0
        self.opened: list = []
        self.moved: list = []

    def go(self, step: int) -> None:
        self.step = step
        for listener in self.moved:
            listener(step)


def game(moves: int, seed: int = 21) -> GameRecord:
    record = GameRecord(seed)
    while len(record.moves) < moves:
        legal = legal_moves(record._replayed().board)
        record.append(legal[(len(record.moves) * 5) % len(legal)], None)
    return record


class Jump:
    """A click's target inside a worst move's button."""

    def __init__(self, number: int) -> None:
        self.number = number

    def closest(self, selector: str):
        return self if selector == ".review-jump" else None

    def getAttribute(self, name):  # noqa: N802
        return str(self.number)


def test_a_review_runs_in_batches_is_kept_and_a_worst_move_opens_with_its_arrows():
    record = game(50)
    document = Document()
    view = View(document, record)
    store = ReviewStore(Storage(MemoryBackend()))
    asked: list[int] = []
    progress: list[str] = []

    async def grade(request: dict) -> dict:
        asked.append(len(request["played"]))
        progress.append(document.elements["review-status"].textContent)
        return json.loads(worker.review(json.dumps(dict(request, preset="rows"))))

    async def scenario() -> ReviewPanel:
        panel = ReviewPanel(document, lambda f: f, view, grade, store)
        panel.opened(record)
        assert not document.elements["review-start"].hidden and document.elements["review-cancel"].hidden
        document.elements["review-start"].click()
        assert not document.elements["review-cancel"].hidden and not document.elements["review-progress"].hidden
        while panel.running is not None:
            await asyncio.sleep(0)
        return panel

    panel = run_async(scenario)
    assert asked == [20, 20, 10] and progress[1] == "Reviewing this game\u2026 20 of 50 moves graded."
    assert document.elements["review-start"].hidden and document.elements["review-cancel"].hidden
    assert "review-accuracy" in document.elements["review-result"].innerHTML
    assert store.get(record_key(record)) is not None  # kept with the game
    worst = panel.review.figures.worst
    assert worst
    document.elements["review-result"].click(Jump(worst[0]["number"]))
    assert view.step == worst[0]["number"] - 1 and document.focused == "review-move-text"
    shown = document.elements["review-move"].innerHTML
    assert "review-arrow-best" in shown and "review-arrow-played" in shown and "Explore this position" in shown

    again = ReviewPanel(Document(), lambda f: f, View(Document(), record), grade, store)  # a reload
    again.opened(record)
    assert again.review is not None and again.el["review-start"].hidden


def test_two_lanes_keep_two_batches_in_the_workers_and_take_the_answers_in_order():
    """A page with two AI workers grades two batches at once (``AiTeam.review_lanes``); a batch that answers
    before the one sent ahead of it waits its turn, so the moves and the progress keep the game's order."""
    record = game(100)
    document = Document()
    alone = run_async(lambda: _reviewed(record, Document(), lanes=1, order=None))

    async def scenario() -> tuple[ReviewPanel, list]:
        return await _reviewed(record, document, lanes=2, order=[21, 1, 61, 41, 81])

    panel, events = run_async(scenario)
    assert max(events.count(("in", first)) for first in (1, 21, 41, 61, 81)) == 1
    in_flight, most = 0, 0
    for kind, _first in events:
        in_flight += 1 if kind == "in" else -1
        most = max(most, in_flight)
    assert most == 2  # never more than the lanes, and both used
    assert events[:2] == [("in", 1), ("in", 21)]  # the first two sent at once
    assert [move["number"] for move in panel.review.moves] == list(range(1, 101))
    assert panel.review.moves == alone[0].review.moves  # the same grades as one lane


async def _reviewed(record: GameRecord, document: Document, lanes: int, order: list | None):
    """``record`` reviewed through ``lanes`` lanes by a worker that answers the batches in ``order`` (their first
    moves; ``None``: as asked); the panel and the batches' comings and goings."""
    events: list = []
    answers: dict[int, asyncio.Event] = {}

    async def grade(request: dict) -> dict:
        first = request["first"]
        events.append(("in", first))
        answers[first] = asyncio.Event()
        if order is not None:
            await answers[first].wait()
        events.append(("out", first))
        return json.loads(worker.review(json.dumps(dict(request, preset="rows"))))

    panel = ReviewPanel(document, lambda f: f, View(document, record), grade, lanes=lanes)
    panel.opened(record)
    panel.start()
    for first in order or []:
        await _until(lambda first=first: first in answers, f"batch {first} was never sent")
        answers[first].set()
        await _until(lambda first=first: ("out", first) in events, f"batch {first} did not answer")
    await _until(lambda: panel.running is None, "the review did not end")
    return panel, events


async def _until(done, why: str) -> None:
    for _ in range(10_000):
        if done():
            return
        await asyncio.sleep(0)
    raise AssertionError(why)


def test_cancel_stops_after_the_batch_in_hand():
    record = game(100)
    document = Document()
    view = View(document, record)
    asked: list[int] = []

    async def scenario() -> ReviewPanel:
        release = asyncio.Event()

        async def grade(request: dict) -> dict:
            asked.append(request["first"])
            await release.wait()
            return json.loads(worker.review(json.dumps(request)))

        panel = ReviewPanel(document, lambda f: f, view, grade)
        panel.opened(record)
        panel.start()
        await asyncio.sleep(0)
        document.elements["review-cancel"].click()
        release.set()
        for _ in range(20):
            await asyncio.sleep(0)
        return panel

    panel = run_async(scenario)
    assert asked == [1] and panel.running is None and panel.review is None
    assert "cancelled" in document.elements["review-status"].textContent
    assert not document.elements["review-start"].hidden and document.elements["review-progress"].hidden
    assert document.focused == "review-start"


def test_a_failed_batch_says_why_and_the_review_can_start_again():
    record = game(30)
    document = Document()

    async def grade(_request: dict) -> dict:
        return {"ok": False, "error": "the AI is not ready yet"}

    async def scenario() -> ReviewPanel:
        panel = ReviewPanel(document, lambda f: f, View(document, record), grade)
        panel.opened(record)
        panel.start()
        while panel.running is not None:
            await asyncio.sleep(0)
        return panel

    run_async(scenario)
    assert document.elements["review-status"].textContent == "The review stopped: the AI is not ready yet."
    assert not document.elements["review-start"].hidden


def test_without_the_network_the_review_asks_first_and_grades_in_points_once_it_is_in():
    record = game(30)
    document = Document()
    presets_asked: list = []
    have = {"network": False}
    fetched: list[bool] = []

    async def grade(request: dict) -> dict:
        presets_asked.append(request["preset"])
        return json.loads(worker.review(json.dumps(dict(request, preset=request["preset"] or "rows"))))

    async def fetch() -> bool:
        fetched.append(True)
        have["network"] = True  # as if downloaded; the worker here grades "rows" for it
        return True

    async def scenario() -> ReviewPanel:
        panel = ReviewPanel(document, lambda f: f, View(document, record), grade, None, lambda: have["network"], fetch)
        panel.opened(record)
        panel.start()
        assert presets_asked == [] and fetched == []  # asked, not downloaded
        assert not document.elements["review-ask"].hidden and document.elements["review-start"].hidden
        assert SIZE in document.elements["review-status"].textContent
        assert document.focused == "review-download"
        document.elements["review-download"].click()
        for _ in range(5):
            await asyncio.sleep(0)
        while panel.running is not None:
            await asyncio.sleep(0)
        return panel

    panel = run_async(scenario)
    assert fetched == [True] and presets_asked == ["learned", "learned"]
    assert panel.review is not None and document.elements["review-ask"].hidden


def test_grading_without_the_network_uses_the_ais_own_preset():
    record = game(10)
    document = Document()
    presets_asked: list = []

    async def grade(request: dict) -> dict:
        presets_asked.append(request["preset"])
        return json.loads(worker.review(json.dumps(dict(request, preset="rows"))))

    async def scenario() -> ReviewPanel:
        panel = ReviewPanel(document, lambda f: f, View(document, record), grade, None, lambda: False, None)
        panel.opened(record)
        panel.start()
        document.elements["review-plain"].click()
        while panel.running is not None:
            await asyncio.sleep(0)
        return panel

    panel = run_async(scenario)
    assert presets_asked == [None] and panel.review is not None
    assert "(not points)" in document.elements["review-result"].innerHTML


def test_grading_without_it_while_the_network_downloads_does_not_wait_for_it():
    record = game(10)
    document = Document()
    presets_asked: list = []

    async def scenario() -> ReviewPanel:
        arrived = asyncio.Event()

        async def grade(request: dict) -> dict:
            presets_asked.append(request["preset"])
            return json.loads(worker.review(json.dumps(dict(request, preset="rows"))))

        async def fetch() -> bool:
            await arrived.wait()
            return True

        panel = ReviewPanel(document, lambda f: f, View(document, record), grade, None, lambda: False, fetch)
        panel.opened(record)
        panel.start()
        document.elements["review-download"].click()
        await asyncio.sleep(0)
        assert document.elements["review-download"].hidden and not document.elements["review-plain"].hidden
        document.elements["review-plain"].click()
        while panel.running is not None:
            await asyncio.sleep(0)
        arrived.set()  # the network comes after all: the review is not made again
        for _ in range(5):
            await asyncio.sleep(0)
        return panel

    run_async(scenario)
    assert presets_asked == [None]
