"""Alpha-beta beside expectimax on one board, with one preset and one depth: each one's move, and where they part.

With the same evaluation and the same depth, the two searches differ in one
thing only: what they make of the tile the game places after each move.
Alpha-beta (minimax) assumes the computer's worst reply, the placement its
minimiser picks among the most annoying ones it keeps (ovolve's reduction,
docs/alphabeta.md); expectimax weighs every 2 and 4 in every empty cell by its
probability.  ``compare`` runs both (``explanation.explain_every_move``, the
searches' own trees read again) and says in one sentence where they part: the
reply alpha-beta assumed after the move expectimax prefers, what that tile
weighs in expectimax's average, and how each then ranks the two moves.

Alpha-beta runs without its rescue search (which changes the move only once
it has proved a loss), so both are the plain searches.  The page's explorer
asks for it through the worker's ``compare``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..board import Board, to_rows
from ..values import format_value
from .clock import Clock
from .explanation import explain_every_move
from .options import SearchOptions

COMPARE_DEPTH = 3
"""The depth both searches go to when the caller names none: a few milliseconds for each, and deep enough for
the computer's reply to matter (at depth 1 neither looks at it)."""
COMPARE_ANALYSIS_MS = 1000.0
"""Each search's time for reading its tree again (exact values, lines, chance nodes) after deciding."""
ALGORITHMS = ("alphabeta", "expectimax")


def compare(
    board: Board,
    preset: str = "classic",
    depth: int | None = COMPARE_DEPTH,
    think_ms: float = 100,
    weights: Mapping[str, float] | None = None,
    *,
    analysis_ms: float = COMPARE_ANALYSIS_MS,
    clock: Clock | None = None,
) -> dict[str, Any]:
    """Both searches on ``board`` with ``preset`` (and ``weights``) to ``depth`` (``None``: each for ``think_ms``).

    The answer: ``alphabeta`` and ``expectimax`` (each its move, value,
    depth, nodes and, per move, its value and what it makes of the tile:
    alpha-beta's assumed ``reply``, expectimax's ``tiles`` averaged), ``same``
    (one move), ``parting`` (the facts the sentence states) and ``sentence``.
    """
    sides = {}
    for algorithm in ALGORITHMS:
        rescue = False if algorithm == "alphabeta" else None
        options = SearchOptions(algorithm, think_ms, depth, preset, weights, rescue=rescue)
        sides[algorithm] = _side(explain_every_move(board, options, analysis_ms=analysis_ms, clock=clock))
    ab, ex = sides["alphabeta"], sides["expectimax"]
    parting = _parting(ab, ex)
    return {
        "rows": to_rows(board),
        "preset": preset,
        "depth": depth,
        "think_ms": None if depth is not None else float(think_ms),
        "alphabeta": ab,
        "expectimax": ex,
        "same": ab["move"] == ex["move"],
        "parting": parting,
        "sentence": _sentence(ab, ex, parting),
    }


def _side(explained: dict[str, Any]) -> dict[str, Any]:
    """One search's decision and, per move, its value and the tile it reckons with."""
    decision = explained["decision"]
    moves = []
    for entry in explained["root"]:
        move: dict[str, Any] = {k: entry[k] for k in ("move", "legal", "value", "exact", "chosen")}
        if decision["algorithm"] == "alphabeta":
            move["reply"] = _reply(entry.get("line"))
        else:
            chance = entry.get("chance")
            move["cells"] = len(chance["cells"]) if chance else None
            move["chance"] = chance["cells"] if chance else None
        moves.append(move)
    return {
        "algorithm": decision["algorithm"],
        "move": decision["move"],
        "value": decision["score"] if decision["move"] is not None else None,
        "depth": decision["depth"],
        "nodes": decision["nodes"],
        "elapsed_ms": decision["elapsed_ms"],
        "moves": moves,
        "unfinished": explained["analysis"]["unfinished"],
    }


