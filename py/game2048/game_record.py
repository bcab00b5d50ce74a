"""A whole game as data: its seed, moves, who chose each move, how it ended; its replay and saved form.

A ``GameRecord`` is what the page keeps of each game ("Your games", undo,
replay) and what the lab saves with each game: the seed fixes every spawn, so
the seed and the moves are the whole game, and ``replay`` rebuilds it move by
move with ``Game.new(seed)`` and ``Game.play``, the same path a game is played
on (so a record made today replays the same game as long as a seed does).
Each move carries ``None`` (a person chose it) or the AI's decision summary;
the result (max tile, score, moves, won / lost / unfinished) is never trusted
from outside: it is derived by replaying, and a stored one must agree.  The
checks of outside values (``checked_seed``, ``checked_moves``...) are
``record_checks``', shared with the other forms of a record: ``game_link`` (a
share link) and ``app.games.record_parts`` (the page's storage in parts).

Plain Python that CPython, Pyodide and MicroPython share, like ``board``: the
page's main thread imports it.
"""

from .board import DIRECTIONS, Board, Direction, max_rank
from .game import Game
from .record_checks import MAX_MOVES as MAX_MOVES  # the record's length and error, re-exported: read by its readers
from .record_checks import RecordError as RecordError
from .record_checks import (
    checked_decision,
    checked_moves,
    checked_seed,
    checked_time,
    decisions_shown,
    not_whole,
    shown,
)

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass

RECORD_VERSION = 1
OUTCOMES = ("won", "lost", "unfinished")
"""A game is won once 2048 is reached (even if lost later), lost when no move is left, else unfinished."""
MOVE_LETTERS = "urdl"
"""One letter a move in the saved form, in ``DIRECTIONS`` order."""

_LETTER = {}
_DIRECTION_OF_LETTER = {}
for _i, _direction in enumerate(DIRECTIONS):
    _LETTER[_direction] = MOVE_LETTERS[_i]
    _DIRECTION_OF_LETTER[MOVE_LETTERS[_i]] = _direction


def decision(algorithm: str, preset: str, depth: int, think_ms: float, rescued: bool = False) -> "dict[str, Any]":
    """An AI move's summary, checked, its think time rounded to 0.1 ms (finer is noise, and bytes on disk)."""
    summary = {"algorithm": algorithm, "preset": preset, "depth": depth, "think_ms": think_ms, "rescued": rescued}
    summary = checked_decision(summary, "a decision")
    summary["think_ms"] = round(float(think_ms), 1)
    return summary


def decision_from_answer(answer: "dict[str, Any]") -> "dict[str, Any]":
    """The summary of a search's answer (``SearchResult.to_dict()``, the worker's reply): its time is ``elapsed_ms``."""
    try:
        return decision(
            answer["algorithm"], answer["preset"], answer["depth"], answer["elapsed_ms"], bool(answer.get("rescued"))
        )
    except (KeyError, TypeError, AttributeError):
        raise RecordError("the answer is not a search's decision") from None


