"""The page's games benchmark (``tools/bench_games.py``): record → lab line, table, options, resume; one real game."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from prerequisites import browser_missing
from tool_modules import load_tool

from game2048 import board as B
from game2048.game import Game
from game2048.game_record import GameRecord, decision, replay
from game2048.lab import cli
from game2048.lab.config import ConfigError, PlayConfig
from game2048.lab.records import game_record, read, to_line
from game2048.lab.summary import summarize

ROOT = Path(__file__).resolve().parents[1]


bg = load_tool("bench_games")
CONFIG = PlayConfig(think_ms=100.0, stop_tile=2048)


def _played(seed: int, moves: int, think: list[float] | None = None, depths: list[int] | None = None) -> GameRecord:
    """A record of ``moves`` legal moves from ``seed`` (the first legal direction each time), as the page's AI."""
    game = Game.new(seed)
    record = GameRecord(seed)
    for n in range(moves):
        direction = B.legal_moves(game.board)[0]
        game.play(direction)
        ms = think[n] if think else 90.0 + n
        depth = depths[n] if depths else 5 + n % 3
        record.append(direction, decision("alphabeta", "classic", depth, ms))
    return record


def test_a_record_becomes_the_lab_line_of_its_game() -> None:
    think = [100.2, 80.0, 99.9, 150.4, 101.0, 100.0]
    depths = [7, 5, 9, 6, 8, 7]
    record = _played(3, 6, think, depths)
    line = bg.lab_line(record, CONFIG, seconds=2.5)
    game = replay(record)
    assert (line["seed"], line["score"], line["moves"]) == (3, game.score, 6)
    assert line["max_tile"] == max(max(row) for row in B.to_rows(game.board))
    assert line["reached_stop"] is False and line["lost"] is False
    assert line["think_ms_p50"] == pytest.approx(float(np.percentile(think, 50)))
    assert line["think_ms_p99"] == pytest.approx(float(np.percentile(think, 99)))
    assert line["think_ms_max"] == 150.4
    assert line["depth_median"] == 7.0
    assert line["depth_p10"] == pytest.approx(float(np.percentile(depths, 10)))
    assert (line["_think_ms"], line["_depths"]) == (think, depths)
    assert (line["nodes"], line["seconds"]) == (0, 2.5)
    for field, value in CONFIG.to_dict().items():
        assert line[field] == value
    assert GameRecord.from_dict(line["record"]) == record
    assert line["cut"] is False and bg.lab_line(record, CONFIG, 2.5, cut=True)["cut"] is True


