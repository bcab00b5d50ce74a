"""The page's start: which game to show, from what storage and the URL hold, whatever they hold.

``choose_game`` never raises: every value it reads goes through the guarded
readers (``app.browser.storage``, ``app.browser.page_options``), and a last guard turns
anything they did not foresee into a fresh game and a notice, so the page
always becomes playable.  Plain Python, tested in CPython with arbitrary
storage contents and URLs.
"""

from app.browser.page_options import PageOptions, parse_page_options
from app.games.saved_games import SavedGames, describe, worth_keeping
from game2048.board import Board
from game2048.game import Game, fresh_seed
from game2048.game_record import GameRecord

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
except ImportError:
    pass

FAILED_START = "Something in this browser's saved data could not be read ({}), so a new game has started."
LOST_POSITION = "This position has no legal move: it opens as a lost game."


def fresh_game(seed: "int | None" = None, started: "float | None" = None) -> Game:
    """A new game from ``seed``, or from a fresh seed drawn for it: every game the page starts has a record."""
    game = Game.new(fresh_seed() if seed is None else seed)
    game.started = started
    return game


def position_game(board: Board, seed: int | None = None) -> Game:
    """A game in progress on a position set up by hand or by a link (at least two tiles, or ``ValueError``).

    A position that already holds 2048 goes on without the win overlay: the
    person set the tile there, nobody won it.
    """
    game = Game.from_position(board, seed)
    if game.won:
        game.continue_after_win()
    return game


class Start:
    """The game to show, the seed that "New game" replays (from the URL), and what to tell the player.

    ``from_link``: the game is the URL's position (``?rows=``), which the page then drops from the URL.
    ``shared``: the URL's shared game (``?game=``), to open in the replay over the game, which it leaves as it is,
    at move ``shared_move`` (``&move=``).
    """

    def __init__(
        self,
        game: Game,
        seed: int | None,
        notices: list[str],
        from_link: bool = False,
        shared: "GameRecord | None" = None,
        shared_move: int = 0,
    ) -> None:
        self.game = game
        self.seed = seed
        self.notices = notices
        self.from_link = from_link
        self.shared = shared
        self.shared_move = shared_move


def choose_game(query: str, saved: SavedGames, clock: "Callable[[], float | None]" = lambda: None) -> Start:
    """The saved game, or the URL's position or seeded game (keeping a game in progress), or a new one; never raises.

    ``clock()`` is the time (ms since 1970) a new game's record keeps as its start.
    """
    try:
        return _choose(parse_page_options(query), saved, clock)
    except Exception as exc:  # noqa: BLE001 - the last guard: the page must open whatever went wrong
        return Start(fresh_game(None, clock()), None, [FAILED_START.format(f"{type(exc).__name__}: {str(exc)[:80]}")])


def _choose(options: PageOptions, saved: SavedGames, clock: "Callable[[], float | None]") -> Start:
    notices = list(options.notices)
    saved.collect_orphans()
    game = saved.load()
    if options.rows is not None:
        start = _open_position(options, saved, game, notices)
        start.shared, start.shared_move = options.game, options.move
        return start
    if options.seed is not None and (game is None or game.seed != options.seed):
        if game is not None and worth_keeping(game):
            saved.keep(game)
            notices.append(
                f"The link started game {options.seed}. Your game in progress ({describe(game)}) "
                "is kept: \u201cResume kept game\u201d (B) brings it back."
            )
        game = fresh_game(options.seed, clock())
    if game is None:
        game = fresh_game(None, clock())
    saved.save(game)
    return Start(game, options.seed, saved.take_notices() + notices, shared=options.game, shared_move=options.move)


def _open_position(options: PageOptions, saved: SavedGames, game: Game | None, notices: list[str]) -> Start:
    """The URL's position, over ``?seed=`` if both are given (the seed then draws the position's spawns)."""
    rows = options.rows
    assert rows is not None  # only a ?rows= link opens a position
    linked = position_game(rows, options.seed)
    if game is not None and _unplayed(game) == _unplayed(linked):
        linked = game  # the link's position, saved and not played yet (a reload): its spawns go on as they were
    elif game is not None and worth_keeping(game):
        saved.keep(game)
        notices.append(
            f"The link opened a position. Your game in progress ({describe(game)}) "
            "is kept: \u201cResume kept game\u201d (B) brings it back."
        )
    if linked.over:
        saved.clear()  # as a game that ends in play: a lost game is not restored
        notices.append(LOST_POSITION)
    else:
        saved.save(linked)
    return Start(linked, options.seed, saved.take_notices() + notices, from_link=True)


def _unplayed(game: Game) -> dict[str, object]:
    """What a game shows, without its generator's state (a position game without a seed draws a fresh one)."""
    return {key: value for key, value in game.to_dict().items() if key != "rng"}
