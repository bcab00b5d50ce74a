"""The replay: steps, keys, slider and play walk the record's positions; its actions hand over what they should."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import pytest
from app_async import run_async

from app.browser.page_options import MAX_QUERY_CHARS
from app.games.lab_files import LabFile
from app.games.replay_view import (
    IDS,
    LINK_LIMIT_BYTES,
    ReplayView,
    decision_text,
    game_file_name,
    share_address,
    spawned_cell,
)
from game2048.board import legal_moves
from game2048.game_link import decode_link, encode_game, record_from_link
from game2048.game_record import GameRecord, decision, positions


class Element:
    def __init__(self, element_id: str, document: Document) -> None:
        self.id = element_id
        self.document = document
        self.hidden = element_id == "replay-view"
        self.disabled = False
        self.textContent = ""
        self.innerHTML = ""
        self.value = "5" if element_id == "replay-speed" else "0"
        self.max = "0"
        self.isConnected = True
        self.attributes: dict[str, str] = {}
        self.listeners: dict[str, list] = {}

    def setAttribute(self, name, value):  # noqa: N802 - the DOM's names
        self.attributes[name] = str(value)

    def addEventListener(self, event, handler):  # noqa: N802
        self.listeners.setdefault(event, []).append(handler)

    def fire(self, event: str, **fields) -> SimpleNamespace:
        data = SimpleNamespace(target=self, prevented=False, stopped=False, **fields)
        data.preventDefault = lambda: setattr(data, "prevented", True)
        data.stopPropagation = lambda: setattr(data, "stopped", True)
        for handler in self.listeners.get(event, []):
            handler(data)
        return data

    def click(self) -> None:
        self.fire("click")

    def focus(self) -> None:
        self.document.activeElement = self

    def select(self) -> None:
        pass


class Clipboard:
    def __init__(self, refuse: bool) -> None:
        self.refuse = refuse
        self.copied: list[str] = []

    async def writeText(self, text):  # noqa: N802
        if self.refuse:
            raise RuntimeError("NotAllowedError")
        self.copied.append(text)


class Blob:
    def __init__(self, parts) -> None:
        self.text = "".join(parts)


class Anchor:
    """An ``<a>`` made to download a file: its clicks are the downloads, (href, file name)."""

    def __init__(self, downloads: list[tuple[str, str]]) -> None:
        self.downloads = downloads
        self.href = self.download = ""

    def click(self) -> None:
        self.downloads.append((self.href, self.download))


class Document:
    def __init__(self, refuse_copy: bool = False) -> None:
        self.elements = {name: Element(name, self) for name in IDS}
        self.activeElement = Element("game-board", self)
        location = SimpleNamespace(origin="http://127.0.0.1:8000", pathname="/index.html", search="?seed=4&x=1")
        self.blobs: dict[str, Blob] = {}  # object URL -> the file it holds
        self.revoked: list[str] = []
        self.downloads: list[tuple[str, str]] = []
        self.listeners: dict[str, list] = {}
        self.defaultView = SimpleNamespace(
            location=location,
            navigator=SimpleNamespace(clipboard=Clipboard(refuse_copy)),
            Array=SimpleNamespace(of=lambda *items: list(items)),
            Blob=SimpleNamespace(new=Blob),
            URL=SimpleNamespace(createObjectURL=self._object_url, revokeObjectURL=self.revoked.append),
        )

    def _object_url(self, blob: Blob) -> str:
        url = f"blob:http://127.0.0.1:8000/{len(self.blobs)}"
        self.blobs[url] = blob
        return url

    def getElementById(self, element_id):  # noqa: N802
        return self.elements.get(element_id)

    def addEventListener(self, event, handler):  # noqa: N802
        self.listeners.setdefault(event, []).append(handler)

    def createElement(self, tag):  # noqa: N802
        assert tag == "a"
        return Anchor(self.downloads)


AI = decision("alphabeta", "classic", 7, 100.24)
RESCUED = decision("alphabeta", "classic", 3, 12.0, rescued=True)


def recorded(moves: int = 30, seed: int = 17) -> GameRecord:
    record = GameRecord(seed)
    for n in range(moves):
        note = None if n % 3 == 0 else AI if n % 3 == 1 else RESCUED
        record.append(legal_moves(record._replayed().board)[0], note)
    return record


def _replay(**kw) -> tuple[ReplayView, Document, list]:
    document = Document(kw.pop("refuse_copy", False))
    handed: list = []
    view = ReplayView(document, lambda f: f, lambda record, step: handed.append((record, step)), **kw)
    return view, document, handed


def text(document: Document, name: str) -> str:
    return document.elements[name].textContent


def test_opening_shows_the_start_and_steps_walk_the_positions():
    record = recorded()
    view, document, _ = _replay()
    view.open(record, "Your game")
    steps = positions(record)
    assert view.is_open and text(document, "replay-title") == "Your game"
    assert text(document, "replay-status") == "Move 0 of 30 \u00b7 score 0"
    assert "Start of the game (seed 17)" in text(document, "replay-decision")
    assert document.elements["replay-back"].disabled and not document.elements["replay-forward"].disabled
    assert document.activeElement is document.elements["replay-play"]
    document.elements["replay-forward"].click()
    document.elements["replay-forward"].click()
    assert view.step == 2 and text(document, "replay-status").endswith(f"score {steps[2][1]}")
    document.elements["replay-last"].click()
    assert view.step == 30 and document.elements["replay-forward"].disabled
    document.elements["replay-back"].click()
    assert view.step == 29
    document.elements["replay-first"].click()
    assert view.step == 0
    slider = document.elements["replay-slider"]
    slider.value = "12"
    slider.fire("input")
    assert view.step == 12 and slider.attributes["aria-valuetext"] == "Move 12 of 30" and slider.max == "30"
    assert "Position after move 12" in document.elements["replay-board"].innerHTML


def test_each_move_says_who_chose_it_and_the_ai_its_summary():
    record = recorded(6)
    assert decision_text(record, 1) == f"Move 1: you played {record.moves[0]}."
    assert (
        decision_text(record, 2)
        == f"Move 2: the AI (alphabeta, classic) played {record.moves[1]}, depth 7 in 100.2 ms."
    )
    assert "Rescue search" in decision_text(record, 3) and "depth 3 in 12.0 ms" in decision_text(record, 3)
    old_link = record_from_link(encode_game(record.seed, record.moves))  # a link made before links said who played
    assert decision_text(old_link, 2, deciders_known=False) == (
        f"Move 2: played {record.moves[1]} (this link does not say who played: it was made before links did)."
    )


def test_a_shared_game_says_who_played_each_move_as_the_original_did():
    """Issue 41: "a shared replay says 'Move 8: down.' where the original said 'you played down'"."""
    record = recorded(9)
    view, document, _ = _replay()
    view.open(record, "Your game")
    run_async(view.copy_link)
    shared = record_from_link(document.elements["replay-link"].value.split("game=")[1])
    said = [decision_text(record, step) for step in range(1, 10)]
    view.open(shared, "Shared game", deciders_known=False)  # as the page opens a ?game= link
    for step in range(1, 10):
        view.go(step)
        if said[step - 1].startswith(f"Move {step}: you played"):
            assert text(document, "replay-decision") == f"Move {step}: the player played {record.moves[step - 1]}."
        else:
            assert text(document, "replay-decision") == f"Move {step}: the AI played {record.moves[step - 1]}."
    run_async(view.copy_link)  # shared again: who played goes on with it
    again = decode_link(document.elements["replay-link"].value.split("game=")[1].split("&")[0])
    assert again == (record.seed, record.moves, record.chosen_by_ai())
    old = record_from_link(encode_game(record.seed, record.moves))
    view.open(old, "Shared game", deciders_known=False)
    run_async(view.copy_link)  # an old link's game shared again says nothing of who played, as it did not
    assert decode_link(document.elements["replay-link"].value.split("game=")[1]) == (record.seed, record.moves, None)


def test_the_tile_a_move_brought_is_the_one_marked():
    record = recorded(10)
    steps = positions(record)
    for step in range(1, 11):
        cell = spawned_cell(steps[step - 1][0], record.moves[step - 1], steps[step][0])
        assert cell is not None and (steps[step][0] >> 4 * cell) & 15 in (1, 2)


@pytest.mark.parametrize(("key", "step"), [("ArrowRight", 6), ("ArrowLeft", 4), ("Home", 0), ("End", 30), ("x", 5)])
def test_keys_step_and_are_kept_from_the_game(key, step):
    view, document, _ = _replay()
    view.open(recorded(), "Replay", step=5)
    event = document.elements["replay-view"].fire("keydown", key=key)
    assert view.step == step
    assert event.prevented == event.stopped == (key != "x")


def test_escape_closes_and_gives_the_focus_back():
    closed = []
    view, document, _ = _replay(on_close=lambda: closed.append(True))
    opener = document.activeElement
    view.open(recorded(), "Replay")
    document.elements["replay-view"].fire("keydown", key="Escape")
    assert not view.is_open and document.activeElement is opener and closed == [True]


def test_escape_on_the_body_closes_the_replay_and_other_keys_there_do_nothing():
    view, document, _ = _replay()
    view.open(recorded(), "Replay")
    body = SimpleNamespace(tagName="BODY")
    events = [SimpleNamespace(key=key, target=body, preventDefault=lambda: None) for key in ("ArrowRight", "Escape")]
    for handler in document.listeners["keydown"]:
        handler(events[0])
    assert view.is_open and view.step == 0  # the body's keys are the page's, not the replay's
    for handler in document.listeners["keydown"]:
        handler(events[1])
    assert not view.is_open


def test_play_steps_on_its_own_at_the_speed_and_pause_stops_it():
    async def scenario():
        view, document, _ = _replay(play_interval=lambda speed: 0.001 * speed)
        view.open(recorded(), "Replay")
        document.elements["replay-speed"].value = "1"
        document.elements["replay-speed"].fire("change")
        document.elements["replay-play"].click()
        assert document.elements["replay-play"].textContent == "Pause"
        while view.step < 8:
            await asyncio.sleep(0.001)
        document.elements["replay-play"].click()
        paused_at = view.step
        await asyncio.sleep(0.02)
        after_pause = view.step
        document.elements["replay-play"].click()
        while view.playing:
            await asyncio.sleep(0.001)
        return view, paused_at, after_pause

    view, paused_at, after_pause = run_async(scenario)
    assert after_pause == paused_at and view.step == 30 and view.speed == 1


def test_play_from_here_hands_over_the_record_and_step_and_closes():
    record = recorded()
    view, document, handed = _replay()
    view.open(record, "Replay", step=11)
    document.elements["replay-from-here"].click()
    assert handed == [(record, 11)] and not view.is_open


def test_explore_draws_the_ais_explanation_of_the_shown_position():
    from game2048.search import explain

    asked = []

    async def explain_board(board):
        asked.append(board)
        return {"ok": True, "explanation": explain(board, depth=2)}

    async def scenario():
        view, document, _ = _replay(explain=explain_board)
        view.open(recorded(), "Replay", step=9)
        await view.explore()
        return view, document

    view, document = run_async(scenario)
    assert asked == [positions(view.record)[9][0]]
    assert "root-move" in document.elements["replay-explanation"].innerHTML
    failing, document, _ = _replay(explain=None)
    assert document.elements["replay-explore"].hidden


@pytest.mark.parametrize("refuse", [False, True])
def test_copy_link_gives_a_link_that_decodes_to_the_game(refuse):
    record = recorded(2000 // 60)
    view, document, _ = _replay(refuse_copy=refuse)
    view.open(record, "Replay")
    run_async(view.copy_link)
    link = document.elements["replay-link"].value
    assert link.startswith("http://127.0.0.1:8000/index.html?x=1&game=") and not document.elements["replay-link"].hidden
    assert decode_link(link.split("game=")[1])[:2] == (record.seed, record.moves)
    clipboard = document.defaultView.navigator.clipboard
    assert clipboard.copied == ([] if refuse else [link])
    assert ("field below" if refuse else "Link copied") in text(document, "replay-copy-status")


def test_a_2000_move_game_opens_and_its_link_fits_a_url():
    record = GameRecord(5)
    game = record._replayed()
    while len(record.moves) < 2000 and not game.over:
        record.append(legal_moves(game.board)[len(record.moves) % len(legal_moves(game.board))])
    view, document, _ = _replay()
    view.open(record, "Long game", step=len(record.moves))
    assert view.step == len(record.moves)
    location = SimpleNamespace(origin="https://example.org", pathname="/", search="")
    assert len(share_address(location, record)) < 2000


def test_copy_link_opens_at_the_move_shown() -> None:
    record = recorded(2000 // 60)
    view, document, _ = _replay()
    view.open(record, "Replay", step=7)
    run_async(view.copy_link)
    link = document.elements["replay-link"].value
    assert link.endswith("&move=7")
    assert decode_link(link.split("game=")[1].split("&")[0])[:2] == (record.seed, record.moves)
    view.go(0)
    run_async(view.copy_link)
    assert "move=" not in document.elements["replay-link"].value  # the start needs no move


def _address_of_length(record: GameRecord, length: int) -> SimpleNamespace:
    """A location whose share link for ``record`` is ``length`` bytes: an option of the page's own pads it."""
    location = SimpleNamespace(origin="https://example.org", pathname="/2048/", search="?pad=")
    padding = length - len(share_address(location, record).encode())
    location.search = "?pad=" + "p" * padding
    assert len(share_address(location, record).encode()) == length
    return location


