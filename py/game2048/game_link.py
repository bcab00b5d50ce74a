"""A game in a share link: ``?game=<code>`` holds a seed, its moves and who played each, in a few characters.

``encode_game`` packs a seed, the moves and who played each (AI or person, not
the decisions) into the text of a share link (2 bits a move, URL-safe);
``decode_link`` reads it back, links made before they said who played
included, and says what is wrong with a link cut short or changed;
``record_from_link`` replays what a link holds as a ``GameRecord``.

Plain Python that CPython, Pyodide and MicroPython share, like ``board``: the
page's main thread imports it.
"""

from .board import DIRECTIONS, Direction
from .game import MAX_SEED
from .game_record import GameRecord
from .record_checks import MAX_MOVES, RecordError, checked_moves, checked_seed, shown

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass

LINK_PARAM = "game"
"""The page's query parameter that carries a game: ``?game=<encode_game(...)>``."""
LINK_MOVE_PARAM = "move"
"""Beside ``?game=``, the move its replay opens at: ``&move=N`` shows the position after N moves."""
LINK_VERSION = 2
"""The version of the links ``encode_game`` makes when told who played: version 2 says, for each move, whether the AI
or a person chose it; version 1 (still made without it, and still read) holds the moves only."""
MOVES_ONLY_VERSION = 1
PLAYERS_BITS = 0
"""Version 2's players as bits, six moves a character (set: the AI chose the move), the first move in the high bit."""
PLAYERS_RUNS = 1
"""Version 2's players as runs: how many moves a person chose, then the AI, then a person ... (``_put_number`` each;
only the first may be 0), until they add up to the move count.  A game played by one side is a few characters."""
LINK_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
"""base64url's 64 characters: each carries 6 bits and none needs escaping in a URL."""
CHECK_MODULUS = 262139
"""The largest prime below 2**18: the link's check is three characters."""
CHECK_CHARS = 3
SEED_CHARS = 13
"""A seed takes 5 bits a character: 13 characters hold 63 bits."""
COUNT_CHARS = 4
"""The move count takes 5 bits a character: 4 characters hold up to 2**20 - 1 > ``MAX_MOVES``."""
MAX_LINK_CHARS = 1 + SEED_CHARS + COUNT_CHARS + (MAX_MOVES + 2) // 3 + 1 + (MAX_MOVES + 5) // 6 + CHECK_CHARS
"""The longest link: the players take at most their bits (``encode_game`` writes runs only when shorter)."""

_CODE = {}
for _i, _direction in enumerate(DIRECTIONS):
    _CODE[_direction] = _i
_VALUE = {}
for _i, _char in enumerate(LINK_ALPHABET):
    _VALUE[_char] = _i


class LinkError(ValueError):
    """A share link that does not hold a game; the message says what is wrong, for the notice on the page."""


def encode_game(seed: int, moves: "list[Direction]", by_ai: "list[bool] | None" = None) -> str:
    """The share code of a game: ``LINK_ALPHABET`` characters only, about one per three moves.

    In 6-bit characters: the link version; the seed and the move count, 5
    bits a character, low bits first, the 6th bit saying another character
    follows; three moves a character (2 bits each in ``DIRECTIONS`` order,
    the first move in the high bits); with ``by_ai`` (for each move, whether
    the AI chose it), who played: ``PLAYERS_RUNS`` or ``PLAYERS_BITS``, then
    the runs or the bits, whichever is shorter; and a 3-character check, the
    sum of every character's value times its position (from 1) modulo
    ``CHECK_MODULUS``, which any one changed or swapped character alters.
    Without ``by_ai`` the link is a ``MOVES_ONLY_VERSION`` one, as links were.
    """
    seed = checked_seed(seed, "the seed")
    moves = checked_moves(moves)
    if by_ai is not None and (not isinstance(by_ai, list) or len(by_ai) != len(moves)):
        raise RecordError(f"a link says who played each of its {len(moves)} moves, not {shown(by_ai)}")
    symbols = [MOVES_ONLY_VERSION if by_ai is None else LINK_VERSION]
    _put_number(symbols, seed)
    _put_number(symbols, len(moves))
    codes = [_CODE[d] for d in moves] + [0, 0]
    for i in range(0, len(moves), 3):
        symbols.append(codes[i] << 4 | codes[i + 1] << 2 | codes[i + 2])
    if by_ai is not None:
        symbols += _players_symbols(by_ai)
    check = _check(symbols)
    symbols += [check >> 12, (check >> 6) & 63, check & 63]
    return "".join(LINK_ALPHABET[s] for s in symbols)


def _players_symbols(by_ai: "list[bool]") -> "list[int]":
    """Who played each move, as ``PLAYERS_RUNS`` or ``PLAYERS_BITS`` (the shorter; bits when equal)."""
    runs = [PLAYERS_RUNS]
    side, length = False, 0  # the first run is a person's (0 moves if the AI played first)
    for ai in by_ai:
        if bool(ai) != side:
            _put_number(runs, length)
            side, length = not side, 0
        length += 1
    if by_ai:
        _put_number(runs, length)
    bits = [PLAYERS_BITS]
    flags = [1 if ai else 0 for ai in by_ai] + [0] * 5
    for i in range(0, len(by_ai), 6):
        value = 0
        for flag in flags[i : i + 6]:
            value = value << 1 | flag
        bits.append(value)
    return runs if len(runs) < len(bits) else bits