class GameRecord:
    """One seeded game: its moves, each move's decision (``None`` for a person's), and the undos it used.

    ``moves`` and ``decisions`` have the same length.  ``started`` and
    ``ended`` are times in ms since the epoch (``None`` when unknown), for
    the page's table of games.  The page records a game as it is played:
    ``append`` after each move and ``undo`` on an undo (a redo is an
    ``append`` of the move again).  Change ``moves`` and ``decisions`` only
    through these two: they keep the record's replayed game in step (an
    undo is that game's own, no replay).  The constructor checks the
    fields' types; whether the moves are legal is checked by replaying
    (``result``, ``append``, ``to_dict``, ``from_dict``): ``RecordError``.
    """

    def __init__(
        self,
        seed: int,
        moves: "list[Direction] | None" = None,
        decisions: "list[dict[str, Any] | None] | None" = None,
        undos: int = 0,
        started: "float | None" = None,
        ended: "float | None" = None,
    ) -> None:
        self.version = RECORD_VERSION
        self.seed = checked_seed(seed, "the record's seed")
        self.moves = checked_moves(moves)
        if decisions is None:
            decisions = [None] * len(self.moves)
        if not isinstance(decisions, list) or len(decisions) != len(self.moves):
            raise RecordError(
                f"a record has one decision per move: {len(self.moves)} moves, {decisions_shown(decisions)}"
            )
        self.decisions = [
            None if d is None else checked_decision(d, f"the decision of move {n}") for n, d in enumerate(decisions, 1)
        ]
        if not_whole(undos) or undos < 0:
            raise RecordError(f"the record's undos is not a non-negative whole number: {shown(undos)}")
        self.undos = undos
        self.started = checked_time(started, "started")
        self.ended = checked_time(ended, "ended")
        # Who chose each move, when a share link says only that (``record_from_link``): True for the AI.  None when
        # ``decisions`` say it, or nothing does (a link of ``MOVES_ONLY_VERSION``).
        self.by_ai: list[bool] | None = None
        self._game: Game | None = None  # the game after every move, once replayed; kept in step by append

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameRecord) and self._fields() == other._fields()

    def __repr__(self) -> str:
        return f"GameRecord(seed={self.seed}, moves={len(self.moves)}, undos={self.undos})"

    def _fields(self) -> "tuple[Any, ...]":
        return (self.version, self.seed, self.moves, self.decisions, self.undos, self.started, self.ended)

    def append(self, direction: Direction, decision: "dict[str, Any] | None" = None) -> None:
        """Record the next move; ``RecordError`` if it does not change the board (nothing is recorded then).

        Costs one move (the record keeps its replayed game in step), or one
        replay the first time, for a record made from saved moves.
        """
        if direction not in _LETTER:
            raise RecordError(f"a move is one of up, right, down, left; got {shown(direction)}")
        if decision is not None:
            decision = checked_decision(decision, "the move's decision")
        if len(self.moves) >= MAX_MOVES:
            raise RecordError(f"a record holds at most {MAX_MOVES} moves")
        _play(self._replayed(), direction, len(self.moves) + 1, decision)
        self.moves.append(direction)
        self.decisions.append(decision)

    def undo(self) -> "tuple[Direction, dict[str, Any] | None]":
        """Take back the last move and count the undo; returns the move and its decision (for a redo)."""
        if not self.moves:
            raise RecordError("there is no move to undo")
        if self._game is not None:
            self._game.undo()  # the game's own undo (it keeps each move's position): no replay
        self.undos += 1
        return self.moves.pop(), self.decisions.pop()

    def result(self) -> "dict[str, Any]":
        """``{"max_tile", "score", "moves", "outcome"}`` of the replayed game (``outcome`` is one of ``OUTCOMES``)."""
        return game_result(self._replayed())

    def ai_moves(self) -> int:
        """How many moves the AI chose."""
        return len(self.decisions) - self.decisions.count(None)

    def chosen_by_ai(self) -> "list[bool]":
        """For each move, whether the AI chose it (what a share link keeps of the decisions)."""
        return [d is not None for d in self.decisions]

    def _replayed(self) -> Game:
        if self._game is None:
            self._game = replay(self)
        return self._game

    def to_dict(self) -> "dict[str, Any]":
        """The saved form, JSON-ready, with the result (so a table of games need not replay them).

        Compact, since a game is about 1,000 moves: the moves are one string of
        ``MOVE_LETTERS``; with AI moves, ``deciders`` lists each (algorithm,
        preset) once and ``decisions`` holds, per move, ``null`` (a person) or
        ``[decider index, depth, think_ms, rescued]``.
        """
        return saved_form(self.seed, self.moves, self.decisions, self.undos, self.started, self.ended, self.result())

    @classmethod
    def from_dict(cls, data: Any) -> "GameRecord":
        """A record from its saved form (``to_dict``), replayed; ``RecordError`` saying what is wrong with it."""
        if not isinstance(data, dict):
            raise RecordError("the record is not an object")
        version = data.get("version")
        if version != RECORD_VERSION or isinstance(version, bool):
            raise RecordError(f"the record is from another version ({shown(version)})")
        letters = data.get("moves")
        if not isinstance(letters, str):
            raise RecordError(f"the record's moves are not a string of the letters urdl: {shown(letters)}")
        if len(letters) > MAX_MOVES:
            raise RecordError(f"the record has {len(letters)} moves, more than {MAX_MOVES}")
        moves = []
        for number, letter in enumerate(letters, 1):
            direction = _DIRECTION_OF_LETTER.get(letter)
            if direction is None:
                raise RecordError(f"the record's move {number} is not a direction: {shown(letter)}")
            moves.append(direction)
        decisions = _unpack_decisions(data.get("deciders"), data.get("decisions"), len(moves))
        seed: Any = data.get("seed")  # GameRecord checks each of them
        record = cls(seed, moves, decisions, data.get("undos", 0), data.get("started"), data.get("ended"))
        computed = record.result()
        stored = data.get("result")
        if stored is not None and stored != computed:
            raise RecordError(f"the record's result {shown(stored)} disagrees with its moves, which give {computed}")
        return record


