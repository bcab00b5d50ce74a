"""Training an n-tuple network by TD learning: the loop around the kernels, its options, checkpoints and curve.

``train(options, out)`` plays ``options.games`` games in blocks of
``options.block`` with ``kernels.play_games``; after each block it
adds the block's scores and tiles to the learning curve and, at least every
``options.checkpoint_s`` seconds and at the end, saves a checkpoint: the
weights, the random generator's state and the curve in one ``.npz`` written
under a temporary name and renamed, so a crash at any moment leaves the last
checkpoint whole.  ``--resume`` starts from it and plays the same blocks the
uninterrupted run would have played: the weights come out bit for bit equal.
Ctrl-C (in the main thread) ends the block being played, checkpoints it and
raises ``TrainingInterrupted``; a second Ctrl-C interrupts at once.
"""

from __future__ import annotations

import json
import math
import signal
import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...evaluation.ntuple_shapes import Shape, parse_shape
from .. import out_files
from . import kernels as K

CHECKPOINT = "checkpoint.npz"
CURVE = "curve.jsonl"
TILES = (2048, 8192, 16384, 32768)
MAX_OPTIMISTIC = 10_000_000
"""The largest optimistic start (``TrainOptions.optimistic``): far above any score a game reaches."""
"""The tiles whose rates the curve and the progress report."""


class TrainError(Exception):
    """A training run that cannot start or resume as asked; the message says why."""


class TrainingInterrupted(KeyboardInterrupt):
    """Ctrl-C during training, after the games played so far were checkpointed; the message says where."""


