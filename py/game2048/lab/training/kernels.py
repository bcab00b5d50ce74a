"""The trainer's hot path, compiled by numba: moves, tiles, the network's value and its TD updates.

A board is an ``int64`` holding the engine's 64-bit layout (``board``), so a
row is one 16-bit line key and the engine's move tables (``move_tables``)
serve here as numpy arrays.  A network is one flat ``float32`` array in the
*nibble layout*: every tuple's table has 16 entries a cell in every stage,
so a feature's index is its cells' nibbles, cut from the board's line keys
by shifts (``ntuple_shapes.nibble_runs``) as TDL2048 reads them; a stage of
fewer values caps the line keys first, so its entries past its values are
never read or written.  ``to_nibbles`` and ``from_nibbles`` (``nibble_layout``) convert from and
to the shape's own layout (``values ** cells`` a table), which checkpoints
and files keep.  ``value`` and ``update`` are the definitions of the
engine's ``ntuple_shapes.index`` in compiled form (a test compares them on
random boards of every stage).

Randomness is a 64-bit xorshift* generator whose state the caller owns (one
``uint64`` in an array), so a block of games is a pure function of the
weights and that state: training resumed from a checkpoint repeats the run
that was not interrupted, bit for bit.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from ...game import SPAWN_FOUR_PROBABILITY
from ...move_tables import ROW_LEFT, ROW_RIGHT, SCORE_LEFT, SCORE_RIGHT

# The layout and the late pool are read through this module too (``K.features``, ``K.late_pool``): the kernels'
# one name space for the trainer.
from .late_pool import LATE_RANK as LATE_RANK
from .late_pool import NO_POOL as NO_POOL
from .late_pool import POOL_HEAD, keep_late
from .late_pool import late_pool as late_pool
from .nibble_layout import Features
from .nibble_layout import features as features
from .nibble_layout import from_nibbles as from_nibbles
from .nibble_layout import grows as grows
from .nibble_layout import nibble_sizes as nibble_sizes
from .nibble_layout import promoted as promoted
from .nibble_layout import to_nibbles as to_nibbles

MOVE_TABLES = (
    np.array(ROW_LEFT, dtype=np.int64),
    np.array(ROW_RIGHT, dtype=np.int64),
    np.array(SCORE_LEFT, dtype=np.int64),
    np.array(SCORE_RIGHT, dtype=np.int64),
)
"""``move_tables``' row results and points, left and right, as arrays the kernels index."""

GAME_STATS = 4
"""Per game the kernel reports: score, largest rank, moves, and 1 if it started from a late board (``play_game``)."""

PATH_LENGTH = 1 << 17
"""Afterstates an episode keeps for the restart strategy (``play_game``): more moves than any greedy game has played
here; an episode longer than this restarts from the middle of the part it kept."""

RESTART_MIN_MOVES = 10
"""An episode of more moves than this is played again from its middle (ziap/2048-tdl's threshold)."""


def _signed(mask: int) -> int:
    """A 64-bit mask as the int64 with the same bits (the kernels' boards are int64)."""
    return mask - (1 << 64) if mask >> 63 else mask


_KEEP = _signed(0xF0F0_0F0F_F0F0_0F0F)
_NEAR_A, _NEAR_B = _signed(0x0000_F0F0_0000_F0F0), _signed(0x0F0F_0000_0F0F_0000)
_KEEP_PAIRS = _signed(0xFF00_FF00_00FF_00FF)
_FAR_A, _FAR_B = _signed(0x00FF_00FF_0000_0000), _signed(0x0000_0000_FF00_FF00)


@njit(cache=True, inline="always")
def _transpose(b):  # type: ignore[no-untyped-def]
    """``board.transpose`` on an int64: the masks only ever keep bits that a right shift cannot smear."""
    a = (b & _KEEP) | ((b & _NEAR_A) << 12) | ((b & _NEAR_B) >> 12)
    return (a & _KEEP_PAIRS) | ((a & _FAR_A) >> 24) | ((a & _FAR_B) << 24)


