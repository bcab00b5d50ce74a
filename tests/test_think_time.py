"""The think-time policy: the chosen time on average over a game, more on crowded boards, never past its bounds."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import boards

from game2048 import board as B
from game2048.lab import cli
from game2048.lab.records import read
from game2048.search.think_time import LEAST, MOST, ThinkTime, difficulty, distinct_tiles

EARLY = B.from_rows([[2, 4, 0, 0], [0, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]])
CROWDED = B.from_rows([[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 2048, 4096], [8192, 16384, 2, 0]])


@given(boards())
def test_distinct_tiles_counts_the_ranks_on_the_board(board: int) -> None:
    ranks = {(board >> (4 * i)) & 0xF for i in range(16)} - {0}
    assert distinct_tiles(board) == len(ranks)


def test_a_crowded_board_gets_more_of_the_time_than_an_early_one() -> None:
    assert difficulty(CROWDED) > 100 * difficulty(EARLY)
    policy = ThinkTime(100)
    for _ in range(50):
        policy.budget(EARLY)
        policy.spent(25)  # easy moves end early
    crowded = policy.budget(CROWDED)
    assert crowded.ms > 300 and crowded.distinct == 14 and crowded.empty == 1
    assert crowded.reason().startswith("14 distinct tiles, 1 empty cell: ")


@given(st.lists(boards(), min_size=1, max_size=300), st.integers(0, 2**32))
def test_no_budget_leaves_its_bounds_and_a_game_spending_its_budgets_averages_the_chosen_time(
    played: list[int], seed: int
) -> None:
    rng = random.Random(seed)
    policy = ThinkTime(100)
    for board in played:
        budget = policy.budget(board)
        assert LEAST * 100 <= budget.ms <= MOST * 100
        policy.spent(budget.ms * rng.uniform(0.98, 1.02))  # a search ends about when told
    # The bank gives back a tenth a move of what was saved: over a game the mean is near the chosen time.
    if len(played) >= 100:
        assert abs(policy.total_ms / policy.moves - 100) < 12


def test_a_stalled_move_overdraws_at_most_the_longest_budget_and_the_game_recovers_soon() -> None:
    policy = ThinkTime(60)
    for _ in range(100):
        policy.spent(policy.budget(EARLY).ms)
    policy.budget(EARLY)
    policy.spent(307_683.5)  # the process was paused for five minutes during this move
    assert policy.bank_ms >= -MOST * 60
    for _ in range(30):
        budget = policy.budget(EARLY)
        policy.spent(budget.ms)
    assert budget.ms > 30  # back above half the chosen time, not held at the least for thousands of moves


def test_a_think_time_is_positive() -> None:
    with pytest.raises(ValueError):
        ThinkTime(0)


def test_a_lab_game_with_the_crowded_policy_keeps_each_moves_budget(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "games.jsonl"
    base = ["run", "--algorithm", "expectimax", "--preset", "rows", "--think-ms", "2", "--stop-tile", "128"]
    assert (
        cli.main(
            [*base, "--seeds", "1", "--jobs", "1", "--no-progress", "--think-policy", "crowded", "--out", str(out)]
        )
        == 0
    )
    assert "expectimax:rows crowded 2 ms" in capsys.readouterr().out
    (record,) = read(out)
    line = json.loads(out.read_text())
    assert record["think_policy"] == "crowded" and len(line["move_budget_ms"]) == record["moves"]
    assert all(LEAST * 2 <= ms <= MOST * 2 for ms in line["move_budget_ms"])
    with pytest.raises(SystemExit):  # another policy is another configuration
        cli.main([*base, "--seeds", "1", "--jobs", "1", "--no-progress", "--out", str(out), "--resume"])
    assert "another configuration" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["run", "--depth", "1", "--think-policy", "crowded", "--games", "1"])
    assert "fixed --depth" in capsys.readouterr().err
