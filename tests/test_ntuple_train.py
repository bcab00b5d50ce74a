"""The lab's TD trainer: its compiled moves, values and update against the engine, and runs that resume exactly."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import boards, ranks

from game2048 import board as B
from game2048.evaluation import ntuple, ntuple_file
from game2048.evaluation.ntuple_shapes import SHAPES, Shape, Stage, get_shape, images, index
from game2048.lab import cli
from game2048.lab.training import kernels as K
from game2048.lab.training.export import MOST_DOUBLINGS, coarsened_units, dequantized, quantize, write
from game2048.lab.training.trainer import (
    TrainError,
    TrainOptions,
    greedy_games,
    load_checkpoint,
    load_coherence,
    train,
)
from game2048.move_tables import afterstates

TINY = get_shape("2x4")
PIN = Shape("pin", ((0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 2, 4, 5), (4, 5, 6, 8, 9)), 15)
"""Lines and five-cell bends over two rows, 15 values a cell: the named shapes' kinds of tuple, smaller."""
PIN_STAGED = Shape("pin-staged", PIN.tuples, 9, (Stage(9, 12), Stage(12, 16)))
"""PIN in three stages: 9 values up to 256, 12 from 512, 16 (32768 its own value) from 4096."""
PIN_STAGED_NAME = "0,1,2,3;4,5,6,7/9|9:12"
"""Two lines in two stages, written out as ``train --shape`` takes it: a staged run trained in a second."""

every_stage = st.integers(min_value=0, max_value=B.MAX_RANK).flatmap(lambda top: boards(st.integers(0, top)))
"""Boards whose largest rank is drawn first, so that every stage of a shape has its boards."""


def _signed(board: int) -> np.int64:
    return np.int64(board - (1 << 64) if board >> 63 else board)


def _weights(shape, seed: int = 0) -> np.ndarray:  # type: ignore[no-untyped-def]
    return np.random.default_rng(seed).normal(0, 100, shape.weights).astype(np.float32)


@given(boards(ranks))
def test_the_kernels_moves_are_the_engines(board: int) -> None:
    out = np.zeros(4, dtype=np.int64)
    points = np.zeros(4, dtype=np.int64)
    K.afterstates(_signed(board), K.MOVE_TABLES, out, points)
    assert [int(b) & B.FULL_MASK for b in out] == list(afterstates(board))
    assert list(points) == [B.move(board, d)[1] for d in B.DIRECTIONS]


def _nibble_positions(shape: Shape, board: int) -> list[int]:
    """Each feature's position in the kernels' nibble layout, by the definition: the board's stage, its ranks
    capped at the stage's values, and each image's cells read as nibbles (``index`` at 16 values)."""
    stage = shape.stage_of(board)
    top = shape.stage_values[stage] - 1
    capped = sum(min((board >> (4 * c)) & 0xF, top) << (4 * c) for c in range(16))
    starts = np.cumsum([0, *K.nibble_sizes(shape)])
    first = stage * len(shape.tuples)
    return [
        int(starts[first + t]) + index(capped, image, 16)
        for t, cells in enumerate(shape.tuples)
        for image in images(cells)
    ]


@given(every_stage)
def test_the_kernels_feature_indices_are_the_shapes_definition(board: int) -> None:
    for shape in (*SHAPES.values(), PIN_STAGED):
        feats = K.features(shape)
        out = np.zeros(feats.runs.shape[0], dtype=np.int64)
        K.indices(_signed(board), feats, np.zeros(16, dtype=np.int64), out)
        assert list(out) == _nibble_positions(shape, board)


@given(every_stage)
def test_the_trainers_value_is_the_pages_pure_python_value(board: int) -> None:
    for shape in (PIN, PIN_STAGED):
        network = _network(shape)
        feats = K.features(shape)
        work = K.scratch(feats)
        weights = K.to_nibbles(shape, dequantized(network))
        compiled = K.value(weights, _signed(board), feats, work.keys, work.idx[0])
        assert compiled == pytest.approx(_value(shape)(board), rel=1e-5, abs=1e-2)


def test_the_nibble_layout_goes_there_and_back_and_promotion_keeps_every_boards_value() -> None:
    weights = _weights(PIN, 5)
    assert np.array_equal(K.from_nibbles(PIN, K.to_nibbles(PIN, weights)), weights)
    staged = K.from_nibbles(PIN_STAGED, K.promoted(PIN, weights, PIN_STAGED))
    assert staged.shape == (PIN_STAGED.weights,)
    page = ntuple.make_value(quantize(PIN, weights))
    promoted_page = ntuple.make_value(quantize(PIN_STAGED, staged))
    rng = random.Random(3)
    for top in range(B.MAX_RANK):  # ranks below 15: the 15 values of PIN tell them all apart
        board = sum(rng.randint(0, top) << (4 * c) for c in range(16))
        assert promoted_page(board) == pytest.approx(page(board), rel=1e-6, abs=1e-6), top
    with pytest.raises(ValueError, match="other tuples"):
        K.promoted(PIN, weights, TINY)


