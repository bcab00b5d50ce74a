"""A record saved in parts: a head that changes every move, and runs of moves that change only at the game's end.

The page saves the game it is playing at every move; saving its whole record
each time would cost more with every move.  So ``record_head`` is the record
without its moves (a few hundred characters, the same at any length of game),
``record_part`` a run of moves in the saved form's shape, and ``join_parts``
puts a head and its parts together again into ``GameRecord.to_dict``'s form.

Plain Python that MicroPython runs (the page's main thread), beside the page's other saved forms
(``saved_forms``): only the page saves a game this way.
"""

from game2048.board import Direction
from game2048.game import Game
from game2048.game_record import game_result, move_letters, pack_decisions, saved_form
from game2048.record_checks import RecordError, not_whole, shown

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass


def record_head(game: Game) -> "dict[str, Any] | None":
    """``saved_record(game)`` without its moves (``"moves": ""``), or None: what a record split in parts heads with.

    Costs the same at any length of game: the page saves the head at every move, the moves in parts
    (``record_part``) that change only at the game's end, and ``join_parts`` puts them together again.
    """
    if not game.from_seed or game.seed is None or len(game.history) != game.moves:
        return None
    return saved_form(game.seed, [], [], game.undos, game.started, None, game_result(game))


def record_part(moves: "list[Direction]", decisions: "list[dict[str, Any] | None]") -> "dict[str, Any]":
    """A run of a record's moves in the saved form's shape: ``{"moves"}``, with ``"deciders"`` and ``"decisions"``
    when any of them is the AI's (its own decider list, so each part reads alone)."""
    part: dict[str, Any] = {"moves": move_letters(moves)}
    if len(decisions) != decisions.count(None):
        part["deciders"], part["decisions"] = pack_decisions(decisions)
    return part


def join_parts(head: Any, parts: "list[Any]") -> "dict[str, Any]":
    """The saved form of a record from its head (``record_head``) and its parts (``record_part``), in order.

    A part that holds more moves than the head's result counts (saved before its head) is cut to that count;
    ``RecordError`` when the pieces are not a head and parts.  Whether the moves are a game is
    ``GameRecord.from_dict``'s business.
    """
    if not isinstance(head, dict) or not isinstance(head.get("result"), dict):
        raise RecordError("the record's head is not a record without its moves")
    letters: list[str] = []
    rows: list[Any] = []
    deciders: list[list[str]] = []
    index: dict[tuple[str, str], int] = {}
    any_ai = False
    for number, part in enumerate(parts, 1):
        if not isinstance(part, dict) or not isinstance(part.get("moves"), str):
            raise RecordError(f"part {number} of the record is not a run of moves")
        moves = part["moves"]
        letters.append(moves)
        if part.get("decisions") is None:
            rows.extend([None] * len(moves))
            continue
        any_ai = True
        own = part.get("deciders")
        decisions = part.get("decisions")
        if not isinstance(own, list) or not isinstance(decisions, list) or len(decisions) != len(moves):
            raise RecordError(f"part {number} of the record has not one decision per move")
        for row in decisions:
            if row is None:
                rows.append(None)
                continue
            if not isinstance(row, list) or len(row) != 4 or not_whole(row[0]) or not 0 <= row[0] < len(own):
                raise RecordError(f"part {number} of the record has a decision that is not one: {shown(row)}")
            pair = own[row[0]]
            if not isinstance(pair, list) or len(pair) != 2:
                raise RecordError(f"part {number} of the record names a decider that is not one: {shown(pair)}")
            key = (pair[0], pair[1])
            if key not in index:
                index[key] = len(deciders)
                deciders.append([pair[0], pair[1]])
            rows.append([index[key], row[1], row[2], row[3]])
    count = head["result"].get("moves")
    text = "".join(letters)
    if not_whole(count) or not 0 <= count <= len(text):
        raise RecordError(f"the record's parts hold {len(text)} moves, its head says {shown(count)}")
    data = dict(head)
    data["moves"] = text[:count]
    data.pop("deciders", None)
    data.pop("decisions", None)
    if any_ai and rows[:count].count(None) != count:
        data["deciders"], data["decisions"] = deciders, rows[:count]
    return data
