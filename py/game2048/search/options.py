"""What a decision is asked for, checked once: the algorithm, its evaluation, a time or a depth, its options.

Like python-chess's ``Limit``: one small frozen object that ``best_move``, the
page's worker and the lab all describe a search with, so a default or a check
is written once.  Making one raises ``ValueError`` with a message that says
what is accepted; the evaluation's own names (presets, weights) are checked by
``evaluator()``, which builds it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..board import Board
from ..evaluation import presets

ALGORITHMS = ("alphabeta", "expectimax")
DEFAULT_PRESETS = {"alphabeta": "classic", "expectimax": "rows"}
"""Each algorithm's own evaluation when the caller names none."""
DEFAULT_RESCUE = {"alphabeta": True, "expectimax": False}
"""Whether each algorithm runs alpha-beta's rescue search when the caller says nothing (it wins more games)."""
ALPHABETA_ONLY = {"reductions": "late-move reductions are", "rescue": "the rescue search is"}


def rescues(algorithm: str, rescue: bool | None) -> bool:
    """Whether a search of ``algorithm`` asked for ``rescue`` (``None``: the algorithm's default) runs the rescue."""
    return DEFAULT_RESCUE.get(algorithm, False) if rescue is None else rescue


@dataclass(frozen=True)
class SearchOptions:
    """One decision's settings.

    ``depth=None`` searches as deep as ``think_ms`` allows; ``depth=N`` exactly
    N player moves, untimed, the same on every machine.  ``preset`` and
    ``weights`` pick the evaluation (``None``: the algorithm's own preset, its
    default weights).  ``reductions`` switches alpha-beta's late-move
    reductions on; ``rescue`` is alpha-beta's rescue search of a proven loss
    (``None``: the algorithm's default, ``rescues`` says which).
    """

    algorithm: str = "alphabeta"
    think_ms: float = 100
    depth: int | None = None
    preset: str | None = None
    weights: Mapping[str, float] | None = None
    reductions: bool = False
    rescue: bool | None = None

    def __post_init__(self) -> None:
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {self.algorithm!r}; known algorithms: {list(ALGORITHMS)}")
        depth, think_ms = self.depth, self.think_ms
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
            raise ValueError(
                f"depth is a whole number of player moves, at least 1, or None for a timed search; got {depth!r}"
            )
        if depth is None and (
            isinstance(think_ms, bool) or not isinstance(think_ms, (int, float)) or not 0 < think_ms < math.inf
        ):
            raise ValueError(f"think_ms is a positive number of milliseconds, got {think_ms!r}")
        if not isinstance(self.reductions, bool):
            raise ValueError(f"reductions is True or False, got {self.reductions!r}")
        if self.rescue is not None and not isinstance(self.rescue, bool):
            raise ValueError(f"rescue is True, False or None (the algorithm's default), got {self.rescue!r}")
        for name, what in ALPHABETA_ONLY.items():
            if getattr(self, name) and self.algorithm != "alphabeta":
                raise ValueError(f"{what} an alpha-beta option; {self.algorithm} has none")
        if self.weights is not None:
            _check_weights(self.weights)

    @property
    def preset_name(self) -> str:
        return DEFAULT_PRESETS[self.algorithm] if self.preset is None else self.preset

    @property
    def rescues(self) -> bool:
        """Whether the rescue search runs: ``rescue``, or the algorithm's default when it is ``None``."""
        return rescues(self.algorithm, self.rescue)

    @property
    def timed(self) -> bool:
        return self.depth is None

    def evaluator(self) -> Callable[[Board], float]:
        """The evaluation these options name; ``ValueError`` for an unknown preset or weight name."""
        return presets.get(self.preset_name).make(self.weights)


def _check_weights(weights: Mapping[str, float]) -> None:
    """Refuse weights that are not a mapping of names to finite numbers (the preset refuses unknown names)."""
    if not isinstance(weights, Mapping):
        raise ValueError(f"weights are a mapping of weight names to numbers, got {weights!r}")
    for key, value in weights.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"weight {key!r} must be a finite number, got {value!r}")
