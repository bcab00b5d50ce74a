"""Game review in the replay: "Review this game" grades the replayed game in the AI worker, with progress and Cancel.

The main thread only cuts the game into short batches (``review_figures.batches``), sends them in order through
``grade`` (the worker's ``review``), ``lanes`` at a time so that each of the page's AI workers grades one, and
draws: the accuracy, the counts per grade, the game's chart (``review_chart``) and the worst moves as buttons. A
worst move (or a mistake on the chart) opens the replay at that move, where the best move's arrow is drawn beside
the played one and the points lost said; every reviewed position the replay shows gets its arrows the same way, and
"Explore this position" is one click away. A review goes on while the replay is closed (the page stays playable: the
worker does the work) and is kept with the game (``review_store``), so a reload shows it again; Cancel stops it
after the batches in hand.
"""

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Awaitable, Callable
    from typing import Any
except ImportError:
    pass

import asyncio

from app.browser.clock import sleep
from app.browser.wiring import Wiring
from app.games.review_chart import chart_svg, chart_words, tiles_reached
from app.games.review_figures import GameReview, batches, graded_move
from app.games.review_store import record_key
from app.games.review_view import move_html, progress_text, summary_html, worst_html
from game2048.game_record import GameRecord

IDS = (
    "review-start",
    "review-ask",
    "review-download",
    "review-plain",
    "review-cancel",
    "review-progress",
    "review-status",
    "review-result",
    "review-move",
)
ASK_TEXT = (
    "A review in points needs the learned network, a 32 MB download. Download it, or grade now with the AI's "
    "present evaluation, whose units are not points."
)
DOWNLOADING_TEXT = "Downloading the learned network (32 MB); the review starts once it is in\u2026"
YIELD_S = 0.001
"""A pause that hands the main thread back to the browser (a timer's task) between two parts of the work."""
EXPLORE_BUTTON = '<button type="button" class="button small review-explore">Explore this position</button>'


