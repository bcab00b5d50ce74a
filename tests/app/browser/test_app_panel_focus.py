"""Where the keyboard goes after a pointer uses a control: back to the board (``KeysBack``)."""

from __future__ import annotations

from typing import Any

from app.browser.panel_focus import KeysBack, use_events
from app.browser.wiring import Wiring


class Element:
    """A DOM element as far as ``KeysBack`` reads it."""

    def __init__(self, document: FakeDocument, tag: str, kind: str = "", parent: Element | None = None) -> None:
        self.document, self.tagName, self.type, self.parent = document, tag, kind, parent
        self.control: Element | None = None  # a label's input
        self.modal = False

    def closest(self, selector: str) -> Element | None:
        node: Element | None = self
        while node is not None:
            if "aria-modal" in selector and node.modal:
                return node
            if "button" in selector and node.tagName in ("BUTTON", "INPUT", "SELECT", "SUMMARY", "LABEL"):
                return node
            node = node.parent
        return None

    def isSameNode(self, other: Any) -> bool:  # noqa: N802 (the DOM's name)
        return self is other

    def focus(self) -> None:
        self.document.activeElement = self


class Event:
    def __init__(self, kind: str, target: Element) -> None:
        self.type, self.target = kind, target


class FakeDocument:
    def __init__(self) -> None:
        self.listeners: dict[str, list[Any]] = {}
        self.body = Element(self, "BODY")
        self.board = Element(self, "DIV")
        self.activeElement: Element = self.body

    def addEventListener(self, kind: str, handler: Any) -> None:  # noqa: N802
        self.listeners.setdefault(kind, []).append(handler)

    def getElementById(self, name: str) -> Element | None:  # noqa: N802
        return self.board if name == "board" else None

    def fire(self, kind: str, target: Element) -> None:
        for handler in self.listeners.get(kind, []):
            handler(Event(kind, target))

    def click(self, target: Element, change: bool = False, pointer: bool = True) -> None:
        """A person's click: pointer down (the control takes the focus), click, and a change if it changed."""
        if pointer:
            self.fire("pointerdown", target)
        (target.control or target).focus()
        self.fire("click", target)
        if change:
            self.fire("change", target.control or target)


def _page() -> FakeDocument:
    document = FakeDocument()
    KeysBack(document, Wiring(lambda f: f))
    return document


def test_a_button_a_checkbox_a_slider_and_a_select_hand_the_keys_back_after_a_pointer_uses_them():
    document = _page()
    for tag, kind, change in (("BUTTON", "", False), ("INPUT", "checkbox", True), ("INPUT", "range", False)):
        control = Element(document, tag, kind)
        document.click(control, change=change)
        assert document.activeElement is document.board, (tag, kind)
    select = Element(document, "SELECT")
    document.fire("pointerdown", select)
    select.focus()
    document.fire("click", select)  # its list opens: the focus stays until an option is chosen
    assert document.activeElement is select
    document.fire("change", select)
    assert document.activeElement is document.board


def test_a_label_stands_for_its_checkbox():
    document = _page()
    box = Element(document, "INPUT", "checkbox")
    label = Element(document, "LABEL")
    label.control = box
    document.click(label, change=True)
    assert document.activeElement is document.board


def test_the_keyboard_a_text_field_a_modal_dialog_and_a_handler_that_moved_the_focus_keep_it():
    document = _page()
    button = Element(document, "BUTTON")
    document.click(button, pointer=False)  # Enter or Space on a button reached with Tab
    assert document.activeElement is button
    field = Element(document, "INPUT", "text")
    document.click(field)
    assert document.activeElement is field
    dialog = Element(document, "SECTION")
    dialog.modal = True
    inside = Element(document, "BUTTON", parent=dialog)
    document.click(inside)
    assert document.activeElement is inside
    heading = Element(document, "H2")
    opener = Element(document, "BUTTON")
    document.fire("pointerdown", opener)
    heading.focus()  # the button's own handler opened a panel and focused its heading
    document.fire("click", opener)
    assert document.activeElement is heading


def test_what_ends_a_pointer_s_use_of_each_control():
    document = FakeDocument()
    assert use_events(Element(document, "BUTTON")) == ("click",)
    assert use_events(Element(document, "SUMMARY")) == ("click",)
    assert use_events(Element(document, "INPUT", "checkbox")) == ("change",)
    assert use_events(Element(document, "SELECT")) == ("change",)
    assert use_events(Element(document, "INPUT", "range")) == ("click", "change")
    assert use_events(Element(document, "INPUT", "text")) == ()
    assert use_events(Element(document, "INPUT", "file")) == ()
