"""The "Your games" panel: the last finished games as a table and a chart of max tiles, and lab files to replay.

Each row opens its game in the replay (``on_open(source, index)``: source
"yours" or "file", index into the finished games or the file's games).  A
lab file comes from the file picker or from a drop anywhere on the page; it
is read a chunk at a time (``app.games.lab_files.read_lab``) with a progress line
and a Cancel button, handed to ``on_file(lab)`` and shown with
``show_file``.  The table and the chart are drawn from summaries
(``summary_of``), so nothing is replayed until a game is opened; the table
shows ``PAGE_ROWS`` games, and "More" the next ones, so a file of 10,000
games is not 100,000 elements.  A game that fails a check (a start time no
date can show) is listed apart as refused, with why, and the others shown.
"""

import asyncio
from html import escape

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Awaitable, Callable
    from typing import Any
except ImportError:
    pass

from app.browser.outside_data import date_problem
from app.browser.panel_focus import focus_board, focus_heading
from app.browser.wiring import Wiring
from app.games.lab_files import NEWLINE, LabFile, Reading, read_lab
from game2048.values import fixed

EMPTY = "No finished games yet: a game appears here when it ends, or when you start a new one."
OUTCOME_WORDS = {"won": "won", "lost": "lost", "unfinished": "left"}
CHART_WIDTH = 320
BAR_HEIGHT = 18
PAGE_ROWS = 50
"""Rows drawn at a time; "More" draws the next ones."""
REFUSED_SHOWN = 50
"""Refused games named one by one; more are counted."""


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


