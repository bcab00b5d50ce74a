"""Boards the tests share: hypothesis strategies, and positions from seeded games."""

from __future__ import annotations

import random
from functools import lru_cache

from hypothesis import strategies as st

from game2048 import board as B
from game2048.bench_positions import POSITIONS
from game2048.game import Game
from game2048.search import best_move

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


@lru_cache(maxsize=1)
def game_positions() -> tuple[int, ...]:
    """Boards from seeded games (a mix of greedy and random moves), early to late, plus the bench positions."""
    rng = random.Random(2048)
    found: list[int] = [p.board for p in POSITIONS]
    seed = 0
    while len(found) < 210:
        game = Game.new(seed)
        moves = 0
        while not game.over and not game.won:
            legal = B.legal_moves(game.board)
            move = rng.choice(legal) if rng.random() < 0.3 else best_move(game.board, depth=1).move
            game.play(move)
            moves += 1
            if moves % 23 == 0:
                found.append(game.board)
        seed += 1
    return tuple(found)