def test_a_network_grown_by_tuples_values_every_board_as_before_and_its_new_tables_start_at_zero() -> None:
    lines = Shape("lines", PIN.tuples[:2], 15)
    weights = _weights(lines, 6)
    grown = K.from_nibbles(PIN_STAGED, K.promoted(lines, weights, PIN_STAGED))
    starts = PIN_STAGED.table_starts()
    for stage in range(len(PIN_STAGED.stage_values)):
        first = stage * len(PIN.tuples)
        assert not grown[starts[first + 2] : starts[first + 4]].any()
    page = ntuple.make_value(quantize(lines, weights))
    grown_page = ntuple.make_value(quantize(PIN_STAGED, grown))
    rng = random.Random(4)
    for top in range(B.MAX_RANK):
        board = sum(rng.randint(0, top) << (4 * c) for c in range(16))
        assert grown_page(board) == pytest.approx(page(board), rel=1e-6, abs=1e-6), top


_cache: dict[object, object] = {}


def _network(shape: Shape):  # type: ignore[no-untyped-def]
    if shape not in _cache:
        _cache[shape] = quantize(shape, _weights(shape))
    return _cache[shape]


def _value(shape: Shape):  # type: ignore[no-untyped-def]
    if (shape, "value") not in _cache:
        _cache[(shape, "value")] = ntuple.make_value(_network(shape))
    return _cache[(shape, "value")]


def test_quantizing_moves_no_weight_by_more_than_half_a_step() -> None:
    weights = _weights(TINY, 3)
    network = quantize(TINY, weights)
    assert np.abs(dequantized(network) - weights).max() <= network.scale / 2 + 1e-3
    assert max(abs(v) for table in network.tables for v in table) == ntuple_file.INT16_MAX


@given(st.floats(min_value=0.0, max_value=1e12, allow_nan=False), st.floats(min_value=1.0, max_value=1e12))
def test_a_weight_moved_a_quarter_as_much_gets_a_grid_twice_as_coarse(size: float, fine_from: float) -> None:
    units = coarsened_units(np.array([size, size / 4, fine_from, 0.0]), fine_from)
    assert all(u >= 1 and u <= 2**MOST_DOUBLINGS and float(np.log2(u)).is_integer() for u in units)
    assert units[2] == 1 and units[3] == 2**MOST_DOUBLINGS
    assert units[1] == min(2 * units[0], 2**MOST_DOUBLINGS) or (units[0] == 1 and units[1] <= 2)


def test_coarsened_weights_round_to_their_own_grid_and_the_rest_as_before() -> None:
    weights = _weights(TINY, 3)
    sizes = np.random.default_rng(4).lognormal(8, 3, TINY.weights)
    units = coarsened_units(sizes, 1e4)
    assert 0.2 < float((units == 1).mean()) < 0.8 and float(units.max()) > 8
    plain, coarse = quantize(TINY, weights, step=0.5), quantize(TINY, weights, step=0.5, units=units)
    assert coarse.scale == plain.scale
    entries = np.concatenate([np.frombuffer(t.tobytes(), dtype=np.int16) for t in coarse.tables]).astype(float)
    assert np.all(np.fmod(entries, units) == 0)
    error = np.abs(dequantized(coarse) - weights)
    assert np.all(error <= units * coarse.scale / 2 + 1e-3)
    fine = units == 1
    assert np.array_equal(dequantized(coarse)[fine], dequantized(plain)[fine])
    with pytest.raises(ValueError, match="grids for"):
        quantize(TINY, weights, units=units[:-1])


def _all_distinct() -> int:
    """A board whose 16 features read 16 different weights: no two cells alike, so no two lines read alike."""
    return B.from_rows([[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 2048, 4096], [8192, 16384, 32768, 0]])


def test_one_td_update_moves_the_value_toward_its_target_by_the_learning_rate() -> None:
    feats = K.features(TINY)
    work = K.scratch(feats)
    weights = _weights(TINY, 1)
    for board, alpha, target in ((_all_distinct(), 0.01, 5000.0), (B.from_rows([[2, 2, 2, 2]] * 4), 0.003, -50.0)):
        idx = work.before
        K.indices(_signed(board), feats, work.keys, idx)
        before = float(K._sum(weights, idx))
        error = K.td_step(weights, idx, target, alpha)
        after = float(K._sum(weights, idx))
        assert error == pytest.approx(target - before, rel=1e-6)
        # Each feature's weight moves by alpha × error, once for every feature that reads it.
        reads = np.bincount(idx)[idx].sum()
        assert after - before == pytest.approx(alpha * error * reads, rel=1e-4)
        if board == _all_distinct():
            assert reads == len(idx) == 16  # all distinct: the value moves by 16 α of the error


