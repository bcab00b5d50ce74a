"""Your games, the replay and the game review, built together at their first use and wired to each other.

``build_replays`` makes the ``Replays`` (``app.games.replays``) with its ``panel`` (Your games), ``view`` (the
replay dialog) and ``review`` (the game review): ``app.page`` calls it the first time one of them is asked for, so
none of their modules is imported before.  What it needs of the AI comes as callables (explain a board, grade
moves, the learned network), so it imports nothing above ``app.games``.
"""

from app.browser.outside_data import date_ms
from app.games.panel import GamesPanel
from app.games.replay_view import ReplayView
from app.games.replays import Replays
from app.games.review_panel import ReviewPanel
from app.games.review_store import ReviewStore, with_accuracy
from app.games.saved_games import SavedGames

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Awaitable, Callable
    from typing import Any
except ImportError:
    pass


def build_replays(
    document: Any,
    create_proxy: "Callable[[Callable[..., Any]], Any]",
    listen: "Callable[[Any, str, Callable[[Any], None]], None]",
    session: Any,
    saved: SavedGames,
    play_from: "Callable[[Any, int], None]",
    explain_board: "Callable[[int], Awaitable[dict]]",
    review_moves: "Callable[[dict], Awaitable[dict]]",
    network: "Callable[[], bool]",
    fetch_network: "Callable[[], Awaitable[bool]]",
    review_lanes: int = 1,
) -> Replays:
    """The replay dialog and the "Your games" panel (``.view`` and ``.panel`` of the ``Replays`` given) and the
    review, wired to the session (``play_from(record, step)`` plays a replayed game on), the saved games and the
    AI's answers (``review_lanes``: review batches ``review_moves`` takes at once, one a worker);
    ``listen(target, event, handler)`` adds a listener the page keeps alive."""
    window = document.defaultView

    def show_games() -> None:
        panel.show_games(with_accuracy(saved.finished.records(), ReviewStore(saved.storage).accuracies()))
        notices = saved.take_notices()
        if notices:
            panel.say(" ".join(notices))

    def date_text(ms: Any) -> str:
        """A game's start in the browser's local time, ``YYYY-MM-DD HH:MM``; a dash for none, or for a time that
        is no date (``outside_data.date_ms``: a stored record may hold any number), so it never raises."""
        checked = date_ms(ms)
        if checked is None:
            return "\u2014"
        moment = window.Date.new(checked)
        parts = (moment.getMonth() + 1, moment.getDate(), moment.getHours(), moment.getMinutes())
        return f"{moment.getFullYear()}-" + "{:02d}-{:02d} {:02d}:{:02d}".format(*parts)

    replays = Replays(session, saved, lambda text: panel.say(text))
    panel = GamesPanel(document, create_proxy, replays.open, replays.use_file, replays.current, show_games, date_text)
    replays.panel = panel
    replays.view = ReplayView(document, create_proxy, play_from, explain_board)
    replays.review = ReviewPanel(
        document,
        create_proxy,
        replays.view,
        review_moves,
        ReviewStore(saved.storage),
        network,
        fetch_network,
        review_lanes,
    )
    replays.review.on_done.append(lambda: show_games() if panel.is_open else None)
    panel.on_review = replays.open_reviewed
    listen(document.getElementById("over-review"), "click", lambda _event: replays.review_current())
    session.listeners.append(lambda event, *_: show_games() if panel.is_open and event in ("over", "restart") else None)
    return replays