@njit(cache=True, inline="always")
def afterstates(b, tables, boards, points):  # type: ignore[no-untyped-def]
    """``boards[d]``, ``points[d]``: the board after each move in ``board.DIRECTIONS`` order and its points."""
    left, right, score_left, score_right = tables
    t = _transpose(b)
    up = down = lft = rgt = np.int64(0)
    p_up = p_down = p_left = p_right = 0
    for i in range(4):
        row = (b >> (16 * i)) & 0xFFFF
        col = (t >> (16 * i)) & 0xFFFF
        lft |= left[row] << (16 * i)
        rgt |= right[row] << (16 * i)
        p_left += score_left[row]
        p_right += score_right[row]
        up |= left[col] << (16 * i)
        down |= right[col] << (16 * i)
        p_up += score_left[col]
        p_down += score_right[col]
    boards[0], boards[1], boards[2], boards[3] = _transpose(up), rgt, _transpose(down), lft
    points[0], points[1], points[2], points[3] = p_up, p_right, p_down, p_left


@njit(cache=True, inline="always")
def _next_random(state):  # type: ignore[no-untyped-def]
    """xorshift64*: the next 64 bits of ``state[0]``'s stream, as a non-negative int64 (the high 63 bits)."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return np.int64((x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(1))


FOUR_ONE_IN = round(1 / SPAWN_FOUR_PROBABILITY)
"""A spawn is a 4 when a random number is a multiple of this: the game's odds (``game.SPAWN_FOUR_PROBABILITY``)
as the compiled generator draws them (a test pins them together)."""


@njit(cache=True, inline="always")
def spawn(b, state):  # type: ignore[no-untyped-def]
    """``b`` with a 2 (nine times in ten) or a 4 on an empty cell chosen uniformly; ``b`` itself when full."""
    empty = 0
    for i in range(16):
        if (b >> (4 * i)) & 15 == 0:
            empty += 1
    if empty == 0:
        return b
    pick = _next_random(state) % empty
    rank = np.int64(2) if _next_random(state) % FOUR_ONE_IN == 0 else np.int64(1)
    for i in range(16):
        if (b >> (4 * i)) & 15 == 0:
            if pick == 0:
                return b | (rank << (4 * i))
            pick -= 1
    return b


@njit(cache=True, inline="always")
def _reverse(line):  # type: ignore[no-untyped-def]
    return ((line & 0xF) << 12) | ((line & 0xF0) << 4) | ((line >> 4) & 0xF0) | (line >> 12)


@njit(cache=True, inline="always")
def indices(b, feats, keys, out):  # type: ignore[no-untyped-def]
    """``out[f]``: feature ``f``'s position in the flat weights for board ``b`` (``ntuple_shapes.index`` + offset).

    The 16 line keys of ``ntuple_shapes.LINES`` first (``keys``, scratch), capped at the board's stage, then
    each feature's runs cut from them.
    """
    runs, offsets, ranks, caps, largest = feats
    t = _transpose(b)
    top = 0
    for i in range(4):
        row = (b >> (16 * i)) & 0xFFFF
        keys[i] = row
        keys[4 + i] = (t >> (16 * i)) & 0xFFFF
        if largest[row] > top:
            top = largest[row]
    stage = 0
    for s in range(1, ranks.shape[0]):
        if top >= ranks[s]:
            stage = s
    cap = caps[stage]
    for i in range(8):
        key = cap[keys[i]]
        keys[i] = key
        keys[8 + i] = _reverse(key)
    base = offsets[stage]
    if runs.shape[1] == 8:  # two runs a feature at most (every named shape): unrolled, a third faster
        for f in range(runs.shape[0]):
            run = runs[f]
            out[f] = (
                base[f]
                + (((keys[run[0]] >> run[1]) & run[2]) << run[3])
                + (((keys[run[4]] >> run[5]) & run[6]) << run[7])
            )
        return
    for f in range(runs.shape[0]):
        idx = base[f]
        run = runs[f]
        for p in range(0, runs.shape[1], 4):
            idx += ((keys[run[p]] >> run[p + 1]) & run[p + 2]) << run[p + 3]
        out[f] = idx


@njit(cache=True, inline="always")
def _sum(weights, idx):  # type: ignore[no-untyped-def]
    total = 0.0
    for f in range(idx.shape[0]):
        total += weights[idx[f]]
    return total


@njit(cache=True, inline="always")
def value(weights, b, feats, keys, idx):  # type: ignore[no-untyped-def]
    """The network's value of ``b``: the sum of its features' weights (``idx``, ``keys``: scratch)."""
    indices(b, feats, keys, idx)
    return _sum(weights, idx)


@njit(cache=True, inline="always")
def td_step(weights, idx, target, alpha):  # type: ignore[no-untyped-def]
    """TD(0) on the afterstate whose feature positions are ``idx``: each weight moves by ``alpha × (target − V)``.

    The one statement of the learning rule (Szubert & Jaśkowski 2014); a
    weight read by two images moves twice.  Returns the error ``target − V``.
    """
    error = target - _sum(weights, idx)
    delta = alpha * error
    for f in range(idx.shape[0]):
        weights[idx[f]] += delta
    return error


NO_COHERENCE = np.zeros((2, 0), dtype=np.float32)
"""The coherence accumulators of a run without temporal coherence: none."""


def coherence_arrays(weights: int) -> np.ndarray:
    """Fresh accumulators for ``tc_step``: row 0 the sum of each weight's errors, row 1 of their sizes."""
    return np.zeros((2, weights), dtype=np.float32)


