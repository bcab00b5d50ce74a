"""A file of lab games (``python -m game2048.lab run --out``) read in the page: its games, and what was skipped.

One JSON object a line; lines written since records exist carry ``"record"``
(a ``GameRecord`` saved form), older ones do not and have no moves to
replay.  Each line is read on its own, so a damaged line costs only its own
game, and a last line cut short (a run that was stopped) is expected.  The
games are checked for their shape only (``summary_of``); opening one
replays it.  Never raises: any text gives a ``LabFile``.
"""

import json

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass

from app.outside_data import BadData, check_numbers
from game2048.game_record import RecordError, summary_of

MAX_FILE_CHARS = 64_000_000
"""Far above what the lab writes (about 40,000 characters a game to 2048): a larger file is refused unread."""
SHOWN_PROBLEMS = 3
"""Lines named one by one in the notice; more are counted."""


class LabFile:
    """``games``: (label, record's saved form) in file order; ``problems``: each skipped line and why."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.games: list[tuple[str, dict[str, Any]]] = []
        self.problems: list[str] = []
        self.without_record = 0

    def notice(self) -> str:
        """One paragraph for the page: how many games were read, and what was skipped and why."""
        count = len(self.games)
        parts = [f"{self.name}: {count} game{'' if count == 1 else 's'} to replay."]
        if self.without_record:
            parts.append(
                f"{self.without_record} line{' was' if self.without_record == 1 else 's were'} written before "
                "the lab saved its games' moves, and cannot be replayed."
            )
        if self.problems:
            shown = "; ".join(self.problems[:SHOWN_PROBLEMS])
            more = len(self.problems) - SHOWN_PROBLEMS
            parts.append(f"Skipped {shown}" + (f"; and {more} more." if more > 0 else "."))
        return " ".join(parts)


def read_lab_file(text: Any, name: str) -> LabFile:
    """The games in a lab file's ``text``."""
    result = LabFile(name)
    if not isinstance(text, str):
        result.problems.append("the file is not text")
        return result
    if len(text) > MAX_FILE_CHARS:
        result.problems.append(f"the whole file: it is {len(text):,} characters long, more than any lab run writes")
        return result
    lines = text.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        problem = _read_line(result, line, number)
        if problem is None:
            continue
        if number == len(lines) and problem.startswith("not JSON"):
            result.problems.append(f"line {number}: the last line is cut short")
        else:
            result.problems.append(f"line {number}: {problem}")
    if not result.games and not result.without_record and lines:
        result.problems.insert(0, "the file does not look like a lab file (no line holds a seeded game)")
    return result


def _read_line(result: LabFile, line: str, number: int) -> "str | None":
    """Add line ``number``'s game to ``result``; the reason it was skipped, or None."""
    try:
        data = json.loads(line)
        check_numbers(data)
    except (ValueError, RuntimeError, MemoryError, BadData):
        return "not JSON"
    if not isinstance(data, dict):
        return "not a game (not a JSON object)"
    record = data.get("record")
    if record is None:
        if isinstance(data.get("seed"), int):
            result.without_record += 1
            return None
        return "not a game (no seed)"
    try:
        summary = summary_of(record)
    except RecordError as exc:
        return f"its game is damaged ({exc})"
    result.games.append((f"seed {summary['seed']}", record))
    return None
