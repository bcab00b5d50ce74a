"""Input rules: which keys move, which are left to the browser, and when a stroke is a swipe."""

from __future__ import annotations

import sys
import types

import pytest
from fakes import FakeNode, FakeTouchEvent, FakeTouchList
from hypothesis import given
from hypothesis import strategies as st

from app.board.inputs import SWIPE_THRESHOLD_PX, InputRouter, direction_for_key, history_shortcut, swipe_direction
from game2048.board import DOWN, LEFT, RIGHT, UP


def test_arrows_wasd_and_vim_keys():
    expected = {
        "ArrowUp": "up",
        "ArrowRight": "right",
        "ArrowDown": "down",
        "ArrowLeft": "left",
        "w": "up",
        "d": "right",
        "s": "down",
        "a": "left",
        "W": "up",
        "k": "up",
        "l": "right",
        "j": "down",
        "h": "left",
    }
    for key, direction in expected.items():
        assert direction_for_key(key) == direction, key
    for key in ("r", "x", "Enter", " ", "Escape", "i", "n", "p"):
        assert direction_for_key(key) is None, key


def test_modifier_chords_are_left_to_the_browser():
    for modifiers in ({"ctrl": True}, {"alt": True}, {"meta": True}):
        assert direction_for_key("ArrowLeft", **modifiers) is None
        assert direction_for_key("w", **modifiers) is None


coords = st.floats(min_value=-400, max_value=400, allow_nan=False)


@given(coords, coords)
def test_short_strokes_do_nothing_and_long_ones_follow_the_dominant_axis(dx, dy):
    direction = swipe_direction(dx, dy)
    if max(abs(dx), abs(dy)) < SWIPE_THRESHOLD_PX:
        assert direction is None
    elif abs(dx) > abs(dy):
        assert direction == (RIGHT if dx > 0 else LEFT)
    else:
        assert direction == (DOWN if dy > 0 else UP)


def test_threshold_is_ten_pixels():
    assert swipe_direction(9.9, 0) is None and swipe_direction(10, 0) == RIGHT
    assert swipe_direction(0, -10) == UP


def test_the_editing_shortcuts_undo_and_redo():
    assert history_shortcut("z", ctrl=True, meta=False, shift=False) == "undo"
    assert history_shortcut("Z", ctrl=False, meta=True, shift=False) == "undo"
    assert history_shortcut("Z", ctrl=True, meta=False, shift=True) == "redo"
    assert history_shortcut("z", ctrl=False, meta=True, shift=True) == "redo"
    assert history_shortcut("y", ctrl=True, meta=False, shift=False) == "redo"
    assert history_shortcut("y", ctrl=False, meta=True, shift=False) is None  # Cmd+Y is the history window
    assert history_shortcut("z", ctrl=False, meta=False, shift=False) is None  # a plain z is not a shortcut
    assert history_shortcut("r", ctrl=True, meta=False, shift=False) is None  # Ctrl+R still reloads


class Page:
    """The document, the board, a tile on it, and the moves the router asked for."""

    def __init__(self) -> None:
        self.document = FakeNode("document")
        self.document.defaultView = None
        self.board = FakeNode("board", self.document)
        self.tile = FakeNode("tile", FakeNode("tiles", self.board))
        self.moves: list[str] = []
        self.router = InputRouter(self.document, self.board, self.moves.append)

    def touch(self, node: FakeNode, kind: str, *points: tuple[float, float], cancelable: bool = True) -> FakeTouchEvent:
        """A touch event on ``node``: ``touchstart`` of the fingers ``points``, or the end of one at ``points[0]``."""
        if kind == "touchstart":
            event = FakeTouchEvent(kind, FakeTouchList(*points), FakeTouchList(points[-1]), cancelable)
        else:
            event = FakeTouchEvent(kind, FakeTouchList(*points[1:]), FakeTouchList(points[0]), cancelable)
        node.dispatch(event)
        return event