@contextmanager
def _interrupt_between_blocks() -> Iterator[list[bool]]:
    """A flag that Ctrl-C sets instead of interrupting, so the kernels' block ends and is kept.

    The compiled kernels do not look at signals anyway: an interrupt would land after the block, between the
    weights' update and the state's, and leave them out of step.  A second Ctrl-C interrupts at once.  Outside
    the main thread, or when SIGINT is not Python's own handler, nothing changes.
    """
    asked = [False]
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield asked
        return

    def ask(signum: int, frame: Any) -> None:
        asked[0] = True
        signal.signal(signal.SIGINT, signal.default_int_handler)

    signal.signal(signal.SIGINT, ask)
    try:
        yield asked
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@dataclass(frozen=True)
class TrainOptions:
    """What a training run is: shape, games, learning rate, seed, and how often it reports and saves.

    ``alpha`` is each weight's learning rate, as in Szubert & Jaśkowski (a
    board's value moves by up to ``alpha`` × features × error); the literature's
    rate with temporal coherence is given per board (``train --board-alpha``,
    ``alpha`` = it / ``Shape.features``).  ``block`` is
    the games per kernel call and per point of the learning curve.  With
    ``threads`` > 1 the games are shared among threads that update the weights
    without locks (``kernels.play_games_threads``): faster, no longer
    reproducible bit for bit; one thread is.
    """

    shape: str = "4x6"
    games: int = 100_000
    alpha: float = 0.0025
    seed: int = 1
    block: int = 1_000
    checkpoint_s: float = 300.0
    threads: int = 1
    init: str = ""
    """A network file (its manifest beside it) whose weights the run starts from instead of zeros: a
    trained network fine-tuned at a smaller ``alpha``.  Empty: from zeros."""
    restart: bool = False
    """Each game over is played again from halfway through, and again (``kernels.play_game``): the late
    game learned many times per game.  The curve still reports each game's first episode."""
    coherence: bool = False
    """Temporal coherence learning (``kernels.tc_step``): each weight's rate is ``alpha`` times how
    consistently its errors point one way; the accumulators are kept in the checkpoint."""
    lam: float | None = None
    """None: online TD(0), each afterstate learned once the next move is chosen.  0 to 1: each episode learned
    at its end, backwards, by TD(λ) (``kernels.learn_back``, as ziap/2048-tdl trains)."""
    late_alpha: float | None = None
    """Each weight's rate in the shape's last stage (from 8192 in ``4x6-late``), where the late game is learned;
    None: ``alpha`` there too.  A trained network's early stage can go on slowly while its late one, whose
    weights only rare boards reach, learns at the literature's rate."""
    late: float = 0.0
    """The share of games started from a board where an earlier game's 16384 first formed (``kernels.play_game``;
    carousel shaping): the late game, which few games reach, learned from where it begins.  0: none."""
    optimistic: float = 0.0
    """A board's value before any learning, for a run from zeros: each weight starts at it / the shape's features,
    so a board the network has not yet learned looks better than any it has, and the player goes to try it (Guei et
    al. 2022's optimistic initialisation; 320,000 in the paper).  0: every weight starts at 0."""

    def __post_init__(self) -> None:
        parse_shape(self.shape)  # refuses an unknown shape with its own message
        if self.games < 1 or self.block < 1:
            raise ValueError(f"games and block are at least 1, got {self.games} and {self.block}")
        if not 0 < self.alpha <= 1:
            raise ValueError(f"alpha is a learning rate in (0, 1], got {self.alpha}")
        if self.checkpoint_s <= 0:
            raise ValueError(f"checkpoint_s is positive, got {self.checkpoint_s}")
        if not 1 <= self.threads <= 64:
            raise ValueError(f"threads is 1 to 64, got {self.threads}")
        if self.lam is not None and not 0.0 <= self.lam <= 1.0:
            raise ValueError(f"lambda is 0 to 1, got {self.lam}")
        if self.late_alpha is not None:
            if not 0 < self.late_alpha <= 1:
                raise ValueError(f"the late stage's alpha is a learning rate in (0, 1], got {self.late_alpha}")
            if len(parse_shape(self.shape).stage_values) < 2:
                raise ValueError(f"shape {self.shape} has one stage: a late stage's alpha needs a shape with stages")
        if not 0.0 <= self.late < 1.0:
            raise ValueError(f"the share of late starts is at least 0 and below 1, got {self.late}")
        if not 0.0 <= self.optimistic <= MAX_OPTIMISTIC:
            raise ValueError(f"the optimistic value is 0 to {MAX_OPTIMISTIC:,}, got {self.optimistic}")
        if self.optimistic and self.init:
            raise ValueError("an optimistic start is for a run from zeros; a run from a file starts at its weights")

    def same_run(self) -> dict[str, object]:
        """The options a resumed run must share with the checkpoint (the total games may grow)."""
        return {
            "shape": self.shape,
            "alpha": self.alpha,
            "seed": self.seed,
            "block": self.block,
            "threads": self.threads,
            "init": self.init,
            "restart": self.restart,
            "coherence": self.coherence,
            "lam": self.lam,
            "late_alpha": self.late_alpha,
            "late": self.late,
            "optimistic": self.optimistic,
        }

    def alphas(self) -> np.ndarray:
        """Each stage's rate a weight learns at, for the kernels: ``alpha``, and ``late_alpha`` in the last."""
        rates = np.full(len(parse_shape(self.shape).stage_values), self.alpha, dtype=np.float64)
        if self.late_alpha is not None:
            rates[-1] = self.late_alpha
        return rates


@dataclass
class TrainState:
    """Where a run stands: games and moves played, seconds spent, each thread's generator state, the curve so far."""

    games: int = 0
    moves: int = 0
    seconds: float = 0.0
    rng: list[int] = field(default_factory=list)
    curve: list[dict[str, float]] = field(default_factory=list)
    init_sha256: str = ""
    """The SHA-256 of the network file the run started from (``TrainOptions.init``), if any."""
    init_coherence: bool = False
    """Whether the run's accumulators started from those exported beside ``TrainOptions.init``
    (``coherence_file``) rather than empty."""
    pool: list[int] = field(default_factory=list)
    """The late boards games start from (``kernels.late_pool``: rank, kept, next, boards), for ``TrainOptions.late``."""


