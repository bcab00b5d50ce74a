"""The lab's command line: every number bounded before anything is allocated, damaged inputs said in one line."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game2048.lab import arguments as A
from game2048.lab import cli
from game2048.lab.config import ConfigError, parse_seeds


def _one_line_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.strip().splitlines()[-1]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["run", "--games", "1" + "0" * 20], "--games: 100,000,000,000,000,000,000 is not from 1 to 10,000,000"),
        (["run", "--seeds", "1-99999999999"], "--seeds names more than 10,000,000 games"),
        (["run", "--seeds", "1-" + "9" * 5000], "is not a whole number"),
        (["run", "--seeds", "5-1"], "1 is less than 5"),
        (["run", "--seed-start", "-4"], "-4 is not from 0 to"),
        (["run", "--games", "3", "--seed-start", str(2**63 - 2)], "the seeds are from 0 to"),
        (["run", "--depth", "999"], "--depth: 999 is not from 1 to 20"),
        (["run", "--think-ms", "nan"], "'nan' is not a number above 0 and at most 3,600,000"),
        (["run", "--think-ms", "0"], "'0' is not a number above 0"),
        (["train", "--games", "10000000000", "--out", "x"], "is not from 1 to 1,000,000,000"),
        (["train", "--threads", "0", "--out", "x"], "--threads: 0 is not from 1 to 256"),
        (["greedy", "--run", "x", "--games", "99999999999"], "is not from 1 to 10,000,000"),
        (["suite", "--sample", "0", "--out", "x"], "--sample: 0 is not from 1"),
        (["run", "--jobs", "0"], "--jobs: 0 is not from 1 to 1,024"),
    ],
)
def test_an_argument_out_of_bounds_is_one_line_before_any_work(argv, said, capsys) -> None:  # type: ignore[no-untyped-def]
    assert said in _one_line_error(argv, capsys)


def test_an_empty_checkpoint_is_refused_by_every_command_that_reads_it(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "checkpoint.npz").write_bytes(b"")
    for argv in (
        ["train", "--shape", "2x4", "--out", str(tmp_path), "--resume", "--no-progress"],
        ["export", "--run", str(tmp_path), "--out", str(tmp_path / "x.ntn")],
        ["greedy", "--run", str(tmp_path)],
    ):
        assert "checkpoint.npz is empty, not a checkpoint" in _one_line_error(argv, capsys)


def test_a_damaged_checkpoint_is_refused_in_words(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "checkpoint.npz").write_bytes(b"PK\x03\x04 not a zip at all")
    assert "is not a readable checkpoint" in _one_line_error(["greedy", "--run", str(tmp_path)], capsys)


def test_summary_of_a_binary_file_says_it_is_not_text(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    binary = tmp_path / "games.jsonl"
    binary.write_bytes(b'{"seed": 1}\n\xfd\xfe\x00\x01')
    assert "is not a records file: byte 12 is not text (UTF-8)" in _one_line_error(["summary", str(binary)], capsys)


def test_out_as_a_folder_is_said_in_words(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    err = _one_line_error(["run", "--depth", "1", "--games", "1", "--jobs", "1", "--out", "."], capsys)
    assert ". is a folder, not a file" in err and "PosixPath" not in err


@given(st.text(max_size=60))
def test_any_seeds_text_is_seeds_within_bounds_or_a_config_error(text: str) -> None:
    try:
        seeds = parse_seeds(text, None, 1)
    except ConfigError:
        return
    assert 0 < len(seeds) <= A.MAX_GAMES and all(0 <= seed <= A.SEED[1] for seed in seeds)


@given(st.text(max_size=60))
def test_whole_reads_a_number_in_its_bounds_or_says_why(text: str) -> None:
    try:
        value = A.whole(1, 100)(text)
    except argparse.ArgumentTypeError:
        return
    assert 1 <= value <= 100 and value == int(text)
