"""Move agreement: positions from seeded games, the reference move, and the table the lab prints."""

from __future__ import annotations

import pytest

from game2048.board import max_rank
from game2048.lab import agreement, cli
from game2048.lab.agreement import Searcher, measure, sample_positions


@pytest.fixture(autouse=True)
def quick_games(monkeypatch):
    # The positions' games at depth 2 instead of 5: the same code, a few seconds instead of ten.
    monkeypatch.setattr(agreement, "POSITION_DEPTH", 2)


def test_positions_come_from_the_second_half_of_a_seeded_game_every_few_moves():
    positions = sample_positions(7)
    assert positions == sample_positions(7)  # seeded spawns, fixed depth: the same boards every time
    assert len(positions) >= 10
    assert all(max_rank(board) >= 6 for board in positions)  # move 300 on: at least a 64 on the board
    assert len(set(positions)) == len(positions)


def test_a_search_agrees_with_itself_and_a_shallower_one_less_often():
    count, rows = measure([7], 3, [Searcher(depth=3), Searcher(depth=1)])
    assert count == len(sample_positions(7))
    same, shallow = rows
    assert same[0] == "depth 3" and same[1] == f"{count} of {count} (100.0 %)"
    assert (same[2], same[3]) == ("3", "3.00")
    agree_shallow = int(shallow[1].split(" of ")[0])
    assert agree_shallow < count


def test_the_command_prints_the_table(capsys):
    assert (
        cli.main(
            ["agreement", "--seeds", "7", "--reference-depth", "2", "--think-ms", "5", "--depths", "1,2", "--jobs", "1"]
        )
        == 0
    )
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "positions from 1 game, seed 7, in this process"
    assert printed[1].endswith("positions; reference: depth 2, exact")
    labels = [line.split("  ")[0] for line in printed[4:]]
    assert labels == ["5 ms", "5 ms, reductions", "depth 1", "depth 2"]
    count = printed[1].split()[0]
    assert f"{count} of {count} (100.0 %)" in printed[-1]  # depth 2 exact is the reference itself


@pytest.mark.parametrize(
    "args, message",
    [
        (["--depths", "8,x"], "'x' is not a whole number"),
        (["--depths", "0"], "0 is not from 1 to 20"),
        (["--reference-depth", "0"], "reference-depth"),
    ],
)
def test_bad_arguments_are_refused_with_a_message(capsys, args, message):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["agreement", "--seeds", "7", "--jobs", "1"] + args)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
