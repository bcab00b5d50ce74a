"""The rules (``board``, ``game``, ``position_text``) play the same games under MicroPython as under CPython.

The page's main thread runs MicroPython and the AI worker and the lab run
CPython (Pyodide), so one implementation of the rules must give the same
boards, scores, spawns, saved games and messages in both.  Each script here
runs in both interpreters and prints what it saw; the outputs must be equal.
"""

from micropython_runner import RULES, run_both

REPLAY = """
from game2048 import board as B
from game2048.game import Game, SavedStateError, trace_move

out = []
for seed in SEEDS:
    game = Game.new(seed)
    while not game.over and game.moves < 400:
        legal = B.legal_moves(game.board)
        outcome = game.play(legal[(game.moves * 7 + game.board) % len(legal)])
        if game.moves % 37 == 1:
            journeys = [(j.src, j.dst, j.rank, j.merged) for j in outcome.journeys]
            out.append((outcome.direction, outcome.points, journeys, outcome.merged_cells, outcome.spawn))
    saved = game.to_dict()
    again = Game.from_dict(saved)
    assert again.to_dict()["rng"] == saved["rng"] and again.board == game.board
    out.append((seed, hex(game.board), game.score, game.moves, game.won, game.over, saved["rng"][1][-1]))
    out.append(B.to_rows(game.board))
print(repr(out))
"""

CHECKS = """
from game2048 import board as B
from game2048.game import Game, SavedStateError, trace_move
from game2048.position_text import format_rows, parse_rows

out = []
for rows in ([[2, 3, 0, 0]] + [[0] * 4] * 3, [[65536, 0, 0, 0]] + [[0] * 4] * 3, [[True, 0, 0, 0]] + [[0] * 4] * 3):
    try:
        B.from_rows(rows)
    except ValueError as exc:
        out.append(str(exc))
for name in ("up", "sideways"):
    try:
        out.append(B.direction_named(name))
    except ValueError as exc:
        out.append(str(exc))
board = B.from_rows([[2, 2, 4, 8], [0, 4, 4, 4], [2, 0, 2, 0], [32768, 32768, 0, 2]])
for direction in B.DIRECTIONS:
    after, points = B.move(board, direction)
    moves, merged = trace_move(board, direction)
    out.append((direction, hex(after), points, [(m.src, m.dst, m.merged) for m in moves], merged))
game = Game.from_position(board, seed=5)
out.append((game.score, game.moves, game.won))
saved = game.to_dict()
broken_values = (("score", saved["score"] + 2), ("moves", -1), ("won", 1), ("seed", 2**64))
broken_values += (("rng", [3, [0] * 625, None]),)
for key, value in broken_values:
    broken = dict(saved)
    broken[key] = value
    try:
        Game.from_dict(broken)
    except SavedStateError as exc:
        out.append(str(exc))
out.append(format_rows(parse_rows("2 4 0 0 / 0 0 0 0 / 0 0 0 8 / 0 0 0 2048")))
print(repr(out))
"""


def test_seeded_games_replay_the_same_in_micropython() -> None:
    micro, cpython = run_both(REPLAY.replace("SEEDS", repr([0, 1, 7, 2048, 2**40 + 3])), RULES)
    assert micro == cpython
    assert cpython.count("0x") == 5


def test_moves_saved_games_and_messages_are_the_same_in_micropython() -> None:
    micro, cpython = run_both(CHECKS, RULES)
    assert micro == cpython
    assert "cannot be in (all zero)" in cpython and "a move is one of up" in cpython