@pytest.fixture
def page(monkeypatch):
    """A page whose listeners are the Python callables themselves (``pyscript.ffi.create_proxy`` faked)."""
    ffi = types.ModuleType("pyscript.ffi")
    ffi.create_proxy = lambda function: function
    pyscript = types.ModuleType("pyscript")
    pyscript.ffi = ffi
    monkeypatch.setitem(sys.modules, "pyscript", pyscript)
    monkeypatch.setitem(sys.modules, "pyscript.ffi", ffi)
    return Page()


def test_a_swipe_whose_tile_the_slide_removed_still_moves(page):
    """The finger lands on a tile, the slide removes it, the touch ends on the removed tile (issue 53)."""
    page.touch(page.tile, "touchstart", (200, 200))
    page.tile.remove()
    end = page.touch(page.tile, "touchend", (120, 205))
    assert page.moves == [LEFT]
    assert end.cancelled  # no emulated mouse click after a swipe


def test_a_swipe_on_a_tile_still_in_the_page_moves_once(page):
    page.touch(page.tile, "touchstart", (200, 200))
    page.touch(page.tile, "touchend", (200, 290))  # heard on the tile and again on the board
    assert page.moves == [DOWN]


def test_a_swipe_begun_on_the_board_itself_moves_once_and_the_board_keeps_listening(page):
    own = {kind: list(listeners) for kind, listeners in page.board.listeners.items()}
    for end, direction in (((290, 200), RIGHT), ((200, 100), UP)):
        page.touch(page.board, "touchstart", (200, 200))
        page.touch(page.board, "touchend", end)
        assert page.moves[-1:] == [direction]
        assert page.board.listeners == own  # the stroke's own listeners gone, the board's kept
    assert len(page.moves) == 2


def test_the_tile_a_stroke_began_on_is_let_go_when_it_ends(page):
    page.touch(page.tile, "touchstart", (200, 200))
    assert page.tile.listeners["touchend"] and page.tile.listeners["touchcancel"]
    page.touch(page.tile, "touchend", (205, 200))  # too short to be a swipe: still the end of the stroke
    assert page.tile.listeners == {"touchend": [], "touchcancel": []}
    assert page.moves == []


def test_two_fingers_move_nothing_even_when_their_tile_leaves(page):
    other = FakeNode("another tile", page.tile.parent)
    page.touch(page.tile, "touchstart", (200, 200))
    page.touch(other, "touchstart", (200, 200), (300, 200))
    page.tile.remove()
    page.touch(other, "touchend", (300, 100), (200, 200))  # one finger still down
    page.touch(page.tile, "touchend", (100, 200))
    assert page.moves == []
    assert page.tile.listeners == {"touchend": [], "touchcancel": []} and other.listeners == {}


def test_a_stroke_cancelled_on_a_removed_tile_is_forgotten(page):
    page.touch(page.tile, "touchstart", (200, 200))
    page.tile.remove()
    page.touch(page.tile, "touchcancel", (200, 200))
    page.touch(page.board, "touchend", (100, 200))  # an end with no start heard: nothing
    assert page.moves == []
    assert page.tile.listeners == {"touchend": [], "touchcancel": []}


def test_an_uncancelable_end_still_moves_and_is_not_cancelled(page):
    page.touch(page.tile, "touchstart", (200, 200))
    page.tile.remove()
    end = page.touch(page.tile, "touchend", (200, 120), cancelable=False)
    assert page.moves == [UP] and not end.cancelled


def test_readmes_table_of_keys_is_the_key_map() -> None:
    """Every letter README's "Playing" table names is a move key or one of ``KEY_ACTIONS``, and every one of those
    is in the table: the table cannot promise a key the page does not bind, nor leave one out."""
    import re
    from pathlib import Path

    from app.board.inputs import KEY_ACTIONS, KEY_DIRECTIONS

    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text()
    table = readme.split("## Playing", 1)[1].split("\n\n", 2)[1]
    first_column = [line.split("|")[1] for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    letters = {key.lower() for cell in first_column for key in re.findall(r"`([A-Za-z])`", cell)}
    bound = {key for key in [*KEY_ACTIONS, *KEY_DIRECTIONS] if len(key) == 1}
    assert letters == bound
    assert "`Esc` stops" in table and KEY_ACTIONS["escape"] == "stop"
