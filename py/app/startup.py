"""The page's start: which game to show, from what storage and the URL hold, whatever they hold.

``choose_game`` never raises: every value it reads goes through the guarded
readers (``app.storage``, ``app.page_options``), and a last guard turns
anything they did not foresee into a fresh game and a notice, so the page
always becomes playable.  Plain Python, tested in CPython with arbitrary
storage contents and URLs.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.page_options import PageOptions, parse_page_options
from app.saved_games import SavedGames, describe, worth_keeping
from game2048.game import Game

FAILED_START = "Something in this browser's saved data could not be read ({}), so a new game has started."


@dataclass
class Start:
    """The game to show, the seed that "New game" replays (from the URL), and what to tell the player."""

    game: Game
    seed: int | None
    notices: list[str]


def choose_game(query: str, saved: SavedGames) -> Start:
    """The saved game, or the URL's seeded game (keeping a game in progress), or a new one; never raises."""
    try:
        return _choose(parse_page_options(query), saved)
    except Exception as exc:  # noqa: BLE001 - the last guard: the page must open whatever went wrong
        return Start(Game.new(None), None, [FAILED_START.format(f"{type(exc).__name__}: {str(exc)[:80]}")])


def _choose(options: PageOptions, saved: SavedGames) -> Start:
    notices = list(options.notices)
    game = saved.load()
    if options.seed is not None and (game is None or game.seed != options.seed):
        if game is not None and worth_keeping(game):
            saved.keep(game)
            notices.append(
                f"The link started game {options.seed}. Your game in progress ({describe(game)}) "
                "is kept: \u201cResume kept game\u201d (B) brings it back."
            )
        game = Game.new(options.seed)
    if game is None:
        game = Game.new(None)
    saved.save(game)
    return Start(game, options.seed, saved.take_notices() + notices)
