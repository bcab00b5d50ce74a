"""The "Reduce motion" checkbox: animations off on request, saved with the settings.

The system's ``prefers-reduced-motion`` is honoured by CSS alone (index.html's style);
this checkbox turns the same rules on for anyone, through
``<html data-motion="reduced">``, and keeps the choice under ``"reduce_motion"``
in the saved settings (beside the AI's ``"ai"``).  With less motion the session
does not wait for a slide either: the board settles on the next turn.
"""

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

from app.browser.wiring import Wiring

SETTING = "reduce_motion"


def saved_choice(settings: dict[str, Any]) -> bool:
    """The saved choice; anything but ``true`` means "follow the system"."""
    return settings.get(SETTING) is True


class MotionToggle:
    """Binds ``#reduce-motion`` to the page's motion attribute, the session's pacing and the settings."""

    def __init__(
        self,
        document: Any,
        storage: Any,
        create_proxy: Callable[[Callable[..., Any]], Any],
        on_change: Callable[[bool], None],
        system_reduces: bool = False,
    ) -> None:
        self.document = document
        self.storage = storage
        self.on_change = on_change
        self.system_reduces = system_reduces
        self.checkbox = document.getElementById("reduce-motion")
        self._wiring = Wiring(create_proxy)
        self.chosen = saved_choice(storage.settings())
        self.checkbox.checked = self.chosen
        self._wiring.listen(self.checkbox, "change", lambda _e: self.choose(bool(self.checkbox.checked)))
        self._apply()

    @property
    def reduced(self) -> bool:
        return self.chosen or self.system_reduces

    def choose(self, reduce: bool) -> None:
        self.chosen = reduce
        settings = self.storage.settings()
        settings[SETTING] = reduce
        self.storage.save_settings(settings)
        self._apply()

    def _apply(self) -> None:
        root = self.document.documentElement
        if self.chosen:
            root.setAttribute("data-motion", "reduced")
        else:
            root.removeAttribute("data-motion")
        self.on_change(self.reduced)