@njit(cache=True, inline="always")
def tc_step(weights, tc, idx, target, alpha):  # type: ignore[no-untyped-def]
    """TD(0) with temporal coherence (Beal & Smith 1999; Jaśkowski 2018): each weight moves by its own rate.

    A weight's rate is ``alpha × |E| / A``, ``E`` the sum of the errors that moved it (``tc[0]``) and ``A``
    the sum of their sizes (``tc[1]``): a weight whose errors keep one sign learns at ``alpha``, one whose
    errors cancel out slows down, and one never moved learns at ``alpha``.  Returns the error.
    """
    error = target - _sum(weights, idx)
    size = abs(error)
    for f in range(idx.shape[0]):
        i = idx[f]
        moved = tc[1, i]
        rate = abs(tc[0, i]) / moved if moved > 0.0 else 1.0
        weights[i] += alpha * rate * error
        tc[0, i] += error
        tc[1, i] += size
    return error


@njit(cache=True, inline="always")
def _learn(weights, tc, idx, target, alphas, offsets):  # type: ignore[no-untyped-def]
    """``tc_step`` when the run keeps coherence accumulators, else ``td_step``, at the rate ``alphas`` gives the
    afterstate's stage: the last stage whose first table (``offsets``, ``Features``) its first feature is in."""
    stage = 0
    for s in range(1, alphas.shape[0]):
        if idx[0] >= offsets[s, 0]:
            stage = s
    if tc.shape[1] > 0:
        return tc_step(weights, tc, idx, target, alphas[stage])
    return td_step(weights, idx, target, alphas[stage])


class Scratch(NamedTuple):
    """Work arrays a kernel reuses move after move (no allocation per move)."""

    boards: np.ndarray
    points: np.ndarray
    keys: np.ndarray
    idx: np.ndarray
    before: np.ndarray
    path: np.ndarray
    """The episode's afterstates, for the restart strategy and the backward updates."""
    rewards: np.ndarray
    """The points of the move into each of ``path``'s afterstates, for the backward updates."""


def scratch(feats: Features, path_length: int = PATH_LENGTH) -> Scratch:
    """Fresh work arrays for a network with ``feats``."""
    n = feats.runs.shape[0]
    z = np.zeros
    return Scratch(
        z(4, np.int64),
        z(4, np.int64),
        z(16, np.int64),
        z((4, n), np.int64),
        z(n, np.int64),
        z(path_length, np.int64),
        z(path_length, np.int64),
    )


@njit(cache=True, inline="always")
def greedy_move(weights, b, feats, tables, work):  # type: ignore[no-untyped-def]
    """The move maximising points + V(afterstate): (its index in DIRECTIONS, or −1 when none is legal, its value).

    ``work.boards[d]``, ``work.points[d]`` and ``work.idx[d]`` hold each move's afterstate, points and features.
    """
    afterstates(b, tables, work.boards, work.points)
    best = -1
    best_value = 0.0
    for d in range(4):
        if work.boards[d] != b:
            v = work.points[d] + value(weights, work.boards[d], feats, work.keys, work.idx[d])
            if best < 0 or v > best_value:
                best, best_value = d, v
    return best, best_value


