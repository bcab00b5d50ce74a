"""A student's own network, from ``train`` to "mine against the shipped one", and the shipped file kept safe."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game2048.evaluation import learned
from game2048.lab import cli
from game2048.lab.config import ConfigError, parse_config_spec
from game2048.lab.records import read

SHIPPED = learned.NETWORK_DIR / learned.NETWORK_FILE


@pytest.fixture(scope="module")
def mine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny run (2x4, 400 games) exported as ``mine.ntn``."""
    folder = tmp_path_factory.mktemp("student")
    args = ["train", "--shape", "2x4", "--games", "400", "--block", "200", "--out", str(folder / "run")]
    assert cli.main([*args, "--no-progress"]) == 0
    assert cli.main(["export", "--run", str(folder / "run"), "--out", str(folder / "mine.ntn"), "--games", "50"]) == 0
    return folder / "mine.ntn"


def test_train_export_run_and_compare_runs_against_the_shipped_network(mine: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    capsys.readouterr()
    out = mine.parent / "games.jsonl"
    run = ["run", "--algorithm", "expectimax", "--preset", "learned", "--network", str(mine), "--depth", "1"]
    run += ["--games", "2", "--jobs", "1", "--stop-tile", "128", "--no-progress"]
    assert cli.main([*run, "--out", str(out)]) == 0
    assert {r["network"] for r in read(out)} == {str(mine)}
    capsys.readouterr()
    assert cli.main(["compare-runs", str(mine), "--against", str(SHIPPED), "--games", "1000"]) == 0
    printed = capsys.readouterr().out
    shipped = json.loads(SHIPPED.with_suffix(".json").read_text())["greedy"]
    assert f"{shipped['mean_score']:,}" in printed  # the shipped manifest's own check, not 1,000 games replayed
    assert "one against one" in printed and "apart" in printed


def test_greedy_plays_a_network_file_with_intervals_and_says_it_is_a_sample(mine: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    capsys.readouterr()
    assert cli.main(["greedy", "--network", str(mine), "--games", "20"]) == 0
    line = capsys.readouterr().out
    assert line.startswith(f"{mine} (400 games trained), seed 1: greedy over 20 games")
    assert "2048 0.0% (0.0–16.1%)" in line


def test_export_refuses_the_shipped_network_without_its_flag(mine: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    before = SHIPPED.stat().st_mtime_ns, SHIPPED.with_suffix(".json").read_text()
    for out in (SHIPPED, SHIPPED.with_suffix(".json"), SHIPPED.parent / ".." / "networks" / SHIPPED.name):
        with pytest.raises(SystemExit):
            cli.main(["export", "--run", str(mine.parent / "run"), "--out", str(out), "--games", "5"])
        assert "is the shipped network" in capsys.readouterr().err
    assert (SHIPPED.stat().st_mtime_ns, SHIPPED.with_suffix(".json").read_text()) == before


def test_a_compare_config_names_its_own_network() -> None:
    with pytest.raises(ConfigError, match="cannot use the network x.ntn"):
        parse_config_spec("expectimax:learned@x.ntn", 100.0, 1, 64)
    with pytest.raises(ConfigError, match="learned@FILE names a network file"):
        parse_config_spec("expectimax:learned@", 100.0, 1, 64)
    assert parse_config_spec("expectimax:rows", 100.0, 1, 64, network="x.ntn").network is None


def test_the_curve_draws_only_the_tiles_some_block_reached_and_names_the_others(tmp_path: Path) -> None:
    from game2048.lab.charts import curve_tiles, learning_curve_chart

    curve = [
        {"games": 100, "mean_score": 900.0, "rate_2048": 0.0, "rate_8192": 0.0, "rate_16384": 0.0, "rate_32768": 0.0},
        {"games": 200, "mean_score": 2400.0, "rate_2048": 0.02, "rate_8192": 0.0, "rate_16384": 0.0, "rate_32768": 0},
    ]
    assert curve_tiles(curve) == ([2048], [8192, 16384, 32768])
    shipped = learned.manifest()["greedy"]
    chart = learning_curve_chart(curve, tmp_path / "curve.png", "2x4", shipped)
    assert chart.stat().st_size > 0