def first_rng_state(seed: int) -> int:
    """The generator's first state for ``seed``: splitmix64 of it, never 0 (xorshift's fixed point)."""
    z = (seed + 0x9E37_79B9_7F4A_7C15) & 0xFFFF_FFFF_FFFF_FFFF
    z = ((z ^ (z >> 30)) * 0xBF58_476D_1CE4_E5B9) & 0xFFFF_FFFF_FFFF_FFFF
    z = ((z ^ (z >> 27)) * 0x94D0_49BB_1331_11EB) & 0xFFFF_FFFF_FFFF_FFFF
    return (z ^ (z >> 31)) or 1


LATE_POOL = 1024
"""Late boards a run with late starts keeps to start from, the newest over the oldest."""


def curve_point(games: int, stats: np.ndarray, moves_per_s: float) -> dict[str, float]:
    """One point of the learning curve: a block's mean score, mean moves and tile rates over its games from a new
    board, after ``games`` games; with late starts, how many there were and the share of them reaching 32768."""
    late = stats[:, 3] == 1
    new = stats[~late] if (~late).any() else stats
    point: dict[str, float] = {
        "games": games,
        "mean_score": float(new[:, 0].mean()),
        "mean_moves": float(new[:, 2].mean()),
        "moves_per_s": moves_per_s,
    }
    for tile in TILES:
        point[f"rate_{tile}"] = float((new[:, 1] >= int(math.log2(tile))).mean())
    if late.any():
        point["late_games"] = int(late.sum())
        point["late_rate_32768"] = float((stats[late, 1] >= 15).mean())
    return point


def save_checkpoint(
    out: Path, options: TrainOptions, state: TrainState, weights: np.ndarray, tc: np.ndarray = K.NO_COHERENCE
) -> None:
    """Weights, state and coherence accumulators (if any) in ``out/checkpoint.npz`` (written aside, then renamed),
    and the curve as JSON lines."""
    out_files.folder(out)
    meta = json.dumps({"options": asdict(options), "state": asdict(state)})
    with out_files.replacing(out / CHECKPOINT, binary=True) as handle:
        np.savez(handle, weights=weights, meta=np.array(meta), coherence=tc)
    out_files.write_text(out / CURVE, "".join(json.dumps(point) + "\n" for point in state.curve))


def load_coherence(out: Path, weights: int) -> np.ndarray:
    """The coherence accumulators ``out/checkpoint.npz`` keeps for ``weights`` weights; ``TrainError`` if none."""
    try:
        with np.load(out / CHECKPOINT) as data:
            tc = np.array(data["coherence"], dtype=np.float32)
    except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        raise TrainError(f"{out / CHECKPOINT} has no readable coherence accumulators: {exc}") from None
    if tc.shape != (2, weights):
        raise TrainError(f"{out / CHECKPOINT} has coherence accumulators of shape {tc.shape}, not (2, {weights})")
    return tc


def load_checkpoint(out: Path) -> tuple[dict[str, object], TrainState, np.ndarray]:
    """(options as saved, state, weights) of ``out/checkpoint.npz``; ``TrainError`` when it is missing or damaged."""
    path = out / CHECKPOINT
    if not path.exists():
        raise TrainError(f"no training run to read: {path} does not exist")
    if path.stat().st_size == 0:
        raise TrainError(f"{path} is empty, not a checkpoint: remove it, or give the run's folder that holds one")
    try:
        with np.load(path) as data:
            meta = json.loads(str(data["meta"]))
            weights = np.array(data["weights"], dtype=np.float32)
        state = TrainState(**meta["state"])
        if isinstance(state.rng, int):  # a checkpoint from before threads: one generator
            state.rng = [state.rng]
        defaults = {
            "threads": 1,
            "init": "",
            "restart": False,
            "coherence": False,
            "lam": None,
            "late": 0.0,
            "late_alpha": None,
            "optimistic": 0.0,
        }
        return {**defaults, **meta["options"]}, state, weights
    except (OSError, EOFError, ValueError, KeyError, TypeError, zipfile.BadZipFile) as exc:
        raise TrainError(f"{path} is not a readable checkpoint: {exc}") from None


Report = Callable[[TrainState, dict[str, float]], None]


