"""The late-game suite: its file read and refused, positions taken from lab games, played on, resumed, reported."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game2048 import board as B
from game2048.game_record import replay
from game2048.lab import cli, play
from game2048.lab.config import ConfigError, PlayConfig
from game2048.lab.intervals import wilson
from game2048.lab.records import game_record, read
from game2048.lab.suite import SUITE_FILE, Position, Suite, parse_suite, positions_of, read_suite

STOPPED = ["run", "--algorithm", "expectimax", "--depth", "1", "--stop-tile", "64", "--jobs", "1", "--no-progress"]
"""Fast games stopped where a 64 forms: a suite of 64s stands in for the suite of 16384s."""
SUITE = ["suite", "--algorithm", "expectimax", "--preset", "rows", "--depth", "1", "--jobs", "1", "--no-progress"]


def _board(*cells: int) -> int:
    """A board of ranks, cell 0 first."""
    return sum(rank << (4 * i) for i, rank in enumerate(cells))


A_64 = _board(6, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 0, 0, 0, 1)
"""A board whose largest tile is 64, with moves left."""
LOST_64 = _board(6, 1, 2, 1, 1, 2, 1, 2, 2, 1, 2, 1, 1, 2, 1, 2)
"""A board whose largest tile is 64, with no move left."""


def _suite_json(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "format": 1,
        "tile": 64,
        "source": {"command": "by hand"},
        "positions": [{"seed": 7, "board": f"{A_64:016x}", "score": 500, "moves": 90}],
    }
    data.update(changes)
    return data


def _made_suite(tmp_path: Path, seeds: str = "1-6") -> Path:
    games, suite = tmp_path / "stopped.jsonl", tmp_path / "suite.json"
    assert cli.main([*STOPPED, "--seeds", seeds, "--out", str(games)]) == 0
    assert cli.main(["make-suite", str(games), "--tile", "64", "--out", str(suite)]) == 0
    return suite


def test_each_position_is_its_source_game_where_the_tile_first_formed(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    suite = read_suite(_made_suite(tmp_path))
    assert "positions at 64, from 6 games" in capsys.readouterr().out
    games = {r["seed"]: r for r in read(tmp_path / "stopped.jsonl")}
    assert [p.seed for p in suite.positions] == sorted(s for s, r in games.items() if r["reached_stop"])
    assert suite.positions
    for position in suite.positions:
        saved = game_record(games[position.seed])
        assert saved is not None
        before = replay(saved, len(saved.moves) - 1)
        assert B.max_rank(before.board) < 6 == B.max_rank(position.board)  # the move before had no 64 yet
        assert (position.score, position.moves) == (games[position.seed]["score"], games[position.seed]["moves"])
    assert suite.source["command"].startswith("python -m game2048.lab run --algorithm expectimax --preset rows")
    assert suite.source["seeds"] == "1-6" and suite.source["games"] == 6


def test_a_position_is_played_on_from_its_board_the_same_way_every_time() -> None:
    position = Position(7, A_64, 500, 90)
    config = PlayConfig(algorithm="expectimax", preset="rows", depth=1, stop_tile=256)
    first, again = play.play_game(7, config, start=position), play.play_game(7, config, start=position)
    assert first["start"] == position.to_json() and first["start_moves"] == 90 and "record" not in first
    assert first["moves"] > 90 and first["score"] > 500
    assert (first["moves"], first["score"], first["max_tile"]) == (again["moves"], again["score"], again["max_tile"])
    game = position.game()
    assert (game.board, game.score, game.moves, game.won) == (A_64, 500, 90, True)


def test_the_suite_command_reports_each_tile_past_the_suites_with_its_interval_and_resumes(
    tmp_path: Path,
    capsys,  # type: ignore[no-untyped-def]
) -> None:
    suite_path = _made_suite(tmp_path)
    suite = read_suite(suite_path)
    out = tmp_path / "played.jsonl"
    capsys.readouterr()
    args = [*SUITE, "--suite", str(suite_path), "--stop-tile", "256", "--out", str(out)]
    assert cli.main([*args, "--sample", "2"]) == 0
    printed = capsys.readouterr().out
    records = read(out)
    assert len(records) == 2 and all(r["suite"] == suite.digest for r in records)
    reached = sum(r["max_tile"] >= 128 for r in records)
    assert f"{reached} of 2" in printed and "95 % interval (Wilson)" in printed
    assert "256" in printed and "512 " not in printed.split("score mean")[0]  # nothing past the stop tile
    played = sum(r["moves"] - r["start_moves"] for r in records)
    assert f"games: 2   moves: {played}   " in printed  # the moves played from the positions, not their games
    # The rest of the suite, the two games kept and not played again.
    assert cli.main([*args, "--resume"]) == 0
    assert f"2 read back from {out}" in capsys.readouterr().out
    again = read(out)
    assert len(again) == len(suite.positions)
    kept = {r["seed"]: r for r in again}
    assert all(kept[r["seed"]]["moves"] == r["moves"] for r in records)


def test_the_suite_command_refuses_what_would_lose_or_mix_games(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    suite_path = _made_suite(tmp_path)
    out = tmp_path / "played.jsonl"
    args = [*SUITE, "--suite", str(suite_path), "--stop-tile", "256", "--sample", "1", "--out", str(out)]
    assert cli.main(args) == 0
    capsys.readouterr()
    for argv, message in [
        (args, "exists: --resume keeps its games"),
        ([*args[:6], "2", *args[7:], "--resume"], "another player"),  # depth 2 against the file's depth 1
        ([*args, "--stop-tile", "64"], "stops before the suite's 64"),
    ]:
        with pytest.raises(SystemExit) as stopped:
            cli.main(argv)
        assert stopped.value.code == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err
    other = tmp_path / "other.json"
    data = json.loads(suite_path.read_text())
    data["source"]["command"] = "another"
    other.write_text(json.dumps(data))
    with pytest.raises(SystemExit):
        cli.main([*SUITE, "--suite", str(other), "--stop-tile", "256", "--out", str(out), "--resume"])
    assert "another suite" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"format": 2}, "format 2"),
        ({"tile": 48}, "not a tile"),
        ({"source": None}, "source"),
        ({"positions": []}, "no positions"),
        ({"positions": [{"seed": 7, "board": "zz", "score": 1, "moves": 1}]}, "hexadecimal"),
        ({"positions": [{"seed": 7, "board": "1" * 17, "score": 1, "moves": 1}]}, "hexadecimal"),
        ({"positions": [{"seed": 7, "board": "-" + "f" * 15, "score": 1, "moves": 1}]}, "hexadecimal"),
        ({"positions": [{"seed": 7, "board": f"{A_64 + 1:016x}", "score": 1, "moves": 1}]}, "not the suite's 64"),
        ({"positions": [{"seed": -1, "board": f"{A_64:016x}", "score": 1, "moves": 1}]}, "seed -1"),
        ({"positions": [{"seed": True, "board": f"{A_64:016x}", "score": 1, "moves": 1}]}, "seed True"),
        ({"positions": [{"seed": 7, "board": f"{A_64:016x}", "score": -1, "moves": 1}]}, "whole numbers"),
        ({"positions": [{"seed": 7, "board": f"{A_64:016x}", "score": 1, "moves": 1}] * 2}, "more than one"),
        ({"positions": [{"seed": 7, "board": f"{LOST_64:016x}", "score": 1, "moves": 1}]}, "no move"),
    ],
)
def test_a_damaged_suite_is_refused_with_what_is_wrong(
    tmp_path: Path, changes: dict[str, object], message: str
) -> None:
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(_suite_json(**changes)))
    with pytest.raises(ConfigError, match=message):
        read_suite(path)


def test_a_suite_that_is_not_json_or_not_there_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ConfigError, match="not a suite"):
        read_suite(tmp_path / "bad.json")
    with pytest.raises(ConfigError, match="cannot read the suite"):
        read_suite(tmp_path / "missing.json")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@given(st.one_of(json_values, st.builds(_suite_json, positions=st.lists(json_values, max_size=3))))
def test_any_json_is_read_as_a_suite_or_refused_with_a_value_error(data: object) -> None:
    try:
        parse_suite(data)
    except ValueError:
        pass


@given(
    st.lists(
        st.tuples(st.integers(0, 10**6), st.integers(0, 10**7), st.integers(0, 10**5)),
        min_size=1,
        max_size=5,
        unique_by=lambda item: item[0],
    )
)
def test_a_suite_reads_back_as_it_was_written(items: list[tuple[int, int, int]]) -> None:
    suite = Suite(64, {"command": "by hand"}, tuple(Position(seed, A_64, score, moves) for seed, score, moves in items))
    back = parse_suite(json.loads(suite.to_text()))
    assert back == suite and back.digest == suite.digest


def test_a_sample_is_drawn_by_its_seed_and_keeps_the_suites_order() -> None:
    suite = Suite(64, {}, tuple(Position(seed, A_64, 0, 0) for seed in range(1, 31)))
    sample = suite.sample(10, 3)
    assert sample == suite.sample(10, 3) != suite.sample(10, 4)
    assert len(sample) == 10 and [p.seed for p in sample] == sorted(p.seed for p in sample)
    assert suite.sample(None, 1) == list(suite.positions) == suite.sample(99, 1)
    with pytest.raises(ConfigError):
        suite.sample(0, 1)


def test_positions_come_only_from_games_stopped_at_the_suites_tile() -> None:
    record = play.play_game(1, PlayConfig(algorithm="expectimax", depth=1, stop_tile=32))
    with pytest.raises(ConfigError, match="not stopped at 64"):
        positions_of([record], 64)


def test_the_wilson_interval_is_scipys_and_honest_at_the_ends() -> None:
    none = wilson(0, 8)
    assert none.low == 0.0 and none.high == pytest.approx(0.3244, abs=1e-4)  # "0 of 8" is not "0 %"
    every = wilson(8, 8)
    assert every.high == pytest.approx(1.0) and every.low == pytest.approx(1 - 0.3244, abs=1e-4)
    half = wilson(12, 40)
    assert half.low < 0.3 < half.high and str(half).startswith("12 of 40 (30.0 %, 95 % interval")
    for k, n in ((1, 0), (-1, 3), (4, 3)):
        with pytest.raises(ValueError):
            wilson(k, n)


def test_the_repositorys_suite_holds_at_least_200_positions_of_the_shipped_network() -> None:
    suite = read_suite(SUITE_FILE)
    assert suite.tile == 16384 and len(suite.positions) >= 200
    assert re.fullmatch("[0-9a-f]{64}", suite.source["network_sha256"])
    assert suite.source["command"].startswith("python -m game2048.lab run --algorithm expectimax --preset learned")
