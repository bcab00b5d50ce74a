"""``lab review``: every move of saved games graded as the page's review grades it, and files refused clearly."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from game2048.game_record import GameRecord
from game2048.lab import cli
from game2048.lab.config import read_network, use_network
from game2048.lab.review_playouts import Playouts
from game2048.lab.training.export import dequantized
from game2048.lab.training.trainer import greedy_on
from game2048.search import SearchOptions
from game2048.search.review import GRADES, playouts_for, review_game
from game2048.search.review_playouts import PLAYOUTS


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
    assert f"graded by expectimax depth 1 with the network {network}, losses by {PLAYOUTS} pairs of" in printed[2]
    rows = {line.split()[0]: line.split() for line in printed[-3:-1]}
    assert printed[-1] == f"graded moves written to {out}"
    assert set(rows) == {"classic.jsonl", "rows.jsonl"}
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    records = [GameRecord.from_dict(json.loads(line)["record"]) for line in first.read_text().splitlines()]
    assert len([g for g in lines if g["file"] == str(first)]) == sum(len(r.moves) for r in records)
    use_network(str(network))
    evaluate = SearchOptions("expectimax", depth=1, preset="learned").evaluator()
    again = review_game(records[0], evaluate, depth=1, playouts=playouts_for("learned"))  # as the page grades
    assert any(m.played != m.best for m in again)  # some losses were measured by playouts
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
    network_file = read_network(network)[0]
    player = Playouts(network_file.shape, dequantized(network_file))
    same = review_truth.playout_values(player, board, played, 8, 20, 11)
    assert list(same) == list(review_truth.playout_values(player, board, played, 8, 20, 11))
    capsys.readouterr()
    args = ["review-truth", "--moves", "4", "--playouts", "3", "--horizon", "10", "--depth", "1", "--noise", "0.5"]
    assert cli.main([*args, "--network", network]) == 0
    printed = capsys.readouterr().out.splitlines()
    summary = next(line for line in printed if "not the best" in line)
    assert "moves of learned's noisy games" in summary
    assert ", 4 not the best, each measured by 3 greedy games after it and after the best (10 moves" in summary
    assert any(line.startswith("Spearman's correlation, predicted against measured loss: ") for line in printed)
    assert any(line.startswith("The measure against itself (its two halves of the playouts): ") for line in printed)
    assert [line.split()[0] for line in printed[-5:]] == list(GRADES)
    assert cli.main([*args, "--network", network, "--player", "classic", "--noise", "0"]) == 0
    assert "moves of classic's noisy games (noise 0, seeds from 1), 4 not the best" in capsys.readouterr().out


def _starts(evaluate, count: int) -> list[int]:  # type: ignore[no-untyped-def]
    """Boards from a noisy game of the tiny network: a few openings and a few crowded boards."""
    from game2048.lab import review_truth

    boards = [board for board, _ in review_truth.noisy_moves(evaluate, 5, 0.3, 3)]
    return boards[:: max(1, len(boards) // count)][:count]


def test_playouts_to_the_end_are_the_greedy_games_the_trainer_plays(lab_files) -> None:  # type: ignore[no-untyped-def]

    network = read_network(str(lab_files[0]))[0]
    weights = dequantized(network)
    use_network(str(lab_files[0]))
    starts = _starts(SearchOptions("expectimax", depth=1, preset="learned").evaluator(), 12)
    games = greedy_on(network.shape, weights, starts, 1, 7)[:, 0]
    assert list(Playouts(network.shape, weights).returns(starts, 0, 7)) == [float(g) for g in games]
    assert list(Playouts(network.shape, weights).returns(starts, 10**9, 7)) == [float(g) for g in games]
    assert list(Playouts(network.shape, weights).returns(starts, 0, 8)) != [float(g) for g in games]


def test_a_playout_of_one_move_is_the_greedy_moves_points_and_the_networks_value(lab_files) -> None:  # type: ignore[no-untyped-def]
    from game2048.board import DIRECTIONS
    from game2048.evaluation.ntuple_shapes import score_of_tiles
    from game2048.move_tables import afterstates

    network = read_network(str(lab_files[0]))[0]
    weights = dequantized(network)
    use_network(str(lab_files[0]))
    evaluate = SearchOptions("expectimax", depth=1, preset="learned").evaluator()
    starts = _starts(evaluate, 12)
    expected = []
    for board in starts:
        options = [after for after in afterstates(board) if after != board]
        expected.append(max(evaluate(after) for after in options) - score_of_tiles(board) if options else 0.0)
    assert len(DIRECTIONS) == 4
    assert list(Playouts(network.shape, weights).returns(starts, 1, 3)) == pytest.approx(expected, rel=1e-5, abs=0.05)


def test_the_measure_against_itself_is_its_two_halves_correlated_and_stretched_by_spearman_brown() -> None:
    from game2048.lab.review_truth import TruthRow, halves, self_agreement

    assert halves(np.array([1.0, 3.0, 10.0, 20.0])) == (2.0, 15.0)
    agreeing = [TruthRow(float(k), "good", 0.0, 0.0, (float(k), float(k) + 0.5)) for k in range(10)]
    best = [TruthRow(0.0, "best", 0.0, 0.0, (5.0, -5.0), measured_move=False)] * 5  # not measured: left out
    assert self_agreement(agreeing + best) == (pytest.approx(1.0), pytest.approx(1.0))
    crossed = [TruthRow(0.0, "good", 0.0, 0.0, pair) for pair in [(1, 2), (2, 1), (3, 4), (4, 3)]]
    half, whole = self_agreement(crossed)
    assert half == pytest.approx(0.6)
    assert whole == pytest.approx(2 * 0.6 / 1.6)


def test_review_truth_with_no_options_is_the_check_docs_results_reports() -> None:
    """1,024 playouts a side of 100 moves, the review graded with the page's playouts: the published check."""
    import inspect

    from game2048.lab import review_truth

    args = cli.build_parser().parse_args(["review-truth"])
    assert (args.moves, args.playouts, args.horizon, args.grader_playouts) == (300, 1024, 100, PLAYOUTS)
    assert inspect.signature(review_truth.measure).parameters["grader_playouts"].default == PLAYOUTS
