"""Named evaluation presets: a set of features, their default weights, and a factory.

Every search takes its evaluation from here, so any preset can drive either
algorithm and the page's sliders, the lab and the API all speak of the same
names and weights.  A preset's ``make(weights)`` returns a fast closure; the
weights it is given override its defaults key by key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..board import Board
from . import classic

Evaluator = Callable[[Board], float]


@dataclass(frozen=True)
class Preset:
    """A named evaluation: what it measures (``description``), its weights, and how to build it."""

    name: str
    description: str
    default_weights: Mapping[str, float]
    factory: Callable[[Mapping[str, float]], Evaluator]
    needs_download: bool = False
    """The page fetches a file for it when a player chooses it (the learned network), never at start."""

    def make(self, weights: Mapping[str, float] | None = None) -> Evaluator:
        """The evaluator with ``weights`` over the defaults; unknown weight names are refused."""
        unknown = set(weights or {}) - set(self.default_weights)
        if unknown:
            raise ValueError(
                f"preset {self.name!r} has no weight(s) {sorted(unknown)}; it has {list(self.default_weights)}"
            )
        return self.factory({**self.default_weights, **(weights or {})})


PRESETS: dict[str, Preset] = {}


def register(preset: Preset) -> Preset:
    """Add a preset to the registry (each preset module calls this once at import)."""
    PRESETS[preset.name] = preset
    return preset


def get(name: str) -> Preset:
    """The preset called ``name``; a clear error lists the known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown preset {name!r}; known presets: {sorted(PRESETS)}") from None


register(
    Preset(
        name="classic",
        description="ovolve's alpha-beta evaluation: 0.1 smoothness + 1.0 monotonicity + 2.7 ln(empty) + 1.0 max rank",
        default_weights=classic.DEFAULT_WEIGHTS,
        factory=classic.make_evaluator,
    )
)

# The other presets register themselves; imported here, after
# ``register`` exists, so that importing ``presets`` is enough to see all of them.
from . import corner, rows, snake  # noqa: E402

register(
    Preset(
        name="rows",
        description=(
            "nneonneo's expectimax heuristic, per row and column: rewards empty cells (270) and merges (700), "
            "penalises non-monotonic lines by rank^4 (47) and big tiles by rank^3.5 (11); "
            "200000 per line keeps live boards above a lost one (0)"
        ),
        default_weights=rows.DEFAULT_WEIGHTS,
        factory=rows.make_evaluator,
    )
)

register(
    Preset(
        name="snake",
        description=(
            "Features along one snake path from the top-left corner (rows read alternately left and right): "
            "−Σ|steps| (1), −inversions (2), empty cells (3), max rank (1), −repeated values (0), mean rank (0)"
        ),
        default_weights=snake.DEFAULT_WEIGHTS,
        factory=snake.make_evaluator,
    )
)

register(
    Preset(
        name="corner-weights",
        description=(
            "Σ tile value × positional weight, weight decay^step along a snake path from a corner; "
            "best of three paths (row snake, spiral, zigzag) under the board's 8 symmetries"
        ),
        default_weights=corner.DEFAULT_WEIGHTS,
        factory=corner.make_evaluator,
    )
)

from . import learned  # noqa: E402

register(
    Preset(
        name="learned",
        description=(
            "an n-tuple network trained by TD learning from self-play (Szubert & Jaśkowski 2014): 4 six-cell "
            "patterns read on the board's 8 symmetries, plus the points the tiles are worth; downloaded when chosen. "
            "Its one weight, network, scales what the patterns add: 1 plays it as trained, 0 the tiles' points alone"
        ),
        default_weights=learned.DEFAULT_WEIGHTS,
        factory=learned.make_evaluator,
        needs_download=True,
    )
)
