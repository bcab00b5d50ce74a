"""Alpha-beta's rescue search: it changes only moves the full search calls lost, and then to the twos-only tree's.

The position is from a lab game (seed 12, depth 5) a few moves before it was
lost: the full reduction proves a loss at depth 5, and a computer that places
only 2s cannot.
"""

from __future__ import annotations

import pytest
from test_alphabeta_equivalence import game_positions
from test_search_time import SteppingClock

from game2048 import board as B
from game2048 import reference
from game2048.evaluation import presets
from game2048.search import alphabeta, best_move
from game2048.search.clock import Deadline
from game2048.values import WIN_SCORE

EVALUATE = presets.get("classic").make()
LOST_AT_5 = B.from_rows([[2, 32, 128, 1024], [2, 64, 256, 512], [2, 8, 128, 64], [4, 8, 4, 2]])


def _search(board: int, depth: int, rescue: bool):
    return alphabeta.search(board, EVALUATE, Deadline(None), depth=depth, rescue=rescue)


def test_a_proven_loss_plays_the_best_move_of_the_twos_only_tree() -> None:
    plain = _search(LOST_AT_5, 5, False)
    assert plain.score <= -WIN_SCORE and not plain.rescued
    assert reference.best_moves(LOST_AT_5, 5, EVALUATE)[0] == plain.score
    rescued = _search(LOST_AT_5, 5, True)
    value, moves = reference.best_moves(LOST_AT_5, 5, EVALUATE, ranks=(1,))
    assert value > -WIN_SCORE  # against 2s alone the game is not lost within 5 moves
    assert rescued.rescued
    assert (rescued.score, rescued.depth) == (value, 5)
    assert rescued.move in moves and plain.move not in moves
    assert rescued.nodes > plain.nodes  # both searches are counted


def test_rescue_changes_nothing_unless_a_loss_is_proven() -> None:
    proven = 0
    for board in game_positions()[::5]:
        plain, rescued = _search(board, 4, False), _search(board, 4, True)
        if plain.score <= -WIN_SCORE:
            proven += 1
            continue
        assert not rescued.rescued
        assert (rescued.move, rescued.score, rescued.depth, rescued.nodes) == (
            plain.move,
            plain.score,
            plain.depth,
            plain.nodes,
        ), hex(board)
    assert proven < len(game_positions()[::5]) / 4


def test_a_rescue_that_cannot_search_as_deep_keeps_the_proof() -> None:
    # A deadline already past: the rescue completes only depth 1, shallower than the depth-5 proof.
    lost = _search(LOST_AT_5, 5, False)
    expired = Deadline(1.0, SteppingClock(1000.0))
    second = alphabeta._deepen(LOST_AT_5, EVALUATE, expired, None, alphabeta._Switches(True, True, False, True))
    assert second.depth == 1
    kept = alphabeta._rescued(lost, second)
    assert not kept.rescued
    assert (kept.move, kept.score, kept.depth) == (lost.move, lost.score, lost.depth)
    assert kept.nodes > lost.nodes


def test_a_timed_rescue_shares_the_think_time() -> None:
    # 0.1 ms per clock read: the full search proves the loss early, the rescue spends what is left, and the
    # two together stop at the budget like any timed search (test_search_time).
    result = best_move(LOST_AT_5, think_ms=20, clock=SteppingClock(0.0001), rescue=True)
    assert result.rescued and result.depth >= 5
    assert result.elapsed_ms < 25
    assert best_move(LOST_AT_5, think_ms=20, clock=SteppingClock(0.0001), rescue=False).score <= -WIN_SCORE


def test_best_move_rescues_unless_told_not_to() -> None:
    # On by default in best_move (the page, the lab): it won more games (docs/results.md); the plain search stays one
    # argument away, and alphabeta.search itself is plain unless asked.
    assert best_move(LOST_AT_5, depth=5).rescued
    assert best_move(LOST_AT_5, depth=5).to_dict()["rescued"] is True
    assert best_move(LOST_AT_5, depth=5, rescue=True).rescued
    assert not best_move(LOST_AT_5, depth=5, rescue=False).rescued
    assert best_move(LOST_AT_5, depth=5, rescue=False).score <= -WIN_SCORE
    assert not alphabeta.search(LOST_AT_5, EVALUATE, Deadline(None), depth=5).rescued
    assert not best_move(LOST_AT_5, depth=2, algorithm="expectimax").rescued


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rescue": "yes"}, "rescue is True, False or None"),
        ({"rescue": 1}, "rescue is True, False or None"),
        ({"rescue": True, "algorithm": "expectimax"}, "an alpha-beta option"),
    ],
)
def test_best_move_refuses_a_rescue_it_cannot_do(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        best_move(LOST_AT_5, depth=2, **options)
