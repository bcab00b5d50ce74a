"""Move agreement: how often a search picks the move that a much deeper exact search picks.

Games are what count, but they take hours and 50 of them cannot tell close win rates apart (docs/results.md).
For a change to the *search* (not the evaluation) this is a cheaper signal: deeper exact searches agree with
the reference more often (the fixed-depth rows of the table show the slope), so a change that buys depth
shows up as agreement, in minutes.  It is a proxy: the reference is only a deeper search of the same reduced
tree with the same evaluation, so a change that wins agreement still needs games (late-move reductions won
agreement and lost games).  Positions come from the second half of games (from ``FROM_MOVE``), played by the
exact search at a fixed depth with the default evaluation, so they are the same on every machine and for every
preset or network measured on them.  Every search here is without the
rescue search: it changes only the moves of positions already proven lost, where a deeper search of the same
tree is no yardstick.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..board import Board, max_rank
from ..game import Game
from ..search import best_move
from .cluster import Cluster
from .config import use_network
from .summary import text_table
from .tasks import TaskBatch

POSITION_DEPTH = 5
"""The fixed depth that plays the games the positions come from."""
FROM_MOVE = 300
"""The first move number a position is taken from: the second half of a game to 2048."""
EVERY = 7
"""One position every this many moves (each seed starts at its own offset)."""
STOP_RANK = 11
"""Games stop at 2048, as the alpha-beta runs do."""


@dataclass(frozen=True)
class Searcher:
    """One way of choosing a move: a think time or a fixed depth, with or without late-move reductions (no rescue),
    valuing leaves by ``preset`` (``None``: alpha-beta's default) and, for ``learned``, the network file
    ``network`` (``None``: the shipped one; read once per process)."""

    think_ms: float = 100.0
    depth: int | None = None
    reductions: bool = False
    preset: str | None = None
    network: str | None = None

    def label(self) -> str:
        budget = f"depth {self.depth}" if self.depth is not None else f"{self.think_ms:g} ms"
        return budget + (", reductions" if self.reductions else "")

    def move(self, board: Board) -> tuple[str, int]:
        use_network(self.network)
        result = best_move(
            board,
            think_ms=self.think_ms,
            depth=self.depth,
            preset=self.preset,
            reductions=self.reductions,
            rescue=False,
        )
        return (result.move or ""), result.depth


def sample_positions(seed: int) -> list[Board]:
    """Boards from one seeded game played by the exact search at ``POSITION_DEPTH``, from ``FROM_MOVE`` on."""
    game = Game.new(seed)
    found = []
    while not game.over and max_rank(game.board) < STOP_RANK:
        if game.moves >= FROM_MOVE and game.moves % EVERY == seed % EVERY:
            found.append(game.board)
        move = best_move(game.board, depth=POSITION_DEPTH, rescue=False).move
        if move is None:  # cannot happen while the game is not over; a guard against a loop
            break
        game.play(move)
    return found


def _reference(args: tuple[Board, Searcher]) -> str:
    board, reference = args
    return reference.move(board)[0]


def _choose(args: tuple[Searcher, Board]) -> tuple[str, int]:
    searcher, board = args
    return searcher.move(board)


def _map(function: Callable[[Any], Any], items: Sequence[Any], cluster: Cluster | None) -> list[Any]:
    """``map``: each item a task on ``cluster`` (as the lab's games are played), or here in turn without one."""
    if cluster is None:
        return [function(item) for item in items]
    mapped: list[Any] = [None] * len(items)
    with TaskBatch(cluster, function.__name__.strip("_")) as batch:
        for index, item in enumerate(items):
            batch.submit(index, function, item)
        for index, result in batch.results(on_report=lambda _: None):
            mapped[index] = result
    return mapped


def measure(
    seeds: Sequence[int], reference_depth: int, searchers: Sequence[Searcher], cluster: Cluster | None = None
) -> tuple[int, list[list[str]]]:
    """(number of positions, one table row per searcher: label, agreement, depth median and mean).

    The reference is the exact search at ``reference_depth`` with the first searcher's preset and network.
    The positions' games and every search are tasks on ``cluster`` when given.
    """
    boards = [board for found in _map(sample_positions, seeds, cluster) for board in found]
    if not boards:
        raise ValueError(f"seeds {list(seeds)} gave no position from move {FROM_MOVE} on; give more seeds")
    first = searchers[0]
    reference = Searcher(depth=reference_depth, preset=first.preset, network=first.network)
    references = _map(_reference, [(board, reference) for board in boards], cluster)
    rows = []
    for searcher in searchers:
        chosen = _map(_choose, [(searcher, board) for board in boards], cluster)
        agree = sum(move == reference for (move, _), reference in zip(chosen, references))
        depths = [depth for _, depth in chosen]
        rows.append(
            [
                searcher.label(),
                f"{agree} of {len(boards)} ({100 * agree / len(boards):.1f} %)",
                f"{statistics.median(depths):g}",
                f"{statistics.mean(depths):.2f}",
            ]
        )
    return len(boards), rows


COLUMNS = ("search", "same move as the reference", "depth median", "depth mean")


def report(count: int, reference_depth: int, rows: list[list[str]], valued_by: str = "") -> str:
    """The table, under a line naming the positions, the reference and (when given) what values the leaves."""
    by = f"; leaves valued by {valued_by}" if valued_by else ""
    return f"{count} positions; reference: depth {reference_depth}, exact{by}\n" + text_table(COLUMNS, rows)
