"""The "Your games" panel: the last finished games as a table and a chart of max tiles, and lab files to replay.

Each row opens its game in the replay (``on_open(source, index)``: source
"yours" or "file", index into the list shown).  A lab file comes from the
file picker or from a drop anywhere on the page; its text is handed to
``on_file_text(name, text)`` and its games shown with ``show_file``.  The
table and the chart are drawn from summaries (``summary_of``), so nothing is
replayed until a game is opened.
"""

from html import escape

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

from app.lab_files import MAX_FILE_CHARS
from app.panel_focus import focus_board, focus_heading
from app.wiring import Wiring

GAMES_KEY_LETTER = "g"
"""The key that opens and closes the panel."""
EMPTY = "No finished games yet: a game appears here when it ends, or when you start a new one."
OUTCOME_WORDS = {"won": "won", "lost": "lost", "unfinished": "left"}
CHART_WIDTH = 320
BAR_HEIGHT = 18


def share(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)} %" if whole else "\u2014"


def tile_counts(summaries: "list[dict[str, Any]]") -> "list[tuple[int, int]]":
    """(max tile, how many games reached it as their max), smallest tile first."""
    counts: dict[int, int] = {}
    for row in summaries:
        counts[row["max_tile"]] = counts.get(row["max_tile"], 0) + 1
    return sorted(counts.items())


def chart_svg(summaries: "list[dict[str, Any]]") -> str:
    """Horizontal bars, one per max tile: how many of the games ended with it (as the lab's chart)."""
    counts = tile_counts(summaries)
    if not counts:
        return ""
    most = max(count for _tile, count in counts)
    label = "; ".join(f"{tile}: {count} game{'' if count == 1 else 's'}" for tile, count in counts)
    height = BAR_HEIGHT * len(counts) + 4
    bars = []
    for i, (tile, count) in enumerate(counts):
        y = 2 + i * BAR_HEIGHT
        width = max(2, round((CHART_WIDTH - 90) * count / most))
        bars.append(
            f'<text x="44" y="{y + 13}" text-anchor="end" class="games-chart-tile">{tile}</text>'
            f'<rect x="50" y="{y + 2}" width="{width}" height="{BAR_HEIGHT - 5}" rx="2" class="games-chart-bar"/>'
            f'<text x="{56 + width}" y="{y + 13}" class="games-chart-count">{count}</text>'
        )
    return (
        f'<svg id="games-chart" class="games-chart" viewBox="0 0 {CHART_WIDTH} {height}" role="img" '
        f'aria-label="Max tile reached: {escape(label)}">{"".join(bars)}</svg>'
    )


