"""A live game's record saved in parts, so that a move costs the same at move 16,000 as at move 1.

A tab's slot (``app.games.saved_games``) holds the game and its record's head
(``app.games.record_parts.record_head``: a few hundred characters); the moves
go to parts of ``PART_MOVES`` moves each (``app.browser.storage.part_key``), and a
move rewrites only the last part.  A part is known unchanged without reading
it: the game's history only grows and shrinks at its end, and each move is a
new entry, so the entry that ends a part, still the same object, vouches for
every move before it.  After an undo below a part's end, that part and those
after it are written again.

Plain Python (no browser import): ``LiveParts`` only says which parts to
write; ``app.games.saved_games`` writes them.
"""

import json

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass

from app.games.record_parts import record_part
from game2048.game import Game

PART_MOVES = 250
"""Moves a part holds: a move writes at most this many (about 5,000 characters of an AI's moves)."""


def part_count(moves: int, size: int = PART_MOVES) -> int:
    """How many parts hold ``moves`` moves."""
    return (moves + size - 1) // size


def encode_part(game: Game, index: int, size: int = PART_MOVES) -> str:
    """The text of part ``index`` of ``game``'s record (its moves ``index * size`` up to the next part's)."""
    entries = game.history[index * size : (index + 1) * size]
    return json.dumps(record_part([entry[0] for entry in entries], [entry[2] for entry in entries]))


class LiveParts:
    """Which parts of a game's record a save must write, given what this tab's keys hold.

    ``stored[i]`` is ``(entry, end, text)`` of part ``i`` as this tab's keys hold it: the history entry that
    ended it, how many moves of the game it reached, and its text.  ``known`` holds the same for texts read
    from another tab's slot, not (yet) in this tab's keys: a part written from them is copied, not encoded.
    """

    def __init__(self, size: int = PART_MOVES) -> None:
        self.size = size
        self.stored: list[Any] = []
        self.known: list[Any] = []

    def seed(self, game: Game, texts: "list[str]", own: bool) -> None:
        """What a load read: ``texts``, the parts of ``game``'s record, in this tab's keys if ``own``."""
        parts = []
        moves = len(game.history)
        for index, text in enumerate(texts[: part_count(moves, self.size)]):
            end = min((index + 1) * self.size, moves)
            parts.append((game.history[end - 1], end, text))
        if own:
            self.stored, self.known = parts, []
        else:
            self.known = parts

    def forget(self) -> None:
        """This tab's keys hold no part (cleared, or given up)."""
        self.stored, self.known = [], []

    def changes(self, game: Game) -> "tuple[list[tuple[int, str]], int]":
        """(the parts to write, as ``(index, text)``, oldest first; how many parts the game has now).

        Walks back from the last part to the first one unchanged: the cost is one part for a move, at any
        length of game (all of them once, for a game new to this tab's keys).
        """
        history = game.history
        count = part_count(len(history), self.size)
        writes = []
        for index in range(count - 1, -1, -1):
            end = min((index + 1) * self.size, len(history))
            entry = history[end - 1]
            if _holds(self.stored, index, entry, end):
                break
            if _holds(self.known, index, entry, end):
                text = self.known[index][2]
            else:
                text = encode_part(game, index, self.size)
            writes.append((index, text, (entry, end, text)))
        writes.reverse()
        return [(index, text) for index, text, _ in writes], count

    def written(self, game: Game, index: int, text: str) -> None:
        """Part ``index`` of ``game`` is now in this tab's keys as ``text``."""
        history = game.history
        end = min((index + 1) * self.size, len(history))
        while len(self.stored) <= index:
            self.stored.append(None)
        self.stored[index] = (history[end - 1], end, text)

    def trimmed(self, count: int) -> "list[int]":
        """The parts beyond ``count`` that this tab's keys still hold (to remove), forgotten here."""
        extra = list(range(count, len(self.stored)))
        self.stored = self.stored[:count]
        return extra


def _holds(parts: "list[Any]", index: int, entry: Any, end: int) -> bool:
    """Whether ``parts[index]`` is the part that ``entry`` ends, ``end`` moves into the game."""
    part = parts[index] if index < len(parts) else None
    return part is not None and part[0] is entry and part[1] == end
