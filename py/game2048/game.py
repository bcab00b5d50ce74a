"""A game in progress: board, score, seeded spawns, win and loss, and its saved form.

The board rules live in ``board``; this module adds what the original game's
``GameManager`` adds: two starting tiles, a spawn after every move that changed
the board (a uniformly random empty cell, a 2 with probability 0.9, else a 4),
the win at 2048 with "keep going", game over, and a trace of where each tile
went so that a view can animate the move.

All randomness comes from one ``MersenneTwister`` owned by the game
(``game2048.mersenne``: CPython's ``random.Random`` in plain Python, the same
under CPython, Pyodide and MicroPython), so a seed replays the same game in
tests, the lab and the page (``?seed=N``).  The generator's state is part of
the saved game, so a reloaded seeded game goes on as it would have.

Plain Python that CPython, Pyodide and MicroPython share, like ``board``.
"""

import math

from . import board as B
from .board import LEFT, RIGHT, UP, WIN_RANK, Board, Direction, direction_named
from .mersenne import MersenneTwister, UnreachableState, entropy_seed

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass

SAVE_VERSION = 1
MAX_SEED = 2**63 - 1
"""Seeds are whole numbers from 0 to this (what the page's ``?seed=`` and a saved game accept)."""
SPAWN_FOUR_PROBABILITY = 0.1


def fresh_seed() -> int:
    """A seed drawn from the system's randomness: a game the page starts without one still has a record to replay."""
    return entropy_seed() & MAX_SEED


class SavedStateError(ValueError):
    """A saved game that cannot be restored; the message says why, for the notice shown to the player."""


class TileMove:
    """One tile's journey in a move: from cell to cell (0..15), and whether it merged into another there."""

    def __init__(self, src: int, dst: int, rank: int, merged: bool) -> None:
        self.src = src
        self.dst = dst
        self.rank = rank
        self.merged = merged

    def _fields(self) -> tuple[int, int, int, bool]:
        return (self.src, self.dst, self.rank, self.merged)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TileMove) and self._fields() == other._fields()

    def __repr__(self) -> str:
        return "TileMove" + repr(self._fields())


class MoveOutcome:
    """What a move did: the tile journeys, the merged cells, points, and the spawned tile (cell, rank)."""

    def __init__(
        self,
        direction: Direction,
        moved: bool,
        points: int,
        journeys: "tuple[TileMove, ...]" = (),
        merged_cells: tuple[int, ...] = (),
        spawn: tuple[int, int] | None = None,
        won_now: bool = False,
        over: bool = False,
    ) -> None:
        self.direction = direction
        self.moved = moved
        self.points = points
        self.journeys = journeys
        self.merged_cells = merged_cells
        self.spawn = spawn
        self.won_now = won_now
        self.over = over

    def _fields(self) -> "tuple[Any, ...]":
        return (
            self.direction,
            self.moved,
            self.points,
            self.journeys,
            self.merged_cells,
            self.spawn,
            self.won_now,
            self.over,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MoveOutcome) and self._fields() == other._fields()

    def __repr__(self) -> str:
        return "MoveOutcome" + repr(self._fields())


def _line_cells(direction: Direction, index: int) -> list[int]:
    """The cells of line ``index`` ordered from the wall the tiles move toward."""
    if direction == LEFT:
        return [4 * index + c for c in range(4)]
    if direction == RIGHT:
        return [4 * index + c for c in (3, 2, 1, 0)]
    if direction == UP:
        return [4 * r + index for r in range(4)]
    return [4 * r + index for r in (3, 2, 1, 0)]


