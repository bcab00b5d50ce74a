"""Where the keyboard goes: to an opened panel's heading, and back to the board after a close or a click.

A panel opened by a key or a button scrolls into view with the focus on its
heading (``tabindex="-1"``), so a screen reader reads where the player is and
the page shows it; a closed panel gives the focus back to the board, where the
arrow keys play.  Focusing scrolls only when the heading is out of view, so a
panel already beside the board (the wide layout) leaves the page still.  A
control used with the mouse or a finger hands the keys back to the board too
(``KeysBack``, once for the whole page); one reached with Tab keeps them.
"""

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass

BOARD_ID = "board"


def focus_heading(heading: Any) -> None:
    """Bring an opened panel's ``heading`` into view with the focus."""
    if heading is not None:
        heading.focus()


def focus_board(document: Any) -> None:
    """Give the focus back to the board (a closed panel, a setting changed with the mouse)."""
    board = document.getElementById(BOARD_ID)
    if board is not None:
        board.focus()


CONTROLS = "button, input, select, summary, label"
"""What a pointer can use on the page (a label stands for its control)."""
KEYS_STAY = "[aria-modal='true'], #editor-bar"
"""Where a control keeps the keys after a click: a modal dialog (the replay) and the position editor, which
have keys of their own."""
ON_CHANGE = frozenset({"checkbox", "radio"})
"""Input types used by their ``change`` (after a label's click has focused them); a select is too."""


def use_events(control: Any) -> tuple[str, ...]:
    """The events that end a pointer's use of ``control``: ``()`` when it keeps the keys (a text
    field, a file picker).

    A button or a summary is used by its click; a checkbox, a radio or a select by its change (a select's
    list stays open until then); a slider by either, since a click at its current value changes nothing.
    """
    tag = str(getattr(control, "tagName", "") or "")
    kind = str(getattr(control, "type", "") or "").lower()
    if tag == "SELECT" or (tag == "INPUT" and kind in ON_CHANGE):
        return ("change",)
    if tag == "INPUT" and kind == "range":
        return ("click", "change")
    if tag == "INPUT" and kind in ("button", "submit", "reset"):
        return ("click",)
    if tag in ("BUTTON", "SUMMARY"):
        return ("click",)
    return ()


class KeysBack:
    """After a mouse, pen or finger uses a control anywhere on the page, the focus goes back to the board.

    So the arrows play again after any click: on a setting, a step button, a checkbox.  A control reached
    with Tab keeps the focus and its own keys (no pointer went down on it); text fields, controls inside
    ``KEYS_STAY`` and a control whose own handler sent the focus elsewhere (a panel's heading) keep it too.
    """

    def __init__(self, document: Any, wiring: Any) -> None:
        """``wiring`` is an ``app.browser.wiring.Wiring`` whose listeners live as long as the page."""
        self.document = document
        self.wiring = wiring  # kept: its proxies must live as long as the listeners
        self.pointed: Any = None  # the control a pointer went down on, until its use
        wiring.listen(document, "pointerdown", self._pointer_down)
        for event in ("click", "change"):
            wiring.listen(document, event, self._used)

    def _control_of(self, target: Any) -> Any:
        closest = getattr(target, "closest", None)
        if closest is None:
            return None
        control = target.closest(CONTROLS)
        if control and str(getattr(control, "tagName", "")) == "LABEL":
            control = control.control  # the label's input, or null for a label of nothing
        return control if control else None

    def _pointer_down(self, event: Any) -> None:
        self.pointed = self._control_of(event.target)

    def _used(self, event: Any) -> None:
        control = self.pointed
        used = self._control_of(event.target)
        if control is None or used is None or not control.isSameNode(used):  # a page's proxies are not identical
            return
        if str(event.type) not in use_events(control) or control.closest(KEYS_STAY):
            return
        self.pointed = None
        active = self.document.activeElement
        if active and not active.isSameNode(control) and str(getattr(active, "tagName", "")) != "BODY":
            return  # the control's own handler sent the focus somewhere on purpose
        focus_board(self.document)
