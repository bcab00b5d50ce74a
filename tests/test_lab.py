"""The lab: records and summaries of tiny seeded runs, reproducibility, reports, and refused input."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from game2048.board import max_rank
from game2048.game import Game
from game2048.game_link import LINK_PARAM, decode_link
from game2048.game_record import GameRecord
from game2048.lab import cli
from game2048.lab.config import ConfigError, PlayConfig, parse_config_spec, parse_seeds, parse_weights
from game2048.lab.experiments import feature_configs, run_compare, run_features
from game2048.lab.play import play_game, play_games
from game2048.lab.progress import Progress, progress_tiles
from game2048.lab.records import to_json
from game2048.lab.summary import summarize
from game2048.search import best_move

TINY = PlayConfig(algorithm="expectimax", depth=1, stop_tile=0)

TIMING_FIELDS = {"think_ms_p50", "think_ms_p99", "think_ms_max", "seconds", "_think_ms", "move_think_ms"}


def _without_timing(record: dict) -> dict:
    """The record without measured times, its game's decisions included (their think times are measured)."""
    out = {k: v for k, v in record.items() if k not in TIMING_FIELDS}
    if "record" in out:
        game = dict(out["record"])
        game["decisions"] = [row if row is None else row[:2] + row[3:] for row in game.get("decisions", [])]
        out["record"] = game
    return out


@pytest.fixture(scope="module")
def tiny_records():
    return play_games([1, 2], TINY, jobs=1, progress=False)


def test_tiny_run_records_are_the_games_best_move_plays(tiny_records):
    for record in tiny_records:
        game = Game.new(record["seed"])
        while not game.over:
            game.play(best_move(game.board, depth=1, algorithm="expectimax").move)
        assert (record["max_tile"], record["score"], record["moves"]) == (
            1 << max_rank(game.board),
            game.score,
            game.moves,
        )
        assert record["lost"] is True and record["reached_stop"] is False
        assert record["depth_median"] == 1.0 and record["_depths"] == [1] * game.moves


def test_tiny_run_golden_games(tiny_records):
    # Pinned: seeded spawns + deterministic depth-1 expectimax with the rows preset.
    assert [(r["seed"], r["max_tile"], r["score"], r["moves"]) for r in tiny_records] == [
        (1, 256, 4004, 330),
        (2, 128, 992, 107),
    ]


def test_tiny_run_summary_fields(tiny_records):
    s = summarize(tiny_records)
    assert s["games"] == 2
    assert s["reached"] == {str(1 << r): 0.0 for r in range(9, 16)}  # 512 to 32768
    assert s["max_tile_median"] == 192.0  # between 128 and 256
    assert s["log2_max_tile_mean"] == 7.5
    # Linear-interpolated percentiles of the two scores 992 and 4004.
    assert s["score_p10"] == pytest.approx(992 + 0.1 * (4004 - 992))
    assert s["score_p50"] == pytest.approx((992 + 4004) / 2)
    assert s["score_p90"] == pytest.approx(992 + 0.9 * (4004 - 992))
    assert s["moves_total"] == 437
    assert s["moves_per_second"] == pytest.approx(437 / sum(r["seconds"] for r in tiny_records))
    assert s["depth_median"] == 1.0 and s["depth_p10"] == 1.0
    assert s["nodes_per_second"] == pytest.approx(
        sum(r["nodes"] for r in tiny_records) / (sum(sum(r["_think_ms"]) for r in tiny_records) / 1000)
    )
    assert 0 < s["think_ms_p50"] <= s["think_ms_p99"] <= s["think_ms_max"]


def test_json_line_fields(tiny_records):
    line = json.loads(json.dumps(to_json(tiny_records[0])))
    assert set(line) == {
        "seed",
        "max_tile",
        "score",
        "moves",
        "reached_stop",
        "lost",
        "think_ms_p50",
        "think_ms_p99",
        "think_ms_max",
        "depth_median",
        "depth_p10",
        "nodes",
        "seconds",
        "algorithm",
        "preset",
        "weights",
        "think_ms",
        "depth",
        "stop_tile",
        "reductions",
        "rescue",
        "network",
        "think_policy",
        "record",
        "move_think_ms",
        "move_depths",
    }
    assert line["move_depths"] == [1] * line["moves"] and len(line["move_think_ms"]) == line["moves"]
    assert (line["algorithm"], line["preset"], line["weights"], line["depth"], line["think_ms"], line["stop_tile"]) == (
        "expectimax",
        "rows",
        {},
        1,
        None,
        0,
    )


