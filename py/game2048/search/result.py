"""What a search returns, the same for every algorithm, so the page's readout and the lab need no special cases."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ..board import Direction


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
        return self.nodes / (self.elapsed_ms / 1000.0) if self.elapsed_ms > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, for the worker's answer to the page and the lab's records."""
        data = asdict(self)
        data["move"] = self.move.value if self.move is not None else None
        data["nodes_per_second"] = self.nodes_per_second
        return data
