"""``lab review``: every move of saved games graded as the page's review grades it, and files refused clearly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game2048.game_record import GameRecord
from game2048.lab import cli
from game2048.lab.config import use_network
from game2048.search import SearchOptions
from game2048.search.review import GRADES, review_game


@pytest.fixture(scope="module")
def lab_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """A tiny network (2x4, 300 games) and two lab files of two games each, by two players."""
    folder = tmp_path_factory.mktemp("review")
    train = ["train", "--shape", "2x4", "--games", "300", "--block", "150", "--out", str(folder / "run")]
    assert cli.main([*train, "--no-progress"]) == 0
    assert cli.main(["export", "--run", str(folder / "run"), "--out", str(folder / "mine.ntn"), "--games", "5"]) == 0
    files = []
    for name, preset in (("classic.jsonl", "classic"), ("rows.jsonl", "rows")):
        run = ["run", "--algorithm", "expectimax", "--preset", preset, "--depth", "1", "--games", "2"]
        run += ["--jobs", "1", "--stop-tile", "64", "--no-progress", "--out", str(folder / name)]
        assert cli.main(run) == 0
        files.append(folder / name)
    return folder / "mine.ntn", files[0], files[1]


def test_review_grades_every_move_of_two_players_side_by_side_as_the_engine_does(lab_files, capsys) -> None:  # type: ignore[no-untyped-def]
    network, first, second = lab_files
    out = first.parent / "graded.jsonl"
    capsys.readouterr()
    assert (
        cli.main(["review", str(first), str(second), "--network", str(network), "--depth", "1", "--out", str(out)]) == 0
    )
    printed = capsys.readouterr().out.splitlines()
    assert f"graded by expectimax depth 1 with the network {network}" in printed[2]
    rows = {line.split()[0]: line.split() for line in printed[-3:-1]}
    assert printed[-1] == f"graded moves written to {out}"
    assert set(rows) == {"classic.jsonl", "rows.jsonl"}
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    records = [GameRecord.from_dict(json.loads(line)["record"]) for line in first.read_text().splitlines()]
    assert len([g for g in lines if g["file"] == str(first)]) == sum(len(r.moves) for r in records)
    use_network(str(network))
    evaluate = SearchOptions("expectimax", depth=1, preset="learned").evaluator()
    again = review_game(records[0], evaluate, depth=1)
    mine = [g for g in lines if g["file"] == str(first) and g["game"] == 1]
    assert [g["grade"] for g in mine] == [m.grade for m in again]
    assert [g["lost"] for g in mine] == [m.lost for m in again]
    counts = rows["classic.jsonl"][3 : 3 + len(GRADES)]
    yours = int(rows["classic.jsonl"][2].replace(",", ""))
    assert yours == sum(len(r.moves) for r in records)  # the AI played alone: its moves are the player's
    assert sum(int(c.replace(",", "")) for c in counts) == yours


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "holds no recorded game"),
        ('{"seed": 3, "score": 10}\n{"seed": 4, "score": 12}\n', "holds no recorded game"),
        ('{"record": {"seed": 1, "moves": ["sideways"]}}\n', "holds no game this lab can replay"),
        ("not json\n", "holds no game this lab can replay"),
    ],
)
def test_a_file_without_games_is_refused_in_one_line(lab_files, tmp_path, capsys, content: str, message: str) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(content)
    with pytest.raises(SystemExit) as exited:
        cli.main(["review", str(bad), "--network", str(lab_files[0]), "--depth", "1"])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and message in err and "Traceback" not in err


def test_review_truth_measures_graded_moves_by_playouts_with_the_same_luck_on_both_sides(lab_files, capsys) -> None:  # type: ignore[no-untyped-def]
    from game2048.lab import review_truth

    network = str(lab_files[0])
    use_network(network)
    evaluate = SearchOptions("expectimax", depth=1, preset="learned").evaluator()
    board, played = review_truth.noisy_moves(evaluate, 3, 0.5, 10)[2]
    same = review_truth.horizon_value(evaluate, board, played, 8, 20, 11)
    assert same == review_truth.horizon_value(evaluate, board, played, 8, 20, 11)  # seeded: common random numbers
    capsys.readouterr()
    args = ["review-truth", "--moves", "4", "--playouts", "3", "--horizon", "10", "--depth", "1", "--noise", "0.5"]
    assert cli.main([*args, "--network", network]) == 0
    printed = capsys.readouterr().out.splitlines()
    summary = next(line for line in printed if "not the best" in line)
    assert ", 4 not the best, each measured by 3 greedy games after it and after the best (10 moves" in summary
    assert any(line.startswith("Spearman's correlation, predicted against measured loss: ") for line in printed)
    assert [line.split()[0] for line in printed[-5:]] == list(GRADES)
