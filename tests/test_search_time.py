"""The think-time limit under a fake clock: the search stops, depth 1 completes, abandoned iterations leak nothing."""

from __future__ import annotations

import gc

import pytest

from game2048 import board as B
from game2048.bench_positions import POSITIONS
from game2048.evaluation import presets
from game2048.search import alphabeta, best_move
from game2048.search.clock import Deadline


class SteppingClock:
    """A clock that advances ``step`` seconds every time it is read, and counts the reads."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


MIDDLE = B.from_rows([[2, 4, 8, 0], [0, 2, 0, 0], [4, 0, 0, 16], [2, 0, 0, 2]])


def test_the_search_stops_when_the_clock_runs_out() -> None:
    clock = SteppingClock(0.001)  # 1 ms per read: a 50 ms budget allows about 50 reads
    result = best_move(MIDDLE, think_ms=50, clock=clock)
    assert result.depth >= 1
    assert result.move in B.legal_moves(MIDDLE)
    assert clock.reads < 80  # read every few nodes, and not after the deadline more than once or twice
    assert result.elapsed_ms < 80  # stopped at the deadline (or before, when the next depth could not finish)
    # Ten times as many reads before the deadline go deeper: the clock, not the tree, stopped it.
    assert result.depth < best_move(MIDDLE, think_ms=50, clock=SteppingClock(0.0001)).depth


def test_depth_1_completes_even_past_the_deadline() -> None:
    clock = SteppingClock(1000.0)  # every read is 1000 s later: expired from the first check
    result = best_move(MIDDLE, think_ms=10, clock=clock)
    assert result.depth == 1
    assert result.move == best_move(MIDDLE, depth=1).move
    assert result.score == best_move(MIDDLE, depth=1).score


@pytest.mark.parametrize("position", [p for p in POSITIONS if p.phase != "early"][:6], ids=lambda p: p.name)
def test_an_abandoned_iteration_never_leaks_its_move(position) -> None:
    # Stop the clock at many different points: whatever depth completed, the answer is exactly the
    # fixed-depth answer at that depth (move and value), never a half-searched deeper one.
    fixed = {d: best_move(position.board, depth=d) for d in range(1, 8)}
    seen_depths = set()
    for reads in range(2, 120, 3):
        clock = SteppingClock(0.1 / reads)  # the 100 ms budget runs out after ``reads`` reads
        result = best_move(position.board, think_ms=100, clock=clock)
        assert 1 <= result.depth <= 7
        expected = fixed[result.depth]
        assert (result.move, result.score) == (expected.move, expected.score), (reads, result.depth)
        seen_depths.add(result.depth)
    assert len(seen_depths) >= 3  # the stops fell in several different iterations


def test_the_leak_check_can_tell_depths_apart() -> None:
    # The test above would be empty if every depth chose the same move: some positions change their mind.
    changes = 0
    for position in POSITIONS:
        moves = [best_move(position.board, depth=d).move for d in (2, 3, 4)]
        changes += len(set(moves)) > 1
    assert changes >= 3


def test_fixed_depth_ignores_the_clock() -> None:
    clock = SteppingClock(1000.0)
    result = best_move(MIDDLE, depth=4, clock=clock)
    assert result.depth == 4
    assert (result.move, result.score) == (best_move(MIDDLE, depth=4).move, best_move(MIDDLE, depth=4).score)


def test_think_time_is_reported_in_the_result() -> None:
    result = best_move(MIDDLE, think_ms=30, clock=SteppingClock(0.001))
    assert result.think_ms == 30.0
    assert result.to_dict()["think_ms"] == 30.0


@pytest.mark.parametrize("collector_on", [True, False])
def test_alphabeta_pauses_the_collector_during_a_search_and_restores_it_after(collector_on: bool) -> None:
    """Alpha-beta pauses the collector (a full collection mid-think overran the budget) and restores it after.

    Expectimax does not pause it: its thinks overran more often with the collector paused (docs/results.md).
    """
    seen: list[bool] = []
    classic = presets.get("classic").make()

    def watching(board: B.Board) -> float:
        seen.append(gc.isenabled())
        return classic(board)

    (gc.enable if collector_on else gc.disable)()
    try:
        alphabeta.search(MIDDLE, watching, Deadline(None), depth=2)
        assert seen and not any(seen)
        assert gc.isenabled() is collector_on
    finally:
        gc.enable()
