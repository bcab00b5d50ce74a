"""A long game costs no more a move than a fresh one (issue 39): a game of 6,000 moves set up through storage.

The game is ``tests/data/long_game.txt`` (7,332 moves), restored at move 6,000 with its whole record, as a
page saves it; the same seed's fresh game is the yardstick.  Measured as ``tools/bench_move_cost.py`` does:
the main thread's busy time per key press, and every long task while the moves are played.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from bench_move_cost import long_game_code, measure_at  # noqa: E402

MOVES = 30


def test_a_move_at_move_6000_costs_at_most_twice_a_fresh_games_and_no_task_is_long(browser, server_url):
    code = long_game_code()
    fresh_ms, _, _ = measure_at(browser, server_url, code, 0, MOVES)
    long_ms, longest, each = measure_at(browser, server_url, code, 6000, MOVES)
    assert long_ms <= 2 * fresh_ms + 10, f"{long_ms:.1f} ms a move at move 6,000, {fresh_ms:.1f} ms fresh: {each}"
    assert longest <= 100, f"a task of {longest:.0f} ms at move 6,000"
