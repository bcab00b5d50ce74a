"""The late boards a share of training games start from (carousel shaping, Jaśkowski 2018), as one array.

A pool is ``[rank, kept, next, board, board, ...]``: the rank its boards
are kept at, how many it holds, where the next goes, then the boards.  One
``int64`` array, so the compiled games (``kernels.play_game``) read it and
add to it, and the threads share it, without a Python object in between.
"""

from __future__ import annotations

import numpy as np
from numba import njit

LATE_RANK = 14
"""A game's board is kept for late starts (``play_game``) when its largest tile first reaches this rank (16384)."""
POOL_HEAD = 3
"""A late pool's head: the rank its boards are kept at, how many it holds, where the next goes."""


def late_pool(boards: int, rank: int = LATE_RANK) -> np.ndarray:
    """An empty pool of late boards for ``play_game``: ``[rank, kept, next, board, board, ...]`` with room for
    ``boards`` (0: a run without late starts), kept where a game's largest tile first reaches ``rank``."""
    pool = np.zeros(POOL_HEAD + boards, dtype=np.int64)
    pool[0] = rank
    return pool


NO_POOL = late_pool(0)


@njit(cache=True, inline="always")
def keep_late(pool, b):  # type: ignore[no-untyped-def]
    """Put ``b`` in ``pool`` (``late_pool``), over its oldest board once it is full."""
    room = pool.shape[0] - POOL_HEAD
    pool[POOL_HEAD + pool[2]] = b
    pool[2] = (pool[2] + 1) % room
    if pool[1] < room:
        pool[1] += 1


__all__ = ["LATE_RANK", "NO_POOL", "POOL_HEAD", "keep_late", "late_pool"]