class ReviewPanel:
    """The replay's review part; ``view`` is the ``ReplayView``, ``grade(request)`` answers as the worker's
    ``review`` (a batch of ``review_figures.batches``); ``store`` (``review_store.ReviewStore``) keeps the finished
    reviews by game, ``reviews`` those read or made in this page."""

    def __init__(
        self,
        document: Any,
        create_proxy: "Callable[[Callable[..., Any]], Any]",
        view: Any,
        grade: "Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]",
        store: Any = None,
        network: "Callable[[], bool] | None" = None,
        fetch_network: "Callable[[], Awaitable[bool]] | None" = None,
        lanes: int = 1,
    ) -> None:
        """``network()``: the learned network is in (its values are points); ``fetch_network()`` downloads it (True
        once in); without them the review grades with the AI's own preset, as ``grade`` fills it in.  ``lanes``:
        the batches ``grade`` is given at once (``AiTeam.review_lanes``)."""
        self.view = view
        self.grade = grade
        self.lanes = max(1, lanes)
        self.store = store
        self.network = network
        self.fetch_network = fetch_network
        self.asking = False  # the question "download the network, or grade without it?" is shown
        self.reviews: dict[str, GameReview] = {}
        self.running: str | None = None  # the key of the game being reviewed
        self.on_done: list[Callable[[], None]] = []  # hear each finished review (Your games' accuracy)
        self._drawn = ("", "")  # the last review drawn: its game's key and its HTML
        self._keyed: tuple[Any, str] = (None, "")  # the last record and its key (a step must not hash 1,000 moves)
        self._run = 0  # which review task is current: Cancel (or a newer one) ends the older
        self._wiring = Wiring(create_proxy)
        self.el = {}
        for name in IDS:
            self.el[name] = document.getElementById(name)
        listen = self._wiring.listen
        listen(self.el["review-start"], "click", lambda _e: self.start())
        listen(self.el["review-cancel"], "click", lambda _e: self.cancel())
        listen(self.el["review-download"], "click", lambda _e: self._wiring.spawn(self.download_then_review()))
        listen(self.el["review-plain"], "click", lambda _e: self.begin(None))
        listen(self.el["review-result"], "click", self._clicked)
        listen(self.el["review-move"], "click", self._clicked)
        view.opened.append(self.opened)
        view.moved.append(self.moved)

    def _key(self, record: GameRecord) -> str:
        if self._keyed[0] is not record:
            self._keyed = (record, record_key(record))
        return self._keyed[1]

    @property
    def review(self) -> "GameReview | None":
        """The review of the game the replay shows, if it has one."""
        record = self.view.record
        if record is None:
            return None
        key = self._key(record)
        if key not in self.reviews and self.store is not None:
            kept = self.store.get(key)
            if kept is not None:
                self.reviews[key] = kept
        return self.reviews.get(key)

    def opened(self, _record: GameRecord) -> None:
        """A game opened in the replay: its review, or the button that starts one."""
        self.asking = False
        self._show()

    def moved(self, step: int) -> None:
        """The replay shows position ``step``: the arrows of the move played from it, if reviewed."""
        review = self.review
        move = None if review is None else review.move(step + 1)
        box = self.el["review-move"]
        box.innerHTML = "" if review is None or move is None else move_html(move, review.units()) + EXPLORE_BUTTON

    def start(self) -> None:
        """Review the game the replay shows, in the background: with the learned network when it is in, else
        after asking whether to download it (32 MB) or grade in the AI's own preset's units (not points)."""
        record = self.view.record
        if record is None or self.running is not None or not record.moves or self.review is not None:
            return
        if self.network is None or self.network():
            self.begin("learned" if self.network is not None else None)
            return
        self.asking = True
        self._show(ASK_TEXT)
        self.el["review-download"].focus()

    def begin(self, preset: "str | None") -> None:
        """Grade the replayed game with ``preset`` (None: the AI's own, filled in by ``grade``)."""
        record = self.view.record
        self.asking = False
        if record is None or self.running is not None or self.review is not None:
            self._show()
            return
        self._run += 1
        self.running = self._key(record)
        steps = self.view.steps
        requests = batches(record, steps)
        for request in requests:
            request["preset"] = preset
        self._wiring.spawn(self._review(self._run, record, steps, requests))
        self._show()

    async def download_then_review(self) -> None:
        """The learned network downloaded (the player said yes), then the review in points; "Grade without it"
        stays offered meanwhile (a slow line takes minutes)."""
        if self.fetch_network is None:
            return
        self._show(DOWNLOADING_TEXT)
        self.el["review-download"].hidden = True
        fetched = await self.fetch_network()
        self.el["review-download"].hidden = False
        if not self.asking:
            return  # graded without it meanwhile, or another game opened
        if fetched:
            self.begin("learned")
            return
        self._show("The learned network could not be downloaded (the AI panel says why). " + ASK_TEXT)

    def cancel(self) -> None:
        if self.running is None:
            return
        self._run += 1
        self.running = None
        self._show("The review was cancelled; \u201cReview this game\u201d starts it again.")
        self.el["review-start"].focus()

    async def _review(
        self, run: int, record: GameRecord, steps: "list[tuple[int, int]]", requests: "list[dict[str, Any]]"
    ) -> None:
        key, total = self._key(record), len(record.moves)
        moves: list[dict[str, Any]] = []
        answer: dict[str, Any] = {}
        asked: list[Any] = [asyncio.create_task(self._graded(request)) for request in requests[: self.lanes]]
        for number in range(len(requests)):
            answer = await asked[number]  # in order; the next batch is sent as each answer is taken
            asked[number] = None
            if number + self.lanes < len(requests) and run == self._run:
                asked.append(asyncio.create_task(self._graded(requests[number + self.lanes])))
            if run != self._run:
                return  # cancelled meanwhile: the batches in hand end in their workers, unread
            if not answer.get("ok"):
                self.running = None
                self._show("The review stopped: " + str(answer.get("error") or "the AI did not answer") + ".")
                return
            for move in answer["moves"]:
                moves.append(graded_move(move))
            self._progress(len(moves), total)
        review = GameReview(moves, str(answer["preset"]), bool(answer["points"]), answer["grades"])
        review.figures  # noqa: B018 - the sums made now, in a task of their own (no long task on the main thread)
        await sleep(YIELD_S)
        kept = self.store is None or self.store.put(key, review)
        await sleep(YIELD_S)
        tiles = tiles_reached(steps)
        await sleep(YIELD_S)
        chart = chart_svg(review, tiles) + chart_words(review, tiles)
        await sleep(YIELD_S)
        self._drawn = (key, summary_html(review) + chart + worst_html(review))
        if run != self._run:
            return  # cancelled meanwhile
        self.running = None
        self.reviews[key] = review
        self._show("The review is done." if kept else "The review is done; it could not be kept: storage is full.")
        for listener in self.on_done:
            listener()

    async def _graded(self, request: "dict[str, Any]") -> "dict[str, Any]":
        """``grade(request)`` as a coroutine of its own: a task each batch in hand."""
        return await self.grade(request)

    def _progress(self, done: int, total: int) -> None:
        if self.view.record is None or self._key(self.view.record) != self.running:
            return  # the replay shows another game: its own state stays
        bar = self.el["review-progress"]
        bar.max = str(total)
        bar.value = str(done)
        self.el["review-status"].textContent = progress_text(done, total)

    def _show(self, status: str = "") -> None:
        """The review part as it stands for the replayed game: running, reviewed, or not yet."""
        record = self.view.record
        key = None if record is None else self._key(record)
        running = key is not None and key == self.running
        review = self.review
        self.el["review-start"].hidden = running or review is not None or self.asking
        self.el["review-ask"].hidden = not self.asking or running
        self.el["review-start"].disabled = self.running is not None and not running
        self.el["review-cancel"].hidden = not running
        self.el["review-progress"].hidden = not running
        if running:
            bar = self.el["review-progress"]
            bar.max = str(len(record.moves))
            bar.value = "0"
            status = status or progress_text(0, len(record.moves))
        elif self.asking and not status:
            status = ASK_TEXT
        elif self.running is not None and not status:
            status = "Another game is being reviewed; its review comes first."
        self.el["review-status"].textContent = status
        self.el["review-result"].innerHTML = "" if review is None or key is None else self._result_html(review, key)
        self.moved(self.view.step)

    def _result_html(self, review: GameReview, key: str) -> str:
        """The review drawn, made once per game (a long game's chart and lists take a few tasks' time)."""
        if self._drawn[0] != key:
            tiles = tiles_reached(self.view.steps)
            chart = chart_svg(review, tiles) + chart_words(review, tiles)
            self._drawn = (key, summary_html(review) + chart + worst_html(review))
        return self._drawn[1]

    def jump(self, number: int) -> None:
        """The replay at move ``number``'s position, its arrows drawn (``moved``)."""
        self.view.go(number - 1)
        self.moved(number - 1)
        text = self.view.document.getElementById("review-move-text")
        if text is not None:
            text.setAttribute("tabindex", "-1")
            text.focus()

    def _clicked(self, event: Any) -> None:
        target = event.target
        jump = target.closest(".review-jump") if target is not None else None
        if jump is not None:
            self.jump(int(str(jump.getAttribute("data-move"))))
            return
        if target is not None and target.closest(".review-explore") is not None:
            self._wiring.spawn(self.view.explore())