def test_a_line_reads_back_and_summarises_like_a_lab_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    out.write_text(to_line(bg.lab_line(_played(1, 12), CONFIG, 3.0)) + to_line(bg.lab_line(_played(2, 9), CONFIG, 2.0)))
    lines = read(out)
    assert "move_think_ms" in out.read_text().splitlines()[0]
    assert lines[0]["_think_ms"] == [90.0 + n for n in range(12)]
    assert game_record(lines[0]) == _played(1, 12)
    assert summarize(lines)["games"] == 2
    assert cli.main(["summary", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "2 games; alphabeta:classic 100 ms" in printed and "search nodes/s: 0" in printed


@given(
    think=st.lists(st.floats(0, 5000, allow_nan=False).map(lambda x: round(x, 1)), min_size=1, max_size=40),
    seed=st.integers(0, 2**32 - 1),
)
def test_think_percentiles_agree_with_numpy_for_any_times(think: list[float], seed: int) -> None:
    record = _played(seed, len(think), think=think, depths=[1 + i % 9 for i in range(len(think))])
    line = bg.lab_line(record, CONFIG, 1.0)
    for q in (50, 99):
        assert line[f"think_ms_p{q}"] == pytest.approx(float(np.percentile(think, q)), abs=1e-9)
    assert line["think_ms_max"] == max(think)


def test_a_record_with_a_persons_move_or_another_preset_is_refused() -> None:
    record = _played(4, 3)
    game = replay(record)
    record.append(B.legal_moves(game.board)[0], None)
    with pytest.raises(ValueError, match="did not choose"):
        bg.lab_line(record, CONFIG, 1.0)
    other = GameRecord(5)
    other.append(B.legal_moves(Game.new(5).board)[0], decision("expectimax", "rows", 3, 100.0))
    with pytest.raises(ValueError, match="expectimax"):
        bg.lab_line(other, CONFIG, 1.0)


def test_a_game_played_past_the_stop_tile_is_cut_at_the_move_that_reached_it() -> None:
    record = _played(7, 60)
    tops = [1 << B.max_rank(replay(record, n).board) for n in range(61)]
    first = tops.index(16)
    cut = bg.stopped_at(record, 16)
    assert len(cut.moves) == first and cut.moves == record.moves[:first]
    assert bg.lab_line(cut, PlayConfig(stop_tile=16), 1.0)["reached_stop"] is True
    assert bg.stopped_at(record, 0) is record
    assert bg.stopped_at(record, 4096) is record


def _line(seed: int, max_tile: int, moves: int, think: list[float], depths: list[int]) -> dict:
    return {
        "seed": seed,
        "max_tile": max_tile,
        "score": 1000,
        "moves": moves,
        "seconds": 1.0,
        "nodes": 0,
        "think_ms_p50": 0.0,
        "depth_median": 0,
        "_think_ms": think,
        "_depths": depths,
    }


def test_the_table_has_one_row_per_player_with_wins_depths_think_times_and_moves() -> None:
    page = [_line(1, 2048, 900, [100.0, 102.0], [7, 9]), _line(2, 1024, 700, [98.0, 130.0], [8, 8])]
    lab = [_line(1, 2048, 950, [100.0] * 4, [10] * 4)]
    text = bg.table([("page (Chromium, Pyodide worker)", page), ("CPython lab", lab), ("none", [])], 2048)
    rows = text.splitlines()
    assert rows[0].startswith("| player | games | reached 2048 | median depth (p10) |")
    think = [100.0, 102.0, 98.0, 130.0]
    p99 = float(np.percentile(think, 99))
    assert rows[2] == f"| page (Chromium, Pyodide worker) | 2 | 1 (50 %) | 8 (7.3) | 101.0 / {p99:.1f} / 130.0 | 800 |"
    assert rows[3] == "| CPython lab | 1 | 1 (100 %) | 10 (10) | 100.0 / 100.0 / 100.0 | 950 |"
    assert rows[4] == "| none | 0 | — | — | — | — |"


def test_games_played_to_the_end_count_each_late_tile() -> None:
    page = [
        _line(1, 32768, 16000, [100.0], [4]),
        _line(2, 16384, 12000, [101.0], [4]),
        _line(3, 4096, 3000, [99.0], [3]),
    ]
    rows = bg.table([("page", page), ("none", [])], 0).splitlines()
    assert rows[0].startswith("| player | games | reached 2048 | reached 8192 | reached 16384 | reached 32768 |")
    assert rows[1].count("---") == 9
    assert rows[2].startswith("| page | 3 | 3 (100 %) | 2 (67 %) | 2 (67 %) | 1 (33 %) | ")
    assert rows[3] == "| none | 0 | — | — | — | — | — | — | — |"


def test_the_worker_count_is_one_to_four() -> None:
    assert bg.parse_args(["--workers", "2"]).workers == 2 and bg.parse_args([]).workers is None
    for bad in ("0", "5"):
        with pytest.raises(SystemExit):
            bg.parse_args(["--workers", bad])


def test_options_default_to_the_issues_benchmark() -> None:
    args = bg.parse_args([])
    assert (args.games, args.seed_start, args.think_ms, args.parallel, args.stop_tile) == (20, 1, 100, 2, 2048)
    assert (args.out, args.resume, args.lab, args.timeout_min) == (bg.DEFAULT_OUT, False, False, 30.0)
    args = bg.parse_args(["--games", "3", "--seed-start", "9", "--think-ms", "50", "--lab", "--resume", "--out", "x"])
    assert (args.games, args.seed_start, args.think_ms) == (3, 9, 50)
    assert (args.lab, args.resume, args.out) == (True, True, Path("x"))
    assert (args.algorithm, args.preset) == ("alphabeta", None)
    args = bg.parse_args(["--algorithm", "expectimax", "--preset", "learned", "--stop-tile", "8192", "--games", "10"])
    assert (args.algorithm, args.preset, args.stop_tile) == ("expectimax", "learned", 8192)


@pytest.mark.parametrize(
    "argv",
    [
        ["--think-ms", "99"],  # not a step of the page's slider
        ["--games", "0"],
        ["--parallel", "0"],
        ["--stop-tile", "2"],
        ["--stop-tile", "100"],
        ["--timeout-min", "0"],
        ["--algorithm", "minimax"],
    ],
)
def test_bad_options_are_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        bg.parse_args(argv)


def test_resume_skips_the_seeds_the_file_holds_and_a_fresh_run_empties_it(tmp_path: Path) -> None:
    out = tmp_path / "sub" / "games.jsonl"
    assert bg.pending(out, [1, 2, 3], resume=True, config=CONFIG) == [1, 2, 3]
    assert out.read_text() == ""
    out.write_text(to_line(bg.lab_line(_played(2, 4), CONFIG, 1.0)))
    assert bg.pending(out, [1, 2, 3], resume=True, config=CONFIG) == [1, 3]
    with pytest.raises(ConfigError, match="another configuration"):
        bg.pending(out, [1, 2, 3], resume=True, config=PlayConfig(think_ms=50.0))
    assert bg.pending(out, [1, 2, 3], resume=False, config=CONFIG) == [1, 2, 3]
    assert out.read_text() == ""


def test_a_resumed_run_with_every_game_saved_plays_none_and_prints_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "games.jsonl"
    out.write_text("".join(to_line(bg.lab_line(_played(seed, 5), CONFIG, 1.0)) for seed in (1, 2, 8)))
    assert bg.main(["--games", "2", "--resume", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "| page (Chromium, Pyodide worker) | 2 | 0 (0 %) |" in printed
    assert len(read(out)) == 3  # the game of seed 8, outside this run, is kept


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))
def test_one_page_game_to_32_beside_the_lab(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    argv = ["--games", "1", "--seed-start", "5", "--stop-tile", "32", "--parallel", "1", "--lab", "--out", str(out)]
    assert bg.main(argv) == 0
    printed = capsys.readouterr().out
    assert "| page (Chromium, Pyodide worker) | 1 | 1 (100 %) |" in printed
    assert "| CPython lab | 1 | 1 (100 %) |" in printed
    [line] = read(out)
    record = game_record(line)
    game = replay(record)
    assert line["seed"] == record.seed == 5 and line["reached_stop"] is True
    assert line["max_tile"] == 32 == 1 << B.max_rank(game.board)
    assert 1 << B.max_rank(replay(record, len(record.moves) - 1).board) < 32  # cut at the move that reached 32
    assert (line["moves"], line["score"]) == (len(record.moves), game.score)
    assert all(d["algorithm"] == "alphabeta" and d["preset"] == "classic" for d in record.decisions)
    assert line["think_ms_max"] <= 1000 and line["depth_median"] >= 1
    assert len(read(bg.lab_file(out))) == 1


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))
def test_a_game_still_playing_at_the_time_limit_is_written_as_it_stands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "games.jsonl"
    argv = ["--games", "1", "--seed-start", "6", "--stop-tile", "0", "--parallel", "1", "--timeout-min", "0.1"]
    assert bg.main([*argv, "--think-ms", "10", "--out", str(out)]) == 0  # a whole game takes minutes, not 6 s
    printed = capsys.readouterr()
    [line] = read(out)
    record = game_record(line)
    assert line["cut"] is True and line["lost"] is False and not replay(record).over
    assert line["moves"] == len(record.moves) > 0 and 6 <= line["seconds"] < 60
    assert all(d["algorithm"] == "alphabeta" for d in record.decisions)
    assert "Cut at the time limit while playing: seeds 6" in printed.out
    assert "cut at 0.1 min while playing" in printed.err
