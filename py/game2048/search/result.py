"""What a search returns, the same for every algorithm, so the page's readout and the lab need no special cases."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

from ..board import Direction
from . import result_form


@dataclass
class SearchResult:
    """One decision.

    ``move`` is None only on a lost board.  ``depth`` is the deepest iteration
    that completed (player moves); ``score`` is that iteration's root value in
    the evaluation's units; ``nodes`` and ``cutoffs`` count all iterations,
    abandoned ones included, because they cost time too.
    """

    move: Direction | None
    depth: int
    nodes: int
    cutoffs: int
    elapsed_ms: float
    score: float
    algorithm: str = "alphabeta"
    preset: str = "classic"
    think_ms: float | None = None
    rescued: bool = False
    """Alpha-beta only: the move came from the rescue search of a proven loss (``alphabeta``)."""

    @property
    def nodes_per_second(self) -> float:
        return result_form.nodes_per_second(self.nodes, self.elapsed_ms)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, for the worker's answer to the page and the lab's records (``result_form.decision_form``, which
        the page's merge of a split decision builds its answer with too)."""
        return result_form.decision_form(**asdict(self))


class Iteration(NamedTuple):
    """One iteration of a deepening loop, as ``explain`` reports it.

    ``root`` holds (index in DIRECTIONS, value, exact) for each legal move, in
    the order searched.  Alpha-beta: a move searched after a better one fails
    low, and its value is then only an upper bound (fail-hard: exactly the
    best value so far), so ``exact`` is False.  Counters are this iteration's
    own; ``table_hits`` counts transposition-table (alpha-beta) or chance-cache
    (expectimax) hits.  An abandoned iteration (``completed`` False) has no
    move (index -1), value or root.
    """

    depth: int
    completed: bool
    move_index: int
    value: float
    nodes: int
    cutoffs: int
    table_hits: int
    elapsed_ms: float
    root: tuple[tuple[int, float, bool], ...]


class Trace:
    """What one search leaves for ``explain``: its iterations and its node functions, tables still warm.

    ``tree`` is the algorithm's own (alpha-beta's ``_Tree``, expectimax's
    ``_Searcher``); only ``explain`` reads it.
    """

    def __init__(self) -> None:
        self.iterations: list[Iteration] = []
        self.tree: Any = None
        self.win_possible = True
        self.exhausted = False
        """Expectimax: the last iteration reached no leaf at its depth, so a deeper one would repeat it."""

    def record(
        self,
        depth: int,
        completed: bool,
        move_index: int,
        value: float,
        totals: tuple[int, int, int],
        elapsed_ms: float,
        root: tuple[tuple[int, float, bool], ...] = (),
    ) -> None:
        """Append one iteration; ``totals`` are the search's running (nodes, cutoffs, table hits), made its own here."""
        done = self.iterations
        nodes = totals[0] - sum(it.nodes for it in done)
        cutoffs = totals[1] - sum(it.cutoffs for it in done)
        hits = totals[2] - sum(it.table_hits for it in done)
        self.iterations.append(Iteration(depth, completed, move_index, value, nodes, cutoffs, hits, elapsed_ms, root))
