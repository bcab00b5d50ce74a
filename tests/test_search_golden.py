"""Fixed-depth decisions on the bench positions, pinned: a refactor of the search must reproduce them exactly.

For every bench position, every preset and each algorithm (alpha-beta plain, with late-move reductions, and
with its default rescue; expectimax), the move, completed depth, node and cutoff counts, root value and
rescue flag at a fixed depth are compared with ``tests/data/search_golden.json``, recorded from the code
as it stood before the clean-up of issue 13.  A change that means to alter decisions regenerates the file on
purpose (``GOLDEN_REGENERATE=1 pytest tests/test_search_golden.py``) and says so in its commit.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from game2048 import board as B
from game2048.bench_positions import POSITIONS
from game2048.evaluation.presets import PRESETS
from game2048.search import best_move

GOLDEN = Path(__file__).parent / "data" / "search_golden.json"
CASES: dict[str, dict] = {
    "alphabeta": {"algorithm": "alphabeta", "depth": 5, "rescue": False},
    "alphabeta-reductions": {"algorithm": "alphabeta", "depth": 6, "rescue": False, "reductions": True},
    "alphabeta-rescue": {"algorithm": "alphabeta", "depth": 5},
    "expectimax": {"algorithm": "expectimax", "depth": 3},
}


BOARDS = {p.name: p.board for p in POSITIONS} | {
    # A position from a lost lab game, where alpha-beta proves a loss at depth 5 and its rescue decides.
    "lost-at-5": B.from_rows([[2, 32, 128, 1024], [2, 64, 256, 512], [2, 8, 128, 64], [4, 8, 4, 2]]),
}


def _decide(case: str, preset: str) -> dict[str, list]:
    out = {}
    for name, board in BOARDS.items():
        result = best_move(board, preset=preset, **CASES[case])
        out[name] = [
            result.move,
            result.depth,
            result.nodes,
            result.cutoffs,
            round(result.score, 9),
            result.rescued,
        ]
    return out


def _golden() -> dict:
    return json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("case", sorted(CASES))
def test_fixed_depth_decisions_match_the_golden_file(case, preset):
    decided = _decide(case, preset)
    if os.environ.get("GOLDEN_REGENERATE"):
        data = _golden()
        data.setdefault(case, {})[preset] = decided
        GOLDEN.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        pytest.skip("golden file regenerated")
    assert decided == _golden()[case][preset]
