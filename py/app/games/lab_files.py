"""A file of lab games (``python -m game2048.lab run --out``) read in the page: its games, and what was refused.

One JSON object a line; lines written since records exist carry ``"record"``
(a ``GameRecord`` saved form), older ones do not and have no moves to
replay.  Each line is read on its own, so a bad line costs only its own
game (it is refused, with why), and a last line cut short (a run that was
stopped) is expected.  The games are checked for their shape and dates only
(``summary_of``, ``date_problem``); opening one reads its line again and
replays it (``GameRecord.from_dict`` checks every decision, so the numbers
of the line are not walked through here).

The page's main thread is MicroPython, where ``json.loads`` of a deep array
takes seconds and a long integer minutes, in one task.  So a file is read
in chunks of bytes (``read_lab``): a line's length is known from its newline
before anything decodes it, a line longer than ``MAX_LINE_BYTES`` is
refused unread, one with more than ``MAX_CONTAINERS`` brackets or
``MAX_QUOTES`` quotes, a string longer than ``MAX_STRING_CHARS``, nesting
deeper than ``MAX_DEPTH`` or a number of more than 30 digits is refused
before ``json.loads``, and the work is cut into slices of ``SLICE_MS`` between
which the browser has the thread (progress said, Cancel heard).  What is
kept of a game is its summary and where its line is: the records
themselves stay in the file.  Never raises for what the file holds.
"""

import json

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Awaitable, Callable
    from typing import Any
except ImportError:
    pass

from app.browser.outside_data import date_problem, digit_run, nesting_depth_exceeds
from game2048.game_record import MAX_MOVES, RecordError, summary_of

MAX_FILE_BYTES = 64_000_000
"""Far above what the lab writes (about 40,000 bytes a game to 2048): a larger file is refused unread."""
MAX_LINE_BYTES = 4_000_000
"""A game of ``MAX_MOVES`` moves with the lab's fields for each (about 32 bytes a move, 40 to be safe)."""
MAX_DEPTH = 16
"""A lab line nests four levels deep (line, record, decisions, a decision)."""
MAX_CONTAINERS = MAX_MOVES + 1_000
"""A lab line holds an array a move (its decision) and a few more: more brackets are refused before parsing."""
MAX_QUOTES = 20_000
"""A lab line holds a few dozen strings (keys, names, its moves): more quotes are refused before parsing."""
MAX_STRING_CHARS = MAX_MOVES
"""Its longest string is its moves, a letter each.  MicroPython reads a longer string in more than linear
time (a million characters take seconds), so a longer one is refused before parsing."""
CHUNK_BYTES = 1 << 20
"""Bytes read from the file at a time (a longer line is read whole, up to ``MAX_LINE_BYTES``)."""
SLICE_MS = 12.0
"""Work between two yields to the browser: well under the 50 ms of a long task, for all but the longest lines."""
SHOWN_PROBLEMS = 3
"""Refused lines named one by one in the notice; more are counted (the panel lists them all)."""
NEWLINE = 10


class LabGame:
    """A game of a lab file: its label, its ``summary_of`` row, and its line's bytes ``start`` to ``end``."""

    def __init__(self, label: str, summary: "dict[str, Any]", start: int, end: int) -> None:
        self.label = label
        self.summary = summary
        self.start = start
        self.end = end


