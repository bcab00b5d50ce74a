"""The replay: any game record walked move by move, over the page, without touching the game in play.

It opens on a record (the current game, one of "Your games", a lab file's
game, a shared link) and shows one position at a time: the board, the move
that led there and who chose it (for the AI, its decision summary).  It
steps with buttons, keys (←/→, Home/End, Space plays and pauses, Esc
closes) and a slider, and plays on its own at a chosen speed.  "Explore
this position" asks the AI for a fresh explanation of the shown position,
drawn as the search explorer draws it; "Play from here" hands the record and
the step to the page, which starts a game there; "Copy link" gives the
game's share link, unless the link would be longer than websites take
(``LINK_LIMIT_BYTES``): then it says so, and offers the game as a file (a
one-game lab file, which "Your games" opens again).  The positions are
computed once per record, so a step only redraws the board and two lines.
``opened`` and ``moved`` hear each record opened and each position shown
(the game's review, ``app.games.review_panel``, follows them).
"""

import json
from html import escape

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Awaitable, Callable
    from typing import Any
except ImportError:
    pass

from app.browser.clock import sleep
from app.browser.url_query import query_params, query_string
from app.browser.wiring import Wiring
from game2048.board import move as slide
from game2048.board import to_rows
from game2048.game_link import LINK_MOVE_PARAM, LINK_PARAM, encode_game
from game2048.game_record import GameRecord, positions
from game2048.values import format_value

SPEEDS = (1, 2, 5, 10, 20)
"""Moves a second the replay can play at; the default is 5."""
DEFAULT_SPEED = 5
KEYS = ("ArrowLeft", "ArrowRight", "Home", "End", " ", "Escape")
IDS = (
    "replay-view",
    "replay-title",
    "replay-board",
    "replay-status",
    "replay-decision",
    "replay-first",
    "replay-back",
    "replay-play",
    "replay-forward",
    "replay-last",
    "replay-slider",
    "replay-speed",
    "replay-from-here",
    "replay-explore",
    "replay-copy-link",
    "replay-save-file",
    "replay-link",
    "replay-copy-status",
    "replay-explanation",
    "replay-close",
)


OLD_LINK = "this link does not say who played: it was made before links did"
LINK_LIMIT_BYTES = 8192
"""The longest share link the page makes, counted on the whole address: static hosts answer a longer one with a
bare "414 URI Too Long" (nginx's default takes a request line of 8 KB), and the page never opens; a longer game is
offered as a file instead.  A game's code takes about a character for two moves: some 16,000 moves fit."""


def decision_text(record: GameRecord, step: int, deciders_known: bool = True) -> str:
    """What led to position ``step``: the start, a person's move, or the AI's with its summary.

    A shared link (``deciders_known`` False) holds no decision: it says whether the AI or a person chose each move
    (``GameRecord.by_ai``), or, made before links said that, nothing of who played, which the text then says.
    """
    if step == 0:
        return f"Start of the game (seed {record.seed})."
    direction = record.moves[step - 1]
    if not deciders_known:
        if record.by_ai is None:
            return f"Move {step}: played {direction} ({OLD_LINK})."
        return f"Move {step}: {'the AI' if record.by_ai[step - 1] else 'the player'} played {direction}."
    decision = record.decisions[step - 1]
    if decision is None:
        return f"Move {step}: you played {direction}."
    text = (
        f"Move {step}: the AI ({decision['algorithm']}, {decision['preset']}) played {direction}, "
        f"depth {decision['depth']} in {float(decision['think_ms']):.1f} ms."
    )
    return text + (" Rescue search (a loss was proven; it played against 2s only)." if decision["rescued"] else "")


def spawned_cell(before: int, direction: str, after: int) -> "int | None":
    """The cell of the tile that came after a move: empty once the board slid, filled after."""
    slid, _points = slide(before, direction)
    for cell in range(16):
        shift = 4 * cell
        if not (slid >> shift) & 15 and (after >> shift) & 15:
            return cell
    return None


