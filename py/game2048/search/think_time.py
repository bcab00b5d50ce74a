"""How long each move of a game may think: the chosen time on average, more where the board is crowded.

A game of 2048 is decided by its crowded boards, where many distinct tiles leave few empty cells; the
thousands of moves between them are easy.  nneonneo/2048-ai searches deeper as the distinct tiles grow,
TDL2048 as the empty cells shrink.  ``ThinkTime`` gives each move ``think_ms × difficulty / the game's mean
difficulty so far``, so the time moves from easy boards to hard ones, plus a share of the time saved or
overspent so far (the bank), so the game's average stays at ``think_ms``; never below ``LEAST`` or above
``MOST`` times it.  ``Budget`` says what a move had and why, for the readout and the lab's records.
"""

from __future__ import annotations

from ..board import Board, count_empty

MOST = 20.0
"""No move thinks longer than this many times the chosen time."""
LEAST = 0.25
"""Nor shorter than this share of it."""
BANK_SHARE = 0.1
"""The share of the time saved (or overspent) so far that each move gets back (or pays)."""
CROWDED_EMPTY = 2
"""A board with this many empty cells or fewer counts twice as hard."""


def distinct_tiles(board: Board) -> int:
    """How many different tiles the board holds."""
    seen = 0
    while board:
        rank = board & 0xF
        if rank:
            seen |= 1 << rank
        board >>= 4
    return bin(seen).count("1")


def difficulty(board: Board) -> float:
    """How hard a board is: doubles with every two distinct tiles, and again when at most ``CROWDED_EMPTY``
    cells are empty."""
    weight: float = 2.0 ** (distinct_tiles(board) / 2)
    return weight * 2 if count_empty(board) <= CROWDED_EMPTY else weight


class Budget:
    """One move's think time and why: its board's distinct tiles and empty cells, its difficulty against the
    game's mean so far."""

    __slots__ = ("ms", "distinct", "empty", "share")

    def __init__(self, ms: float, distinct: int, empty: int, share: float) -> None:
        self.ms = ms
        self.distinct = distinct
        self.empty = empty
        self.share = share

    def reason(self) -> str:
        """``"12 distinct tiles, 1 empty cell: 3.1× the game's mean difficulty"``: what a readout says."""
        cells = "cell" if self.empty == 1 else "cells"
        return (
            f"{self.distinct} distinct tiles, {self.empty} empty {cells}: {self.share:.1f}× the game's mean difficulty"
        )


class ThinkTime:
    """The budgets of one game's moves: ``budget(board)`` before each search, ``spent(ms)`` after it."""

    def __init__(self, think_ms: float) -> None:
        if not think_ms > 0:
            raise ValueError(f"think_ms is a positive number of milliseconds, got {think_ms!r}")
        self.think_ms = float(think_ms)
        self.moves = 0
        self.total_ms = 0.0
        self.difficulties = 0.0

    @property
    def bank_ms(self) -> float:
        """The time saved so far against ``think_ms`` a move (negative: overspent)."""
        return self.think_ms * self.moves - self.total_ms

    def budget(self, board: Board) -> Budget:
        """The next move's think time for ``board``."""
        hard = difficulty(board)
        self.difficulties += hard
        share = hard * (self.moves + 1) / self.difficulties
        ms = self.think_ms * share + BANK_SHARE * self.bank_ms
        ms = min(max(ms, LEAST * self.think_ms), MOST * self.think_ms)
        return Budget(ms, distinct_tiles(board), count_empty(board), share)

    def spent(self, ms: float) -> None:
        """Count a move's time as it was taken (a search may end a little after its budget), but never more than
        the longest budget: a move that stalled (a paused process, a tab in the background) would otherwise take
        its stall out of every later move's time."""
        self.moves += 1
        self.total_ms += min(ms, MOST * self.think_ms)
