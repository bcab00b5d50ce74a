"""Options read from the page URL (``?seed=``, ``?rows=``, ``?game=``), apart so they are testable without a browser.

A bad value never stops the game: it is ignored and the reason is returned
for a short notice, so a mistyped link still gives a playable page.  Values
go through ``app.browser.outside_data``, so no URL makes this raise.
"""

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass

from app.browser.js_guard import JsCallError, js_call
from app.browser.outside_data import BadData, read_int
from app.browser.url_query import query_params, query_string
from game2048.board import Board, tile_values
from game2048.game import MAX_SEED
from game2048.game_link import LINK_MOVE_PARAM, LINK_PARAM, LinkError, record_from_link
from game2048.game_record import GameRecord
from game2048.position_text import parse_rows

MAX_QUERY_CHARS = 8192
"""A longer query is ignored whole: no option of the page needs more."""


class PageOptions:
    """What the URL asked for; ``notices`` explains anything that was ignored.

    ``rows`` is a position to open (``?rows=0,2,4,8/0,0,0,0/...``), with at least two tiles;
    ``game`` a shared game to replay (``?game=<code>``, ``game2048.game_link.encode_game``), opened at
    move ``move`` (``&move=N``, 0 to its number of moves).
    """

    def __init__(
        self,
        seed: int | None = None,
        rows: Board | None = None,
        notices: tuple[str, ...] = (),
        game: "GameRecord | None" = None,
        move: int = 0,
    ) -> None:
        self.seed = seed
        self.rows = rows
        self.notices = notices
        self.game = game
        self.move = move


def parse_seed(raw: str) -> tuple[int | None, str | None]:
    """A whole number 0..2**63-1, or (None, reason)."""
    try:
        return read_int(raw, 0, MAX_SEED, max_digits=len(str(MAX_SEED))), None
    except BadData as exc:
        return None, f"Ignored ?seed={_shown(raw)}: {exc}; a seed is a whole number below 2^63, like ?seed=42."


def parse_position(raw: str) -> tuple[Board | None, str | None]:
    """A board of at least two tiles, or (None, reason)."""
    try:
        board = parse_rows(raw)
    except ValueError as exc:
        return None, f"Ignored the link's position (?rows=): {exc}."
    tiles = len(tile_values(board))
    if tiles < 2:
        return None, f"Ignored the link's position (?rows=): a game needs at least two tiles, it has {tiles}."
    return board, None


def parse_game_link(raw: str) -> "tuple[GameRecord | None, str | None]":
    """The shared game, replayed and checked, or (None, what is wrong with the link)."""
    try:
        return record_from_link(raw), None
    except LinkError as exc:
        return None, f"This game link could not be opened: {exc}. Your own game is as it was."


def parse_page_options(query: str) -> PageOptions:
    """Options from a ``location.search`` string (leading ``?`` optional); the last of a repeated name counts."""
    if len(query) > MAX_QUERY_CHARS:
        return PageOptions(notices=(f"Ignored the link's options: the address is {len(query):,} characters long.",))
    params = dict(query_params(query.lstrip("?")))
    notices: list[str] = []
    seed = rows = game = None
    if "seed" in params:
        seed, notice = parse_seed(params["seed"])
        if notice:
            notices.append(notice)
    if "rows" in params:
        rows, notice = parse_position(params["rows"])
        if notice:
            notices.append(notice)
    move = 0
    if LINK_PARAM in params:
        game, notice = parse_game_link(params[LINK_PARAM])
        if notice:
            notices.append(notice)
        if game is not None and LINK_MOVE_PARAM in params:
            move, notice = parse_move(params[LINK_MOVE_PARAM], len(game.moves))
            if notice:
                notices.append(notice)
    return PageOptions(seed=seed, rows=rows, notices=tuple(notices), game=game, move=move)


def parse_move(raw: str, moves: int) -> "tuple[int, str | None]":
    """The move a shared game's replay opens at, 0 to ``moves``, or (0, why the link's move was ignored)."""
    try:
        return read_int(raw, 0, moves, max_digits=len(str(moves))), None
    except BadData as exc:
        return 0, f"The game link's move (&move={_shown(raw)}) was ignored: {exc}; the replay opens at its start."


def forget_option(window: Any, name: str) -> None:
    """Drop ``name`` from the page's address: what the link opened is open now, and a reload should not reopen it."""
    location = window.location
    query = query_string([(k, v) for k, v in query_params(str(location.search)) if k != name])
    address = f"{location.pathname}{'?' + query if query else ''}{location.hash}"
    try:
        js_call(window, window.history, "replaceState", None, "", address)
    except JsCallError:  # the address is a nicety; the game is open either way
        pass


def _shown(raw: str) -> str:
    """The value as the notice quotes it: at most 24 characters."""
    return raw if len(raw) <= 24 else raw[:21] + "..."