def test_a_coherent_update_moves_each_weight_by_alpha_times_how_consistent_its_errors_were() -> None:
    feats = K.features(TINY)
    work = K.scratch(feats)
    weights = _weights(TINY, 2)
    tc = K.coherence_arrays(TINY.weights)
    idx = work.before
    K.indices(_signed(_all_distinct()), feats, work.keys, idx)
    assert len(set(idx.tolist())) == len(idx) == 16  # every feature its own weight
    alpha, errors = 0.01, []
    for target in (5000.0, -3000.0, 8000.0):
        before = float(K._sum(weights, idx))
        # Never moved: rate 1; then |sum of its errors| / (sum of their sizes), the same for all 16 weights.
        rate = abs(sum(errors)) / sum(abs(e) for e in errors) if errors else 1.0
        error = K.tc_step(weights, tc, idx, target, alpha)
        assert error == pytest.approx(target - before, rel=1e-5)
        assert float(K._sum(weights, idx)) - before == pytest.approx(16 * alpha * rate * error, rel=1e-3)
        errors.append(error)
    assert tc[0, idx].tolist() == pytest.approx([sum(errors)] * 16, rel=1e-5)
    assert tc[1, idx].tolist() == pytest.approx([sum(abs(e) for e in errors)] * 16, rel=1e-5)


def test_a_coherent_run_learns_and_resumes_with_its_accumulators(tmp_path: Path) -> None:
    options = TrainOptions(shape="2x4", games=2000, block=500, alpha=0.05, seed=4, checkpoint_s=1e-9, coherence=True)
    whole, expected = train(options, tmp_path / "whole")
    after = greedy_games(TINY, expected, 200, seed=5)
    assert after[:, 0].mean() > 2 * greedy_games(TINY, np.zeros_like(expected), 200, seed=5)[:, 0].mean()

    def interrupt(state, point):  # type: ignore[no-untyped-def]
        if state.games == 1500:  # after this block's games, before its checkpoint
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train(options, tmp_path / "cut", report=interrupt)
    state, weights = train(options, tmp_path / "cut", resume=True)
    assert np.array_equal(weights, expected) and state.moves == whole.moves
    plain = TrainOptions(**{**options.__dict__, "coherence": False})
    assert not np.array_equal(train(plain, tmp_path / "plain")[1], expected)
    with pytest.raises(TrainError, match="holds a run of"):
        train(TrainOptions(**{**plain.__dict__, "games": 2500}), tmp_path / "whole", resume=True)
    np.savez(tmp_path / "whole" / "checkpoint.npz", weights=expected, meta=np.array("{}"))
    with pytest.raises(TrainError, match="coherence accumulators"):
        load_coherence(tmp_path / "whole", TINY.weights)


def test_greedy_games_are_legal_games_and_learning_makes_them_better(tmp_path: Path) -> None:
    weights = np.zeros(TINY.weights, dtype=np.float32)
    untrained = greedy_games(TINY, weights, 200, seed=5)
    state, trained = train(TrainOptions(shape="2x4", games=3000, block=1000, alpha=0.01, seed=5), tmp_path)
    after = greedy_games(TINY, trained, 200, seed=5)
    assert (untrained[:, 2] > 0).all() and (untrained[:, 1] >= 3).all()
    assert after[:, 0].mean() > 2 * untrained[:, 0].mean()
    assert state.games == 3000 and len(state.curve) == 3
    assert state.moves == sum(p["mean_moves"] * 1000 for p in state.curve)


def test_a_run_interrupted_at_any_block_resumes_to_the_same_weights(tmp_path: Path) -> None:
    options = TrainOptions(shape="2x4", games=2500, block=500, alpha=0.01, seed=9, checkpoint_s=1e-9)
    whole, expected = train(options, tmp_path / "whole")
    for stop in (1, 3):
        folder = tmp_path / f"stop{stop}"

        def interrupt(state, point, stop=stop):  # type: ignore[no-untyped-def]
            if state.games == stop * 500 + 500:  # after this block's games, before its checkpoint
                raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            train(options, folder, report=interrupt)
        assert load_checkpoint(folder)[1].games == stop * 500
        state, weights = train(options, folder, resume=True)
        assert np.array_equal(weights, expected)
        assert [p["mean_score"] for p in state.curve] == [p["mean_score"] for p in whole.curve]
        assert state.games == 2500 and state.moves == whole.moves


def test_the_restart_strategy_replays_each_game_from_its_middle_and_stays_reproducible(tmp_path: Path) -> None:
    options = TrainOptions(shape="2x4", games=2000, block=1000, alpha=0.01, seed=5, restart=True)
    state, weights = train(options, tmp_path / "restart")
    plain, plain_weights = train(TrainOptions(**{**options.__dict__, "restart": False}), tmp_path / "plain")
    first_episodes = sum(p["mean_moves"] * 1000 for p in state.curve)
    # Episodes started halfway through each episode before: at least half as many moves again as the games reported.
    assert state.moves > 1.5 * first_episodes
    assert plain.moves == sum(p["mean_moves"] * 1000 for p in plain.curve)
    assert not np.array_equal(weights, plain_weights)
    assert np.array_equal(train(options, tmp_path / "again")[1], weights)
    with pytest.raises(TrainError, match="holds a run of"):
        train(TrainOptions(**{**options.__dict__, "games": 3000, "restart": False}), tmp_path / "restart", resume=True)


