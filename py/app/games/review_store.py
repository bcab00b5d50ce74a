"""The games' reviews kept in this browser, by game, so a reload keeps them and Your games shows each game's
accuracy.

Each review has a key of its own (``storage.review_key``: read alone when its game is opened, about 20 characters
a move) and a line in the index (``REVIEWS_KEY``: the game's key and accuracy, newest first, all that Your games
reads).  A game's key is its seed, its number of moves and a checksum of its moves (``game_key``), which a record
and a stored game's moves string (the letters ``urdl``) both give, without replaying.  A move is kept as six whole
numbers (played and best as indices of ``MOVES``, the points lost, the grade's index, 1 for the AI's, the played
move's value).  At most ``MAX_REVIEWS`` are kept, the oldest dropped first, also when the storage is full; a
stored review that does not read as one is never shown.
"""

import json

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass

from app.browser.outside_data import BadData
from app.browser.storage import REVIEWS_KEY, Storage, review_key
from app.games.review_figures import GameReview
from game2048.game_record import summary_of

MOVES = ("up", "right", "down", "left")
MAX_REVIEWS = 30
"""About 600,000 characters for games of 1,000 moves: an eighth of a browser's storage."""


def game_key(seed: Any, letters: str) -> str:
    """A game's key: seed, number of moves and a 32-bit FNV-1a checksum of its moves' letters."""
    check = 2166136261
    for letter in letters:
        check = ((check ^ ord(letter)) * 16777619) & 0xFFFFFFFF
    return f"{seed}:{len(letters)}:{check:08x}"


def record_key(record: Any) -> str:
    """The key of a ``GameRecord`` (its moves' first letters are the stored letters)."""
    return game_key(record.seed, "".join(move[0] for move in record.moves))


def _entries(data: Any) -> "list[Any]":
    if not isinstance(data, list):
        raise BadData(f"it is not a list but {type(data).__name__}")
    return data


def stored_form(key: str, review: GameReview) -> "dict[str, Any]":
    """The review as kept: its key, preset, units, grades and each move's six numbers."""
    grades = review.grades
    moves = [
        [
            MOVES.index(m["played"]),
            MOVES.index(m["best"]),
            int(m["lost"] + 0.5),
            grades.index(m["grade"]),
            1 if m["by_ai"] else 0,
            int(m["value"]),
        ]
        for m in review.moves
    ]
    accuracy = review.figures.accuracy
    return {
        "key": key,
        "accuracy": None if accuracy is None else round(accuracy, 1),
        "preset": review.preset,
        "points": review.points,
        "grades": list(grades),
        "moves": moves,
    }


def review_of(entry: Any) -> "GameReview | None":
    """A stored review read back; None if it is not one (a damaged or foreign value is never shown)."""
    if not isinstance(entry, dict):
        return None
    grades, rows = entry.get("grades"), entry.get("moves")
    if not isinstance(grades, list) or not grades or not all(isinstance(g, str) for g in grades):
        return None
    if not isinstance(rows, list) or not isinstance(entry.get("preset"), str):
        return None
    moves = []
    for number, row in enumerate(rows, 1):
        if not isinstance(row, list) or len(row) != 6 or not all(isinstance(x, (int, float)) for x in row):
            return None
        played, best, lost, grade, by_ai, value = row
        if not (0 <= played < 4 and 0 <= best < 4 and 0 <= grade < len(grades)) or lost < 0:
            return None
        moves.append(
            {
                "number": number,
                "played": MOVES[int(played)],
                "best": MOVES[int(best)],
                "lost": float(lost),
                "grade": grades[int(grade)],
                "by_ai": bool(by_ai),
                "value": float(value),
            }
        )
    return GameReview(moves, entry["preset"], bool(entry.get("points")), grades)


def _index(data: Any) -> "list[Any]":
    if not isinstance(data, list):
        raise BadData(f"it is not a list but {type(data).__name__}")
    return [line for line in data if isinstance(line, list) and len(line) == 2 and isinstance(line[0], str)]


def _one(data: Any) -> Any:
    if not isinstance(data, dict):
        raise BadData(f"it is not an object but {type(data).__name__}")
    return data


class ReviewStore:
    """The kept reviews: ``get(key)``, ``put(key, review)``, ``accuracies()``; read from storage on each call
    (another tab may have added one)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def _index(self) -> "list[list[Any]]":
        return self.storage.read_json(REVIEWS_KEY, _index) or []

    def get(self, key: str) -> "GameReview | None":
        entry = self.storage.read_json(review_key(key), _one)
        return review_of(entry) if entry is not None and entry.get("key") == key else None

    def accuracies(self) -> "dict[str, float | None]":
        """Each kept review's accuracy by its game's key (None: the AI played every move), for Your games."""
        found: dict[str, float | None] = {}
        for key, accuracy in self._index():
            found[key] = float(accuracy) if isinstance(accuracy, (int, float)) else None
        return found

    def put(self, key: str, review: GameReview) -> bool:
        """Keep ``review`` first (replacing the game's earlier one), the oldest dropped past ``MAX_REVIEWS`` or
        while the storage is full; False if even it alone does not fit."""
        form = stored_form(key, review)
        index = [[key, form["accuracy"]]] + [line for line in self._index() if line[0] != key]
        for old in index[MAX_REVIEWS:]:
            self.storage.remove(review_key(old[0]))
        index = index[:MAX_REVIEWS]
        raw = json.dumps(form)
        while not self.storage.set(review_key(key), raw):
            if len(index) < 2:
                return False
            self.storage.remove(review_key(index.pop()[0]))  # the oldest makes room
        if not self.storage.set(REVIEWS_KEY, json.dumps(index)):
            self.storage.remove(review_key(key))
            return False
        return True


def with_accuracy(entries: "list[dict[str, Any]]", accuracies: "dict[str, float | None]") -> "list[dict[str, Any]]":
    """The finished games' summaries (``summary_of`` each stored entry), each with ``accuracy``: its kept review's
    (a number), "ai" (reviewed, the AI played every move) or None (not reviewed)."""
    rows = []
    for entry in entries:
        row = summary_of(entry)
        key = game_key(entry.get("seed"), str(entry.get("moves") or ""))
        row["accuracy"] = ("ai" if accuracies[key] is None else accuracies[key]) if key in accuracies else None
        rows.append(row)
    return rows
