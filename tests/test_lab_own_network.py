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


def test_agreement_measures_searches_valued_by_a_network_file(mine: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from game2048.lab import agreement, config

    monkeypatch.setattr(agreement, "POSITION_DEPTH", 2)  # the positions' games quicker, the same code
    capsys.readouterr()
    args = ["agreement", "--seeds", "7", "--reference-depth", "2", "--think-ms", "5", "--depths", "2", "--jobs", "1"]
    assert cli.main([*args, "--preset", "learned", "--network", str(mine)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[1].endswith(f"positions; reference: depth 2, exact; leaves valued by learned ({mine})")
    count = printed[1].split()[0]
    assert f"{count} of {count} (100.0 %)" in printed[-1]  # depth 2 with the same network is the reference
    assert learned.installed() is config._networks_read[str(mine)]  # the searches read mine, not the shipped one
    with pytest.raises(SystemExit):
        cli.main([*args, "--preset", "classic", "--network", str(mine)])
    assert "--network is the learned preset's network" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main([*args, "--preset", "learned", "--network", str(mine.parent / "none.ntn")])
    assert "cannot use the network" in capsys.readouterr().err


def test_export_writes_format_3_and_on_request_format_2_of_the_same_network(mine: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from game2048.evaluation import ntuple_file

    older = mine.parent / "older.ntn"
    capsys.readouterr()
    assert (
        cli.main(["export", "--run", str(mine.parent / "run"), "--out", str(older), "--games", "5", "--format", "2"])
        == 0
    )
    assert "bytes (format 2)" in capsys.readouterr().out

    def version(path: Path) -> int:
        data = path.read_bytes()
        at = len(ntuple_file.MAGIC) + 4
        return int(json.loads(data[at : at + int.from_bytes(data[at - 4 : at], "little")])["format"])

    assert (version(mine), version(older)) == (3, 2)
    same = ntuple_file.read(older, json.loads(older.with_suffix(".json").read_text()))
    assert same == ntuple_file.read(mine, json.loads(mine.with_suffix(".json").read_text()))


def test_an_export_tells_its_runs_story_and_a_run_from_a_file_keeps_the_files_history(mine: Path) -> None:
    from app.ai.network_story import story

    manifest = json.loads(mine.with_suffix(".json").read_text())
    told = story(manifest)
    (run,) = told["runs"]
    assert run["games"] == manifest["trained_games"] == 400 and run["from_zero"]
    assert [p["games"] for p in run["curve"]] == [200, 400] and run["greedy"]["games"] == 50
    curve = [json.loads(line) for line in (mine.parent / "run" / "curve.jsonl").read_text().splitlines()]
    assert [p["mean_score"] for p in run["curve"]] == [round(p["mean_score"]) for p in curve]
    more = mine.parent / "more"
    args = ["train", "--shape", "2x4", "--games", "200", "--block", "100", "--init", str(mine), "--out", str(more)]
    assert cli.main([*args, "--no-progress"]) == 0
    assert cli.main(["export", "--run", str(more), "--out", str(mine.parent / "more.ntn"), "--games", "20"]) == 0
    later = story(json.loads((mine.parent / "more.json").read_text()))
    first, second = later["runs"]
    assert (first["games"], first["greedy"]["games"], first["file"]) == (400, 50, manifest["sha256"][:8])
    assert (second["start"], second["end"], second["from_zero"]) == (400, 600, False)
    assert later["games"] == 600 and [p["games"] for p in later["curve"]] == [200, 400, 500, 600]


def test_a_long_curve_is_kept_as_a_few_points_each_the_mean_of_its_blocks() -> None:
    from game2048.lab.training.story import curve_points

    curve = [{"games": 1000 * (k + 1), "mean_score": float(k), "rate_2048": k / 100} for k in range(50)]
    points = curve_points(curve, most=24)
    assert len(points) <= 24 and points[-1]["games"] == 50_000 and sum(p["averaged"] for p in points) == 50_000
    assert points[0] == {"games": 2000, "averaged": 2000, "mean_score": 0, "rate_2048": 0.005}
    assert (points[-1]["averaged"], points[-1]["mean_score"]) == (3000, 48)  # blocks 47, 48, 49
    assert curve_points([]) == []
