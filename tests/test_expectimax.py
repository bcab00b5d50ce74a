"""Expectimax: the value is the expectation it claims to be, the clock is obeyed, and games replay."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import boards

from game2048 import board as B
from game2048.evaluation import presets, rows
from game2048.game import Game
from game2048.search import best_move, expectimax
from game2048.search.clock import Deadline

EVALUATE = rows.make_evaluator()


def brute_force(board: int, depth: int, evaluate=EVALUATE, lost=0.0) -> tuple[list[float | None], float]:
    """Plain expectimax from the definitions: no cutoff, no cache, no tables beyond ``board.move``.

    Returns the value of each move (None when illegal) and the best value.
    """

    def player(b: int, remaining: int) -> float:
        values = [v for v in move_values(b, remaining) if v is not None]
        return max(values) if values else lost

    def move_values(b: int, remaining: int) -> list[float | None]:
        out: list[float | None] = []
        for d in B.DIRECTIONS:
            after, _ = B.move(b, d)
            if after == b:
                out.append(None)
            elif remaining == 1:
                out.append(evaluate(after))
            else:
                out.append(chance(after, remaining - 1))
        return out

    def chance(b: int, remaining: int) -> float:
        cells = B.empty_cells(b)
        total = 0.0
        for cell in cells:
            total += 0.9 * player(B.place(b, cell, 1), remaining) + 0.1 * player(B.place(b, cell, 2), remaining)
        return total / len(cells)

    values = move_values(board, depth)
    legal = [v for v in values if v is not None]
    return values, (max(legal) if legal else lost)


def exact(board: int, depth: int, **kw) -> expectimax.SearchResult:
    return expectimax.search(board, EVALUATE, Deadline(None), depth=depth, probability_threshold=0.0, **kw)


@settings(max_examples=150)
@given(boards(min_tiles=9), st.integers(min_value=1, max_value=2))
def test_value_equals_brute_force_expectation(board, depth):
    values, best = brute_force(board, depth)
    for use_cache in (True, False):
        result = exact(board, depth, use_cache=use_cache)
        if best == 0.0 and all(v is None for v in values):
            assert result.move is None and result.depth == 0
            continue
        assert result.score == pytest.approx(best, rel=1e-12)
        chosen = values[B.DIRECTIONS.index(result.move)]
        assert chosen == pytest.approx(best, rel=1e-12)  # ties allowed: any move of the best value
        assert result.depth == depth


@settings(max_examples=25)
@given(boards(min_tiles=11))
def test_depth_three_with_cache_equals_brute_force(board):
    values, best = brute_force(board, 3)
    if all(v is None for v in values):
        return
    result = exact(board, 3)
    assert result.score == pytest.approx(best, rel=1e-12)


def test_hand_computed_depth_two_value():
    # One empty cell after the only legal move family; the brute force and the search agree,
    # and the value is 0.9 × best-after-a-2 + 0.1 × best-after-a-4, worked through the public move rules.
    board = B.from_rows([[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 2048, 4096], [8, 16, 32, 0]])
    values, best = brute_force(board, 2)
    result = exact(board, 2)
    assert result.score == pytest.approx(best)
    # Only "right" and "down" move a tile here.
    legal = {d for d, v in zip(B.DIRECTIONS, values) if v is not None}
    assert legal == {B.RIGHT, B.DOWN}


def test_probability_cutoff_evaluates_instead_of_searching():
    board = Game.new(7).board
    cut = expectimax.search(board, EVALUATE, Deadline(None), depth=3, probability_threshold=0.5, use_cache=False)
    full = exact(board, 3, use_cache=False)
    # The root's afterstates (probability 1) are expanded; every tile after them has probability
    # at most 0.9 / 13 < 0.5, so the next chance nodes are evaluated: exactly depth 2's tree.
    assert cut.cutoffs > 0 and cut.nodes < full.nodes
    assert cut.score == pytest.approx(exact(board, 2).score, rel=1e-12)
    assert cut.score != pytest.approx(full.score, rel=1e-12)


def test_cache_hits_are_counted_and_change_nothing_without_cutoff():
    board = B.from_rows([[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4], [0, 0, 0, 0]])
    cached = exact(board, 3, use_cache=True)
    plain = exact(board, 3, use_cache=False)
    assert cached.score == pytest.approx(plain.score, rel=1e-12)
    assert cached.cutoffs > 0 and plain.cutoffs == 0
    assert cached.nodes < plain.nodes


def test_lost_board_has_no_move():
    lost = B.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    result = expectimax.search(lost, EVALUATE, Deadline(100))
    assert result.move is None and result.depth == 0 and result.score == rows.LOST_VALUE


def test_loss_inside_the_tree_scores_lost_value():
    # Right leaves (3, 0) empty: a 4 there locks the board; left leaves (3, 3): a 2 there does.
    board = B.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [8, 16, 0, 32]])
    values, best = brute_force(board, 2)
    values_harsh, best_harsh = brute_force(board, 2, lost=-1e7)
    assert exact(board, 2).score == pytest.approx(best, rel=1e-12)
    assert exact(board, 2, lost_value=-1e7).score == pytest.approx(best_harsh, rel=1e-12)
    right = B.DIRECTIONS.index(B.RIGHT)
    assert values_harsh[right] < values[right] - 1e5  # the loss really is inside the tree


def test_depth_one_completes_even_when_the_clock_has_already_run_out():
    ticks = iter(range(0, 10_000_000, 1))  # every reading is one second later
    deadline = Deadline(1, clock=lambda: float(next(ticks)))
    result = expectimax.search(Game.new(1).board, EVALUATE, deadline)
    assert result.depth == 1 and result.move is not None


def test_fake_clock_stops_deepening_and_keeps_the_last_completed_iteration():
    board = Game.new(2).board
    readings = {"n": 0}

    def clock() -> float:
        readings["n"] += 1
        return readings["n"] * 1e-4  # 0.1 ms per reading: a 5 ms budget allows about 50 readings

    result = expectimax.search(board, EVALUATE, Deadline(5, clock=clock))
    assert 2 <= result.depth < 6
    again = expectimax.search(board, EVALUATE, Deadline(None), depth=result.depth)
    assert (result.move, result.score) == (again.move, pytest.approx(again.score))
    assert readings["n"] <= 60


def test_fixed_depth_never_reads_the_clock_inside_the_search():
    readings = {"n": 0}

    def clock() -> float:
        readings["n"] += 1
        return 0.0  # frozen: a timed search would never stop, so a fixed one must not look

    result = expectimax.search(Game.new(3).board, EVALUATE, Deadline(1, clock=clock), depth=3)
    assert result.depth == 3
    assert readings["n"] == 2  # the deadline's start and the final elapsed_ms, nothing in between


def test_real_time_limit_is_respected_loosely():
    # The published think times come from the lab (docs/results.md); this only catches a search that ignores its clock.
    board = Game.new(4).board
    result = expectimax.search(board, EVALUATE, Deadline(30))
    assert result.elapsed_ms < 30 * 3 and result.depth >= 1


@pytest.mark.parametrize("preset", sorted(presets.PRESETS))
def test_every_preset_drives_expectimax_to_a_legal_move(preset):
    game = Game.new(11)
    for _ in range(5):
        result = best_move(game.board, depth=2, algorithm="expectimax", preset=preset)
        assert result.move in B.legal_moves(game.board)
        assert result.algorithm == "expectimax" and result.preset == preset
        game.play(result.move)


def test_best_move_defaults_to_rows_for_expectimax():
    result = best_move(Game.new(5).board, depth=1, algorithm="expectimax")
    assert result.preset == "rows" and result.depth == 1


def test_same_seed_and_fixed_depth_replay_the_same_game():
    def play(seed: int) -> list[str]:
        game = Game.new(seed)
        moves = []
        while not game.over and len(moves) < 40:
            move = best_move(game.board, depth=2, algorithm="expectimax").move
            moves.append(move)
            game.play(move)
        return moves

    assert play(21) == play(21)


@settings(max_examples=60)
@given(boards(min_tiles=3))
def test_a_legal_move_is_returned_whenever_one_exists(board):
    result = expectimax.search(board, EVALUATE, Deadline(None), depth=1)
    legal = B.legal_moves(board)
    assert (result.move in legal) if legal else result.move is None


def _ticking_clock(step_s: float):
    readings = {"n": 0}

    def clock() -> float:
        readings["n"] += 1
        return readings["n"] * step_s

    return clock, readings


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_early_stop_gives_the_same_decision_with_fewer_readings(seed):
    # A fake clock that advances 0.1 ms per reading (one reading per expanded chance node): iteration costs
    # grow as the tree does, so early stop must skip only the iteration that could not have finished.
    game = Game.new(seed)
    for _ in range(30):
        game.play(expectimax.search(game.board, EVALUATE, Deadline(None), depth=1).move)
    clock_a, seen_a = _ticking_clock(1e-4)
    clock_b, seen_b = _ticking_clock(1e-4)
    stopped = expectimax.search(game.board, EVALUATE, Deadline(20, clock=clock_a), early_stop=True)
    burnt = expectimax.search(game.board, EVALUATE, Deadline(20, clock=clock_b), early_stop=False)
    assert (stopped.move, stopped.depth, stopped.score) == (burnt.move, burnt.depth, burnt.score)
    assert seen_a["n"] <= seen_b["n"]


def test_single_legal_move_is_decided_at_depth_one():
    # The top row is empty and nothing below can merge: only "up" changes the board.
    one = B.from_rows([[0, 0, 0, 0], [2, 4, 8, 16], [32, 64, 128, 256], [2, 4, 8, 16]])
    assert B.legal_moves(one) == [B.UP]
    result = expectimax.search(one, EVALUATE, Deadline(1000))
    assert result.move == B.UP and result.depth == 1 and result.elapsed_ms < 100


@settings(max_examples=30, deadline=None)
@given(boards(min_tiles=9), st.integers(min_value=1, max_value=2))
def test_the_chance_node_is_the_mean_over_spawns_which_the_explanation_reads(board: int, remaining: int) -> None:
    searcher = expectimax._Searcher(EVALUATE, None, 0.0, -1e9, use_cache=False)
    tiles = expectimax.spawns(board)
    assert [(cell, rank) for _, cell, rank, _ in tiles] == [(c, r) for c in B.empty_cells(board) for r in (1, 2)]
    assert all(placed == B.place(board, cell, rank) for placed, cell, rank, _ in tiles)
    if not tiles:
        return
    assert sum(p for *_, p in tiles) == pytest.approx(1.0)
    mean = sum(p * searcher.player(placed, remaining, p) for placed, _, _, p in tiles)
    assert searcher.chance(board, remaining, 1.0) == pytest.approx(mean, rel=1e-12, abs=1e-9)
