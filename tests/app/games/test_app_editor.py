"""The position editor over a fake DOM: clicks, typing and pasting set the board; leaving it plays it or not."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from app_async import run_async
from fakes import FakeView, guarded_call

from app.board.play import Intent, PlaySession
from app.browser.storage import MemoryBackend, Storage
from app.games.editor import AI_WAITS, INERT_WHILE_EDITING, PositionEditor
from app.games.saved_games import SavedGames, saved_form
from app.games.startup import LOST_POSITION
from game2048 import board as B
from game2048.game import Game


class FakeEvent:
    def __init__(self, target: Any, key: str = "", shift: bool = False, ctrl: bool = False) -> None:
        self.target = target
        self.key = key
        self.shiftKey = shift
        self.ctrlKey = ctrl
        self.altKey = self.metaKey = False
        self.default_prevented = False
        self.stopped = False

    def preventDefault(self) -> None:
        self.default_prevented = True

    def stopPropagation(self) -> None:
        self.stopped = True


class FakeElement:
    """The little of a DOM element the editor uses; events bubble to the parents."""

    def __init__(self, document: FakeDocument, tag: str) -> None:
        self.document = document
        self.tagName = tag.upper()
        self.attributes: dict[str, str] = {}
        self.children: list[FakeElement] = []
        self.parent: FakeElement | None = None
        self.listeners: dict[str, list[Any]] = {}
        self.hidden = False
        self.inert = False
        self.value = ""
        self.textContent = ""
        self.title = ""

    def setAttribute(self, name: str, value: str) -> None:
        self.attributes[name] = value
        if name == "id":
            self.document.ids[value] = self

    def getAttribute(self, name: str) -> str | None:
        return self.attributes.get(name)

    def append(self, *elements: FakeElement) -> None:
        for element in elements:
            element.parent = self
            self.children.append(element)

    def replaceChildren(self, *elements: FakeElement) -> None:
        self.children = []
        self.append(*elements)

    def remove(self) -> None:
        if self.parent is not None:
            self.parent.children.remove(self)
            self.parent = None

    @property
    def firstChild(self) -> FakeElement:
        return self.children[0]

    def addEventListener(self, event: str, handler: Any) -> None:
        self.listeners.setdefault(event, []).append(handler)

    def dispatch(self, name: str, **kw: Any) -> FakeEvent:
        event = FakeEvent(self, **kw)
        element: FakeElement | None = self
        while element is not None and not event.stopped:
            for handler in element.listeners.get(name, []):
                handler(event)
            element = element.parent
        return event

    def closest(self, selector: str) -> FakeElement | None:
        assert selector == "[data-cell]"
        element: FakeElement | None = self
        while element is not None and "data-cell" not in element.attributes:
            element = element.parent
        return element

    def focus(self) -> None:
        self.document.active = self
        self.dispatch("focusin")

    def select(self) -> None:
        pass


class FakeClipboard:
    def __init__(self, refuse: bool = False) -> None:
        self.text: str | None = None
        self.refuse = refuse

    async def writeText(self, text: str) -> None:
        if self.refuse:
            raise RuntimeError("NotAllowedError")
        self.text = text


class FakeLocation:
    origin = "http://127.0.0.1:8000"
    pathname = "/index.html"
    hash = ""

    def __init__(self, search: str = "") -> None:
        self.search = search


class FakeHistory:
    def __init__(self) -> None:
        self.urls: list[str] = []

    def replaceState(self, _state: Any, _title: str, url: str) -> None:
        self.urls.append(url)


class FakeNavigator:
    pass


class FakeWindow:
    def __init__(self, location: FakeLocation) -> None:
        self.location = location
        self.history = FakeHistory()
        self.navigator = FakeNavigator()
        self.guardedCall = guarded_call


class FakeDocument:
    def __init__(self, search: str = "") -> None:
        self.ids: dict[str, FakeElement] = {}
        self.active: FakeElement | None = None
        self.location = FakeLocation(search)
        self.defaultView = FakeWindow(self.location)
        self.body = FakeElement(self, "body")
        for element_id in ("edit-toggle", "editor-bar", "board", *INERT_WHILE_EDITING):
            self.createElement("div").setAttribute("id", element_id)

    def createElement(self, tag: str) -> FakeElement:
        return FakeElement(self, tag)

    def getElementById(self, element_id: str) -> FakeElement | None:
        return self.ids.get(element_id)


ROWS = [[0, 2, 4, 8], [0, 0, 0, 0], [0, 0, 16, 0], [2, 0, 0, 0]]
LOST = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]


class Page:
    """An editor over a session and a storage, as main wires them."""

    def __init__(self, game: Game | None = None, search: str = "", from_link: bool = False) -> None:
        self.document = FakeDocument(search)
        self.view = FakeView()
        self.saved = SavedGames(Storage(MemoryBackend()))
        self.session = PlaySession(
            game or Game.from_position(B.from_rows(ROWS), 5),
            self.view,
            self.saved,
            new_game=lambda: Game.new(1),
            slide_seconds=0.001,
        )
        self.session.start()
        self.stopped: list[str] = []
        self.editor = PositionEditor(
            self.document, self.session, self.view, self.saved, lambda f: f, self.stopped.append, from_link
        )

    def el(self, element_id: str) -> FakeElement:
        element = self.document.getElementById(element_id)
        assert element is not None, element_id
        return element

    def cell(self, row: int, col: int) -> FakeElement:
        return self.editor.cells.cell_buttons[4 * row + col]

    def shown(self) -> list[list[int]]:
        texts = [button.firstChild.textContent for button in self.editor.cells.cell_buttons]
        values = [int(text) if text else 0 for text in texts]
        return [values[i : i + 4] for i in range(0, 16, 4)]

    def keys(self, row: int, col: int, *keys: str) -> list[FakeEvent]:
        return [self.cell(row, col).dispatch("keydown", key=key) for key in keys]

    def click(self, element_id: str) -> None:
        self.el(element_id).dispatch("click")

    def status(self) -> str:
        return self.el("editor-status").textContent


def test_edit_mode_starts_from_the_games_board_and_blocks_the_game():
    """While ``editing``, the page's keys do nothing to the game (``app.page``'s guard reads it)."""
    page = Page()
    page.click("edit-toggle")
    assert page.editor.editing and page.shown() == ROWS and page.status() == AI_WAITS  # why the AI waits
    assert not page.el("editor-bar").hidden and not page.editor.cells.cells_el.hidden
    assert page.el("edit-toggle").getAttribute("aria-pressed") == "true"
    assert page.document.body.getAttribute("data-editing") == "on"
    assert all(page.el(i).inert for i in INERT_WHILE_EDITING)
    assert page.stopped == ["Autoplay stopped: editing a position."]
    assert page.document.active is page.cell(0, 0) and page.cell(0, 0).getAttribute("tabindex") == "0"
    page.click("editor-cancel")
    assert not page.editor.editing and page.el("editor-bar").hidden and not page.el("ai-panel").inert


def test_a_click_cycles_the_tile_and_shift_or_right_click_goes_back():
    page = Page()
    page.editor.enter()
    cell = page.cell(1, 1)
    seen = []
    for _ in range(16):
        cell.dispatch("click")
        seen.append(page.shown()[1][1])
    assert seen == [2**k for k in range(1, 16)] + [0]
    cell.dispatch("click", shift=True)
    assert page.shown()[1][1] == 32768
    event = cell.dispatch("contextmenu")
    assert page.shown()[1][1] == 16384 and event.default_prevented
    assert cell.getAttribute("aria-label") == "row 2, column 2: 16384"
    assert "tile-super" in cell.getAttribute("class") and "digits-5" in cell.getAttribute("class")
    assert page.cell(0, 0).getAttribute("aria-label") == "row 1, column 1: empty"


def test_typed_digits_set_the_tile_as_soon_as_they_make_one():
    page = Page()
    page.editor.enter()
    events = page.keys(1, 0, "1", "0")
    assert page.editor.cells.values[4] == 0 and page.shown()[1][0] == 10  # "10" is on its way to 1024
    assert "typing" in page.cell(1, 0).getAttribute("class")
    assert all(e.default_prevented and e.stopped for e in events)  # the game's keys never see them
    page.keys(1, 0, "2", "4")
    assert page.editor.cells.values[4] == 1024
    page.keys(1, 0, "Enter")
    assert page.shown()[1][0] == 1024 and "typing" not in page.cell(1, 0).getAttribute("class")
    assert not page.keys(1, 0, "Tab")[0].default_prevented


def test_digits_that_make_no_tile_are_refused_with_the_reason():
    page = Page()
    page.editor.enter()
    page.keys(1, 0, "7")
    assert page.status() == "Not set: 7 is not a power of two." and page.shown()[1][0] == 0
    page.keys(1, 0, "6", "Enter")
    assert page.status() == "Not set: 6 is not a power of two." and page.shown()[1][0] == 0
    page.keys(0, 1, "6", "5")  # "65" starts no tile: the 2 that was there stays
    assert "65 is not a power of two" in page.status() and page.shown()[0][1] == 2
    page.keys(0, 1, "3", "2", "7", "6", "8", "0")
    assert "327680 is above 32768, the largest tile the engine holds" in page.status()
    assert page.shown()[0][1] == 2
    page.keys(0, 2, "4", "0", "ArrowDown")  # moving on ends the typing: "40" is refused
    assert "40 is not a power of two" in page.status() and page.shown()[0][2] == 4
    assert page.editor.cells.selected == 6


def test_backspace_delete_and_zero_clear_and_arrows_move_within_the_board():
    page = Page()
    page.editor.enter()
    page.keys(0, 3, "Delete")
    page.keys(3, 0, "Backspace")
    page.keys(0, 2, "0")
    assert page.shown() == [[0, 2, 0, 0], [0] * 4, [0, 0, 16, 0], [0] * 4]
    page.keys(0, 1, "1", "6", "Backspace")  # back to "1": the cell is as before the typing
    assert page.editor.cells.values[1] == 2 and page.shown()[0][1] == 1
    page.keys(0, 1, "Escape")
    assert page.shown()[0][1] == 2
    page.keys(0, 0, "ArrowUp", "ArrowLeft")
    assert page.document.active is page.cell(0, 0)
    for key, expected in (("ArrowRight", (0, 1)), ("ArrowDown", (1, 1)), ("ArrowLeft", (1, 0))):
        row, col = divmod(page.editor.cells.selected, 4)
        page.keys(row, col, key)
        assert page.document.active is page.cell(*expected), key
    page.keys(3, 3, "ArrowDown", "ArrowRight")
    assert page.editor.cells.selected == 15


def test_the_tile_field_sets_the_selected_cell_or_says_why_not():
    page = Page()
    page.editor.enter()
    page.cell(2, 1).focus()
    assert page.el("editor-value-caption").textContent == "Tile at row 3, column 2"
    field = page.el("editor-value")
    for text, words in (("65536", "65536 is above 32768"), ("6", "6 is not a power of two"), ("x", "not a number")):
        field.value = text
        field.dispatch("change")
        assert words in page.status() and page.shown()[2][1] == 0, text
    field.value = " 512 "
    field.dispatch("change")
    assert page.shown()[2][1] == 512 and page.status() == ""


def test_paste_replaces_the_board_or_says_why_not_and_clear_empties_it():
    page = Page()
    page.editor.enter()
    paste = page.el("editor-paste")
    paste.value = "2 4 8 16\n0 0 0 6\n0 0 0 0\n0 0 0 0"
    page.click("editor-paste-apply")
    assert page.status() == "Not pasted: 6 is not a power of two (row 2, column 4)." and page.shown() == ROWS
    paste.value = "2,4,8,16 / . . . 32 / - - - 64 / 0 0 2 128"
    page.click("editor-paste-apply")
    assert page.shown() == [[2, 4, 8, 16], [0, 0, 0, 32], [0, 0, 0, 64], [0, 0, 2, 128]]
    page.click("editor-clear")
    assert page.shown() == [[0] * 4] * 4
    assert page.el("editor-link").value == "http://127.0.0.1:8000/index.html?rows=" + "/".join(["0,0,0,0"] * 4)


def _playing(page: Page) -> Game:
    run_async(page.session.wait_idle)
    return page.session.game


def test_play_from_here_switches_the_game_and_keeps_the_one_it_replaced():
    async def scenario():
        played = Game.new(3)
        for direction in ("left", "up", "right"):
            played.play(direction)
        page = Page(played)
        page.editor.enter()
        page.click("editor-clear")
        page.keys(0, 0, "2", "Enter")
        page.click("editor-play")
        assert page.editor.editing and "at least two tiles, this board has 1" in page.status()
        page.keys(0, 0, "ArrowRight")
        page.keys(0, 1, "2", "0", "4", "8")
        page.click("editor-play")
        await page.session.wait_idle()
        game = page.session.game
        assert not page.editor.editing and B.to_rows(game.board)[0][:2] == [2, 2048]
        assert game.seed is None and game.won and not game.paused_at_win
        assert page.saved.kept() == [saved_form(played)]
        assert "Your game in progress (score" in page.view.notices[-1] and "kept" in page.view.notices[-1]
        assert page.document.active is page.el("board")
        moves = game.moves
        page.session.submit(Intent.move("right"))  # the new game plays
        await page.session.wait_idle()
        assert page.session.game is game and game.moves == moves + 1

    run_async(scenario)


def test_a_position_with_no_move_opens_as_a_lost_game_and_an_unchanged_one_goes_on():
    async def scenario():
        page = Page()
        game = page.session.game
        page.editor.toggle()
        page.editor.toggle()  # T twice, nothing changed: the same game goes on
        await page.session.wait_idle()
        assert page.session.game is game and not page.editor.editing and page.view.notices == []
        page.editor.enter()
        page.el("editor-paste").value = "2 4 2 4 / 4 2 4 2 / 2 4 2 4 / 4 2 4 2"
        page.click("editor-paste-apply")
        page.click("editor-play")
        await page.session.wait_idle()
        assert page.session.game.over and B.to_rows(page.session.game.board) == LOST
        assert page.view.overlays == (False, True) and page.view.notices[-1].endswith(LOST_POSITION)
        assert page.saved.kept() == [saved_form(game)]

    run_async(scenario)


def test_cancel_leaves_the_game_untouched():
    async def scenario():
        page = Page()
        before = page.session.game.to_dict()
        page.editor.enter()
        page.click("editor-clear")
        page.cell(1, 1).dispatch("click")
        page.click("editor-cancel")
        await page.session.wait_idle()
        assert page.session.game.to_dict() == before and page.view.calls == ["render"]

    run_async(scenario)


def test_the_link_opens_the_position_and_copy_puts_it_in_the_clipboard():
    async def scenario():
        page = Page()
        page.editor.enter()
        link = "http://127.0.0.1:8000/index.html?rows=0,2,4,8/0,0,0,0/0,0,16,0/2,0,0,0"
        assert page.editor.text.link() == link and page.el("editor-link").value == link
        page.click("editor-copy-link")
        assert "no clipboard" in page.status()
        clipboard = page.document.defaultView.navigator.clipboard = FakeClipboard()
        page.click("editor-copy-link")
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert clipboard.text == link and page.status() == "Link copied: it opens this position."
        page.document.defaultView.navigator.clipboard = FakeClipboard(refuse=True)
        page.click("editor-copy-link")
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert "did not allow" in page.status()

    run_async(scenario)


@pytest.mark.parametrize(
    ("search", "url"),
    [
        ("?rows=0,2/0,0", "/index.html"),
        ("?seed=4&rows=2,2,0,0", "/index.html?seed=4"),
        ("?x=1&rows=", "/index.html?x=1"),
    ],
)
def test_a_position_opened_from_the_link_leaves_the_address(search, url):
    page = Page(search=search, from_link=True)
    assert page.document.defaultView.history.urls == [url]
    assert Page(search=search).document.defaultView.history.urls == []


def test_a_set_up_game_left_for_another_position_is_kept_as_the_moves_played_on_it():
    """Issue 41: a set-up game played one move was named with the move count made up for its tiles ("1921 moves")."""

    async def scenario():
        page = Page(Game.new(3))
        page.editor.enter()
        page.el("editor-paste").value = "2048 1024 512 256 / 0 0 0 0 / 0 0 0 0 / 0 0 2 2"
        page.click("editor-paste-apply")
        page.click("editor-play")
        await page.session.wait_idle()
        page.session.submit(Intent.move("left"))
        await page.session.wait_idle()
        page.editor.enter()
        page.el("editor-paste").value = "2 4 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0"
        page.click("editor-paste-apply")
        page.click("editor-play")
        await page.session.wait_idle()
        return page

    page = run_async(scenario)
    said = page.view.notices[-1]
    assert "(score 35588, 1 move from a set-up position, best tile 2048) is kept" in said, said
    assert "1921" not in said