def summary_of(data: Any) -> "dict[str, Any]":
    """A saved record's line in a table of games, read without replaying; ``RecordError`` if its shape is wrong.

    ``{"seed", "started", "ended", "moves", "max_tile", "score", "outcome", "ai_moves", "undos"}``.
    A table of a hundred games cannot afford a hundred replays: the stored result
    is checked for its kinds only, and opening the game (``GameRecord.from_dict``)
    replays it and refuses a result its moves do not give.
    """
    if not isinstance(data, dict):
        raise RecordError("the record is not an object")
    version = data.get("version")
    if version != RECORD_VERSION or isinstance(version, bool):
        raise RecordError(f"the record is from another version ({shown(version)})")
    seed = checked_seed(data.get("seed"), "the record's seed")
    letters = data.get("moves")
    if not isinstance(letters, str) or len(letters) > MAX_MOVES:
        raise RecordError(f"the record's moves are not a string of the letters urdl: {shown(letters)}")
    result = data.get("result")
    if not isinstance(result, dict):
        raise RecordError(f"the record has no result: {shown(result)}")
    max_tile: Any = result.get("max_tile")  # outside data, checked below
    score: Any = result.get("score")
    moves: Any = result.get("moves")
    if not_whole(max_tile) or max_tile < 2 or max_tile & (max_tile - 1):
        raise RecordError(f"the record's max tile is not a tile: {shown(max_tile)}")
    if not_whole(score) or score < 0:
        raise RecordError(f"the record's score is not a non-negative whole number: {shown(score)}")
    if moves != len(letters) or isinstance(moves, bool):
        raise RecordError(f"the record's result says {shown(moves)} moves, its moves are {len(letters)}")
    if result.get("outcome") not in OUTCOMES:
        raise RecordError(f"the record's outcome is not one of {', '.join(OUTCOMES)}: {shown(result.get('outcome'))}")
    undos = data.get("undos", 0)
    if not_whole(undos) or undos < 0:
        raise RecordError(f"the record's undos is not a non-negative whole number: {shown(undos)}")
    rows = data.get("decisions")
    if rows is None:
        ai_moves = 0
    elif isinstance(rows, list) and len(rows) == len(letters):
        ai_moves = len(rows) - rows.count(None)
    else:
        raise RecordError(f"a record has one decision per move: {len(letters)} moves, {decisions_shown(rows)}")
    return {
        "seed": seed,
        "started": checked_time(data.get("started"), "started"),
        "ended": checked_time(data.get("ended"), "ended"),
        "moves": moves,
        "max_tile": max_tile,
        "score": score,
        "outcome": result["outcome"],
        "ai_moves": ai_moves,
        "undos": undos,
    }


def game_result(game: Game) -> "dict[str, Any]":
    """A game's ``GameRecord.result()``: its max tile, score, moves and outcome."""
    return {"max_tile": 1 << max_rank(game.board), "score": game.score, "moves": game.moves, "outcome": outcome(game)}


def saved_record(game: Game, ended: "float | None" = None) -> "dict[str, Any] | None":
    """``record_of(game, ended).to_dict()``, built straight from the game's history (the page saves it every move)."""
    played = _played_moves(game)
    if played is None:
        return None
    return saved_form(played[0], played[1], played[2], game.undos, game.started, ended, game_result(game))


def _played_moves(game: Game) -> "tuple[int, list[Direction], list[dict[str, Any] | None]] | None":
    """(seed, moves, their notes) of a game whose history goes back to ``Game.new(seed)``; else None."""
    seed = game.seed
    if not game.from_seed or seed is None or len(game.history) != game.moves:
        return None
    moves = []
    decisions = []
    for direction, _position, note in game.history:
        moves.append(direction)
        decisions.append(note)
    return seed, moves, decisions


def saved_form(
    seed: int,
    moves: "list[Direction]",
    decisions: "list[dict[str, Any] | None]",
    undos: int,
    started: "float | None",
    ended: "float | None",
    result: "dict[str, Any]",
) -> "dict[str, Any]":
    """``to_dict``'s form of these fields (``app.games.record_parts`` makes a record's head with it, its moves
    left out)."""
    data = {
        "version": RECORD_VERSION,
        "seed": seed,
        "moves": move_letters(moves),
        "undos": undos,
        "started": started,
        "ended": ended,
        "result": result,
    }
    if len(decisions) != decisions.count(None):
        data["deciders"], data["decisions"] = pack_decisions(decisions)
    return data


def record_of(game: Game, ended: "float | None" = None) -> "GameRecord | None":
    """The record of a game played from ``Game.new(seed)`` (its ``history`` holds every move); else None.

    The moves' notes are their decisions.  The record's replayed game is
    ``game`` itself, so ``to_dict`` replays nothing: use the record to save or
    show the game, not to ``append`` or ``undo`` (that would move ``game``).
    """
    played = _played_moves(game)
    if played is None:
        return None
    record = GameRecord(played[0], played[1], played[2], game.undos, game.started, ended)
    record._game = game
    return record