def _plain_learn_back(weights, path, rewards, exact, lam, alpha):  # type: ignore[no-untyped-def]
    """TD(λ) backwards as its definition reads, on the shapes' own indices (``index``), in float64."""
    starts = np.cumsum([0] + [TINY.table_size(t) for t in range(len(TINY.tuples))])
    w = weights.astype(np.float64)

    def reads(board: int) -> list[int]:
        return [
            starts[t] + index(board, image, TINY.values)
            for t, cells in enumerate(TINY.tuples)
            for image in images(cells)
        ]

    for board, reward in zip(reversed(path), reversed(rewards)):
        error = exact - sum(w[i] for i in reads(board))
        for i in reads(board):
            w[i] += alpha * error
        exact = reward + lam * exact + (1 - lam) * sum(w[i] for i in reads(board))
    return w, exact


@pytest.mark.parametrize("lam", [0.0, 0.5, 1.0])
def test_learning_backwards_is_td_lambda_from_the_last_afterstate_to_the_first(lam: float) -> None:
    feats = K.features(TINY)
    work = K.scratch(feats)
    rng = random.Random(5)
    path = [B.from_rows([[rng.choice((0, 2, 4, 8, 64)) for _ in range(4)] for _ in range(4)]) for _ in range(6)]
    rewards = [rng.choice((0, 4, 8, 128)) for _ in path]
    weights = _weights(TINY, 4)
    expected, expected_return = _plain_learn_back(weights, path, rewards, 0.0, lam, 0.01)
    work.path[: len(path)] = [_signed(b) for b in path]
    work.rewards[: len(path)] = rewards
    got = K.learn_back(
        weights,
        K.NO_COHERENCE,
        work.path,
        work.rewards,
        len(path),
        0.0,
        lam,
        np.array([0.01]),
        feats,
        work.keys,
        work.before,
    )
    assert np.allclose(weights, expected, rtol=1e-4, atol=1e-2)
    assert got == pytest.approx(expected_return, rel=1e-4)
    if lam == 1.0:  # the Monte Carlo return: every point after the first afterstate, the first move's included
        assert got == pytest.approx(sum(rewards), rel=1e-6)


def test_a_backward_run_learns_resumes_exactly_and_refuses_another_lambda(tmp_path: Path) -> None:
    options = TrainOptions(shape="2x4", games=2000, block=500, seed=4, alpha=0.01, lam=0.5, restart=True)
    state, weights = train(options, tmp_path / "whole")
    curve = state.curve
    assert curve[-1]["mean_score"] > 2 * curve[0]["mean_score"] > 0  # it learns: from chance play upward
    online = train(TrainOptions(**{**options.__dict__, "lam": None}), tmp_path / "online")[1]
    assert not np.array_equal(online, weights)  # the backward rule is not the online one
    half = TrainOptions(**{**options.__dict__, "games": 1000})
    train(half, tmp_path / "split")
    resumed = train(options, tmp_path / "split", resume=True)[1]
    assert np.array_equal(resumed, weights)
    with pytest.raises(TrainError, match="holds a run of"):
        train(TrainOptions(**{**options.__dict__, "games": 3000, "lam": 0.0}), tmp_path / "whole", resume=True)
    with pytest.raises(ValueError, match="lambda is 0 to 1"):
        TrainOptions(lam=1.5)


def _late_boards(rank: int, count: int, seed: int) -> list[int]:
    """``count`` boards whose largest tile has ``rank``: its tile in a corner, small tiles elsewhere."""
    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        board = rank << (4 * rng.choice((0, 3, 12, 15)))
        for cell in rng.sample([c for c in range(16) if not (board >> (4 * c)) & 15], 6):
            board |= rng.randint(1, 4) << (4 * cell)
        boards.append(board)
    return boards


def test_a_share_of_games_starts_from_the_late_pool_and_counts_from_there() -> None:
    feats = K.features(TINY)
    pool = K.late_pool(8, rank=10)
    pool[1] = 8
    pool[K.POOL_HEAD :] = [_signed(b) for b in _late_boards(10, 8, 1)]
    stats = np.zeros((400, K.GAME_STATS), dtype=np.int64)
    rng = np.array([11], dtype=np.uint64)
    weights = _weights(TINY, 2)
    K.play_games(
        weights,
        400,
        np.array([0.001]),
        rng,
        feats,
        K.MOVE_TABLES,
        K.scratch(feats),
        stats,
        False,
        K.NO_COHERENCE,
        K.ONLINE,
        0.4,
        pool,
    )
    late = stats[:, 3] == 1
    assert 0.3 < late.mean() < 0.5
    assert (stats[late, 1] >= 10).all()  # each began with a 1024 on the board
    assert (stats[~late, 1] < 10).mean() > 0.9  # chance play from a new board rarely makes one
    assert pool[0] == 10 and pool[1] == 8
    # Without late starts, the same generator plays the same games as before: no draw is spent on them.
    plain, again = (np.zeros((50, K.GAME_STATS), dtype=np.int64) for _ in range(2))
    for out, share in ((plain, 0.0), (again, 0.7)):
        K.play_games(
            weights.copy(),
            50,
            np.array([0.001]),
            np.array([5], dtype=np.uint64),
            feats,
            K.MOVE_TABLES,
            K.scratch(feats),
            out,
            False,
            K.NO_COHERENCE,
            K.ONLINE,
            share,
            K.late_pool(4, rank=15),
        )
    assert np.array_equal(plain, again)  # an empty pool that never fills: no game starts late