def train(
    options: TrainOptions, out: Path, resume: bool = False, report: Report | None = None
) -> tuple[TrainState, np.ndarray]:
    """Train (or resume) the run ``options`` describes in folder ``out``; the final state and weights.

    ``report(state, point)`` is called after every block (the progress bar).
    """
    shape = parse_shape(options.shape)
    if resume:
        saved, state, weights = load_checkpoint(out)
        mine = options.same_run()
        theirs = {key: saved.get(key) for key in mine}
        if theirs != mine:
            raise TrainError(f"{out} holds a run of {theirs}, not {mine}: give another --out, or the same options")
        if weights.shape != (shape.weights,):
            raise TrainError(f"{out} holds {weights.shape[0]} weights; shape {options.shape} has {shape.weights}")
        tc = load_coherence(out, shape.weights) if options.coherence else K.NO_COHERENCE
        weights = K.to_nibbles(shape, weights)
        if options.coherence:
            tc = np.stack([K.to_nibbles(shape, row) for row in tc])
    else:
        state = TrainState(rng=[first_rng_state(options.seed + t * 1_000_003) for t in range(options.threads)])
        kept = None
        if options.init:
            weights, state.init_sha256, kept = initial_weights(Path(options.init), shape, options.coherence)
        else:
            weights = np.full(sum(K.nibble_sizes(shape)), options.optimistic / shape.features, dtype=np.float32)
        tc = K.coherence_arrays(weights.shape[0]) if options.coherence else K.NO_COHERENCE
        if kept is not None:
            tc = kept
            state.init_coherence = True
    feats = K.features(shape)
    work = K.scratch(feats)
    rng = np.array(state.rng, dtype=np.uint64)
    pool = K.late_pool(LATE_POOL if options.late > 0 else 0, K.LATE_RANK)
    alphas = options.alphas()
    if state.pool:
        pool[:] = state.pool
    stats = np.zeros((options.block, K.GAME_STATS), dtype=np.int64)
    lam = K.ONLINE if options.lam is None else options.lam
    last_saved = time.perf_counter()
    with _interrupt_between_blocks() as interrupted:
        while state.games < options.games:
            count = min(options.block, options.games - state.games)
            started = time.perf_counter()
            head = (weights, count, alphas, rng, feats, K.MOVE_TABLES)
            tail = (stats, options.restart, tc, lam, options.late, pool)
            if options.threads == 1:
                moves = K.play_games(*head, work, *tail)
            else:
                moves = K.play_games_threads(*head, *tail)
            seconds = time.perf_counter() - started
            state.games += count
            state.moves += int(moves)
            state.seconds += seconds
            state.rng = [int(r) for r in rng]
            state.pool = [int(x) for x in pool] if options.late > 0 else []
            point = curve_point(state.games, stats[:count], moves / seconds if seconds > 0 else 0.0)
            state.curve.append(point)
            if report is not None:
                report(state, point)
            due = time.perf_counter() - last_saved >= options.checkpoint_s or state.games >= options.games
            if due or interrupted[0]:
                save_checkpoint(out, options, state, *in_shape_layout(shape, weights, tc))
                last_saved = time.perf_counter()
            if interrupted[0] and state.games < options.games:
                raise TrainingInterrupted(
                    f"interrupted: {state.games:,} games kept in {out / CHECKPOINT}; "
                    "the same command with --resume goes on"
                )
    return state, K.from_nibbles(shape, weights)