def share_address(location: Any, record: GameRecord, move: int = 0, deciders_known: bool = True) -> str:
    """The page's address with ``?game=`` holding the record's seed, moves and who played each (when that is known:
    a record from an old link, ``deciders_known`` False, does not say), other options dropped, and ``&move=`` the
    move its replay opens at."""
    dropped = (LINK_PARAM, LINK_MOVE_PARAM, "seed", "rows")
    kept = [(k, v) for k, v in query_params(str(location.search)) if k not in dropped]
    by_ai = record.by_ai if record.by_ai is not None or not deciders_known else record.chosen_by_ai()
    code = encode_game(record.seed, record.moves, by_ai)
    shared = [(LINK_PARAM, code)] + ([(LINK_MOVE_PARAM, str(move))] if move else [])
    query = query_string(kept + shared)
    return f"{location.origin}{location.pathname}?{query}"


def too_long_text(size: int) -> str:
    """What the replay says instead of copying a share link of ``size`` bytes, longer than ``LINK_LIMIT_BYTES``."""
    return (
        f"This game is too long to share as a link: its link would be {size:,} bytes, and websites refuse links "
        f"longer than {LINK_LIMIT_BYTES:,}. Save it as a file instead: \u201cYour games\u201d opens it again."
    )


def game_file_text(record: GameRecord) -> str:
    """The game as a one-game lab file: a JSON line with its seed and its record (``app.games.lab_files`` reads it)."""
    return json.dumps({"seed": record.seed, "record": record.to_dict()}) + "\n"


def game_file_name(record: GameRecord) -> str:
    return f"2048-game-{record.seed}.jsonl"