def test_the_pool_keeps_each_games_board_where_its_largest_tile_first_reached_the_rank() -> None:
    feats = K.features(TINY)
    pool = K.late_pool(16, rank=7)
    stats = np.zeros((200, K.GAME_STATS), dtype=np.int64)
    K.play_games(
        _weights(TINY, 3),
        200,
        np.array([0.001]),
        np.array([3], dtype=np.uint64),
        feats,
        K.MOVE_TABLES,
        K.scratch(feats),
        stats,
        False,
        K.NO_COHERENCE,
        K.ONLINE,
        0.25,
        pool,
    )
    reached = int(((stats[:, 3] == 0) & (stats[:, 1] >= 7)).sum())
    assert pool[1] == min(16, reached) > 0 and pool[2] == reached % 16
    assert all(B.max_rank(int(b) & B.FULL_MASK) == 7 for b in pool[K.POOL_HEAD :])
    assert (stats[:, 3] == 1).any()


def test_an_update_moves_each_weight_at_the_rate_of_its_boards_stage() -> None:
    feats = K.features(PIN_STAGED)
    alphas = np.array([0.001, 0.002, 0.04])
    for top, stage in ((3, 0), (9, 1), (13, 2)):  # largest tiles 8, 512, 8192
        board = B.from_rows([[1 << top, 2, 4, 8], [2, 4, 8, 16], [0] * 4, [0] * 4])
        weights = np.zeros(sum(K.nibble_sizes(PIN_STAGED)), dtype=np.float32)
        idx = np.zeros(feats.runs.shape[0], dtype=np.int64)
        K.indices(_signed(board), feats, np.zeros(16, dtype=np.int64), idx)
        error = K._learn(weights, K.NO_COHERENCE, idx, 1000.0, alphas, feats.offsets)
        assert error == 1000.0
        moved = np.flatnonzero(weights)
        assert moved.size and weights[moved].min() >= alphas[stage] * 1000.0 * 0.999
        reads = np.bincount(idx, minlength=weights.shape[0])[moved]
        assert np.allclose(weights[moved], alphas[stage] * 1000.0 * reads)


def test_the_late_stages_rate_is_refused_for_a_shape_without_stages_and_kept_by_its_checkpoint(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="one stage"):
        TrainOptions(shape="2x4", late_alpha=0.01)
    with pytest.raises(ValueError, match="late stage's alpha"):
        TrainOptions(shape="4x6-late", late_alpha=0.0)
    assert list(TrainOptions(shape="4x6-late", alpha=0.0025, late_alpha=0.03125).alphas()) == [0.0025, 0.03125]
    options = TrainOptions(shape=PIN_STAGED_NAME, games=20, block=20, alpha=0.001, late_alpha=0.01)
    train(options, tmp_path / "run")
    assert load_checkpoint(tmp_path / "run")[0]["late_alpha"] == 0.01
    with pytest.raises(TrainError, match="holds a run of"):
        train(TrainOptions(**{**options.__dict__, "late_alpha": None, "games": 40}), tmp_path / "run", resume=True)


