"""The trainer's hot path, compiled by numba: moves, tiles, the network's value and its TD updates.

A board is an ``int64`` holding the engine's 64-bit layout (``board``), so a
row is one 16-bit line key and the engine's move tables (``move_tables``)
serve here as numpy arrays.  A network is one flat ``float32`` array of all
its tables and a *feature table*: for each tuple read on each of the board's
eight images (``ntuple_shapes.images``), its cells' bit shifts, its length and
its table's offset.  ``value`` and ``update`` are the definitions of the
engine's ``ntuple_shapes.index`` in compiled form (a test compares them on
random boards).

Randomness is a 64-bit xorshift* generator whose state the caller owns (one
``uint64`` in an array), so a block of games is a pure function of the
weights and that state: training resumed from a checkpoint repeats the run
that was not interrupted, bit for bit.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from ..evaluation.ntuple_shapes import Shape, line_plan
from ..move_tables import ROW_LEFT, ROW_RIGHT, SCORE_LEFT, SCORE_RIGHT

MOVE_TABLES = (
    np.array(ROW_LEFT, dtype=np.int64),
    np.array(ROW_RIGHT, dtype=np.int64),
    np.array(SCORE_LEFT, dtype=np.int64),
    np.array(SCORE_RIGHT, dtype=np.int64),
)
"""``move_tables``' row results and points, left and right, as arrays the kernels index."""

GAME_STATS = 3
"""Per game the kernel reports: score, largest rank, moves."""

PATH_LENGTH = 1 << 17
"""Afterstates an episode keeps for the restart strategy (``play_game``): more moves than any greedy game has played
here; an episode longer than this restarts from the middle of the part it kept."""

RESTART_MIN_MOVES = 10
"""An episode of more moves than this is played again from its middle (ziap/2048-tdl's threshold)."""


class Features(NamedTuple):
    """A shape's ``ntuple_shapes.LinePlan`` as arrays: what ``indices`` reads for each feature ``f``.

    ``lines[f, p]`` and ``parts[f, p]`` (the part's table start in ``tables``,
    ``p << 16``) for its ``widths[f]`` parts, ``offsets[f]`` its weight table's
    start in the flat weights; ``tables[(p << 16) + key]`` is part ``p``'s
    share of the index for line key ``key``.
    """

    lines: np.ndarray
    parts: np.ndarray
    widths: np.ndarray
    offsets: np.ndarray
    tables: np.ndarray


def features(shape: Shape) -> Features:
    """The arrays of ``shape``'s line plan."""
    plan = line_plan(shape)
    widest = max(len(reads) for reads in plan.reads)
    n = len(plan.reads)
    lines = np.zeros((n, widest), dtype=np.int64)
    parts = np.zeros((n, widest), dtype=np.int64)
    widths = np.array([len(reads) for reads in plan.reads], dtype=np.int64)
    starts = np.cumsum([0] + [shape.table_size(t) for t in range(len(shape.tuples))])
    offsets = np.array([starts[t] for t in plan.tuple_of], dtype=np.int64)
    for f, reads in enumerate(plan.reads):
        for p, (line, part) in enumerate(reads):
            lines[f, p], parts[f, p] = line, part
    tables = np.array(plan.parts, dtype=np.int32).reshape(-1)  # part p's table starts at p << 16
    return Features(lines, parts << 16, widths, offsets, tables)


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


@njit(cache=True)
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


@njit(cache=True)
def spawn(b, state):  # type: ignore[no-untyped-def]
    """``b`` with a 2 (nine times in ten) or a 4 on an empty cell chosen uniformly; ``b`` itself when full."""
    empty = 0
    for i in range(16):
        if (b >> (4 * i)) & 15 == 0:
            empty += 1
    if empty == 0:
        return b
    pick = _next_random(state) % empty
    rank = np.int64(2) if _next_random(state) % 10 == 0 else np.int64(1)
    for i in range(16):
        if (b >> (4 * i)) & 15 == 0:
            if pick == 0:
                return b | (rank << (4 * i))
            pick -= 1
    return b


@njit(cache=True, inline="always")
def _reverse(line):  # type: ignore[no-untyped-def]
    return ((line & 0xF) << 12) | ((line & 0xF0) << 4) | ((line >> 4) & 0xF0) | (line >> 12)


@njit(cache=True)
def indices(b, feats, keys, out):  # type: ignore[no-untyped-def]
    """``out[f]``: feature ``f``'s position in the flat weights for board ``b`` (``ntuple_shapes.index`` + offset).

    The 16 line keys of ``ntuple_shapes.LINES`` first (``keys``, scratch), then each feature's parts by table.
    """
    lines, parts, widths, offsets, tables = feats
    t = _transpose(b)
    for i in range(4):
        row = (b >> (16 * i)) & 0xFFFF
        col = (t >> (16 * i)) & 0xFFFF
        keys[i] = row
        keys[4 + i] = col
        keys[8 + i] = _reverse(row)
        keys[12 + i] = _reverse(col)
    for f in range(widths.shape[0]):
        idx = offsets[f]
        for p in range(widths[f]):
            idx += tables[parts[f, p] + keys[lines[f, p]]]
        out[f] = idx


