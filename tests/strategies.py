"""Hypothesis strategies shared by the tests: boards as the engine sees them."""

from __future__ import annotations

from hypothesis import strategies as st

from game2048 import board as B

ranks = st.integers(min_value=0, max_value=B.MAX_RANK)
small_ranks = st.integers(min_value=0, max_value=11)


@st.composite
def boards(draw, rank_strategy=small_ranks, min_tiles: int = 0) -> int:
    """A board of independent ranks; ``min_tiles`` keeps it from being too empty to be interesting."""
    cells = draw(st.lists(rank_strategy, min_size=16, max_size=16))
    board = 0
    for i, r in enumerate(cells):
        board |= r << (4 * i)
    if 16 - B.count_empty(board) < min_tiles:
        for i in range(min_tiles):
            if not (board >> (4 * i)) & 0xF:
                board |= 1 << (4 * i)
    return board


directions = st.sampled_from(B.DIRECTIONS)
