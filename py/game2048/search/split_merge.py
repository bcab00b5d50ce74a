"""The decision of an expectimax search split over workers, merged from the parts each worker answered.

Each worker searches a share of the root's moves (``expectimax.search_part``:
every move to ``SHARED_DEPTH``, then its own share deeper), so the merge takes
the deepest depth at which every legal move has a value: a helper that failed
or answered late costs depth, never the answer.  The page's main thread runs
it (``app.ai.split.AiTeam``), so it is plain Python that MicroPython runs,
like ``board``; its answer is built by ``result_form``, as ``SearchResult``'s.
"""

from ..board import DIRECTIONS
from .result_form import decision_form

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass


def merge(parts: "list[dict[str, Any]]", request: "dict[str, Any]") -> "dict[str, Any] | None":
    """The decision from the parts' answers (``expectimax.search_part``'s), as ``think`` answers; None if they
    cover nothing.

    The depth is the deepest at which every legal move (``moves``, which every part lists) has a value, a
    part's last iteration standing for every deeper one when it was
    ``exhausted``; the move is the best value there, ties to the first in ``board.DIRECTIONS``, as one worker
    keeps them.  The answer is ``SearchResult.to_dict()``'s, built by the same ``result_form.decision_form``
    (``tests/test_search_parts.py`` pins the two together), with ``"ok"`` and the ``"workers"`` that answered.
    """
    values: dict[int, dict[int, float]] = {}
    standing: dict[int, int] = {}  # move -> the depth its values stand from for every deeper one
    legal: set[int] = set()
    deepest = 0
    for part in parts:
        iterations = part.get("iterations") or []
        legal.update(part.get("moves") or [])
        for depth, root in iterations:
            deepest = max(deepest, depth)
            for index, value in root:
                values.setdefault(index, {}).setdefault(depth, value)
        if part.get("exhausted") and iterations:
            depth, root = iterations[-1]
            for index, _ in root:
                standing[index] = min(standing.get(index, depth), depth)
    if not legal:
        return None

    def value_at(index: int, depth: int) -> "float | None":
        known = values.get(index, {})
        if depth in known:
            return known[depth]
        if index in standing and standing[index] <= depth:
            return known[standing[index]]
        return None

    chosen = None
    for depth in range(deepest, 0, -1):
        found = []
        for index in sorted(legal):
            value = value_at(index, depth)
            if value is None:
                break
            found.append((index, value))
        else:
            chosen = depth, found
            break
    if chosen is None:
        return None
    depth, found = chosen
    best_index, best_value = found[0]
    for index, value in found[1:]:
        if value > best_value:
            best_index, best_value = index, value
    nodes = sum(int(part.get("nodes") or 0) for part in parts)
    timed = request.get("depth") is None and request.get("think_ms")
    answer: dict[str, Any] = {"ok": True}
    answer.update(
        decision_form(
            DIRECTIONS[best_index],
            depth,
            nodes,
            sum(int(part.get("cutoffs") or 0) for part in parts),
            max(float(part.get("elapsed_ms") or 0.0) for part in parts),
            best_value,
            "expectimax",
            request.get("preset"),
            float(request["think_ms"]) if timed else None,
            False,
        )
    )
    answer["workers"] = len(parts)
    return answer
