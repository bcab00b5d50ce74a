"""The status line's words for a hint and for the move that follows it.

A hint is true only for the board it was asked on.  The move that follows it
(an AI step, an autoplay move, the player's own) takes its place on the status
line, with the depth the AI's move was searched to; when that move is not the
hint's, one clause says why it may differ: a deeper or shallower search, other
settings or weights, a rescue search, or the player's own choice.  A board
changed any other way (undo, redo, a new game, another game, the editor)
withdraws the hint in words.  Plain functions and two small classes, so CPython
tests read every sentence; ``AiControls`` (``app.ai.controls``) says when.
"""

from app.ai.panel import RESCUED
from app.ai.settings import ALGORITHMS
from app.board.play import HUMAN

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from typing import Any
except ImportError:
    pass

WITHDRAWN = {
    "undo": "a move was taken back",
    "redo": "a move was played again",
    "restart": "a new game began",
    "switch": "another game is on the board",
    "edit": "the position is being edited",
}
"""Why a hint no longer holds, by what changed the board (the session's event, or the editor)."""


class Decision:
    """What the words need of one decision: its move, its depth, and the search that chose it."""

    def __init__(self, answer: "dict[str, Any]", request: "dict[str, Any]") -> None:
        self.move = str(answer.get("move"))
        self.depth = int(answer.get("depth") or 0)
        self.rescued = bool(answer.get("rescued"))
        self.algorithm = str(answer.get("algorithm") or request.get("algorithm"))
        self.preset = str(answer.get("preset") or request.get("preset"))
        self.weights = dict(request.get("weights") or {})

    def depth_text(self) -> str:
        return f"depth {self.depth}{RESCUED if self.rescued else ''}"

    def search_text(self) -> str:
        return f"{ALGORITHMS.get(self.algorithm, self.algorithm)} with {self.preset}"


class ShownHint:
    """The hint on screen and the board it is for, until the board changes (``take``)."""

    def __init__(self) -> None:
        self.hint: Decision | None = None
        self._for: Any = None  # (board, game) the hint was asked on

    def show(self, hint: Decision, board: int, game: Any) -> str:
        """Keep ``hint`` for ``board`` of ``game``; the status line's text for it."""
        self.hint, self._for = hint, (board, game)
        return hint_text(hint)

    def take(self, board: "int | None" = None, game: Any = None) -> "Decision | None":
        """The hint, forgotten now: the board it was for is left (``board`` given: only if it was for that one)."""
        hint, self.hint = self.hint, None
        if hint is None or board is None:
            return hint
        return hint if self._for[0] == board and self._for[1] is game else None

    def after(self, event: str, intent: Any = None) -> "str | None":
        """What the status says when the session's ``event`` (of ``intent``), or the editor's "edit", changed the
        board of the hint shown: the player's move beside the hint, or the hint withdrawn; None when no hint
        was shown, or for an event that leaves the board (an AI move says itself: ``ai_move_text``)."""
        if event == "move" and intent.source == HUMAN:
            hint = self.take()
            if hint is None or intent.kind != "move":  # a redo
                return None if hint is None else withdrawn_text(hint, intent.kind)
            return player_move_text(str(intent.direction), hint)
        hint = self.take() if event in WITHDRAWN else None
        return None if hint is None else withdrawn_text(hint, event)


def hint_text(hint: Decision) -> str:
    """A hint on the status line: "Hint: up (depth 5)"."""
    return f"Hint: {hint.move} ({hint.depth_text()})"


def ai_move_text(by: str, played: Decision, hint: "Decision | None") -> str:
    """An AI move (``by`` "AI step" or "Autoplay") with its depth, and what it was to the hint shown for its board."""
    text = f"{by}: {played.move} ({played.depth_text()})"
    if hint is None:
        return text
    if hint.move == played.move:
        return f"{text}, the hint\u2019s move"
    return f"{text}; {why_it_differs(played, hint)}"


def why_it_differs(played: Decision, hint: Decision) -> str:
    """One clause: why the AI played ``played`` on the board where it hinted ``hint``, another move."""
    was = f"the hint\u2019s {hint.move} ({hint.depth_text()})"
    if (played.algorithm, played.preset) != (hint.algorithm, hint.preset):
        return f"{played.search_text()} chose it, where {was} came from {hint.search_text()}"
    if played.weights != hint.weights:
        return f"searched with other weights than {was}"
    if played.rescued and not hint.rescued:
        return f"the search proved a loss and chose against 2s only, unlike {was}"
    if played.depth > hint.depth:
        return f"a deeper search (depth {played.depth}) changed its mind from {was}"
    if played.depth < hint.depth:
        return f"a shallower search (depth {played.depth}, with less time) chose otherwise than {was}"
    return f"a second search as deep chose otherwise than {was}"


def player_move_text(move: str, hint: Decision) -> str:
    """The player's own move on the board of a hint: the hint's, or another move of their choice."""
    if move == hint.move:
        return f"You played {move}, the hint\u2019s move ({hint.depth_text()})"
    return f"You played {move}; the hint was {hint.move} ({hint.depth_text()}): you chose another move"


def withdrawn_text(hint: Decision, why: str) -> str:
    """A hint whose board changed otherwise than by a move (``why``: a key of ``WITHDRAWN``)."""
    return f"Hint {hint.move} withdrawn: {WITHDRAWN.get(why, 'the board changed')}"