class LabFile:
    """``games`` in file order; ``refused``: (line number, why) of each line that is no game to replay."""

    def __init__(self, name: str, size: int = 0) -> None:
        self.name = name
        self.size = size
        self.games: list[LabGame] = []
        self.refused: list[tuple[int, str]] = []
        self.without_record = 0
        self.whole_file = ""  # why the whole file was refused, unread
        self.lines = 0  # lines read that are not blank
        self.bytes_read = 0
        self.source: Any = None  # where the lines are read again to open a game (``read_lab``'s source)

    @property
    def problems(self) -> "list[str]":
        """What was refused, one line each, file order (the notice names the first few)."""
        if self.whole_file:
            return [self.whole_file]
        named = [f"line {number}: {why}" for number, why in self.refused]
        if not self.games and not self.without_record and self.lines:
            named.insert(0, "the file does not look like a lab file (no line holds a seeded game)")
        return named

    def notice(self) -> str:
        """One paragraph for the page: how many games were read, and what was refused and why."""
        count = len(self.games)
        parts = [f"{self.name}: {count:,} game{'' if count == 1 else 's'} to replay."]
        if self.without_record:
            parts.append(
                f"{self.without_record:,} line{' was' if self.without_record == 1 else 's were'} written before "
                "the lab saved its games' moves, and cannot be replayed."
            )
        problems = self.problems
        if problems:
            shown = "; ".join(problems[:SHOWN_PROBLEMS])
            more = len(problems) - SHOWN_PROBLEMS
            parts.append(f"Skipped {shown}" + (f"; and {more:,} more." if more > 0 else "."))
        return " ".join(parts)

    def take_line(self, text: str, number: int, start: int, end: int, last: bool) -> None:
        """Line ``number``, bytes ``start`` to ``end`` (``last``: no newline after it): a game, or refused with why."""
        if not text.strip():
            return
        self.lines += 1
        problem = self._read_line(text, start, end)
        if problem is None:
            return
        if last and problem == "not JSON":
            problem = "the last line is cut short"
        self.refused.append((number, problem))

    def refuse_long_line(self, number: int, length: int) -> None:
        """Line ``number`` is ``length`` bytes long: refused unread."""
        self.lines += 1
        self.refused.append(
            (number, f"it is {length:,} bytes long, longer than a lab game can be ({MAX_LINE_BYTES:,})")
        )

    def _read_line(self, line: str, start: int, end: int) -> "str | None":
        """Keep the line's game; the reason it was refused, or None."""
        containers = line.count("[") + line.count("{")
        if containers > MAX_CONTAINERS:
            return f"it holds {containers:,} arrays and objects, more than a lab game can ({MAX_CONTAINERS:,})"
        quotes = line.count('"')
        if quotes > MAX_QUOTES:
            return f"it holds {quotes:,} quotes, more than a lab game can ({MAX_QUOTES:,})"
        longest = longest_string(line)
        if longest > MAX_STRING_CHARS:
            return f"it holds a string of {longest:,} characters, more than a lab game can ({MAX_STRING_CHARS:,})"
        if nesting_depth_exceeds(line, MAX_DEPTH):
            return f"it nests more than {MAX_DEPTH} levels deep"
        digits = digit_run(line)
        if digits:
            return f"it holds a number with {digits} digits"
        try:
            data = json.loads(line)
        except (ValueError, RuntimeError, MemoryError):  # RuntimeError: CPython's RecursionError
            return "not JSON"
        if not isinstance(data, dict):
            return "not a game (not a JSON object)"
        record = data.get("record")
        if record is None:
            if isinstance(data.get("seed"), int):
                self.without_record += 1
                return None
            return "not a game (no seed)"
        moves = record.get("moves") if isinstance(record, dict) else None
        if isinstance(moves, str) and len(moves) > MAX_MOVES:
            return f"its game has {len(moves):,} moves, more than the {MAX_MOVES:,} a record can hold"
        try:
            summary = summary_of(record)
        except RecordError as exc:
            return f"its game is damaged ({exc})"
        bad_date = date_problem(summary)
        if bad_date is not None:
            return f"its game is damaged ({bad_date})"
        self.games.append(LabGame(f"seed {summary['seed']}", summary, start, end))
        return None

    async def game_data(self, index: int) -> Any:
        """Game ``index``'s record (its saved form), read again from the file; ``RecordError`` if that fails."""
        game = self.games[index]
        try:
            await self.source.load(game.start, game.end)
            data = json.loads(self.source.text(0, game.end - game.start))
        except Exception as exc:  # noqa: BLE001 - the file moved or changed since it was read
            raise RecordError(f"its line could not be read again ({exc})") from None
        record = data.get("record") if isinstance(data, dict) else None
        if not isinstance(record, dict):
            raise RecordError("its line has changed since the file was read")
        return record


def longest_string(line: str) -> int:
    """The length of the longest JSON string in ``line`` (between its quotes, escapes counted as written).

    A quote after an odd number of backslashes is inside a string.  A loop as
    long as the line has quotes (``MAX_QUOTES`` at most), each piece measured in C.
    """
    pieces = line.split('"')
    last = len(pieces) - 1
    longest = length = 0
    in_string = True  # each piece after the first follows a quote
    for index in range(1, len(pieces)):
        piece = pieces[index]
        if not in_string:
            in_string, length = True, 0
            continue
        length += len(piece)
        if (len(piece) - len(piece.rstrip("\\"))) % 2 == 0:
            in_string = False  # the quote after this piece ends the string
        elif index < last:
            length += 1  # an escaped quote, part of the string
        longest = max(longest, length)
    return longest


class TextSource:
    """A lab file held as text (tests, the MicroPython comparison): the source ``read_lab`` reads, over its bytes.

    A source has ``size`` (bytes), ``await load(start, end)`` (hold those
    bytes), ``newline(at)`` (the index of the next newline in what is held,
    from ``at``, or -1) and ``text(a, b)`` (what is held from ``a`` to ``b``,
    decoded).  ``app.games.panel.FileSource`` is the browser's.
    """

    def __init__(self, text: str) -> None:
        self.data = text.encode()
        self.size = len(self.data)
        self.held = b""

    async def load(self, start: int, end: int) -> None:
        self.held = self.data[start:end]

    def newline(self, at: int) -> int:
        return self.held.find(b"\n", at)

    def text(self, start: int, end: int) -> str:
        return str(self.held[start:end], "utf-8")