@njit(cache=True, inline="always")
def _sum(weights, idx):  # type: ignore[no-untyped-def]
    total = 0.0
    for f in range(idx.shape[0]):
        total += weights[idx[f]]
    return total


@njit(cache=True)
def value(weights, b, feats, keys, idx):  # type: ignore[no-untyped-def]
    """The network's value of ``b``: the sum of its features' weights (``idx``, ``keys``: scratch)."""
    indices(b, feats, keys, idx)
    return _sum(weights, idx)


@njit(cache=True)
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


@njit(cache=True)
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
def _learn(weights, tc, idx, target, alpha):  # type: ignore[no-untyped-def]
    """``tc_step`` when the run keeps coherence accumulators, else ``td_step``."""
    if tc.shape[1] > 0:
        return tc_step(weights, tc, idx, target, alpha)
    return td_step(weights, idx, target, alpha)


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
    n = feats.widths.shape[0]
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


@njit(cache=True)
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
def learn_back(weights, tc, path, rewards, kept, exact, lam, alpha, feats, keys, idx):  # type: ignore[no-untyped-def]
    """TD(λ) over afterstates ``path[:kept]``, the last first, as ziap/2048-tdl learns at the end of an episode.

    ``exact`` is the return after ``path[kept - 1]`` (0 at a game's end).  Each afterstate learns toward it
    (``_learn``); then the return before it becomes ``rewards[k] + λ × exact + (1 − λ) × V(path[k])``, with
    the value just learned, so the end of a game reaches back many moves at once.  λ = 0 is TD(0) taken
    backwards.  Returns the return before ``path[0]``; ``idx`` and ``keys`` are scratch.
    """
    for k in range(kept - 1, -1, -1):
        indices(path[k], feats, keys, idx)
        _learn(weights, tc, idx, exact, alpha)
        exact = rewards[k] + lam * exact + (1.0 - lam) * _sum(weights, idx)
    return exact


@njit(cache=True)
def play_game(weights, alpha, state, feats, tables, work, restart, tc, lam):  # type: ignore[no-untyped-def]
    """One game played greedily on the network, learning as it goes when ``alpha`` > 0.

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
    value, and keeps going.  Returns the first episode's (score, largest
    rank, moves) and the moves of all episodes.
    """
    learn = alpha > 0.0
    backward = learn and lam >= 0.0
    path = work.path
    rewards = work.rewards
    capacity = path.shape[0]
    b = new_board(state)
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
                learn_back(weights, tc, path, rewards, kept, 0.0, lam, alpha, feats, work.keys, work.before)
            elif learn and episode:
                _learn(weights, tc, work.before, 0.0, alpha)
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
                learn_back(weights, tc, path, rewards, last, exact, lam, alpha, feats, work.keys, work.before)
                path[0] = path[last]
                rewards[0] = rewards[last]
                kept = 1
        elif learn:
            if episode:
                _learn(weights, tc, work.before, target, alpha)
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
    return score, first_rank, first_moves, moves


@njit(cache=True)
def play_games(weights, games, alpha, state, feats, tables, work, stats, restart, tc, lam):  # type: ignore[no-untyped-def]
    """``games`` games of ``play_game``, one after the other; ``stats[g]`` = score, largest rank, moves.

    Returns the moves played (restarts included).  The games are a pure function of the weights and ``state``.
    """
    total_moves = 0
    for g in range(games):
        score, rank, moves, played = play_game(weights, alpha, state, feats, tables, work, restart, tc, lam)
        stats[g, 0] = score
        stats[g, 1] = rank
        stats[g, 2] = moves
        total_moves += played
    return total_moves


@njit(cache=True, parallel=True)
def play_games_threads(weights, games, alpha, states, feats, tables, stats, restart, tc, lam):  # type: ignore[no-untyped-def]
    """``play_games`` on ``len(states)`` threads sharing the weights, each with its own generator and work arrays.

    Lock-free, as Jaśkowski (2018) trains: two threads may update one weight at
    once and one update can be lost, which learning shrugs off; the games are
    then not reproducible bit for bit.  Thread ``t`` plays games t, t + T, ...
    """
    threads = states.shape[0]
    n = feats.widths.shape[0]
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
            score, rank, first, played = play_game(weights, alpha, state, feats, tables, work, restart, tc, lam)
            stats[g, 0] = score
            stats[g, 1] = rank
            stats[g, 2] = first
            moves[t] += played
    return moves.sum()