def trace_move(board: Board, direction: Direction) -> "tuple[list[TileMove], list[int]]":
    """Where each tile goes in a move, and which cells hold a merged tile afterwards.

    A plain loop, not the table path: it runs once per move shown to a person,
    and a test checks it agrees with ``board.move``.
    """
    direction = direction_named(direction)
    journeys: list[TileMove] = []
    merged_cells: list[int] = []
    for index in range(4):
        cells = _line_cells(direction, index)
        target = 0
        last_rank = 0  # rank of the unmerged tile waiting at cells[target - 1]
        for cell in cells:
            rank = (board >> (4 * cell)) & 0xF
            if not rank:
                continue
            if last_rank == rank and rank < B.MAX_RANK:
                dst = cells[target - 1]
                journeys.append(TileMove(cell, dst, rank, True))
                merged_cells.append(dst)
                last_rank = 0
            else:
                dst = cells[target]
                journeys.append(TileMove(cell, dst, rank, False))
                last_rank = rank
                target += 1
    return journeys, merged_cells


class Game:
    """One game of 2048: the single source of truth that a view renders."""

    def __init__(
        self,
        seed: int | None = None,
        board: Board = 0,
        score: int = 0,
        moves: int = 0,
        won: bool = False,
        keep_playing: bool = False,
        rng: MersenneTwister | None = None,
        start_score: int = 0,
        start_moves: "int | None" = 0,
    ) -> None:
        self.seed = seed
        self.board = board
        self.score = score
        self.start_score = start_score  # a position set up by hand starts with points no move earned
        # ... and with a move count no one played (None: not known, a set-up game saved before it was kept)
        self.start_moves = start_moves
        self.moves = moves
        self.won = won
        self.keep_playing = keep_playing
        self.rng = MersenneTwister() if rng is None else rng
        # per move played: (its direction, the position before it, its note)
        self.history: list[tuple[Direction, tuple[Any, ...], Any]] = []
        # (direction, note) of the moves taken back, the latest last: what ``redo`` plays
        self.undone: list[tuple[Direction, Any]] = []
        self.undos = 0
        self.from_seed = False  # ``history`` holds every move since ``Game.new(seed)``: the game has a record
        self.started: float | None = None  # when the game began (ms since 1970), for its record; the page sets it

    def __repr__(self) -> str:
        return (
            f"Game(seed={self.seed}, board={self.board:#x}, score={self.score}, moves={self.moves}, "
            f"won={self.won}, keep_playing={self.keep_playing})"
        )

    @classmethod
    def new(cls, seed: int | None = None) -> "Game":
        """A fresh game with two starting tiles; ``seed`` makes it reproducible."""
        game = cls(seed=seed, rng=MersenneTwister(seed))
        game.from_seed = seed is not None
        game.spawn()
        game.spawn()
        return game

    @property
    def over(self) -> bool:
        """No move changes the board."""
        return B.is_game_over(self.board)

    @property
    def paused_at_win(self) -> bool:
        """2048 was reached and the player has not chosen to keep going."""
        return self.won and not self.keep_playing

    def spawn(self) -> tuple[int, int] | None:
        """Place a 2 (p = 0.9) or a 4 on a uniformly random empty cell; returns (cell, rank)."""
        empty = B.empty_cells(self.board)
        if not empty:
            return None
        rank = 2 if self.rng.random() < SPAWN_FOUR_PROBABILITY else 1
        cell = empty[self.rng.randrange(len(empty))]
        self.board = B.place(self.board, cell, rank)
        return cell, rank

    def play(self, direction: Direction, note: Any = None) -> MoveOutcome:
        """Apply a move; a move that changes nothing spawns nothing and returns ``moved=False``.

        ``note`` is kept with the move in ``history`` (the page keeps the AI's decision there, for the record).
        """
        direction = direction_named(direction)
        new_board, points = B.move(self.board, direction)
        if new_board == self.board:
            return MoveOutcome(direction, False, 0, over=self.over)
        journeys, merged = trace_move(self.board, direction)
        self.history.append((direction, self._position(), note))
        self.undone = []
        self.board = new_board
        self.score += points
        self.moves += 1
        spawned = self.spawn()
        won_now = not self.won and B.max_rank(self.board) >= WIN_RANK
        if won_now:
            self.won = True
        return MoveOutcome(direction, True, points, tuple(journeys), tuple(merged), spawned, won_now, self.over)

    def _position(self) -> "tuple[Any, ...]":
        """Everything a move changes, the generator's place included (``MersenneTwister.snapshot``: no copy)."""
        return (self.board, self.score, self.moves, self.won, self.keep_playing, self.rng.snapshot())

    def undo(self) -> Direction | None:
        """Take back the last move, the generator included, so the same move again brings the same tile.

        Returns the move taken back (``redo`` can play it again, with its note),
        or None when no move of this game is left to take back.
        """
        if not self.history:
            return None
        direction, (self.board, self.score, self.moves, self.won, self.keep_playing, rng), note = self.history.pop()
        self.rng.restore(rng)
        self.undone.append((direction, note))
        self.undos += 1
        return direction

    def redo(self) -> MoveOutcome | None:
        """Play again the move ``undo`` took back last (the same tile comes); None when there is none."""
        if not self.undone:
            return None
        waiting = self.undone
        direction, note = waiting.pop()
        outcome = self.play(direction, note)
        self.undone = waiting
        return outcome

    def continue_after_win(self) -> None:
        """The player chose "Keep going"."""
        self.keep_playing = True

    @property
    def earned(self) -> int:
        """The points this game's moves scored: its score less the points a set-up position started with."""
        return self.score - self.start_score

    @property
    def set_up(self) -> bool:
        """The game began on a position set up by hand (``from_position``), not from two spawned tiles."""
        return self.start_moves != 0 or self.start_score != 0

    @property
    def played(self) -> "int | None":
        """The moves played in this game: its move count less the moves a set-up position was given.

        None for a set-up game saved before that count was kept: how many of its moves were played is not known.
        """
        return None if self.start_moves is None else self.moves - self.start_moves

    def to_dict(self) -> dict[str, Any]:
        """The saved form (JSON-ready), including the generator's state."""
        version, internal, gauss = self.rng.getstate()
        saved = {
            "version": SAVE_VERSION,
            "rows": B.to_rows(self.board),
            "score": self.score,
            "moves": self.moves,
            "won": self.won,
            "keep_playing": self.keep_playing,
            "seed": self.seed,
            "rng": [version, list(internal), gauss],
        }
        if self.start_score:
            saved["start_score"] = self.start_score
        if self.start_moves:
            saved["start_moves"] = self.start_moves
        return saved

    @classmethod
    def from_position(cls, board: Board, seed: int | None = None) -> "Game":
        """A game in progress on ``board`` with the score and moves of a game that reached it spawning only 2s.

        For positions set up by hand (tests, an editor): the result passes the
        same checks as a saved game.  ``board`` needs at least two tiles.  That
        score was earned by no move: it is the game's ``start_score``, and
        ``earned`` leaves it out (the best score counts only what moves earned).
        """
        tiles = B.tile_values(board)
        if len(tiles) < 2:
            raise ValueError("a game in progress has at least two tiles")
        moves = sum(tiles) // 2 - 2
        score = points_for(board, moves)
        return cls(
            seed=seed,
            board=board,
            score=score,
            moves=moves,
            won=B.max_rank(board) >= WIN_RANK,
            rng=MersenneTwister(seed),
            start_score=score,
            start_moves=moves,
        )

    @classmethod
    def from_dict(cls, data: Any) -> "Game":
        """Restore a saved game; raises ``SavedStateError`` saying what is wrong with it.

        A saved game is accepted only if this engine could have played it: its
        tiles, score, move count and win flags agree with each other by the
        rules, and its generator state is one the generator can be in.
        """
        if not isinstance(data, dict):
            raise SavedStateError("the saved game is not an object")
        if data.get("version") != SAVE_VERSION:
            raise SavedStateError(f"the saved game is from another version ({_short(data.get('version'))})")
        try:
            board = B.from_rows(data["rows"])
        except (KeyError, TypeError, ValueError) as exc:
            raise SavedStateError(f"the saved board is not a 2048 board: {_short(exc)}") from None
        score: Any = data.get("score")  # checked just below: outside data is Any until then
        moves: Any = data.get("moves")
        for name, value in (("score", score), ("moves", moves)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise SavedStateError(f"the saved {name} is not a non-negative whole number: {_short(value)}")
        if score % 2:
            raise SavedStateError(f"the saved score {score} is odd; every merge scores an even number")
        _check_tiles_and_score(board, score, moves)
        won, keep = data.get("won"), data.get("keep_playing")
        if not isinstance(won, bool) or not isinstance(keep, bool):
            raise SavedStateError("the saved win flags are not true/false")
        reached = B.max_rank(board) >= WIN_RANK
        if reached and not won:
            raise SavedStateError("the saved board shows 2048 but the game was not won")
        if won and not reached:
            raise SavedStateError("the saved game says it was won, but no tile reached 2048")
        if keep and not won:
            raise SavedStateError("the saved game says to keep going after a win it does not have")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED):
            raise SavedStateError(f"the saved seed is not a whole number from 0 to 2^63-1: {_short(seed)}")
        start: Any = data.get("start_score", 0)
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= score:
            raise SavedStateError(f"the saved starting score is not a whole number up to the score: {_short(start)}")
        start_moves: Any = None if start else 0  # a set-up game saved before its moves were kept: not known
        if "start_moves" in data:
            start_moves = data["start_moves"]
            if isinstance(start_moves, bool) or not isinstance(start_moves, int) or not 0 <= start_moves <= moves:
                raise SavedStateError(
                    f"the saved starting move count is not a whole number up to the moves: {_short(start_moves)}"
                )
        rng = _restore_generator(data.get("rng"))
        return cls(
            seed=seed,
            board=board,
            score=score,
            moves=moves,
            won=won,
            keep_playing=keep,
            rng=rng,
            start_score=start,
            start_moves=start_moves,
        )