def games_table(summaries: "list[dict[str, Any]]", source: str, caption: str, date_text: "Callable[[Any], str]") -> str:
    """The games as a table, newest first as given; each row's button opens the replay (``data-index``)."""
    rows = []
    for index, row in enumerate(summaries):
        rows.append(
            "<tr>"
            f'<td><button type="button" class="button small games-open" data-source="{source}" '
            f'data-index="{index}" aria-label="Replay game {index + 1}: max tile {row["max_tile"]}, '
            f'score {row["score"]}">Replay</button></td>'
            f"<td>{escape(date_text(row['started']))}</td>"
            f'<td class="num">{row["max_tile"]}</td>'
            f'<td class="num">{row["score"]}</td>'
            f'<td class="num">{row["moves"]}</td>'
            f'<td class="num">{share(row["ai_moves"], row["moves"])}</td>'
            f'<td class="num">{row["undos"]}</td>'
            f"<td>{OUTCOME_WORDS.get(row['outcome'], row['outcome'])}</td>"
            "</tr>"
        )
    return (
        f'<div class="table-scroll"><table id="games-table" class="games-table"><caption>{escape(caption)}</caption>'
        '<thead><tr><th scope="col"><span class="sr-only">Replay</span></th><th scope="col">Date</th>'
        '<th scope="col">Max tile</th><th scope="col">Score</th><th scope="col">Moves</th>'
        '<th scope="col">AI share</th><th scope="col">Undos</th><th scope="col">Result</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def summary_line(summaries: "list[dict[str, Any]]") -> str:
    games = len(summaries)
    won = sum(1 for row in summaries if row["outcome"] == "won")
    best = max([row["max_tile"] for row in summaries] or [0])
    return f"{games} game{'' if games == 1 else 's'}, {won} won (2048 reached), best tile {best}."


class GamesPanel:
    """Binds the panel: its toggle, the current game's replay button, the file picker and drops on the page."""

    def __init__(
        self,
        document: Any,
        create_proxy: "Callable[[Callable[..., Any]], Any]",
        on_open: "Callable[[str, int], None]",
        on_file_text: "Callable[[str, str], None]",
        on_replay_current: "Callable[[], None]",
        on_shown: "Callable[[], None] | None" = None,
        date_text: "Callable[[Any], str] | None" = None,
    ) -> None:
        """``on_shown()`` runs each time the panel opens (to draw the games as they are now);
        ``date_text(ms)`` words a game's start (the page's local time), ms None for a game with no date."""
        self.document = document
        self.on_shown = on_shown
        self.on_open = on_open
        self.on_file_text = on_file_text
        self.date_text = date_text or (lambda ms: "\u2014" if ms is None else str(ms))
        self._wiring = Wiring(create_proxy)
        el = document.getElementById
        self.toggle_button = el("games-toggle")
        self.panel = el("games-panel")
        self.listing = el("games-list")
        self.notice = el("games-notice")
        self.file_input = el("games-file")
        listen = self._wiring.listen
        listen(self.toggle_button, "click", lambda _e: self.toggle())
        listen(el("replay-current"), "click", lambda _e: on_replay_current())
        listen(self.listing, "click", self._clicked)
        listen(self.file_input, "change", lambda _e: self._chosen(self.file_input.files))
        listen(document, "dragover", self._drag_over)
        listen(document, "dragleave", lambda _e: self._dragging(False))
        listen(document, "drop", self._dropped)
        self.summaries: list[dict[str, Any]] = []

    @property
    def is_open(self) -> bool:
        return not self.panel.hidden

    def toggle(self) -> None:
        """Open or close the panel (the button, ``G``): the focus goes to its heading, or back to the board."""
        self.set_open(not self.is_open)
        if self.is_open:
            focus_heading(self.document.getElementById("games-heading"))
        else:
            focus_board(self.document)

    def set_open(self, open_: bool) -> None:
        was_open = self.is_open
        self.panel.hidden = not open_
        self.toggle_button.setAttribute("aria-expanded", "true" if open_ else "false")
        if open_ and not was_open and self.on_shown is not None:
            self.on_shown()

    def show_games(self, summaries: "list[dict[str, Any]]") -> None:
        """This browser's finished games, newest first."""
        self.summaries = summaries
        if not summaries:
            self.listing.innerHTML = f'<p class="games-empty">{EMPTY}</p>'
            return
        self.listing.innerHTML = (
            f'<h3 class="games-heading">Your last games</h3><p class="games-summary">{summary_line(summaries)}</p>'
            + chart_svg(summaries)
            + games_table(summaries, "yours", "Your last games, newest first", self.date_text)
        )

    def show_file(self, name: str, summaries: "list[dict[str, Any]]", notice: str) -> None:
        """A lab file's games, in file order, under their own heading, with what was read and skipped."""
        self.set_open(True)
        self.say(notice)
        if not summaries:
            return
        heading = f"Games in {name}"
        self.listing.innerHTML = (
            f'<h3 class="games-heading">{escape(heading)}</h3><p class="games-summary">{summary_line(summaries)}</p>'
            + chart_svg(summaries)
            + games_table(summaries, "file", heading, self.date_text)
            + '<p><button type="button" class="button small" id="games-back">Back to your games</button></p>'
        )

    def say(self, text: str) -> None:
        self.notice.textContent = text

    def _clicked(self, event: Any) -> None:
        target = event.target
        if target is None or not hasattr(target, "getAttribute"):
            return
        if getattr(target, "id", "") == "games-back":
            self.show_games(self.summaries)
            self.say("")
            return
        index = target.getAttribute("data-index")
        source = target.getAttribute("data-source")
        if isinstance(index, str) and isinstance(source, str):
            self.on_open(source, int(index))

    # -- files ----------------------------------------------------------------------------

    def _drag_over(self, event: Any) -> None:
        event.preventDefault()  # without it the browser opens the dropped file instead of handing it over
        self._dragging(True)

    def _dragging(self, on: bool) -> None:
        body = self.document.body
        if body is not None:
            body.classList.toggle("dropping", on)

    def _dropped(self, event: Any) -> None:
        event.preventDefault()
        self._dragging(False)
        transfer = getattr(event, "dataTransfer", None)
        self._chosen(None if transfer is None else transfer.files)

    def _chosen(self, files: Any) -> None:
        if files is None or not files.length:
            return
        self._wiring.spawn(self.read_file(files.item(0)))

    async def read_file(self, file: Any) -> None:
        """Read a chosen or dropped file and hand its text over; say why when it cannot be read."""
        name = str(file.name)
        if file.size > MAX_FILE_CHARS:
            self.set_open(True)
            self.say(f"{name} is {file.size:,} bytes, larger than any lab file: it was not read.")
            return
        self.set_open(True)
        self.say(f"Reading {name}\u2026")
        try:
            text = await file.text()
        except Exception as exc:  # noqa: BLE001 - the browser could not read it (moved, no permission)
            self.say(f"{name} could not be read ({exc}).")
            return
        self.on_file_text(name, str(text))
