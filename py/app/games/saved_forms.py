"""A game as it is saved: its JSON form, read back (or rebuilt from its record), told apart, and named in a notice.

A saved game carries its record (``game2048.game_record``) when it has one: a reload, another tab or a kept game
then brings the whole game back, undo history included (``with_record``).  Plain functions over plain values, for
``app.games.saved_games`` (the live game) and ``app.games.slots`` (the kept games, the tabs' slots).
"""

import json

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass

from app.browser.outside_data import BadData
from game2048.board import max_rank
from game2048.game import Game, SavedStateError
from game2048.game_record import GameRecord, RecordError, replay, resume, saved_record

RECORD_REFUSED = (
    "Your game's record could not be read ({}): the game goes on, but undo reaches back only to "
    "this position and the game will not be listed in your games."
)


def saved_form(game: Game) -> "dict[str, Any]":
    """What is saved of ``game``: ``Game.to_dict()``, and its record under ``"record"`` when it has one."""
    data = game.to_dict()
    record = saved_record(game)
    if record is not None:
        data["record"] = record
    return data


def encode(game: Game) -> str:
    """The text saved for ``game``."""
    return json.dumps(saved_form(game))


def with_record(data: Any, game: Game, notices: "list[str]") -> Game:
    """``game`` rebuilt from the record saved with it (``data["record"]``), or as it is (said in ``notices``)."""
    record = data.get("record") if isinstance(data, dict) else None
    if record is None:
        return game
    try:
        return resume(record, game)
    except RecordError as exc:
        notices.append(RECORD_REFUSED.format(exc))
        return game


def parse_game(data: Any) -> Game:
    """A saved game from its JSON value; ``BadData`` saying why it is refused."""
    try:
        return Game.from_dict(data)
    except SavedStateError as exc:
        raise BadData(str(exc)) from None


def rebuilt_from_record(data: Any, refused: BadData) -> Game:
    """A saved game refused for a damaged field, rebuilt from the record saved with it if that replays to its board.

    The board, score and generator are redundant with the record: a record that reaches the saved board, in as many
    moves, gives them all back.  ``refused`` again when there is no such record.
    """
    try:
        record = GameRecord.from_dict(data.get("record") if isinstance(data, dict) else None)
        game = replay(record)
    except RecordError:
        raise refused from None
    shown = game.to_dict()
    if shown.get("rows") != data.get("rows") or shown.get("moves") != data.get("moves"):
        raise refused
    game.started = record.started
    return game


def worth_keeping(game: Game) -> bool:
    """A game someone played, or a position someone set up (its move count is not zero), that can still be played on:
    what the page never drops without asking."""
    return game.moves > 0 and not game.over


def describe(game: Game) -> str:
    """A game in a few words for a notice (not its seed: every game has one, most of them 19 digits long).

    The moves are those played: a set-up position's move count (``Game.from_position``) is made up to match its
    tiles, so a game that began on one counts from there, and says so.
    """
    tile = f"best tile {1 << max_rank(game.board)}"
    if not game.set_up:
        return f"score {game.score}, {_moves(game.moves)}, {tile}"
    played = game.played
    if played is None:  # saved before the moves played were kept apart from the position's
        return f"score {game.score}, from a set-up position, {tile}"
    return f"score {game.score}, {_moves(played)} from a set-up position, {tile}"


def _moves(count: int) -> str:
    return f"{count} move{'' if count == 1 else 's'}"


def same_game(a: "dict[str, Any]", b: "dict[str, Any]") -> bool:
    """Whether two saved forms are one game (its seed and start, from the record), at any two of its moves."""
    if a == b:
        return True
    ra, rb = a.get("record"), b.get("record")
    if not isinstance(ra, dict) or not isinstance(rb, dict):
        return False
    return ra.get("seed") == rb.get("seed") and ra.get("started") == rb.get("started") and "started" in ra


def covers(a: "dict[str, Any]", b: "dict[str, Any]") -> bool:
    """Whether saved form ``a`` holds every move of ``b``: the same game, ``b``'s moves the first of ``a``'s.

    Two tabs that played on from one game (a duplicated tab) hold two games: neither covers the other.
    """
    if not same_game(a, b):
        return False
    if a == b or without_tab(a) == without_tab(b):
        return True
    ma, mb = a["record"].get("moves"), b["record"].get("moves")
    return isinstance(ma, str) and isinstance(mb, str) and ma.startswith(mb)


def without_tab(entry: "dict[str, Any]") -> "dict[str, Any]":
    """A kept game without the id of the tab it was left in (``app.games.slots.TabSlots.fold``)."""
    if "tab" not in entry:
        return entry
    plain = dict(entry)
    del plain["tab"]
    return plain