class Reading:
    """A reading in progress: ``cancel()`` stops it at its next slice; ``progress(lab)`` is told after each slice."""

    def __init__(
        self,
        progress: "Callable[[LabFile], None]",
        next_task: "Callable[[], Awaitable[Any]]",
        now: "Callable[[], float]",
    ) -> None:
        self.progress = progress
        self.next_task = next_task
        self.now = now
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


async def read_lab(source: Any, name: str, reading: Reading) -> "LabFile | None":
    """The games of the lab file ``source`` (see ``TextSource``); None if ``reading`` was cancelled."""
    lab = LabFile(name, source.size)
    lab.source = source
    if source.size > MAX_FILE_BYTES:
        lab.whole_file = f"the whole file: it is {source.size:,} bytes long, more than any lab run writes"
        return lab
    lines = _Lines(source)
    pos, number = 0, 0
    slice_start = reading.now()
    while pos < source.size:
        number += 1
        end, held = await lines.line_end(pos, reading)
        if reading.cancelled:
            return None
        if end - pos > MAX_LINE_BYTES or not held:
            lab.refuse_long_line(number, end - pos)
        else:
            text = ""
            try:
                text = lines.text(pos, end)
            except (ValueError, MemoryError):  # bytes that are no UTF-8 (MicroPython decodes strictly)
                lab.lines += 1
                lab.refused.append((number, "not text (its bytes are not UTF-8)"))
            if text:
                lab.take_line(text, number, pos, end, end >= source.size)
        pos = end + 1
        lab.bytes_read = min(pos, source.size)
        if reading.now() - slice_start >= SLICE_MS:
            reading.progress(lab)
            await reading.next_task()
            if reading.cancelled:
                return None
            slice_start = reading.now()
    return lab


class _Lines:
    """Finds where each line ends in a source, holding a chunk of it at a time."""

    def __init__(self, source: Any) -> None:
        self.source = source
        self.start = 0  # the bytes held are start..end of the file (none yet)
        self.end = -1

    async def line_end(self, pos: int, reading: Reading) -> "tuple[int, bool]":
        """Where the line from ``pos`` ends (its newline, or the file's end) and whether it is held whole.

        A line longer than ``MAX_LINE_BYTES`` is not held: its end is found by reading on,
        a chunk at a time, without decoding anything.
        """
        size = self.source.size
        if not self.start <= pos <= self.end:
            await self._hold(pos, CHUNK_BYTES)
        while True:
            found = self.source.newline(pos - self.start)
            if found >= 0:
                return self.start + found, True
            if self.end >= size:
                return size, True
            if self.end - pos <= MAX_LINE_BYTES:
                await self._hold(pos, max(2 * (self.end - pos), CHUNK_BYTES))  # the line goes on: hold more
                continue
            return await self._skip(self.end, reading), False

    async def _hold(self, start: int, length: int) -> None:
        self.start = start
        self.end = min(self.source.size, start + min(length, MAX_LINE_BYTES + 1))
        await self.source.load(self.start, self.end)

    async def _skip(self, pos: int, reading: Reading) -> int:
        """The end of a line too long to hold, read on from ``pos`` (yielding to the browser as it goes)."""
        size = self.source.size
        while pos < size and not reading.cancelled:
            await self._hold(pos, CHUNK_BYTES)
            found = self.source.newline(0)
            if found >= 0:
                return pos + found
            pos = self.end
            await reading.next_task()
        return size

    def text(self, start: int, end: int) -> str:
        """The held line from byte ``start`` to ``end`` of the file, decoded."""
        return self.source.text(start - self.start, end - self.start)


def read_lab_file(text: Any, name: str) -> LabFile:
    """The games in a lab file's ``text`` at once (tests, and the comparison with MicroPython); never raises."""
    try:
        source = TextSource(text)
    except (AttributeError, ValueError):  # not a str, or one that UTF-8 cannot hold (a lone surrogate)
        refused = LabFile(name)
        refused.whole_file = "the file is not text"
        return refused
    reading = Reading(lambda _lab: None, _no_wait, lambda: 0.0)
    coroutine = read_lab(source, name, reading)
    try:
        coroutine.send(None)  # a text source never waits: the coroutine runs to its end at once
    except StopIteration as done:
        lab: LabFile = done.value
        return lab
    raise RuntimeError("a text source waited")  # pragma: no cover - TextSource.load never suspends


async def _no_wait() -> None:
    return None
