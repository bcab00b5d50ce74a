"""A position as text: what a person types or pastes, and what a link carries (``?rows=``).

``parse_rows`` reads four rows of four tiles, written the way people write
them: rows separated by ``/``, ``;`` or new lines, cells by spaces, commas or
tabs; ``0``, ``.`` or ``-`` for an empty cell.  Sixteen cells on one line,
and Python's ``[[0, 2, 4, 8], ...]``, are read too.  Anything else raises
``ValueError`` with a message for the person who typed it: which value, where,
and why the engine refuses it.  ``format_rows`` writes the compact form a link
uses (``0,2,4,8/0,0,0,0/...``), which ``parse_rows`` reads back.

Plain string work on purpose (no ``re``, no ``str.translate``, nothing from
``typing``): the page (in MicroPython) and the terminal share it.
"""

from .board import MAX_RANK, from_rows, to_rows

MAX_TEXT_CHARS = 1000
"""Longer text is refused before it is read: a position written out in full needs under 200 characters."""
MAX_TILE = 1 << MAX_RANK
EMPTY_MARKS = ("0", ".", "-")
ROW_SEPARATORS = ("\r\n", "\r", "\n", ";", "]")  # each becomes "/"; "]" closes a row of [[...], [...]]
CELL_SEPARATORS = (",", "\t", "[")  # each becomes a space
DIGITS = "0123456789"
SHOWN_CHARS = 12


def parse_value(token: str) -> int:
    """The tile value (0 for empty) written as ``token``; ``ValueError`` saying why it is not a tile."""
    token = token.strip()
    if token in EMPTY_MARKS:
        return 0
    if not token or any(ch not in DIGITS for ch in token):
        raise ValueError(f'"{_shown(token)}" is not a number: a tile is 2, 4, 8, ... up to {MAX_TILE}, or 0 for empty')
    digits = token.lstrip("0") or "0"
    if len(digits) > len(str(MAX_TILE)):
        raise ValueError(f"{_shown(digits)} is above {MAX_TILE}, the largest tile the engine holds")
    value = int(digits)
    if value == 0:
        return 0
    if value > MAX_TILE:
        raise ValueError(f"{value} is above {MAX_TILE}, the largest tile the engine holds")
    if value == 1:
        raise ValueError("1 is not a tile: the smallest tile is 2")
    if value & (value - 1):
        raise ValueError(f"{value} is not a power of two")
    return value


def parse_rows(text: object) -> int:
    """The board (an int, as ``board.from_rows`` makes) that ``text`` writes; ``ValueError`` saying why not."""
    if not isinstance(text, str):
        raise ValueError(f"a position is text, not {type(text).__name__}")
    if len(text) > MAX_TEXT_CHARS:
        raise ValueError(f"the position is {len(text)} characters long; at most {MAX_TEXT_CHARS} are read")
    for separator in ROW_SEPARATORS:
        text = text.replace(separator, "/")
    for separator in CELL_SEPARATORS:
        text = text.replace(separator, " ")
    rows = [row.split() for row in text.split("/")]
    rows = [row for row in rows if row]
    if not rows:
        raise ValueError("the position is empty: write four rows of four numbers, like 0 2 4 8 / 0 0 0 0 / ...")
    if len(rows) == 1 and len(rows[0]) == 16:
        rows = [rows[0][i : i + 4] for i in range(0, 16, 4)]
    values = []  # every value is read first: "x" says it is not a number rather than that a row is short
    for r, row in enumerate(rows):
        line = []
        for c, token in enumerate(row):
            try:
                line.append(parse_value(token))
            except ValueError as exc:
                raise ValueError(f"{exc} (row {r + 1}, column {c + 1})") from None
        values.append(line)
    if len(rows) != 4:
        raise ValueError(f"the position has {len(rows)} row{'s' if len(rows) != 1 else ''}, a board has 4")
    for r, row in enumerate(rows):
        if len(row) != 4:
            raise ValueError(f"row {r + 1} has {len(row)} number{'s' if len(row) != 1 else ''}, a row has 4")
    return from_rows(values)


def format_rows(board: int) -> str:
    """The board as a link writes it: rows by ``/``, cells by ``,``, 0 for empty (``parse_rows`` reads it back)."""
    return "/".join(",".join(str(value) for value in row) for row in to_rows(board))


def _shown(text: str) -> str:
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "..."
