"""Fakes of the page's parts for CPython tests of the glue."""

from __future__ import annotations

from typing import Any

from game2048.board import to_rows


class FakeView:
    """Records what the session asked the view to draw; keeps a copy of the settled board."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.settled_rows: list[list[int]] | None = None
        self.settled = True
        self.overlays: tuple[bool, bool] = (False, False)
        self.notices: list[str] = []  # every notice shown
        self.notice: tuple[str, bool] | None = None  # (text, error) of the notice on screen
        self.action = None
        self.kept = 0
        self.announced: list[str] = []

    def render(self, game):
        self.calls.append("render")
        self.settled_rows = to_rows(game.board)

    def slide(self, outcome):
        self.calls.append(f"slide:{outcome.direction}")

    def settle(self, game, outcome):
        self.calls.append("settle")
        self.settled_rows = to_rows(game.board)

    def show_score(self, score, best, added=0):
        self.score, self.best = score, best

    def show_overlays(self, game):
        self.overlays = (game.paused_at_win, game.over)

    def set_settled(self, settled):
        self.settled = settled

    def show_notice(self, text, error=False, action=None):
        self.notices.append(text)
        self.action = action
        self.notice = (text, error)

    def end_game_notice(self):
        if self.notice is not None and not self.notice[1]:
            self.notice = None

    def show_kept_games(self, count):
        self.kept = count

    def show_history(self, game):
        self.history = (len(game.history), len(game.undone), game.undos)

    def announce(self, text):
        self.announced.append(text)


class GuardedOutcome:
    """What ``guarded.js``'s ``guardedCall`` returns: ``ok``, and ``value`` or ``error``."""

    def __init__(self, ok: bool, value: Any = None, error: str | None = None) -> None:
        self.ok, self.value, self.error = ok, value, error


def guarded_call(target: Any, name: str, *args: Any) -> GuardedOutcome:
    """``guarded.js``'s ``guardedCall`` in Python, for fake windows: a call that raises becomes an outcome."""
    try:
        member = getattr(target, name)
        return GuardedOutcome(True, member(*args) if callable(member) else member)
    except Exception as exc:  # noqa: BLE001 - what JavaScript's catch would catch
        return GuardedOutcome(False, error=f"{type(exc).__name__}: {exc}")


class FakeNode:
    """A DOM element for event tests: listeners by identity (as the browser keeps them), events bubbling through
    the parents the node has when the event is dispatched, so one removed from the page bubbles to nothing."""

    def __init__(self, name: str, parent: FakeNode | None = None) -> None:
        self.name = name
        self.parent = parent
        self.listeners: dict[str, list[Any]] = {}

    def addEventListener(self, kind: str, listener: Any) -> None:  # noqa: N802 - the DOM's name
        held = self.listeners.setdefault(kind, [])
        if not any(known is listener for known in held):
            held.append(listener)

    def removeEventListener(self, kind: str, listener: Any) -> None:  # noqa: N802 - the DOM's name
        self.listeners[kind] = [known for known in self.listeners.get(kind, []) if known is not listener]

    def remove(self) -> None:
        self.parent = None

    def dispatch(self, event: Any) -> None:
        event.target = self
        node: FakeNode | None = self
        while node is not None:
            event.currentTarget = node
            for listener in list(node.listeners.get(event.type, [])):
                listener(event)
            node = node.parent

    def closest(self, _selector: str) -> None:
        return None


class FakeTouchList:
    """``TouchList``: ``length`` and ``item(i)`` of touches with ``clientX`` and ``clientY``."""

    def __init__(self, *points: tuple[float, float]) -> None:
        self.points = points
        self.length = len(points)

    def item(self, index: int) -> Any:
        x, y = self.points[index]
        return type("Touch", (), {"clientX": x, "clientY": y})()


class FakeTouchEvent:
    """A touch event: the fingers still down (``touches``), those this event is about, and cancelling."""

    def __init__(self, kind: str, touches: FakeTouchList, changed: FakeTouchList, cancelable: bool = True) -> None:
        self.type = kind
        self.touches = touches
        self.changedTouches = changed
        self.cancelable = cancelable
        self.cancelled = False
        self.target: Any = None
        self.currentTarget: Any = None

    def preventDefault(self) -> None:  # noqa: N802 - the DOM's name
        if self.cancelable:
            self.cancelled = True


class FakeClock:
    """``app.browser.clock``'s ``monotonic`` and ``sleep`` in a test: each sleep moves the clock on at once."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        import asyncio

        self.now += seconds
        await asyncio.sleep(0)