def resume(data: Any, game: Game) -> Game:
    """``game`` again, rebuilt from its saved record ``data`` with every move in its history (so undo reaches back).

    ``RecordError`` if ``data`` is not a record or does not lead to exactly
    ``game`` (board, score, win flags and the generator's state): a record
    saved beside another game, or damaged, must not replace the game it came with.
    """
    record = GameRecord.from_dict(data)
    rebuilt = record._replayed()
    if game.keep_playing and rebuilt.paused_at_win:
        rebuilt.continue_after_win()  # "Keep going" was chosen after the last move
    if rebuilt.to_dict() != game.to_dict():
        raise RecordError(f"the record leads to another position than the saved game ({record!r})")
    rebuilt.undos = record.undos
    rebuilt.started = record.started
    return rebuilt


def outcome(game: Game) -> str:
    """``"won"`` once 2048 was reached, ``"lost"`` when no move is left, else ``"unfinished"``."""
    if game.won:
        return "won"
    return "lost" if game.over else "unfinished"


def replay(record: GameRecord, upto: "int | None" = None) -> Game:
    """The game after the record's first ``upto`` moves (all by default), played from ``Game.new(seed)``.

    A move after the win goes on as "keep going" does.  ``RecordError`` names
    the first move that does not change the board.
    """
    count = len(record.moves) if upto is None else upto
    if not_whole(count) or not 0 <= count <= len(record.moves):
        raise RecordError(f"a replay goes up to a move from 0 to {len(record.moves)}, not {shown(upto)}")
    game = Game.new(record.seed)
    for number in range(1, count + 1):
        _play(game, record.moves[number - 1], number, record.decisions[number - 1])
    return game


def positions(record: GameRecord) -> "list[tuple[Board, int]]":
    """(board, score) at the start and after each move: ``len(moves) + 1`` steps a replay view walks through.

    Read from the record's replayed game when it has one (a record read with ``from_dict`` has), else replayed.
    """
    played = record._game
    if played is not None and len(played.history) == len(record.moves):
        steps = [(position[0], position[1]) for _direction, position, _note in played.history]
        steps.append((played.board, played.score))
        return steps
    game = Game.new(record.seed)
    steps = [(game.board, game.score)]
    for number, direction in enumerate(record.moves, 1):
        _play(game, direction, number)
        steps.append((game.board, game.score))
    return steps


def _play(game: Game, direction: Direction, number: int, note: Any = None) -> None:
    """Play move ``number`` of a record (keeping on after a win); ``RecordError`` if it changes nothing."""
    if game.paused_at_win:
        game.continue_after_win()
    if not game.play(direction, note).moved:
        raise RecordError(f"move {number} ({direction}) does not change the board")


def move_letters(moves: "list[Direction]") -> str:
    """The moves as the saved form writes them: one of ``MOVE_LETTERS`` each."""
    return "".join([_LETTER[d] for d in moves])


def pack_decisions(decisions: "list[dict[str, Any] | None]") -> "tuple[list[list[str]], list[Any]]":
    """(deciders, per-move rows) of ``to_dict``'s compact form."""
    deciders: list[list[str]] = []
    index: dict[tuple[str, str], int] = {}
    rows: list[Any] = []
    for d in decisions:
        if d is None:
            rows.append(None)
            continue
        key = (d["algorithm"], d["preset"])
        if key not in index:
            index[key] = len(deciders)
            deciders.append([d["algorithm"], d["preset"]])
        rows.append([index[key], d["depth"], d["think_ms"], d["rescued"]])
    return deciders, rows


def _unpack_decisions(deciders: Any, rows: Any, count: int) -> "list[dict[str, Any] | None]":
    """The per-move decisions of ``to_dict``'s compact form; all ``None`` when both parts are absent."""
    if deciders is None and rows is None:
        return [None] * count
    if not isinstance(deciders, list) or not all(
        isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str) and isinstance(pair[1], str)
        for pair in deciders
    ):
        raise RecordError(f"the record's deciders are not a list of [algorithm, preset]: {shown(deciders)}")
    if not isinstance(rows, list) or len(rows) != count:
        raise RecordError(f"a record has one decision per move: {count} moves, {decisions_shown(rows)}")
    decisions: list[dict[str, Any] | None] = []
    for number, row in enumerate(rows, 1):
        if row is None:
            decisions.append(None)
            continue
        if not isinstance(row, list) or len(row) != 4 or not_whole(row[0]) or not 0 <= row[0] < len(deciders):
            raise RecordError(f"the decision of move {number} is not [decider, depth, think_ms, rescued]: {shown(row)}")
        algorithm, preset = deciders[row[0]]
        decisions.append(
            {"algorithm": algorithm, "preset": preset, "depth": row[1], "think_ms": row[2], "rescued": row[3]}
        )
    return decisions