def test_a_link_longer_than_websites_take_is_never_made_the_file_is_offered_instead():
    """Issue 53: a 1 MB ?game= link got the server's bare 414, the page's own words unseen; static hosts refuse
    links from about 8 KB."""
    record = recorded(40)
    view, document, _ = _replay()
    view.open(record, "Replay")
    save, field = document.elements["replay-save-file"], document.elements["replay-link"]
    for length, refused in ((LINK_LIMIT_BYTES, False), (LINK_LIMIT_BYTES + 1, True)):
        document.defaultView.location = _address_of_length(record, length)
        run_async(view.copy_link)
        copied = document.defaultView.navigator.clipboard.copied
        if refused:
            assert field.hidden and field.value == "" and len(copied) == 1 and not save.hidden  # nothing copied
            assert text(document, "replay-copy-status") == (
                f"This game is too long to share as a link: its link would be {LINK_LIMIT_BYTES + 1:,} bytes, and "
                f"websites refuse links longer than {LINK_LIMIT_BYTES:,}. Save it as a file instead: "
                "\u201cYour games\u201d opens it again."
            )
        else:
            assert not field.hidden and len(field.value) == length and copied == [field.value] and save.hidden
    view.open(recorded(5), "Another game")
    assert save.hidden and text(document, "replay-copy-status") == ""


def test_save_as_a_file_downloads_a_lab_file_that_your_games_opens_again():
    record = recorded(40)
    view, document, _ = _replay()
    view.open(record, "Replay")
    document.elements["replay-save-file"].click()
    [(url, name)] = document.downloads
    assert name == game_file_name(record) == "2048-game-17.jsonl"
    line = document.blobs[url].text
    lab = LabFile(name)
    lab.take_line(line, 1, 0, len(line.encode()), last=False)
    assert [game.summary["moves"] for game in lab.games] == [40] and lab.refused == []
    again = GameRecord.from_dict(json.loads(line)["record"])
    assert (again.seed, again.moves, again.decisions) == (record.seed, record.moves, record.decisions)
    assert "2048-game-17.jsonl" in text(document, "replay-copy-status")
    document.elements["replay-save-file"].click()  # a second time: the first file's URL is let go
    assert document.revoked == [url] and len(document.downloads) == 2


def test_every_link_the_page_makes_is_one_it_opens():
    """The page ignores a query longer than ``MAX_QUERY_CHARS``: a link within ``LINK_LIMIT_BYTES`` is never that."""
    assert LINK_LIMIT_BYTES <= MAX_QUERY_CHARS
