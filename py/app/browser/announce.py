"""What the page says to a screen reader: the words for a move, a game, a hint, a cell.

Plain functions from the engine's values to a sentence, so the wording is
tested in CPython; ``app.board.play`` and ``app.ai.controls`` choose when to speak,
and ``app.board.view.BoardView.announce`` writes the sentence into the page's polite
live region.  Rows and columns are counted from 1, top-left first, as a
person reads the board.
"""

from game2048.board import Direction, cell_name, direction_named
from game2048.game import Game, MoveOutcome

WIN_VALUE = 2048


def cell_label(value: int) -> str:
    """A board cell as the grid reads it: its tile's value, or "empty"."""
    return str(value) if value else "empty"


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def cell_values(game: Game) -> list[int]:
    """The 16 tile values, cell 0 (top-left) first, 0 for empty."""
    board = game.board
    return [(1 << rank) if (rank := (board >> (4 * cell)) & 0xF) else 0 for cell in range(16)]


def undo_sentence(taken: Direction, game: Game) -> str:
    """A move taken back: which, and the game's undos so far."""
    undos = f"{game.undos} undo{'s' if game.undos != 1 else ''} in this game"
    return f"Took back the move {direction_named(taken)}. {score_sentence(game)} {undos}."


NOTHING_TO_UNDO = "Nothing to take back: this game has no move left to undo."
NOTHING_TO_REDO = "Nothing to play again: no move was taken back since the last one played."


def score_sentence(game: Game) -> str:
    return f"Score {game.score}."


def move_sentence(outcome: MoveOutcome, game: Game, by_ai: bool = False) -> str:
    """A move that changed the board: direction, merges and points, the new tile, the score, win or game over."""
    values = cell_values(game)
    who = "AI moved" if by_ai else "Moved"
    parts = [f"{who} {outcome.direction}"]
    merged = sorted(values[cell] for cell in outcome.merged_cells)
    if merged:
        parts.append(f": merged into {_and([str(v) for v in merged])}, +{outcome.points} points.")
    else:
        parts.append(", no merge.")
    sentence = "".join(parts)
    if outcome.spawn is not None:
        cell, rank = outcome.spawn
        sentence += f" New {1 << rank} in {cell_name(cell)}."
    sentence += " " + score_sentence(game)
    if outcome.won_now:
        sentence += " " + won_sentence()
    if outcome.over:
        sentence += " " + over_sentence(game)
    return sentence


def blocked_sentence(direction: Direction) -> str:
    """A move key that changed nothing."""
    return f"No tiles can move {direction_named(direction)}."


def won_sentence() -> str:
    return f"You win: you made {WIN_VALUE}! Keep going, or start a new game."


def over_sentence(game: Game) -> str:
    return f"Game over: no move is left. Final score {game.score}."


def game_sentence(game: Game, opening: str) -> str:
    """A whole game at a glance (new, switched to, or set up): its tiles where few, else how many; the score."""
    tiles = [(cell, value) for cell, value in enumerate(cell_values(game)) if value]
    if len(tiles) <= 4:
        listed = "; ".join(f"{value} in {cell_name(cell)}" for cell, value in tiles)
        sentence = f"{opening} Tiles: {listed}."
    else:
        sentence = f"{opening} {len(tiles)} tiles, the largest {max(v for _, v in tiles)}."
    sentence += " " + score_sentence(game)
    if game.paused_at_win:
        sentence += " " + won_sentence()
    elif game.over:
        sentence += " " + over_sentence(game)
    return sentence


def keep_going_sentence() -> str:
    return f"Playing on past {WIN_VALUE}."


def hint_sentence(direction: Direction) -> str:
    return f"Hint: {direction_named(direction)}"