def games_table(
    summaries: "list[dict[str, Any]]",
    source: str,
    caption: str,
    date_text: "Callable[[Any], str]",
    indices: "list[int] | None" = None,
) -> str:
    """The games as a table, in the order given; each row's button opens the replay (``data-index``: the
    game's index in ``indices``, by default its place in ``summaries``)."""
    rows = []
    reviews = any("accuracy" in row for row in summaries)
    for place, row in enumerate(summaries):
        index = place if indices is None else indices[place]
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
            + (accuracy_cell(row, source, index) if reviews else "")
            + "</tr>"
        )
    return (
        f'<div class="table-scroll"><table id="games-table" class="games-table"><caption>{escape(caption)}</caption>'
        '<thead><tr><th scope="col"><span class="sr-only">Replay</span></th><th scope="col">Date</th>'
        '<th scope="col">Max tile</th><th scope="col">Score</th><th scope="col">Moves</th>'
        '<th scope="col">AI share</th><th scope="col">Undos</th><th scope="col">Result</th>'
        + ('<th scope="col">Accuracy</th>' if reviews else "")
        + f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def accuracy_cell(row: "dict[str, Any]", source: str, index: int) -> str:
    """A game's accuracy from its kept review (``row["accuracy"]``: a number, "ai" for a game the AI played
    alone, None for none), or the button that reviews it."""
    accuracy = row.get("accuracy")
    if accuracy is None:
        return (
            f'<td><button type="button" class="button small games-review" data-source="{source}" '
            f'data-index="{index}" data-review="1" aria-label="Review game {index + 1}">Review</button></td>'
        )
    if accuracy == "ai":
        return '<td class="num">AI only</td>'
    return f'<td class="num">{fixed(float(accuracy), 0)} %</td>'


def summary_line(summaries: "list[dict[str, Any]]") -> str:
    games = len(summaries)
    won = sum(1 for row in summaries if row["outcome"] == "won")
    best = max([row["max_tile"] for row in summaries] or [0])
    return f"{games} game{'' if games == 1 else 's'}, {won} won (2048 reached), best tile {best}."


def refused_list(refused: "list[tuple[str, str]]") -> str:
    """The games refused, each with why (the first ``REFUSED_SHOWN``; more are counted)."""
    if not refused:
        return ""
    items = "".join(f"<li>{escape(where)}: {escape(why)}</li>" for where, why in refused[:REFUSED_SHOWN])
    more = len(refused) - REFUSED_SHOWN
    count = len(refused)
    return (
        f'<div id="games-refused" class="games-refused"><p class="games-refused-heading">{count:,} '
        f"refused, with why:</p><ul>{items}</ul>" + (f"<p>And {more:,} more.</p>" if more > 0 else "") + "</div>"
    )


def more_button(shown: int, total: int) -> str:
    """The button that draws the next ``PAGE_ROWS`` rows, when some are not drawn."""
    if shown >= total:
        return ""
    return (
        f'<p class="games-more"><button type="button" class="button small" id="games-more">'
        f"Show {min(PAGE_ROWS, total - shown)} more ({shown:,} of {total:,} shown)</button></p>"
    )


class FileSource:
    """A chosen or dropped ``File``, held a chunk of bytes at a time (the contract: ``app.games.lab_files.TextSource``).

    The bytes stay in JavaScript (a ``Uint8Array``): a newline is found there,
    and only a line that is read is decoded into a Python string.
    """

    def __init__(self, file: Any, window: Any) -> None:
        self.file = file
        self.window = window
        self.size = int(file.size)
        self.view: Any = None
        self.decoder = window.TextDecoder.new()

    async def load(self, start: int, end: int) -> None:
        buffer = await self.file.slice(start, end).arrayBuffer()
        self.view = self.window.Uint8Array.new(buffer)

    def newline(self, at: int) -> int:
        return int(self.view.indexOf(NEWLINE, at))

    def text(self, start: int, end: int) -> str:
        return str(self.decoder.decode(self.view.subarray(start, end)))


class GamesPanel:
    """Binds the panel: its toggle, the current game's replay button, the file picker and drops on the page."""

    def __init__(
        self,
        document: Any,
        create_proxy: "Callable[[Callable[..., Any]], Any]",
        on_open: "Callable[[str, int], None]",
        on_file: "Callable[[LabFile], None]",
        on_replay_current: "Callable[[], None]",
        on_shown: "Callable[[], None] | None" = None,
        date_text: "Callable[[Any], str] | None" = None,
        source_of: "Callable[[Any], Any] | None" = None,
        next_task: "Callable[[], Awaitable[Any]] | None" = None,
    ) -> None:
        """``on_shown()`` runs each time the panel opens (to draw the games as they are now);
        ``date_text(ms)`` words a game's start (the page's local time), ms None for a game with no date;
        ``source_of(file)`` is what a file is read through (``FileSource``; tests give a ``TextSource``) and
        ``next_task()`` gives the browser the thread between slices of reading (``guarded.js``'s ``nextTask``)."""
        self.document = document
        self.on_shown = on_shown
        self.on_open = on_open
        self.on_review: Callable[[str, int], None] | None = None  # a row's "Review" (set by the page)
        self.on_file = on_file
        self.date_text = date_text or (lambda ms: "\u2014" if ms is None else str(ms))
        window = getattr(document, "defaultView", None)
        self.source_of = source_of or (lambda file: FileSource(file, window))
        self.next_task = next_task or _next_task(window)
        performance = None if window is None else window.performance  # one proxy, not one a line read
        self.now = (lambda: float(performance.now())) if performance is not None else (lambda: 0.0)
        self._wiring = Wiring(create_proxy)
        el = document.getElementById
        self.toggle_button = el("games-toggle")
        self.panel = el("games-panel")
        self.listing = el("games-list")
        self.notice = el("games-notice")
        self.file_input = el("games-file")
        self.reading_box = el("games-reading")
        self.progress_bar = el("games-progress")
        self.progress_text = el("games-progress-text")
        listen = self._wiring.listen
        listen(self.toggle_button, "click", lambda _e: self.toggle())
        listen(el("replay-current"), "click", lambda _e: on_replay_current())
        listen(self.listing, "click", self._clicked)
        listen(self.file_input, "change", lambda _e: self._chosen(self.file_input.files))
        listen(el("games-cancel"), "click", lambda _e: self.cancel_reading())
        listen(document, "dragover", self.drag_over)
        listen(document, "dragleave", lambda _e: self._dragging(False))
        listen(document, "drop", self.dropped)
        self.summaries: list[dict[str, Any]] = []
        self.lab: LabFile | None = None  # the lab file shown, or None for your games
        self.shown = PAGE_ROWS
        self.reading: Reading | None = None

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
        """This browser's finished games, newest first (those with no date a browser can show, refused)."""
        self.summaries = summaries
        self.lab = None
        self.shown = PAGE_ROWS
        self._draw()

    def show_file(self, lab: LabFile) -> None:
        """A lab file's games, in file order, under their own heading, with what was read and refused."""
        self.set_open(True)
        self.say(lab.notice())
        if not lab.games and not lab.refused:
            return
        self.lab = lab
        self.shown = PAGE_ROWS
        self._draw()

    def _draw(self) -> None:
        if self.lab is None:
            self.listing.innerHTML = self._games_html()
            return
        lab = self.lab
        heading = f"Games in {lab.name}"
        summaries = [game.summary for game in lab.games]
        refused = [(f"line {number}", why) for number, why in lab.refused]
        self.listing.innerHTML = (
            f'<h3 class="games-heading">{escape(heading)}</h3>'
            + (self._table_html(summaries, None, "file", heading) if summaries else "")
            + refused_list(refused)
            + '<p><button type="button" class="button small" id="games-back">Back to your games</button></p>'
        )

    def _games_html(self) -> str:
        if not self.summaries:
            return f'<p class="games-empty">{EMPTY}</p>'
        kept, indices, refused = [], [], []
        for index, row in enumerate(self.summaries):
            problem = date_problem(row)
            if problem is None:
                kept.append(row)
                indices.append(index)
            else:
                refused.append((f"Game {index + 1} of your last games", problem))
        return (
            '<h3 class="games-heading">Your last games</h3>'
            + (self._table_html(kept, indices, "yours", "Your last games, newest first") if kept else "")
            + refused_list(refused)
        )

    def _table_html(
        self, summaries: "list[dict[str, Any]]", indices: "list[int] | None", source: str, caption: str
    ) -> str:
        shown = min(self.shown, len(summaries))
        return (
            f'<p class="games-summary">{summary_line(summaries)}</p>'
            + chart_svg(summaries)
            + games_table(summaries[:shown], source, caption, self.date_text, indices)
            + more_button(shown, len(summaries))
        )

    def more(self) -> None:
        """Draw the next ``PAGE_ROWS`` rows; the focus goes to the first of them."""
        first = self.shown
        self.shown += PAGE_ROWS
        self._draw()
        rows = self.listing.querySelectorAll("#games-table .games-open")
        if rows.length > first:
            rows.item(first).focus()

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
        if getattr(target, "id", "") == "games-more":
            self.more()
            return
        index = target.getAttribute("data-index")
        source = target.getAttribute("data-source")
        if isinstance(index, str) and isinstance(source, str):
            if target.getAttribute("data-review") and self.on_review is not None:
                self.on_review(source, int(index))
            else:
                self.on_open(source, int(index))

    # -- files ----------------------------------------------------------------------------

    def drag_over(self, event: Any) -> None:
        """A file dragged over the page: it may be dropped (and the page says where)."""
        event.preventDefault()  # without it the browser opens the dropped file instead of handing it over
        self._dragging(True)

    def _dragging(self, on: bool) -> None:
        body = self.document.body
        if body is not None:
            body.classList.toggle("dropping", on)

    def dropped(self, event: Any) -> None:
        """A file dropped anywhere on the page: read as a lab file."""
        event.preventDefault()
        self._dragging(False)
        transfer = getattr(event, "dataTransfer", None)
        self._chosen(None if transfer is None else transfer.files)

    def _chosen(self, files: Any) -> None:
        if files is None or not files.length:
            return
        self._wiring.spawn(self.read_file(files.item(0)))

    def cancel_reading(self) -> None:
        """Stop the file being read (Cancel): nothing of it is listed."""
        if self.reading is not None:
            self.reading.cancel()

    async def read_file(self, file: Any) -> None:
        """Read a chosen or dropped file in slices, with its progress and Cancel; hand its games over and show
        them, or say why it could not be read.  A file chosen meanwhile stops this one."""
        name = str(file.name)
        self.cancel_reading()
        reading = Reading(lambda lab: self._progress(name, lab), self.next_task, self.now)
        self.reading = reading
        self.set_open(True)
        self.say("")
        self._progress(name, None)
        self.reading_box.hidden = False
        lab: LabFile | None = None
        failure = ""
        try:
            lab = await read_lab(self.source_of(file), name, reading)
        except Exception as exc:  # noqa: BLE001 - the browser could not read it (moved, no permission)
            failure = str(exc)
        if reading is not self.reading:
            return  # another file took over
        self.reading = None
        self.reading_box.hidden = True
        if failure:
            self.say(f"{name} could not be read ({failure}).")
        elif lab is None:
            self.say(f"Reading {name} stopped: none of its games are listed.")
        else:
            self.on_file(lab)
            self.show_file(lab)

    def _progress(self, name: str, lab: "LabFile | None") -> None:
        done = 0 if lab is None or not lab.size else lab.bytes_read / lab.size
        games = 0 if lab is None else len(lab.games)
        self.progress_bar.value = str(round(done, 3))
        self.progress_text.textContent = (
            f"Reading {name}: {round(100 * done)} % ({games:,} game{'' if games == 1 else 's'} so far)"
        )


def _next_task(window: Any) -> "Callable[[], Awaitable[Any]]":
    """``guarded.js``'s ``nextTask`` (a new task of the browser); ``asyncio.sleep(0)`` without a page."""
    if window is None:
        return lambda: asyncio.sleep(0)
    return lambda: window.nextTask()