def _reply(line: dict[str, Any] | None) -> dict[str, Any] | None:
    """The computer's first tile on alpha-beta's line after a move: the reply its minimiser assumed."""
    plies = (line or {}).get("plies") or []
    if len(plies) < 2 or plies[1]["kind"] != "place":
        return None
    return {"cell": plies[1]["cell"], "tile": plies[1]["tile"], "label": plies[1]["label"]}


def _by_move(side: dict[str, Any], move: str) -> dict[str, Any]:
    return next(m for m in side["moves"] if m["move"] == move)


def _parting(ab: dict[str, Any], ex: dict[str, Any]) -> dict[str, Any] | None:
    """Where the searches part: the move expectimax prefers (``move``), and against it alpha-beta's (``other``),
    each valued by both; the reply alpha-beta assumed after ``move`` and what expectimax weighed for that tile."""
    if ab["move"] is None or ex["move"] is None:
        return None
    move, other = ex["move"], ab["move"]
    mine_ab, mine_ex = _by_move(ab, move), _by_move(ex, move)
    theirs_ab, theirs_ex = _by_move(ab, other), _by_move(ex, other)
    reply = mine_ab.get("reply")
    weighed = None
    if reply is not None and mine_ex.get("chance"):
        cell = next((c for c in mine_ex["chance"] if c["cell"] == reply["cell"]), None)
        if cell is not None:
            two = reply["tile"] == 2
            weighed = {
                "probability": cell["p_two"] if two else cell["p_four"],
                "value": cell["two"] if two else cell["four"],
                "tiles": 2 * len(mine_ex["chance"]),
            }
    return {
        "move": move,
        "other": other,
        "alphabeta": {"move": mine_ab["value"], "other": theirs_ab["value"], "exact": mine_ab["exact"]},
        "expectimax": {"move": mine_ex["value"], "other": theirs_ex["value"]},
        "reply": reply,
        "weighed": weighed,
    }


def _sentence(ab: dict[str, Any], ex: dict[str, Any], parting: dict[str, Any] | None) -> str:
    """Where the two part, in one sentence a person can check against the numbers beside it."""
    if parting is None:
        return "No move is legal: neither search has anything to choose."
    move, other = parting["move"], parting["other"]
    reply, weighed = parting["reply"], parting["weighed"]
    a, e = parting["alphabeta"], parting["expectimax"]
    if reply is None:
        return (
            f"Both play {move}: at depth {ab['depth']} alpha-beta meets no tile of the computer's after it, "
            "so the two score the same boards."
            if move == other
            else f"They part over {move}: alpha-beta values it at {_at(a['move'], a['exact'])} against "
            f"{other}'s {format_value(a['other'])}, expectimax at {format_value(e['move'])} against "
            f"{format_value(e['other'])}."
        )
    tile = f"a {reply['label']}"
    if move == other:
        average = f" averaged over the {weighed['tiles']} tiles the game may place" if weighed else ""
        return (
            f"They agree on {move}: alpha-beta values it at {_at(a['move'], a['exact'])} assuming the computer's "
            f"worst reply, {tile}, and expectimax at {format_value(e['move'])}{average}."
        )
    if weighed is None:
        weighs = "weighs every tile by its probability"
    else:
        weighs = (
            f"values {move} after that tile at {format_value(weighed['value'])} but gives it a probability of "
            f"{weighed['probability']:.3f}, one of the {weighed['tiles']} tiles the game may place,"
        )
    return (
        f"They part over {move}: alpha-beta assumes the computer answers it with its worst reply among the most "
        f"annoying placements, {tile}, and so values {move} at {_at(a['move'], a['exact'])} against {other}'s "
        f"{format_value(a['other'])}; expectimax {weighs} and on average values {move} at "
        f"{format_value(e['move'])} against {other}'s {format_value(e['other'])}."
    )


def _at(value: float | None, exact: bool) -> str:
    return format_value(value) if exact else f"at most {format_value(value)}"


__all__ = ["COMPARE_ANALYSIS_MS", "COMPARE_DEPTH", "compare"]
