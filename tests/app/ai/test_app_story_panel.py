"""The network's story by the preset: fetched and drawn at its first opening, said when it cannot be, its words
sent to the glossary."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

from app_async import run_async
from fake_fetch import Response, Window

from app.ai.story_panel import MANIFEST_PATH, READING, NetworkStory
from game2048.evaluation import learned

MANIFEST_TEXT = (learned.NETWORK_DIR / learned.MANIFEST_FILE).read_text()


class Element:
    def __init__(self, element_id: str = "") -> None:
        self.id = element_id
        self.hidden = self.open = False
        self.textContent = self.innerHTML = ""
        self.attributes: dict[str, str] = {}
        self.listeners: dict[str, list[Any]] = {}
        self.done: list[str] = []
        self.parent: Element | None = None

    def setAttribute(self, name: str, value: Any) -> None:  # noqa: N802 - the DOM's names
        self.attributes[name] = str(value)

    def getAttribute(self, name: str) -> str | None:  # noqa: N802
        return self.attributes.get(name)

    def addEventListener(self, event: str, handler: Any) -> None:  # noqa: N802
        self.listeners.setdefault(event, []).append(handler)

    def fire(self, event: str, target: Element | None = None) -> SimpleNamespace:
        fired = SimpleNamespace(target=target or self, prevented=False)
        fired.preventDefault = lambda: setattr(fired, "prevented", True)
        element: Element | None = target or self
        while element is not None:
            for handler in element.listeners.get(event, []):
                handler(fired)
            element = element.parent
        return fired

    def closest(self, selector: str) -> Element | None:
        element: Element | None = self
        while element is not None and "data-gloss" not in element.attributes:
            element = element.parent
        return element

    def querySelector(self, _selector: str) -> Element | None:  # noqa: N802
        return getattr(self, "summary", None)

    def scrollIntoView(self) -> None:  # noqa: N802
        self.done.append("scrolled")

    def focus(self) -> None:
        self.done.append("focused")


class Document:
    def __init__(self, answers: list[Any]) -> None:
        self.baseURI = "http://127.0.0.1:8000/index.html?seed=5"
        self.defaultView = Window(answers)
        ids = ("network-story", "network-story-body", "explorer-story-row", "explorer-story-link", "glossary-list")
        self.elements = {name: Element(name) for name in ids}
        self.elements["network-story"].summary = Element("summary")
        self.elements["network-story-body"].parent = self.elements["network-story"]
        glossary = self.elements["glossary-list"]
        glossary.querySelector = lambda _selector: None

    def getElementById(self, element_id: str) -> Element | None:  # noqa: N802
        if element_id.startswith("gloss-"):
            return None
        return self.elements.get(element_id)


def _story(answers: list[Any]) -> tuple[NetworkStory, Document, list[str]]:
    document = Document(answers)
    followed: list[str] = []
    return NetworkStory(document, lambda f: f, followed.append), document, followed


async def _settled(story: NetworkStory) -> None:
    while story.state == "loading":
        await asyncio.sleep(0)


def test_it_shows_only_while_the_network_is_chosen_with_the_explorers_link():
    story, document, _ = _story([])
    box, row = document.elements["network-story"], document.elements["explorer-story-row"]
    story.show(True)
    assert not box.hidden and not row.hidden
    story.show(False)
    assert box.hidden and row.hidden


def test_nothing_is_fetched_until_it_is_opened_then_the_manifest_is_drawn_once():
    story, document, _ = _story([Response(MANIFEST_TEXT)])
    box, body = document.elements["network-story"], document.elements["network-story-body"]
    assert document.defaultView.asked == [] and body.innerHTML == ""

    async def scenario() -> None:
        box.open = True
        box.fire("toggle")
        assert body.textContent == READING and body.attributes["data-state"] == "loading"
        await _settled(story)
        box.open = False
        box.fire("toggle")
        box.open = True
        box.fire("toggle")  # drawn already: not asked again
        await _settled(story)

    run_async(scenario)
    assert document.defaultView.asked == ["http://127.0.0.1:8000/" + MANIFEST_PATH]
    assert MANIFEST_PATH == "networks/" + learned.MANIFEST_FILE
    assert story.state == "ready" and body.attributes["data-state"] == "ready"
    assert 'id="story-games">373,000 games' in body.innerHTML
    glossary = document.elements["glossary-list"].innerHTML  # the linked words' entries, before the explorer
    assert 'id="gloss-td-learning"' in glossary and 'id="gloss-temporal-coherence"' in glossary


def test_a_manifest_that_cannot_be_read_is_said_and_asked_for_again_at_the_next_opening():
    answers = [TypeError("Failed to fetch"), Response("", 404), Response("<html>"), Response(MANIFEST_TEXT)]
    story, document, _ = _story(answers)
    box, body = document.elements["network-story"], document.elements["network-story-body"]
    said: list[str] = []

    async def scenario() -> None:
        for _ in range(4):
            box.open = True
            box.fire("toggle")
            await _settled(story)
            state = body.attributes["data-state"]
            said.append(state if state == "ready" else body.textContent)
            box.open = False
            box.fire("toggle")

    run_async(scenario)
    assert said[0].startswith("The network\u2019s manifest could not be read: the network did not answer.")
    assert "the server answered HTTP 404" in said[1] and "not readable JSON" in said[2]
    assert all("open it again to retry" in text for text in said[:3]) and said[3] == "ready"
    assert len(document.defaultView.asked) == 4


def test_a_glossary_word_followed_goes_to_its_entry_and_other_clicks_do_nothing():
    story, document, followed = _story([])
    body = document.elements["network-story-body"]
    word = Element()
    word.attributes["data-gloss"] = "td-learning"
    inner = Element()
    inner.parent, word.parent = word, body
    fired = body.fire("click", target=inner)
    assert followed == ["td-learning"] and fired.prevented
    plain = Element()
    plain.parent = body
    assert not body.fire("click", target=plain).prevented and followed == ["td-learning"]


def test_the_explorers_link_shows_and_opens_the_story_with_the_focus_on_its_summary():
    story, document, _ = _story([Response(MANIFEST_TEXT)])
    box = document.elements["network-story"]
    box.hidden = True
    fired = document.elements["explorer-story-link"].fire("click")
    assert fired.prevented and not box.hidden and box.open
    assert box.summary.done == ["scrolled", "focused"]


def test_the_manifest_read_is_the_one_the_worker_checks():
    assert json.loads(MANIFEST_TEXT)["file"] == learned.NETWORK_FILE