@njit(cache=True)
def new_board(state):  # type: ignore[no-untyped-def]
    """A game's first board: two tiles, as ``game.Game`` starts (2 or 4 each, on distinct cells)."""
    return spawn(spawn(np.int64(0), state), state)


@njit(cache=True)
def _max_rank(b):  # type: ignore[no-untyped-def]
    best = 0
    for i in range(16):
        r = (b >> (4 * i)) & 15
        if r > best:
            best = r
    return best


ONLINE = -1.0
"""``lam`` of a run that learns online, after every move (TD(0)); a ``lam`` of 0 to 1 learns backwards instead."""


@njit(cache=True)
def learn_back(weights, tc, path, rewards, kept, exact, lam, alphas, feats, keys, idx):  # type: ignore[no-untyped-def]
    """TD(λ) over afterstates ``path[:kept]``, the last first, as ziap/2048-tdl learns at the end of an episode.

    ``exact`` is the return after ``path[kept - 1]`` (0 at a game's end).  Each afterstate learns toward it
    (``_learn``); then the return before it becomes ``rewards[k] + λ × exact + (1 − λ) × V(path[k])``, with
    the value just learned, so the end of a game reaches back many moves at once.  λ = 0 is TD(0) taken
    backwards.  Returns the return before ``path[0]``; ``idx`` and ``keys`` are scratch.
    """
    for k in range(kept - 1, -1, -1):
        indices(path[k], feats, keys, idx)
        _learn(weights, tc, idx, exact, alphas, feats.offsets)
        exact = rewards[k] + lam * exact + (1.0 - lam) * _sum(weights, idx)
    return exact


