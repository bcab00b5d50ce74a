"""The AI controls' side of the search explorer: decisions asked with their explanation, or handed over after.

While the explorer is open, a decision is asked of the worker's ``explain``
and drawn there as it comes; what became of it (played, shown, not played and
why) is said under it.  A decision shown or played while the explorer was
closed, or not built yet (``page`` builds it at its first opening), is handed
to it: the explorer explains the last one when it opens (``Explorer.remember``),
so opening it after a hint explains that hint rather than asking for one.
"""

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from typing import Any
except ImportError:
    pass


class ExplorerLink:
    """The explorer (None until it is built) and the last decision it was not asked to explain, kept until then."""

    def __init__(self) -> None:
        self.explorer: Any = None  # app.explorer.panel.Explorer
        self._untold: Any = None

    def attach(self, explorer: Any) -> None:
        """The explorer is built: it is handed the last decision it did not explain."""
        self.explorer, untold, self._untold = explorer, self._untold, None
        if explorer is not None and untold is not None:
            explorer.remember(*untold)

    def explaining(self) -> bool:
        """Whether decisions are asked with their explanation now (the explorer is open)."""
        return self.explorer is not None and self.explorer.wants_explanation()

    async def ask(self, client: Any, request: "dict[str, Any]", board: int) -> "dict[str, Any]":
        """One decision for ``request`` on ``board``: explained and drawn while the explorer is open."""
        if not self.explaining():
            return await client.think(request)
        explorer = self.explorer
        answer = await client.explain(explorer.request_for(request))
        if answer.get("ok"):
            explorer.show(answer, request, board)
        return answer

    def fate(self, text: str, answer: Any = None, request: Any = None, board: int = 0) -> None:
        """Say under the explained board what became of the decision (played, shown, or not played and why);
        a decision shown or played without its explanation (``answer``, asked with ``request`` on ``board``)
        is handed over instead, explained when the explorer opens."""
        untold = unexplained(answer, request, board, text)
        if untold is None:
            if self.explaining():
                self.explorer.fate(text)
        elif self.explorer is None:
            self._untold = untold
        else:
            self.explorer.remember(*untold)


def unexplained(answer: Any, request: Any, board: int, fate: str) -> "tuple[Any, ...] | None":
    """What the explorer needs to explain a decision it was not asked for: the request at the depth the decision
    reached (the explanation repeats its search), the board, the decision's fate and move; None for no decision,
    one without a move, or one that came with its explanation."""
    if answer is None or "explanation" in answer or answer.get("move") is None:
        return None
    return dict(request, depth=int(answer.get("depth") or 0) or None), board, fate, answer.get("move")
