"""Input rules: which keys move, which are left to the browser, and when a stroke is a swipe."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.board.inputs import SWIPE_THRESHOLD_PX, direction_for_key, history_shortcut, swipe_direction
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