def decode_link(text: Any) -> "tuple[int, list[Direction], list[bool] | None]":
    """(seed, moves, who played each: True for the AI) from ``encode_game``'s code, the last None for a link of
    ``MOVES_ONLY_VERSION``; ``LinkError`` saying what is wrong with a bad one."""
    if not isinstance(text, str):
        raise LinkError("not a game link: it is not text")
    text = text.strip()
    if not text:
        raise LinkError("not a game link: it is empty")
    if len(text) > MAX_LINK_CHARS:
        raise LinkError(f"not a game link: it is {len(text)} characters long, longer than any game")
    symbols = []
    for char in text:
        value = _VALUE.get(char)
        if value is None:
            raise LinkError(f"not a game link: character {char!r} is not allowed")
        symbols.append(value)
    version = symbols[0]
    if version not in (MOVES_ONLY_VERSION, LINK_VERSION):
        raise LinkError(f"unknown link version {version}: this page reads versions up to {LINK_VERSION}")
    seed, at = _get_number(symbols, 1, SEED_CHARS, "seed")
    count, at = _get_number(symbols, at, COUNT_CHARS, "move count")
    if seed > MAX_SEED:
        raise LinkError("not a game link: its seed is above 2^63-1")
    if count > MAX_MOVES:
        raise LinkError(f"not a game link: it says it holds {count} moves, more than {MAX_MOVES}")
    end = at + (count + 2) // 3
    if len(symbols) < end:
        held = min(count, (len(symbols) - at) * 3)
        raise LinkError(f"the link is cut short: it holds {held} of {count} moves")
    by_ai = None
    players_end = end
    if version == LINK_VERSION:
        by_ai, players_end = _get_players(symbols, end, count)
    _check_length(len(symbols), players_end, count)
    stored = symbols[players_end] << 12 | symbols[players_end + 1] << 6 | symbols[players_end + 2]
    if stored != _check(symbols[:players_end]):
        raise LinkError("the link's check does not match: it was changed or copied wrongly")
    moves = []
    for value in symbols[at:end]:
        moves.append(DIRECTIONS[value >> 4])
        moves.append(DIRECTIONS[(value >> 2) & 3])
        moves.append(DIRECTIONS[value & 3])
    return seed, moves[:count], by_ai


def _get_players(symbols: "list[int]", at: int, count: int) -> "tuple[list[bool], int]":
    """Who played each of ``count`` moves, read at ``at`` (``_players_symbols``), and where that ends."""
    cut = f"the link is cut short: it holds all {count} moves but not who played them"
    if at >= len(symbols):
        raise LinkError(cut)
    kind, at = symbols[at], at + 1
    if kind == PLAYERS_BITS:
        end = at + (count + 5) // 6
        if len(symbols) < end:
            raise LinkError(cut)
        by_ai = []
        for value in symbols[at:end]:
            for bit in (32, 16, 8, 4, 2, 1):
                by_ai.append(bool(value & bit))
        return by_ai[:count], end
    if kind != PLAYERS_RUNS:
        raise LinkError(f"not a game link: who played is written in an unknown way ({kind})")
    by_ai = []
    side = False  # the first run is a person's, empty when the AI played first
    while len(by_ai) < count:
        if at >= len(symbols):
            raise LinkError(cut)
        length, at = _get_number(symbols, at, COUNT_CHARS, "run of one player's moves")
        if length == 0 and (side or by_ai):
            raise LinkError("not a game link: a run of one player's moves is empty")
        if len(by_ai) + length > count:
            raise LinkError(f"not a game link: it says who played more moves than its {count}")
        by_ai += [side] * length
        side = not side
    return by_ai, at


def record_from_link(text: Any) -> GameRecord:
    """The game a share code holds, replayed; ``LinkError`` (never ``RecordError``) saying what is wrong.

    Its ``decisions`` are not in the link: they are all ``None``, and ``by_ai`` says who played, when the link does.
    """
    seed, moves, by_ai = decode_link(text)
    record = GameRecord(seed, moves)
    record.by_ai = by_ai
    try:
        record.result()
    except RecordError as exc:
        raise LinkError(f"the link's moves are not a game: {exc}") from None
    return record


def _put_number(symbols: "list[int]", value: int) -> None:
    """Append ``value`` 5 bits a character, low bits first; 32 marks that another character follows."""
    while value >= 32:
        symbols.append(32 | (value & 31))
        value >>= 5
    symbols.append(value)


def _get_number(symbols: "list[int]", at: int, most: int, what: str) -> "tuple[int, int]":
    """The number ``_put_number`` wrote at ``at``, and where it ends; at most ``most`` characters."""
    value = shift = 0
    for i in range(at, at + most):
        if i >= len(symbols):
            raise LinkError("the link is cut short: it ends before its moves")
        value |= (symbols[i] & 31) << shift
        shift += 5
        if not symbols[i] & 32:
            return value, i + 1
    raise LinkError(f"not a game link: its {what} takes more than {most} characters")


def _check_length(length: int, end: int, count: int) -> None:
    """``LinkError`` unless the link ends with its check right after ``end``, where the game it holds ends."""
    if length < end + CHECK_CHARS:
        raise LinkError(f"the link is cut short: it holds all {count} moves but not its check")
    if length > end + CHECK_CHARS:
        extra = length - end - CHECK_CHARS
        raise LinkError(f"the link has {extra} character{'' if extra == 1 else 's'} more than the game it holds")


def _check(symbols: "list[int]") -> int:
    total = 0
    for i, value in enumerate(symbols, 1):
        total += i * value
    return total % CHECK_MODULUS