class ReplayView:
    """The replay dialog; ``open(record, title)`` shows it, ``close()`` hides it and gives the focus back."""

    def __init__(
        self,
        document: Any,
        create_proxy: "Callable[[Callable[..., Any]], Any]",
        on_play_from_here: "Callable[[GameRecord, int], None]",
        explain: "Callable[[int], Awaitable[dict[str, Any]]] | None" = None,
        on_close: "Callable[[], None] | None" = None,
        play_interval: "Callable[[int], float] | None" = None,
    ) -> None:
        """``explain(board)`` answers as the worker's ``explain``; ``play_interval(speed)`` is for tests."""
        self.document = document
        self.on_play_from_here = on_play_from_here
        self.explain = explain
        self.on_close = on_close
        self.play_interval = play_interval or (lambda speed: 1.0 / speed)
        self._wiring = Wiring(create_proxy)
        self.el = {}
        for name in IDS:
            self.el[name] = document.getElementById(name)
        self.record: GameRecord | None = None
        self.deciders_known = True
        self.steps: list[tuple[int, int]] = []
        self.step = 0
        self.speed = DEFAULT_SPEED
        self.playing = False
        self._run = 0  # which play task is current: a newer one (or a pause) ends the older
        self._return_focus: Any = None
        self._file_url: Any = None  # the last file saved, an object URL kept until the next one
        self.opened: list[Callable[[GameRecord], None]] = []  # hear each record opened (the review)
        self.moved: list[Callable[[int], None]] = []  # hear each position shown
        self.el["replay-explore"].hidden = explain is None
        listen = self._wiring.listen
        listen(self.el["replay-view"], "keydown", self._key)
        listen(document, "keydown", self._body_key)
        listen(self.el["replay-first"], "click", lambda _e: self.go(0))
        listen(self.el["replay-back"], "click", lambda _e: self.go(self.step - 1))
        listen(self.el["replay-forward"], "click", lambda _e: self.go(self.step + 1))
        listen(self.el["replay-last"], "click", lambda _e: self.go(len(self.steps) - 1))
        listen(self.el["replay-play"], "click", lambda _e: self.toggle_play())
        listen(self.el["replay-slider"], "input", lambda _e: self.go(int(float(self.el["replay-slider"].value))))
        listen(self.el["replay-speed"], "change", lambda _e: self._speed_changed())
        listen(self.el["replay-from-here"], "click", lambda _e: self.play_from_here())
        listen(self.el["replay-explore"], "click", lambda _e: self._wiring.spawn(self.explore()))
        listen(self.el["replay-copy-link"], "click", lambda _e: self._wiring.spawn(self.copy_link()))
        listen(self.el["replay-save-file"], "click", lambda _e: self.save_file())
        listen(self.el["replay-close"], "click", lambda _e: self.close())

    @property
    def is_open(self) -> bool:
        return not self.el["replay-view"].hidden

    def open(self, record: GameRecord, title: str, step: int = 0, deciders_known: bool = True) -> None:
        """Show ``record`` from position ``step`` (its positions are computed here, once).

        ``deciders_known`` False: the record holds no decisions (a shared link); ``record.by_ai`` says who played
        when the link did.
        """
        self.pause()
        self.record = record
        self.deciders_known = deciders_known
        self.steps = positions(record)
        self.el["replay-title"].textContent = title
        slider = self.el["replay-slider"]
        slider.max = str(len(record.moves))
        self.el["replay-link"].hidden = True
        self.el["replay-save-file"].hidden = True
        self.el["replay-copy-status"].textContent = ""
        self.el["replay-explanation"].innerHTML = ""
        if not self.is_open:
            self._return_focus = self.document.activeElement
        self.el["replay-view"].hidden = False
        self._set_page_inert(True)
        self.step = -1
        for listener in self.opened:
            listener(record)
        self.go(step)
        self.el["replay-play"].focus()

    def close(self) -> None:
        if not self.is_open:
            return
        self.pause()
        self.el["replay-view"].hidden = True
        self._set_page_inert(False)
        back, self._return_focus = self._return_focus, None
        if back is not None and getattr(back, "isConnected", False):
            back.focus()
        if self.on_close is not None:
            self.on_close()

    def _set_page_inert(self, inert: bool) -> None:
        """While the dialog is open the page behind it takes neither focus nor clicks (``inert``), as a modal
        dialog's page should: Tab cannot reach the editor's button or the game's, and Esc stays the dialog's."""
        dialog = self.el["replay-view"]
        page = getattr(dialog, "parentElement", None)
        if page is None:
            return
        children = page.children
        for index in range(children.length):
            child = children.item(index)
            if child is dialog:
                continue
            if inert:
                child.setAttribute("inert", "")
            else:
                child.removeAttribute("inert")

    def go(self, step: int) -> None:
        """Show position ``step`` (clamped to the game): the board, the status line, the move that led there."""
        if self.record is None:
            return
        from app.board.mini_board import mini_board  # loaded when a replay is first shown

        step = max(0, min(step, len(self.steps) - 1))
        if step == self.step:
            return
        self.step = step
        board, score = self.steps[step]
        last = len(self.steps) - 1
        mark = None
        if step > 0:
            mark = spawned_cell(self.steps[step - 1][0], self.record.moves[step - 1], board)
        self.el["replay-board"].innerHTML = mini_board(to_rows(board), mark, f"Position after move {step}")
        self.el["replay-status"].textContent = f"Move {step} of {last} \u00b7 score {format_value(score)}"
        self.el["replay-decision"].textContent = decision_text(self.record, step, self.deciders_known)
        slider = self.el["replay-slider"]
        slider.value = str(step)
        slider.setAttribute("aria-valuetext", f"Move {step} of {last}")
        for name, disabled in (
            ("replay-first", step == 0),
            ("replay-back", step == 0),
            ("replay-forward", step == last),
            ("replay-last", step == last),
        ):
            self.el[name].disabled = disabled
        self.el["replay-explanation"].innerHTML = ""
        for listener in self.moved:
            listener(step)

    def handle_key(self, key: str) -> bool:
        """Step, play or close for a key; True if the key was the replay's."""
        if key == "ArrowLeft":
            self.go(self.step - 1)
        elif key == "ArrowRight":
            self.go(self.step + 1)
        elif key == "Home":
            self.go(0)
        elif key == "End":
            self.go(len(self.steps) - 1)
        elif key == " ":
            self.toggle_play()
        elif key == "Escape":
            self.close()
        else:
            return False
        return True

    def _key(self, event: Any) -> None:
        target = getattr(event, "target", None)
        tag = str(getattr(target, "tagName", "") or "").upper()
        if tag in ("SELECT", "INPUT") and event.key != "Escape":
            return  # the slider and the speed have keys of their own
        if tag == "BUTTON" and event.key == " ":
            return  # Space presses the focused button
        if event.key in KEYS and self.handle_key(event.key):
            event.preventDefault()
            event.stopPropagation()

    def _body_key(self, event: Any) -> None:
        """Esc closes the open replay when the focus has left it for the page's body (Tab past its last
        control, into the browser's own bar and back); the dialog's own keys never reach here."""
        target = getattr(event, "target", None)
        if self.is_open and event.key == "Escape" and str(getattr(target, "tagName", "") or "").upper() == "BODY":
            event.preventDefault()
            self.close()

    # -- playing --------------------------------------------------------------------------

    def toggle_play(self) -> None:
        if self.playing:
            self.pause()
        else:
            self.play()

    def play(self) -> None:
        if self.record is None:
            return
        if self.step >= len(self.steps) - 1:
            self.go(0)  # at the end, Play starts over
        self.playing = True
        self._run += 1
        self._show_play()
        self._wiring.spawn(self._play(self._run))

    def pause(self) -> None:
        self.playing = False
        self._run += 1
        self._show_play()

    async def _play(self, run: int) -> None:
        while self.playing and run == self._run:
            await sleep(self.play_interval(self.speed))
            if not (self.playing and run == self._run):
                return
            self.go(self.step + 1)
            if self.step >= len(self.steps) - 1:
                self.pause()

    def _show_play(self) -> None:
        button = self.el["replay-play"]
        button.textContent = "Pause" if self.playing else "Play"
        button.setAttribute("aria-pressed", "true" if self.playing else "false")

    def _speed_changed(self) -> None:
        try:
            speed = int(self.el["replay-speed"].value)
        except ValueError:
            speed = DEFAULT_SPEED
        self.speed = speed if speed in SPEEDS else DEFAULT_SPEED

    # -- actions --------------------------------------------------------------------------

    def play_from_here(self) -> None:
        record, step = self.record, self.step
        if record is None:
            return
        self.close()
        self.on_play_from_here(record, step)
        board = self.document.getElementById("board")  # the game goes on there: in view, with the keys
        if board is not None:
            board.scrollIntoView()
            board.focus()

    async def explore(self) -> None:
        """The AI's explanation of the shown position, drawn in the replay (the explorer's drawing)."""
        from app.explorer.explanation_view import render_explanation, status_text

        if self.explain is None or self.record is None:
            return
        step = self.step
        board = self.steps[step][0]
        box = self.el["replay-explanation"]
        box.innerHTML = '<p class="replay-note">The AI is looking at this position\u2026</p>'
        answer = await self.explain(board)
        if self.step != step or not self.is_open:
            return  # the replay moved on meanwhile
        explanation = answer.get("explanation") if answer.get("ok") else None
        if not isinstance(explanation, dict):
            error = answer.get("error") or "no explanation came back"
            box.innerHTML = f'<p class="replay-note">The AI could not explain this position: {escape(str(error))}.</p>'
            return
        box.innerHTML = f'<p class="replay-note">{escape(status_text(explanation))}</p>' + render_explanation(
            explanation
        )

    async def copy_link(self) -> None:
        """Copy the game's share link; it is also shown in a field, for when the browser refuses to copy."""
        if self.record is None:
            return
        window = self.document.defaultView
        address = share_address(window.location, self.record, self.step, self.deciders_known)
        field = self.el["replay-link"]
        status = self.el["replay-copy-status"]
        size = len(address.encode())
        if size > LINK_LIMIT_BYTES:  # no link a website would refuse: the file instead
            field.value = ""
            field.hidden = True
            self.el["replay-save-file"].hidden = False
            status.textContent = too_long_text(size)
            return
        field.value = address
        field.hidden = False
        try:
            await window.navigator.clipboard.writeText(address)
        except Exception:  # noqa: BLE001 - a refusal from the browser (permission, focus), or no clipboard
            status.textContent = "Copy the link from the field below."
            field.select()
            return
        status.textContent = f"Link copied ({len(address)} characters): it opens this game's replay at this move."

    def save_file(self) -> None:
        """Download the game as a one-game lab file (``game_file_text``), named by its seed.

        Straight calls, no ``js_call``: none of them throws for a string, and ``js_call`` cannot reach
        ``Array``'s, ``Blob``'s or ``URL``'s own functions (MicroPython hands a JavaScript constructor back
        wrapped)."""
        if self.record is None:
            return
        window = self.document.defaultView
        name = game_file_name(self.record)
        blob = window.Blob.new(window.Array.of(game_file_text(self.record)))
        if self._file_url is not None:
            window.URL.revokeObjectURL(self._file_url)
        self._file_url = window.URL.createObjectURL(blob)
        link = self.document.createElement("a")
        link.href = self._file_url
        link.download = name
        link.click()
        self.el[
            "replay-copy-status"
        ].textContent = f"The game is saved as {name}: \u201cYour games\u201d opens it again (Open a lab file)."
