"""The "Reduce motion" checkbox: applied to the page and the session's pacing, saved beside the AI settings."""

from __future__ import annotations

from app.board.motion import SETTING, MotionToggle, saved_choice
from app.browser.storage import MemoryBackend, Storage


class Element:
    def __init__(self) -> None:
        self.attributes: dict[str, str] = {}
        self.listeners: dict[str, list] = {}
        self.checked = False

    def setAttribute(self, name: str, value: str) -> None:  # noqa: N802 - the DOM's names
        self.attributes[name] = value

    def removeAttribute(self, name: str) -> None:  # noqa: N802
        self.attributes.pop(name, None)

    def addEventListener(self, event: str, handler) -> None:  # noqa: N802
        self.listeners.setdefault(event, []).append(handler)

    def click(self) -> None:
        self.checked = not self.checked
        for handler in self.listeners.get("change", []):
            handler(None)


class Document:
    def __init__(self) -> None:
        self.documentElement = Element()
        self.checkbox = Element()

    def getElementById(self, element_id: str):  # noqa: N802
        return self.checkbox if element_id == "reduce-motion" else None


def _toggle(storage: Storage, system_reduces: bool = False) -> tuple[MotionToggle, Document, list[bool]]:
    document, paced = Document(), []
    toggle = MotionToggle(document, storage, lambda f: f, paced.append, system_reduces)
    return toggle, document, paced


def test_the_checkbox_turns_motion_off_saves_it_and_keeps_the_ai_settings():
    storage = Storage(MemoryBackend())
    storage.save_settings({"ai": {"think_ms": 200}})
    toggle, document, paced = _toggle(storage)
    assert paced == [False] and "data-motion" not in document.documentElement.attributes
    document.checkbox.click()
    assert toggle.reduced and paced[-1] is True
    assert document.documentElement.attributes["data-motion"] == "reduced"
    assert storage.settings() == {"ai": {"think_ms": 200}, SETTING: True}
    document.checkbox.click()
    assert paced[-1] is False and "data-motion" not in document.documentElement.attributes
    assert storage.settings()[SETTING] is False


def test_a_saved_choice_is_restored_and_the_system_preference_always_reduces():
    storage = Storage(MemoryBackend())
    storage.save_settings({SETTING: True})
    _, document, paced = _toggle(storage)
    assert document.checkbox.checked and paced == [True]
    toggle, document, paced = _toggle(Storage(MemoryBackend()), system_reduces=True)
    assert not document.checkbox.checked and toggle.reduced and paced == [True]


def test_only_true_counts_as_a_choice():
    assert [saved_choice({SETTING: v}) for v in (True, "yes", 1, None)] == [True, False, False, False]
    assert saved_choice({}) is False