def test_a_line_holds_its_game_which_replays_to_the_lines_result(tiny_records):
    for record in tiny_records:
        game = GameRecord.from_dict(json.loads(json.dumps(to_json(record)))["record"])
        assert game.seed == record["seed"] and game.ai_moves() == len(game.moves) == record["moves"]
        assert game.result() == {
            "max_tile": record["max_tile"],
            "score": record["score"],
            "moves": record["moves"],
            "outcome": "lost",
        }
        assert [d["depth"] for d in game.decisions] == record["_depths"]
        assert {(d["algorithm"], d["preset"], d["rescued"]) for d in game.decisions} == {("expectimax", "rows", False)}
        assert [d["think_ms"] for d in game.decisions] == [round(t, 1) for t in record["_think_ms"]]
    assert play_game(3, PlayConfig(algorithm="expectimax", depth=1, stop_tile=64))["record"]["result"]["outcome"] == (
        "unfinished"
    )


def test_link_prints_the_page_link_of_a_saved_game(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    run = ["run", "--algorithm", "expectimax", "--depth", "1", "--stop-tile", "64", "--jobs", "1", "--no-progress"]
    assert cli.main(run + ["--seeds", "1,2", "--out", str(out)]) == 0
    capsys.readouterr()
    assert cli.main(["link", str(out), "--seed", "2"]) == 0
    link = capsys.readouterr().out.strip()
    assert link.startswith(f"http://127.0.0.1:8000/?{LINK_PARAM}=")
    saved = json.loads(out.read_text().splitlines()[1])
    assert decode_link(link.split("=", 1)[1])[:2] == (2, GameRecord.from_dict(saved["record"]).moves)
    assert cli.main(["link", str(out), "--seed", "1", "--base", "https://example.org/2048/?theme=dark"]) == 0
    assert capsys.readouterr().out.startswith(f"https://example.org/2048/?theme=dark&{LINK_PARAM}=B")

    old = tmp_path / "old.jsonl"
    old.write_text(json.dumps({k: v for k, v in saved.items() if k != "record"}) + "\n")
    for argv, message in (
        (["link", str(out), "--seed", "9"], "has no game of seed 9"),
        (["link", str(old), "--seed", "2"], "was saved without its moves"),
    ):
        with pytest.raises(SystemExit) as exit_info:
            cli.main(argv)
        assert exit_info.value.code == 2 and message in capsys.readouterr().err


def test_reach_rates_count_games_at_or_above_each_tile():
    records = [
        {"max_tile": t, "score": 0, "moves": 1, "seconds": 1.0, "think_ms_p50": 1.0, "depth_median": 1.0, "nodes": 5}
        for t in (1024, 2048, 4096, 16384)
    ]
    assert summarize(records)["reached"] == {
        "512": 1.0,
        "1024": 1.0,
        "2048": 0.75,
        "4096": 0.5,
        "8192": 0.25,
        "16384": 0.25,
        "32768": 0.0,
    }


def test_stop_tile_stops_the_game():
    record = play_game(3, PlayConfig(algorithm="expectimax", depth=1, stop_tile=64))
    assert record["max_tile"] == 64 and record["reached_stop"] and not record["lost"]


def test_processes_play_the_same_games_as_one_process(tiny_records):
    pooled = play_games([1, 2], TINY, jobs=2, progress=False)
    assert [_without_timing(r) for r in pooled] == [_without_timing(r) for r in tiny_records]


def test_same_command_prints_the_same_games(capsys, tmp_path):
    argv = [
        "run",
        "--algorithm",
        "expectimax",
        "--seeds",
        "4,5",
        "--depth",
        "1",
        "--stop-tile",
        "0",
        "--jobs",
        "1",
        "--no-progress",
    ]
    outputs = []
    for i in range(2):
        assert cli.main(argv + ["--out", str(tmp_path / f"run{i}.jsonl")]) == 0
        printed = capsys.readouterr().out
        outputs.append(printed[: printed.index("games:")])  # the per-game table; the summary below has timings
    assert outputs[0] == outputs[1] and [line.split()[0] for line in outputs[0].splitlines()[3:]] == ["4", "5"]
    lines = [
        [_without_timing(json.loads(x)) for x in (tmp_path / f"run{i}.jsonl").read_text().splitlines()]
        for i in range(2)
    ]
    assert lines[0] == lines[1] and len(lines[0]) == 2


def test_run_prints_progress_on_stderr(capsys):
    assert (
        cli.main(
            ["run", "--algorithm", "expectimax", "--seeds", "1", "--depth", "1", "--stop-tile", "64", "--jobs", "1"]
        )
        == 0
    )
    captured = capsys.readouterr()
    assert "1/1 games" in captured.err and "1/1 games" not in captured.out


def test_progress_in_a_log_is_one_plain_line_per_finished_game():
    log = io.StringIO()
    bar = Progress(2, label="expectimax:rows[empty_weight=300]", stream=log, tiles=(256, 512))
    bar.moves(1, 20)
    bar.game_done(1, 30, 512)
    bar.moves(2, 20)
    bar.game_done(2, 40, 256)
    bar.close()
    speed = r"[\d,]+ moves/s"  # moves over the bar's time so far: measured
    lines = log.getvalue().splitlines()
    assert len(lines) == 2
    assert re.fullmatch(
        rf"expectimax:rows\[empty_weight=300\]: 1/2 games, 30 moves, {speed}, 256 100%, 512 100%, "
        r"0:00:00 elapsed, -:--:-- left",
        lines[0],
    )
    assert re.fullmatch(
        rf"expectimax:rows\[empty_weight=300\]: 2/2 games, 70 moves, {speed}, 256 100%, 512 50%, "
        r"0:00:00 elapsed, 0:00:00 left",
        lines[1],
    )


def test_progress_on_a_cluster_counts_the_workers_and_says_a_lost_one():
    log = io.StringIO()
    bar = Progress(2, stream=log, tiles=(2048,))
    bar.workers(2)
    bar.note("tcp://127.0.0.1:1 left the cluster during the game of seed(s) 1: played again on another worker")
    bar.workers(1)
    bar.game_done(1, 30, 64)
    bar.close()
    lines = log.getvalue().splitlines()
    assert lines[0].startswith("0/2 games, 0 moves, ") and lines[0].endswith(
        ", 2048 –, 2 workers, 0:00:00 elapsed, -:--:-- left"
    )
    assert lines[1].startswith("tcp://127.0.0.1:1 left the cluster")
    assert ", 1 worker, " in lines[2] and ", 2048 0%, 1 worker, " in lines[3]


def test_progress_shows_the_rates_of_the_last_tiles_up_to_the_stop_tile():
    assert progress_tiles(2048) == (512, 1024, 2048)
    assert progress_tiles(0) == (8192, 16384, 32768)
    assert progress_tiles(64) == ()


def test_feature_configs_put_weight_one_on_each_feature():
    configs = feature_configs(PlayConfig(algorithm="expectimax", preset="snake", depth=1))
    labels = [label for label, _ in configs]
    assert labels == [
        "smoothness alone",
        "monotonicity alone",
        "empty alone",
        "max alone",
        "repeats alone",
        "mean alone",
        "full snake",
    ]
    assert dict(configs[2][1].weights) == {
        "smoothness": 0.0,
        "monotonicity": 0.0,
        "empty": 1.0,
        "max": 0.0,
        "repeats": 0.0,
        "mean": 0.0,
    }
    assert dict(configs[-1][1].weights) == {}
    rows_configs = dict(feature_configs(PlayConfig(algorithm="expectimax", preset="rows", depth=1)))
    # Exponents and the lost-board constant are parameters, not features: they keep their defaults.
    assert set(rows_configs["merges_weight alone"].weights) == {
        "empty_weight",
        "merges_weight",
        "monotonicity_weight",
        "sum_weight",
    }


def test_features_report(tmp_path):
    summaries = run_features(
        PlayConfig(algorithm="expectimax", preset="corner-weights", depth=1, stop_tile=128),
        [1],
        tmp_path,
        jobs=1,
        progress=False,
    )
    assert [label for label, _ in summaries] == [
        "row_snake alone",
        "spiral alone",
        "zigzag alone",
        "full corner-weights",
    ]
    report = (tmp_path / "report.md").read_text()
    assert "| zigzag alone |" in report and "![max tile per game](max_tile.png)" in report
    for png in ("max_tile.png", "score.png"):
        assert (tmp_path / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == 4


def test_compare_report(tmp_path):
    configs = [parse_config_spec(s, 100.0, 1, 64) for s in ("alphabeta:classic", "expectimax:rows:empty_weight=300")]
    labels, summaries, rows = run_compare(configs, [1, 2], tmp_path, jobs=1, progress=False)
    assert labels == ["alphabeta:classic depth 1", "expectimax:rows[empty_weight=300] depth 1"]
    assert [r[0] for r in rows] == labels and all(s["games"] == 2 for s in summaries)
    assert (tmp_path / "compare.png").read_bytes()[:4] == b"\x89PNG"
    assert "| expectimax:rows[empty_weight=300] depth 1 | 2 |" in (tmp_path / "report.md").read_text()


def test_compare_applies_the_alphabeta_options_to_the_alphabeta_configurations_only():
    alphabeta, expectimax = (
        parse_config_spec(spec, 100.0, 1, 64, reductions=True, rescue=False) for spec in ("alphabeta", "expectimax")
    )
    assert (alphabeta.reductions, alphabeta.rescues) == (True, False)
    assert alphabeta.label() == "alphabeta:classic reductions no-rescue depth 1"
    assert (expectimax.reductions, expectimax.rescues) == (False, False)
    assert expectimax.label() == "expectimax:rows depth 1"
    default = parse_config_spec("alphabeta", 100.0, 1, 64)
    assert default.rescues and default.to_dict()["rescue"] is True and default.label() == "alphabeta:classic depth 1"


# ---------------------------------------------------------------- refused input


def test_weights_parse_and_refuse():
    assert parse_weights("a=1, b=2.5") == {"a": 1.0, "b": 2.5}
    assert parse_weights("") == {}
    for bad in ("a", "a=x", "=3", "a=nan"):
        with pytest.raises(ConfigError):
            parse_weights(bad)


def test_seeds_parse_and_refuse():
    assert parse_seeds("1,2,10-12,2", None, 0) == [1, 2, 10, 11, 12]
    assert parse_seeds(None, 3, 7) == [7, 8, 9]
    for bad in ("x", "5-3", ","):
        with pytest.raises(ConfigError):
            parse_seeds(bad, None, 0)
    with pytest.raises(ConfigError):
        parse_seeds(None, 0, 1)


@pytest.mark.parametrize(
    "config, message",
    [
        (PlayConfig(algorithm="minimax"), "unknown algorithm"),
        (PlayConfig(preset="nope"), "unknown preset"),
        (PlayConfig(preset="rows", weights={"empty": 1.0}), "empty_weight"),
        (PlayConfig(stop_tile=3), "stop tile"),
        (PlayConfig(depth=0), "depth"),
        (PlayConfig(algorithm="expectimax", reductions=True), "alpha-beta option"),
        (PlayConfig(algorithm="expectimax", rescue=True), "rescue search is an alpha-beta option"),
    ],
)
def test_bad_configs_are_refused_before_playing(config, message):
    with pytest.raises(ConfigError, match=message):
        config.check()


def test_cli_refuses_bad_input_with_a_message(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["run", "--algorithm", "expectimax", "--weights", "bogus=1", "--games", "1"])
    assert exit_info.value.code == 2
    assert "bogus" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["compare", "--config", "expectimax:rows", "--games", "1"])
    assert "at least two" in capsys.readouterr().err


@pytest.mark.parametrize("algorithm", ["alphabeta", "expectimax"])
def test_check_loads_the_search_before_the_first_move_is_timed(algorithm):
    # In a fresh interpreter: the algorithm's module is imported lazily by best_move, and that import (with its
    # tables) must not land in the first move's think time.
    code = (
        "import sys; from game2048.lab.config import PlayConfig; "
        f"assert 'game2048.search.{algorithm}' not in sys.modules; "
        f"PlayConfig(algorithm='{algorithm}', depth=1).check(); "
        f"print('game2048.search.{algorithm}' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "py")},
    )
    assert out.stdout.strip() == "True"


EXPLAIN_ROWS = "0 2 4 8 / 0 0 2 16 / 0 0 0 4 / 0 0 0 2"


def test_explain_prints_the_root_moves_iterations_line_and_reduction(capsys):
    assert cli.main(["explain", "--rows", EXPLAIN_ROWS, "--depth", "4", "--exact-root"]) == 0
    out = capsys.readouterr().out
    assert "root moves" in out and "  up     illegal" in out and "<- chosen" in out
    assert [line.split()[0] for line in out.split("iterations\n")[1].splitlines()[1:5]] == ["1", "2", "3", "4"]
    assert "principal variation (7 plies, ends: horizon)" in out
    assert "placements after" in out and "plain minimax on the same tree" in out and "(exact)" in out


def test_explain_json_is_the_pages_explanation(capsys):
    assert cli.main(["explain", "--rows", EXPLAIN_ROWS, "--depth", "3", "--json"]) == 0
    explanation = json.loads(capsys.readouterr().out)
    assert explanation["rows"] == [[0, 2, 4, 8], [0, 0, 2, 16], [0, 0, 0, 4], [0, 0, 0, 2]]
    assert [entry["move"] for entry in explanation["root"]] == ["up", "right", "down", "left"]


def test_explain_refuses_a_bad_position_with_the_reason(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["explain", "--rows", "0 2 4 6 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0"])
    assert exit_info.value.code == 2
    assert "6 is not a power of two" in capsys.readouterr().err


def test_run_plays_the_learned_preset_with_the_network_file_it_is_given(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    import numpy as np

    from game2048.evaluation import learned
    from game2048.evaluation.ntuple_shapes import get_shape
    from game2048.lab.records import read
    from game2048.lab.training.export import quantize, write

    shape = get_shape("2x4")
    network = tmp_path / "mine.ntn"
    manifest = write(quantize(shape, np.random.default_rng(3).normal(0, 50, shape.weights)), network, {"games": 0})
    out = tmp_path / "games.jsonl"
    base = ["run", "--algorithm", "expectimax", "--preset", "learned", "--depth", "1", "--stop-tile", "64"]
    base += ["--seeds", "1-2", "--jobs", "1", "--no-progress"]
    assert cli.main([*base, "--network", str(network), "--out", str(out)]) == 0
    assert "expectimax:learned (mine.ntn) depth 1" in capsys.readouterr().out
    records = read(out)
    assert {(r["network"], r["network_sha256"]) for r in records} == {(str(network), manifest["sha256"])}
    assert learned.installed() is not None and learned.installed().shape.name == "2x4"
    # The same seeds with the shipped network are another configuration: not mixed into this file.
    with pytest.raises(SystemExit):
        cli.main([*base, "--out", str(out), "--resume"])
    assert "another configuration" in capsys.readouterr().err
    assert learned.installed() is None or learned.installed().shape.name != "2x4"  # the shipped one again
    for argv, message in (
        ([*base[:4], "rows", *base[5:], "--network", str(network)], "the learned preset's network"),
        ([*base, "--network", str(tmp_path / "missing.ntn")], "cannot use the network"),
    ):
        with pytest.raises(SystemExit):
            cli.main(argv)
        assert message in capsys.readouterr().err


def test_every_subcommand_runs_its_own_function_and_nothing_else() -> None:
    import argparse

    parser = cli.build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert set(sub.choices) == set(cli.COMMANDS)  # a subcommand without a function of its own would fail here
