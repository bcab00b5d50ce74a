"""Input: keys, touch swipes and mouse/pen drags turned into intents; never touches the board's DOM.

The original's ``KeyboardInputManager`` role.  The mapping rules are plain
functions (``direction_for_key``, ``swipe_direction``) so tests pin them down
in CPython; ``InputRouter`` only attaches listeners and forwards.

* keys: arrows, WASD and vim HJKL move; a key pressed with Ctrl, Alt or Meta
  is left to the browser (Ctrl+R must still reload), except the editing
  shortcuts undo and redo (``history_shortcut``); keys typed into a form
  control (the think-time slider uses the arrow keys) are left alone;
* touch: one-finger swipes on the board.  A touch keeps the element it
  began on as its target, and a tile under the finger may be removed by the
  slide meanwhile: the end of the stroke then goes to a node no longer in the
  page, which bubbles to nothing.  So a stroke's end is also heard on the
  element it began on (``_follow``), and taken once;
* pointer: mouse or pen drags on the board (touch pointers are ignored there,
  the touch listener already handles them, so a swipe is never counted twice);
* a stroke shorter than ``SWIPE_THRESHOLD_PX`` in both axes does nothing.
"""

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

from app.browser.js_guard import JsCallError, js_call
from game2048.board import DOWN, LEFT, RIGHT, UP, Direction

SWIPE_THRESHOLD_PX = 10

KEY_DIRECTIONS: dict[str, Direction] = {
    "arrowup": UP,
    "arrowright": RIGHT,
    "arrowdown": DOWN,
    "arrowleft": LEFT,
    "w": UP,
    "d": RIGHT,
    "s": DOWN,
    "a": LEFT,
    "k": UP,
    "l": RIGHT,
    "j": DOWN,
    "h": LEFT,
}
FORM_TAGS = frozenset({"INPUT", "SELECT", "TEXTAREA"})
KEY_ACTIONS: dict[str, str] = {
    "r": "restart",
    "b": "resume kept",
    "u": "undo",
    "y": "redo",
    "i": "hint",
    "n": "step",
    "p": "autoplay",
    "escape": "stop",
    "e": "explorer",
    "t": "edit",
    "g": "games",
    "v": "replay",
}
"""The one map from an unmodified key (``KeyboardEvent.key``, lower case) to the action it asks for: the page binds
each action's name (``page.main``), the AI's controls handle theirs (``AiControls.shortcut``), and README's table
of keys is checked against it (``tests/app/board/test_app_inputs.py``)."""


def direction_for_key(key: str, ctrl: bool = False, alt: bool = False, meta: bool = False) -> Direction | None:
    """The move a key asks for, or None (unmapped, or a browser shortcut with a modifier)."""
    if ctrl or alt or meta:
        return None
    return KEY_DIRECTIONS.get(key.lower())


def history_shortcut(key: str, ctrl: bool, meta: bool, shift: bool) -> str | None:
    """ "undo" for Ctrl+Z or Cmd+Z, "redo" for Ctrl+Shift+Z, Cmd+Shift+Z or Ctrl+Y; None for anything else."""
    if not (ctrl or meta):
        return None
    key = key.lower()
    if key == "z":
        return "redo" if shift else "undo"
    if key == "y" and ctrl:
        return "redo"
    return None


def swipe_direction(dx: float, dy: float, threshold: float = SWIPE_THRESHOLD_PX) -> Direction | None:
    """The move of a stroke by (dx, dy) pixels (y grows downward), or None when it is too short."""
    if max(abs(dx), abs(dy)) < threshold:
        return None
    if abs(dx) > abs(dy):
        return RIGHT if dx > 0 else LEFT
    return DOWN if dy > 0 else UP


