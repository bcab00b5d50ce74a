"""Board facts the tests read and the engine never needs: a cell's rank, the tiles' sum, a board flipped."""

from __future__ import annotations

from game2048.board import Board, row_keys


def rank_at(board: Board, row: int, col: int) -> int:
    """The rank (log2 value, 0 for empty) at ``(row, col)``."""
    return (board >> (4 * (4 * row + col))) & 0xF


def tile_sum(board: Board) -> int:
    """The sum of the tile values (a move keeps it; a spawn adds the new tile)."""
    return sum(1 << ((board >> (4 * c)) & 0xF) for c in range(16) if (board >> (4 * c)) & 0xF)


def flip(board: Board) -> Board:
    """Mirror top to bottom: cell (r, c) goes to (3 - r, c)."""
    r0, r1, r2, r3 = row_keys(board)
    return r3 | (r2 << 16) | (r1 << 32) | (r0 << 48)