def test_a_run_with_late_starts_resumes_with_its_pool_to_the_same_weights(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(K, "LATE_RANK", 7)  # 128: reached by a tiny network's games within seconds
    options = TrainOptions(shape="2x4", games=2000, block=500, alpha=0.01, seed=4, checkpoint_s=1e-9, late=0.3)
    whole, expected = train(options, tmp_path / "whole")
    assert whole.pool[1] > 0 and sum(p.get("late_games", 0) for p in whole.curve) > 100
    assert all("late_rate_32768" in p for p in whole.curve[1:])

    def interrupt(state, point):  # type: ignore[no-untyped-def]
        if state.games == 1500:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train(options, tmp_path / "cut", report=interrupt)
    state, weights = train(options, tmp_path / "cut", resume=True)
    assert np.array_equal(weights, expected) and state.moves == whole.moves and state.pool == whole.pool
    with pytest.raises(TrainError, match="holds a run of"):
        train(TrainOptions(**{**options.__dict__, "late": 0.0, "games": 2500}), tmp_path / "whole", resume=True)
    with pytest.raises(ValueError, match="late starts"):
        TrainOptions(late=1.0)


def test_a_backward_episode_longer_than_its_path_learns_in_parts_and_still_restarts() -> None:
    feats = K.features(TINY)
    stats = np.zeros((30, K.GAME_STATS), dtype=np.int64)
    weights = _weights(TINY, 3)
    short = K.scratch(feats, path_length=8)
    rng = np.array([7], dtype=np.uint64)
    played = K.play_games(
        weights,
        30,
        np.array([0.001]),
        rng,
        feats,
        K.MOVE_TABLES,
        short,
        stats,
        True,
        K.NO_COHERENCE,
        0.5,
        0.0,
        K.NO_POOL,
    )
    assert played > stats[:, 2].sum() and (stats[:, 2] > 8).all()  # restarts, and games longer than the path
    assert np.isfinite(weights).all() and not np.array_equal(weights, _weights(TINY, 3))


def test_an_episode_longer_than_its_kept_path_restarts_from_the_middle_of_what_was_kept() -> None:
    feats = K.features(TINY)
    stats = np.zeros((50, K.GAME_STATS), dtype=np.int64)
    rng = np.array([7], dtype=np.uint64)
    weights = _weights(TINY, 3)
    short = K.scratch(feats, path_length=4)
    played = K.play_games(
        weights,
        50,
        np.array([0.001]),
        rng,
        feats,
        K.MOVE_TABLES,
        short,
        stats,
        True,
        K.NO_COHERENCE,
        K.ONLINE,
        0.0,
        K.NO_POOL,
    )
    assert played > stats[:, 2].sum() and (stats[:, 2] > K.RESTART_MIN_MOVES).all()
    # Not learning, a game is one episode: greedy games never restart.
    played = K.play_games(
        weights,
        50,
        np.array([0.0]),
        rng,
        feats,
        K.MOVE_TABLES,
        K.scratch(feats),
        stats,
        True,
        K.NO_COHERENCE,
        K.ONLINE,
        0.0,
        K.NO_POOL,
    )
    assert played == stats[:, 2].sum()


def test_a_resume_that_does_not_match_its_checkpoint_is_refused(tmp_path: Path) -> None:
    with pytest.raises(TrainError, match="no training run to read"):
        train(TrainOptions(shape="2x4", games=10), tmp_path, resume=True)
    train(TrainOptions(shape="2x4", games=10, block=10), tmp_path)
    with pytest.raises(TrainError, match="holds a run of"):
        train(TrainOptions(shape="2x4", games=20, block=10, alpha=0.5), tmp_path, resume=True)
    (tmp_path / "checkpoint.npz").write_bytes(b"PK\x03\x04 cut")
    with pytest.raises(TrainError, match="not a readable checkpoint"):
        train(TrainOptions(shape="2x4", games=20, block=10), tmp_path, resume=True)
    for bad in ({"games": 0}, {"alpha": 0.0}, {"shape": "nope"}, {"checkpoint_s": 0}):
        with pytest.raises(ValueError):
            TrainOptions(**bad)  # type: ignore[arg-type]


def test_the_train_command_shows_progress_and_writes_curve_and_chart(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "run"
    assert cli.main(["train", "--shape", "2x4", "--games", "300", "--block", "100", "--out", str(out)]) == 0
    printed = capsys.readouterr()
    assert "training 2x4: 2×4-tuples" in printed.out and "300 games" in printed.out and "moves/s" in printed.out
    curve = [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]
    assert [p["games"] for p in curve] == [100, 200, 300]
    assert {"mean_score", "rate_2048", "rate_8192", "moves_per_s"} <= set(curve[0])
    assert (out / "curve.png").stat().st_size > 1000
    assert cli.main(["train", "--shape", "2x4", "--games", "400", "--block", "100", "--out", str(out), "--resume"]) == 0
    assert len((out / "curve.jsonl").read_text().splitlines()) == 4
    with pytest.raises(SystemExit):
        cli.main(["train", "--shape", "2x4", "--games", "400", "--block", "50", "--out", str(out), "--resume"])
    assert "holds a run of" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("flags", "alpha"),
    [
        ([], 0.0025),  # plain TD: Szubert & Jaśkowski's rate a weight
        (["--coherence"], 1.0 / 16),  # TC: the literature's 1.0 a board, over 2x4's 16 features
        (["--coherence", "--board-alpha", "0.25"], 0.25 / 16),
        (["--alpha", "0.01"], 0.01),
        (["--coherence", "--init", "INIT"], 0.004),  # a trained network goes on at the rate it learned at
    ],
)
def test_the_rate_a_weight_learns_at_comes_from_alpha_or_the_boards_rate_spread_over_its_features(
    tmp_path: Path, flags: list[str], alpha: float
) -> None:
    out = tmp_path / "run"
    if "INIT" in flags:
        network = tmp_path / "init.ntn"
        write(_network(TINY), network, {"games": 0, "alpha": 0.004})
        flags = [str(network) if flag == "INIT" else flag for flag in flags]
    assert cli.main(["train", "--shape", "2x4", "--games", "20", "--block", "20", "--out", str(out), *flags]) == 0
    saved, _, _ = load_checkpoint(out)
    assert saved["alpha"] == pytest.approx(alpha)


def test_a_shape_reads_as_many_weights_a_board_as_the_kernels_features() -> None:
    for shape in [*(get_shape(name) for name in SHAPES), PIN, PIN_STAGED]:
        assert shape.features == K.features(shape).runs.shape[0]


def test_the_train_command_refuses_alpha_and_board_alpha_together(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit):
        cli.main(["train", "--shape", "2x4", "--alpha", "0.01", "--board-alpha", "1", "--out", str(tmp_path)])
    assert "not allowed with argument" in capsys.readouterr().err


def test_an_exported_network_reads_back_with_its_manifest(tmp_path: Path) -> None:
    network = _network(TINY)
    manifest = write(network, tmp_path / "tiny.ntn", {"games": 0})
    assert manifest["sha256"] == ntuple_file.sha256((tmp_path / "tiny.ntn").read_bytes())
    assert json.loads((tmp_path / "tiny.json").read_text()) == manifest
    again = ntuple_file.read(tmp_path / "tiny.ntn", manifest)
    board = random.Random(1).getrandbits(64)
    assert ntuple.make_value(again)(board) == ntuple.make_value(network)(board)


def test_export_writes_the_file_and_a_manifest_that_says_how_it_was_made(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    run = tmp_path / "run"
    train(TrainOptions(shape="2x4", games=400, block=200, seed=4), run)
    out = tmp_path / "networks" / "tiny.ntn"
    assert cli.main(["export", "--run", str(run), "--out", str(out), "--games", "50", "--prune", "0.5"]) == 0
    assert "tiny.ntn:" in capsys.readouterr().out
    manifest = json.loads(out.with_suffix(".json").read_text())
    assert (
        manifest["command"]
        == "python -m game2048.lab train --shape 2x4 --games 400 --alpha 0.0025 --seed 4 --block 200"
    )
    assert (manifest["trained_games"], manifest["seed"], manifest["prune"]) == (400, 4, 0.5)
    assert manifest["greedy"]["games"] == 50 and 0 < manifest["greedy"]["mean_score"]
    assert manifest["sha256"] == ntuple_file.sha256(out.read_bytes()) and manifest["bytes"] == out.stat().st_size
    network = ntuple_file.read(out, manifest)
    assert network.shape == TINY and all(
        v == 0 or abs(v) * network.scale >= 0.5 - network.scale for t in network.tables for v in t
    )


def test_greedy_plays_a_runs_float_weights_and_refuses_a_folder_without_a_run(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    run = tmp_path / "run"
    _, weights = train(TrainOptions(shape="2x4", games=400, block=200, seed=4), run)
    assert cli.main(["greedy", "--run", str(run), "--games", "40", "--seed", "3"]) == 0
    stats = greedy_games(TINY, weights, 40, seed=3)
    rate = 100 * float((stats[:, 1] >= 11).mean())  # 2048 is rank 11
    printed = capsys.readouterr().out
    assert f"(400 games trained), seed 3: greedy over 40 games: mean {round(float(stats[:, 0].mean())):,}" in printed
    assert f"2048 {rate:.1f}%" in printed
    with pytest.raises(SystemExit):
        cli.main(["greedy", "--run", str(tmp_path / "empty")])
    assert "empty" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["greedy", "--run", str(run), "--games", "0"])
    assert "--games: 0 is not from 1 to 10,000,000" in capsys.readouterr().err


def test_threads_share_the_weights_and_learn_as_one_thread_does(tmp_path: Path) -> None:
    options = TrainOptions(shape="2x4", games=3000, block=1000, alpha=0.01, seed=5, threads=2)
    state, weights = train(options, tmp_path)
    assert state.games == 3000 and len(state.rng) == 2 and state.curve[-1]["mean_moves"] > 0
    # Two threads race on the weights, so the games differ from run to run: a bar with room for that.
    after = greedy_games(TINY, weights, 400, seed=5)
    assert after[:, 0].mean() > 1.5 * greedy_games(TINY, np.zeros_like(weights), 400, seed=5)[:, 0].mean()
    with pytest.raises(TrainError, match="holds a run of"):
        train(TrainOptions(shape="2x4", games=4000, block=1000, alpha=0.01, seed=5), tmp_path, resume=True)
    state, _ = train(TrainOptions(**{**options.__dict__, "games": 4000}), tmp_path, resume=True)
    assert state.games == 4000
    with pytest.raises(ValueError, match="threads"):
        TrainOptions(threads=0)


def test_a_run_started_from_a_network_file_fine_tunes_its_weights(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    trained = _weights(TINY, seed=3)
    base = tmp_path / "base.ntn"
    manifest = write(quantize(TINY, trained), base, {"games": 0})
    start = dequantized(ntuple_file.read(base, manifest))
    # alpha at its smallest: the first block plays the file's weights, barely moved
    state, weights = train(TrainOptions(shape="2x4", games=20, block=20, alpha=1e-12, init=str(base)), tmp_path / "a")
    assert state.init_sha256 == manifest["sha256"]
    assert np.allclose(weights, start, atol=1e-3) and np.abs(start).max() > 10
    from_zero = greedy_games(TINY, np.zeros_like(start), 20, seed=1)
    played = greedy_games(TINY, weights, 20, seed=1)
    assert not np.array_equal(played, from_zero)
    # the export names the file the run started from, and a resume must start from the same one
    run = tmp_path / "a"
    out = tmp_path / "tuned.ntn"
    assert cli.main(["export", "--run", str(run), "--out", str(out), "--games", "5"]) == 0
    tuned = json.loads(out.with_suffix(".json").read_text())
    assert tuned["command"].endswith(f"--init {base}") and tuned["init_sha256"] == manifest["sha256"]
    with pytest.raises(TrainError, match="holds a run of"):
        train(TrainOptions(shape="2x4", games=40, block=20, alpha=1e-12), run, resume=True)


def test_a_staged_run_starts_each_stage_from_the_files_weights_as_they_valued_its_boards(tmp_path: Path) -> None:
    base = tmp_path / "base.ntn"
    manifest = write(quantize(TINY, _weights(TINY, seed=3)), base, {"games": 0})
    staged = "0,1,2,3;4,5,6,7/9|9:16"
    state, weights = train(TrainOptions(shape=staged, games=20, block=20, alpha=1e-12, init=str(base)), tmp_path / "s")
    assert state.init_sha256 == manifest["sha256"] and weights.shape == (2 * 9**4 + 2 * 16**4,)
    start = dequantized(ntuple_file.read(base, manifest))
    assert np.allclose(weights[2 * 9**4 :], start, atol=1e-3)  # the late stage: the file's 16 values as they were
    early = weights[: 9**4].reshape(9, 9, 9, 9)
    assert np.allclose(early, start[: 16**4].reshape(16, 16, 16, 16)[:9, :9, :9, :9], atol=1e-3)


def test_an_optimistic_run_values_every_board_it_has_not_learned_at_the_optimistic_value(tmp_path: Path) -> None:
    shape = TINY
    state, weights = train(TrainOptions(shape="2x4", games=30, block=30, optimistic=3200.0), tmp_path / "o")
    start = 3200.0 / shape.features
    moved = weights != np.float32(start)
    assert 0 < moved.sum() < weights.size and state.games == 30
    assert np.allclose(weights[~moved], start)
    with pytest.raises(TrainError, match="holds a run of"):
        train(TrainOptions(shape="2x4", games=60, block=30), tmp_path / "o", resume=True)
    assert train(TrainOptions(shape="2x4", games=60, block=30, optimistic=3200.0), tmp_path / "o", True)[0].games == 60
    for bad in ({"optimistic": -1.0}, {"optimistic": 1e12}, {"optimistic": 1.0, "init": "net.ntn"}):
        with pytest.raises(ValueError):
            TrainOptions(shape="2x4", **bad)  # type: ignore[arg-type]


def test_a_network_file_a_run_cannot_start_from_is_refused_with_the_reason(tmp_path: Path) -> None:
    base = tmp_path / "base.ntn"
    with pytest.raises(TrainError, match="cannot start from .*base.json"):
        train(TrainOptions(shape="2x4", games=10, init=str(base)), tmp_path / "r")
    write(quantize(TINY, _weights(TINY)), base, {"games": 0})
    with pytest.raises(TrainError, match="holds shape 2x4, of other tuples than 4x6"):
        train(TrainOptions(shape="4x6", games=10, init=str(base)), tmp_path / "r")
    data = bytearray(base.read_bytes())
    data[-1] ^= 1
    base.write_bytes(bytes(data))
    with pytest.raises(TrainError, match="SHA-256 differs"):
        train(TrainOptions(shape="2x4", games=10, init=str(base)), tmp_path / "r")


def test_the_spawn_odds_have_one_home_the_games() -> None:
    from game2048.game import SPAWN_FOUR_PROBABILITY
    from game2048.lab.training import kernels
    from game2048.lab.training.trainer import first_rng_state
    from game2048.search import expectimax

    assert kernels.FOUR_ONE_IN * SPAWN_FOUR_PROBABILITY == pytest.approx(1.0)
    assert (expectimax.FOUR_PROBABILITY, expectimax.TWO_PROBABILITY) == (SPAWN_FOUR_PROBABILITY, 0.9)
    state = np.array([first_rng_state(7)], dtype=np.uint64)
    tiles = [int(kernels.spawn(np.int64(0), state)) for _ in range(20_000)]  # one tile on an empty board each time
    fours = sum(1 for board in tiles if max(board >> (4 * c) & 15 for c in range(16)) == 2) / len(tiles)
    assert fours == pytest.approx(SPAWN_FOUR_PROBABILITY, abs=0.01)  # the compiled games place 4s as the game does