class InputRouter:
    """Listens on the document and the board; calls ``on_move(direction)`` and keyed actions."""

    def __init__(
        self,
        document: Any,
        board_el: Any,
        on_move: Callable[[Direction], None],
        key_actions: dict[str, Callable[[], None]] | None = None,
        history_actions: dict[str, Callable[[], None]] | None = None,
    ) -> None:
        from pyscript.ffi import create_proxy  # browser only

        self.window = document.defaultView
        self.on_move = on_move
        self.key_actions = {k.lower(): v for k, v in (key_actions or {}).items()}
        self.history_actions = history_actions or {}  # "undo" and "redo", for the editing shortcuts
        self._touch_start: tuple[float, float] | None = None
        self._touch_target: Any = None  # the element the stroke began on, heard until the stroke ends
        self._pointer_start: tuple[int, float, float] | None = None
        # Proxies live as long as the page: keep references so they are never collected.
        self._proxies = {
            "keydown": create_proxy(self._keydown),
            "touchstart": create_proxy(self._touchstart),
            "touchend": create_proxy(self._touchend),
            "touchcancel": create_proxy(self._touchcancel),
            "pointerdown": create_proxy(self._pointerdown),
            "pointerup": create_proxy(self._pointerup),
            "pointercancel": create_proxy(self._pointercancel),
        }
        self._followers = {  # the same, for the element a stroke began on: never the board's own listeners
            "touchend": create_proxy(self._touchend),
            "touchcancel": create_proxy(self._touchcancel),
        }
        document.addEventListener("keydown", self._proxies["keydown"])
        for name in ("touchstart", "touchend", "touchcancel", "pointerdown", "pointerup", "pointercancel"):
            board_el.addEventListener(name, self._proxies[name])

    def _keydown(self, event: Any) -> None:
        target = event.target
        if getattr(target, "tagName", None) in FORM_TAGS or getattr(target, "isContentEditable", False):
            return
        if event.ctrlKey or event.altKey or event.metaKey:
            shortcut = history_shortcut(event.key, event.ctrlKey, event.metaKey, event.shiftKey)
            action = self.history_actions.get(shortcut) if shortcut is not None else None
            if action is not None and not event.altKey:
                event.preventDefault()
                action()
            return
        direction = direction_for_key(event.key)
        if direction is not None:
            event.preventDefault()
            self.on_move(direction)
            return
        action = self.key_actions.get(event.key.lower())
        if action is not None:
            event.preventDefault()
            action()

    def _touchstart(self, event: Any) -> None:
        self._follow(None)
        if event.touches.length != 1:
            self._touch_start = None
            return
        touch = event.touches.item(0)
        self._touch_start = (touch.clientX, touch.clientY)
        self._follow(event.target)

    def _follow(self, target: Any) -> None:
        """Hear the end of the stroke on ``target`` (the element it began on), and no longer on the last one.

        A listener on the target itself is reached even once the target has left the page; the board's own
        listener hears the same event again when it has not, and the first to hear it clears ``_touch_start``."""
        if self._touch_target is not None:
            for name, proxy in self._followers.items():
                self._touch_target.removeEventListener(name, proxy)
        self._touch_target = target
        if target is not None:
            for name, proxy in self._followers.items():
                target.addEventListener(name, proxy)

    def _touchend(self, event: Any) -> None:
        if self._touch_start is None or event.touches.length > 0:
            return
        touch = event.changedTouches.item(0)
        x0, y0 = self._touch_start
        self._touch_start = None
        self._follow(None)
        direction = swipe_direction(touch.clientX - x0, touch.clientY - y0)
        if direction is not None:
            if event.cancelable:  # cancelling an uncancelable touchend is a console error
                event.preventDefault()  # no emulated mouse click after a swipe
            self.on_move(direction)

    def _touchcancel(self, _event: Any) -> None:
        self._touch_start = None
        self._follow(None)

    def _pointerdown(self, event: Any) -> None:
        if event.pointerType == "touch" or event.button != 0:
            return
        if event.target.closest("button, a, input, select"):
            return  # a press on an overlay's button is a click, not a drag (capture would steal it)
        self._pointer_start = (event.pointerId, event.clientX, event.clientY)
        try:
            js_call(self.window, event.currentTarget, "setPointerCapture", event.pointerId)
        except JsCallError:  # capture is a nicety: a drag released outside the board still counts
            pass

    def _pointerup(self, event: Any) -> None:
        start = self._pointer_start
        if start is None or event.pointerType == "touch" or event.pointerId != start[0]:
            return
        self._pointer_start = None
        direction = swipe_direction(event.clientX - start[1], event.clientY - start[2])
        if direction is not None:
            self.on_move(direction)

    def _pointercancel(self, _event: Any) -> None:
        self._pointer_start = None
