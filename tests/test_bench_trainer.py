"""tools/bench_trainer.py: TDL2048's output read by its own clock, ours by its checkpoint, and the table."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from tool_modules import load_tool

bench = load_tool("bench_trainer")

TDL2048_OUTPUT = """TDL2048+ by Hung Guei
alpha = 0.0025
001/002 100ms 3000000.00ops
local:  avg=3448 max=13248 tile=1024 win=0.00%
total:  avg=3448 max=13248 tile=1024 win=0.00%

002/002 300ms 2000000.00ops
local:  avg=8173 max=17240 tile=1024 win=0.00%
"""


def test_tdl2048_is_timed_by_its_own_blocks() -> None:
    assert bench.tdl2048_moves(TDL2048_OUTPUT) == (300_000 + 600_000, 0.4)
    with pytest.raises(ValueError, match="no block of games"):
        bench.tdl2048_moves("usage: 2048 [options]")


def test_ours_is_timed_by_its_checkpoint() -> None:
    moves, seconds = bench.run_ours("2x4", 100, 0.01, 1)
    assert moves > 100 * 50 and 0 < seconds < 60


def test_the_runs_take_turns_and_the_table_gives_each_trainers_share(tmp_path: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    fake = tmp_path / "2048"
    fake.write_text("#!/bin/sh\nprintf '001/001 500ms 2000000.00ops\\n'\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    order = []
    monkeypatch.setattr(
        bench, "run_ours", lambda shape, games, alpha, seed, root: order.append((shape, seed)) or (5e5, 1)
    )
    assert bench.main(["--tdl2048", str(fake), "--games", "1000", "--rounds", "2"]) == 0
    assert [seed for _, seed in order] == [0, 0, 1, 1, 2, 2]  # one untimed round, then both shapes each round
    printed = capsys.readouterr().out
    assert "| TDL2048 | 2 | 2,000,000 (2,000,000–2,000,000) | 100 % |" in printed
    assert "| 2x4+2x6 | 2 | 500,000 (500,000–500,000) | 25 % |" in printed
    for argv, message in (
        (["--games", "1500"], "multiple of 1,000"),
        ([], "no TDL2048 binary"),
        (["--before", str(tmp_path)], "not a checkout of this project"),
    ):
        with pytest.raises(SystemExit):
            bench.main(["--tdl2048", str(tmp_path / ("2048" if argv else "missing")), *argv])
        assert message in capsys.readouterr().err