@njit(cache=True)
def play_game(weights, alphas, state, feats, tables, work, restart, tc, lam, late, pool):  # type: ignore[no-untyped-def]
    """One game played greedily on the network, learning as it goes when ``alphas`` (a rate per stage) are > 0.

    Online afterstate TD(0): once the next move is chosen, the previous
    afterstate's value moves toward that move's points plus its afterstate's
    value; when no move is left, toward 0.  With ``restart`` (when learning),
    the restart strategy of Matsuzaki (2016) as ziap/2048-tdl trains: a game
    over is played again from the afterstate halfway through its last episode
    (a new tile placed), and again, until an episode has at most
    ``RESTART_MIN_MOVES`` moves, so the late game, which few games reach,
    is learned many times per game.  With coherence accumulators ``tc`` (not
    ``NO_COHERENCE``), each update is ``tc_step``'s.  With ``lam`` from 0 to 1
    (not ``ONLINE``), nothing is learned during an episode: at its end its
    afterstates learn backwards (``learn_back``); an episode longer than the
    path learns all but its last kept afterstate, bootstrapped from that one's
    value, and keeps going.  With ``late`` > 0 and boards in ``pool``, a
    share ``late`` of games start from one of them instead of a new board
    (carousel shaping, Jaśkowski 2018): the board where an earlier game's
    largest tile first reached the pool's rank, which the other games keep in
    ``pool``; their score and moves count from there.  Returns the first
    episode's (score, largest rank, moves), the moves of all episodes, and
    whether the game started late.
    """
    learn = alphas[0] > 0.0
    backward = learn and lam >= 0.0
    path = work.path
    rewards = work.rewards
    capacity = path.shape[0]
    started_late = late > 0.0 and pool[1] > 0 and _next_random(state) % 1_000_000 < late * 1_000_000
    if started_late:
        b = pool[POOL_HEAD + _next_random(state) % pool[1]]
    else:
        b = new_board(state)
    keeping = late > 0.0 and not started_late and pool.shape[0] > POOL_HEAD
    score = 0
    moves = 0
    first_rank = -1
    first_moves = 0
    episode = 0
    kept = 0  # afterstates in path: the episode's first ones (online), or those since the last flush (backward)
    while True:
        d, target = greedy_move(weights, b, feats, tables, work)
        if d < 0:
            if backward and kept:
                learn_back(weights, tc, path, rewards, kept, 0.0, lam, alphas, feats, work.keys, work.before)
            elif learn and episode:
                _learn(weights, tc, work.before, 0.0, alphas, feats.offsets)
            if first_rank < 0:
                first_rank = _max_rank(b)
                first_moves = moves
            if restart and learn and episode > RESTART_MIN_MOVES:
                b = spawn(path[kept // 2], state)
                episode = 0
                kept = 0
                continue
            break
        if backward:
            if kept == capacity:  # the path is full: learn it up to its last afterstate, which stays
                last = capacity - 1
                exact = rewards[last] + value(weights, path[last], feats, work.keys, work.before)
                learn_back(weights, tc, path, rewards, last, exact, lam, alphas, feats, work.keys, work.before)
                path[0] = path[last]
                rewards[0] = rewards[last]
                kept = 1
        elif learn:
            if episode:
                _learn(weights, tc, work.before, target, alphas, feats.offsets)
            work.before[:] = work.idx[d]
        if kept < capacity:
            path[kept] = work.boards[d]
            rewards[kept] = work.points[d]
            kept += 1
        if first_rank < 0:
            score += work.points[d]
        moves += 1
        episode += 1
        b = spawn(work.boards[d], state)
        if keeping and first_rank < 0 and _max_rank(b) >= pool[0]:
            keep_late(pool, b)
            keeping = False
    return score, first_rank, first_moves, moves, started_late


@njit(cache=True)
def play_games(weights, games, alphas, state, feats, tables, work, stats, restart, tc, lam, late, pool):  # type: ignore[no-untyped-def]
    """``games`` games of ``play_game``, one after the other; ``stats[g]`` = score, largest rank, moves, started late.

    Returns the moves played (restarts included).  The games are a pure function of the weights and ``state``.
    """
    total_moves = 0
    for g in range(games):
        score, rank, moves, played, started_late = play_game(
            weights, alphas, state, feats, tables, work, restart, tc, lam, late, pool
        )
        stats[g, 0] = score
        stats[g, 1] = rank
        stats[g, 2] = moves
        stats[g, 3] = started_late
        total_moves += played
    return total_moves


@njit(cache=True)
def play_on(weights, starts, repeats, state, feats, tables, work, stats):  # type: ignore[no-untyped-def]
    """Each board of ``starts`` played on greedily ``repeats`` times, without learning (a suite's positions).

    ``stats[k * repeats + r]`` = points scored after the board, largest rank, moves after the board; the
    spawns come from ``state``, so the trials are a pure function of the weights and ``state``.
    """
    for k in range(starts.shape[0]):
        for r in range(repeats):
            b = starts[k]
            points = 0
            moves = 0
            while True:
                d, _ = greedy_move(weights, b, feats, tables, work)
                if d < 0:
                    break
                points += work.points[d]
                moves += 1
                b = spawn(work.boards[d], state)
            stats[k * repeats + r, 0] = points
            stats[k * repeats + r, 1] = _max_rank(b)
            stats[k * repeats + r, 2] = moves


@njit(cache=True, parallel=True)
def play_games_threads(weights, games, alphas, states, feats, tables, stats, restart, tc, lam, late, pool):  # type: ignore[no-untyped-def]
    """``play_games`` on ``len(states)`` threads sharing the weights, each with its own generator and work arrays.

    Lock-free, as Jaśkowski (2018) trains: two threads may update one weight at
    once and one update can be lost, which learning shrugs off; the games are
    then not reproducible bit for bit.  Thread ``t`` plays games t, t + T, ...  The late boards' ``pool`` is
    shared the same way.
    """
    threads = states.shape[0]
    n = feats.runs.shape[0]
    moves = np.zeros(threads, dtype=np.int64)
    for t in prange(threads):
        work = Scratch(
            np.zeros(4, np.int64),
            np.zeros(4, np.int64),
            np.zeros(16, np.int64),
            np.zeros((4, n), np.int64),
            np.zeros(n, np.int64),
            np.zeros(PATH_LENGTH, np.int64),
            np.zeros(PATH_LENGTH, np.int64),
        )
        state = states[t : t + 1]
        for g in range(t, games, threads):
            score, rank, first, played, started_late = play_game(
                weights, alphas, state, feats, tables, work, restart, tc, lam, late, pool
            )
            stats[g, 0] = score
            stats[g, 1] = rank
            stats[g, 2] = first
            stats[g, 3] = started_late
            moves[t] += played
    return moves.sum()