def points_for(board: Board, moves: int) -> int:
    """The score of any game that reached ``board`` in ``moves`` moves.

    Every move spawns one tile and merges keep the sum of the tiles, so the
    tiles add up to the spawned values: ``moves + 2`` spawns, of which
    ``fours = sum / 2 - (moves + 2)`` were 4s.  A tile of value ``2**r`` built
    from 2s scored ``(r - 1) * 2**r`` on the way, and each 4 spawned skipped
    one merge worth 4.  The result is only meaningful for a consistent pair;
    ``_check_tiles_and_score`` says when it is not.
    """
    tiles = B.tile_values(board)
    fours = sum(tiles) // 2 - (moves + 2)
    return sum((B.rank_of(value) - 1) * value for value in tiles) - 4 * fours


def _check_tiles_and_score(board: Board, score: int, moves: int) -> None:
    """Raise ``SavedStateError`` unless a game could reach ``board`` in ``moves`` moves, scoring ``score``."""
    tiles = B.tile_values(board)
    if len(tiles) < 2:  # two at the start, and every move leaves one and spawns one
        raise SavedStateError("the saved board has too few tiles for a game in progress")
    spawns, total = moves + 2, sum(tiles)
    if not 2 * spawns <= total <= 4 * spawns:
        raise SavedStateError(
            f"the saved tiles (adding up to {total}) cannot come from {moves} moves: each move adds one 2 or 4"
        )
    expected = points_for(board, moves)
    if score != expected:
        raise SavedStateError(
            f"the saved score {score} does not match its tiles and moves (a game with them scores {expected})"
        )


def _restore_generator(saved: Any) -> MersenneTwister:
    """The generator from its saved ``[3, [624 words, position], spare]``; ``SavedStateError`` if it cannot be."""
    try:
        version, internal, gauss = saved
    except (TypeError, ValueError):
        raise SavedStateError("the saved random generator state is damaged") from None
    if not isinstance(internal, list) or (
        gauss is not None and (isinstance(gauss, bool) or not isinstance(gauss, float) or not math.isfinite(gauss))
    ):
        raise SavedStateError("the saved random generator state is damaged")
    try:
        return MersenneTwister(state=(version, internal, gauss))
    except UnreachableState:
        raise SavedStateError("the saved random generator state is one the generator cannot be in (all zero)") from None
    except ValueError:
        raise SavedStateError("the saved random generator state is damaged") from None


def _short(value: Any) -> str:
    """A value for a message, cut short: saved data can be any size."""
    text = repr(value) if not isinstance(value, BaseException) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."