def in_shape_layout(shape: Shape, weights: np.ndarray, tc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The kernels' weights and coherence accumulators (nibble layout) as a checkpoint keeps them."""
    if tc.shape[1]:
        tc = np.stack([K.from_nibbles(shape, row) for row in tc])
    return K.from_nibbles(shape, weights), tc


def initial_weights(path: Path, shape: Shape, coherence: bool = False) -> tuple[np.ndarray, str, np.ndarray | None]:
    """The weights of the network file at ``path`` (checked against the manifest beside it), in the kernels'
    nibble layout for ``shape``, the file's SHA-256, and with ``coherence`` the accumulators exported beside it
    (``coherence_file``; nibble layout too), or None.

    A file of the same tuples but other values or stages starts each of the run's stages from the file's
    stage that valued its first boards (``kernels.promoted``), and its accumulators the same way, so a new
    stage goes on at the rates its weights reached.  A run's shape may add tuples to the file's: they start at 0
    and unmoved.  ``TrainError`` when the file is missing, damaged or holds a tuple the run's shape does not, or
    its accumulators are damaged.
    """
    from ...evaluation.ntuple_file import NetworkError, read
    from . import coherence_file
    from .export import dequantized

    try:
        manifest = json.loads(path.with_suffix(".json").read_text())
        network = read(path, manifest)
    except (OSError, ValueError) as exc:  # NetworkError is a ValueError
        reason = exc if isinstance(exc, NetworkError) else f"its manifest {path.with_suffix('.json')}: {exc}"
        raise TrainError(f"cannot start from {path}: {reason}") from None
    if not K.grows(network.shape, shape):
        raise TrainError(
            f"cannot start from {path}: it holds shape {network.shape.name}, of other tuples than {shape.name}"
        )
    sha256 = str(manifest["sha256"])
    tc = None
    if coherence:
        try:
            kept = coherence_file.read(path, network.shape.weights, sha256)
        except coherence_file.CoherenceError as exc:
            raise TrainError(f"cannot start from {path}: {exc}") from None
        if kept is not None:
            tc = np.stack([K.promoted(network.shape, row, shape) for row in kept])
    return K.promoted(network.shape, dequantized(network), shape), sha256, tc


def greedy_games(shape: Shape, weights: np.ndarray, games: int, seed: int) -> np.ndarray:
    """``games`` greedy games of the network (``weights`` in the shape's layout), without learning (compiled):
    per game score, largest rank, moves."""
    feats = K.features(shape)
    stats = np.zeros((games, K.GAME_STATS), dtype=np.int64)
    rng = np.array([first_rng_state(seed)], dtype=np.uint64)
    work = K.scratch(feats)
    nibbles = K.to_nibbles(shape, weights)
    K.play_games(
        nibbles,
        games,
        np.zeros(len(shape.stage_values)),
        rng,
        feats,
        K.MOVE_TABLES,
        work,
        stats,
        False,
        K.NO_COHERENCE,
        K.ONLINE,
        0.0,
        K.NO_POOL,
    )
    return stats


def greedy_results(shape: Shape, weights: np.ndarray, games: int, seed: int) -> dict[str, Any]:
    """``games`` greedy games of ``weights`` (seeded): their mean score and the share reaching each of ``TILES``."""
    if games < 1:
        raise ValueError(f"--games is at least 1, got {games}")
    stats = greedy_games(shape, weights, games, seed)
    return {
        "games": games,
        "seed": seed,
        "mean_score": round(float(stats[:, 0].mean())),
        **{f"rate_{tile}": float((stats[:, 1] >= tile.bit_length() - 1).mean()) for tile in TILES},
    }


def greedy_on(shape: Shape, weights: np.ndarray, starts: list[int], repeats: int, seed: int) -> np.ndarray:
    """Each board of ``starts`` played on greedily ``repeats`` times by the network (``weights`` in the shape's
    layout), without learning (compiled): per trial the points scored after the board, the largest rank, the
    moves; trial ``k × repeats + r`` is board ``k``'s ``r``-th."""
    if repeats < 1 or not starts:
        raise ValueError(f"at least one board and one repeat, got {len(starts)} and {repeats}")
    feats = K.features(shape)
    stats = np.zeros((len(starts) * repeats, K.GAME_STATS), dtype=np.int64)
    rng = np.array([first_rng_state(seed)], dtype=np.uint64)
    boards = np.array([b - (1 << 64) if b >> 63 else b for b in starts], dtype=np.int64)
    K.play_on(K.to_nibbles(shape, weights), boards, repeats, rng, feats, K.MOVE_TABLES, K.scratch(feats), stats)
    return stats
