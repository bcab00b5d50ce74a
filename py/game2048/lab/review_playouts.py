"""Compiled playouts for the review's truth check: greedy games by the network from given boards.

``Playouts.returns`` plays each start on greedily, as ``training.trainer.greedy_on`` does (the same kernels,
the same generator), and stops after ``horizon`` moves: a playout's return is its points plus, where it was
not lost by then, the network's value of the afterstate it stopped at (an n-step return).  Horizon 0 plays to
the end.  Compiled because a reliable measure of one move takes thousands of playouts.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..evaluation.ntuple_shapes import Shape
from .training import kernels as K
from .training.trainer import first_rng_state


@njit(cache=True)
def _returns(weights, starts, horizon, state, feats, tables, work, out):  # type: ignore[no-untyped-def]
    """``out[k]`` = the return of one playout from ``starts[k]`` (see the module)."""
    for k in range(starts.shape[0]):
        b = starts[k]
        total = 0.0
        moves = 0
        while True:
            d, best_value = K.greedy_move(weights, b, feats, tables, work)
            if d < 0:  # lost: nothing more to come
                break
            moves += 1
            if moves == horizon:  # the move's points and the network's value of where it leads
                total += best_value
                break
            total += work.points[d]
            b = K.spawn(work.boards[d], state)
        out[k] = total


class Playouts:
    """A network ready for playouts: its weights in the kernels' layout, converted once (a large network's
    conversion costs far more than a few thousand playouts)."""

    def __init__(self, shape: Shape, weights: np.ndarray) -> None:
        self.feats = K.features(shape)
        self.nibbles = K.to_nibbles(shape, weights)
        self.work = K.scratch(self.feats)

    def returns(self, starts: list[int], horizon: int, seed: int) -> np.ndarray:
        """One greedy playout from each board of ``starts`` (boards after a spawn, the player to move), stopped
        after ``horizon`` moves (0: at the game's end); the spawns come from ``seed``'s stream, so two calls
        with the same seed and boards give the same returns."""
        if horizon < 0 or not starts:
            raise ValueError(f"at least one board and a horizon >= 0, got {len(starts)} and {horizon}")
        out = np.zeros(len(starts), dtype=np.float64)
        state = np.array([first_rng_state(seed)], dtype=np.uint64)
        boards = np.array([b - (1 << 64) if b >> 63 else b for b in starts], dtype=np.int64)
        _returns(self.nibbles, boards, horizon, state, self.feats, K.MOVE_TABLES, self.work, out)
        return out
