"""Saved lab games: each game on disk as it ends, an interrupted run resumed, saved games summarised again."""

from __future__ import annotations

import json

import pytest

from game2048.lab import cli, play
from game2048.lab.config import ConfigError, PlayConfig
from game2048.lab.records import RecordFile, from_json, game_record, read, resumable, to_json, to_line

RUN = ["run", "--algorithm", "expectimax", "--depth", "1", "--stop-tile", "64", "--jobs", "1", "--no-progress"]
CONFIG = PlayConfig(algorithm="expectimax", depth=1, stop_tile=64)


def _seeds_in(path) -> list[int]:
    return [json.loads(line)["seed"] for line in path.read_text().splitlines()]


def _without_timing(printed: str) -> str:
    """The per-game table and reach lines (think times are rounded to 0.01 ms on disk)."""
    return "\n".join(
        line
        for line in printed.splitlines()
        if not line.startswith(("think ms", "games:", "games written")) and "games per minute" not in line
    )


def test_a_record_survives_the_round_trip_through_a_line():
    record = play.play_game(3, CONFIG)
    back = from_json(json.loads(to_line(record)))
    assert back["_depths"] == record["_depths"]
    assert back["_think_ms"] == pytest.approx(record["_think_ms"], abs=0.005)
    assert {k: v for k, v in back.items() if k != "_think_ms"} == {k: v for k, v in record.items() if k != "_think_ms"}
    assert not any(key.startswith("_") for key in to_json(record))


def test_lines_written_before_games_were_recorded_still_read_and_summarise(tmp_path, capsys):
    new, old = tmp_path / "new.jsonl", tmp_path / "old.jsonl"
    assert cli.main(RUN + ["--seeds", "1-2", "--out", str(new)]) == 0
    old.write_text(
        "".join(
            json.dumps({k: v for k, v in json.loads(line).items() if k != "record"}) + "\n"
            for line in new.read_text().splitlines()
        )
    )
    assert [game_record(r) for r in read(old)] == [None, None]
    assert [len(game_record(r).moves) for r in read(new)] == [r["moves"] for r in read(new)]
    capsys.readouterr()
    summaries = []
    for path in (new, old):
        assert cli.main(["summary", str(path)]) == 0
        summaries.append(_without_timing(capsys.readouterr().out))
    assert summaries[0] == summaries[1]
    assert cli.main(RUN + ["--seeds", "1-3", "--out", str(old), "--resume"]) == 0
    assert [game_record(r) is None for r in read(old)] == [True, True, False]


def test_a_damaged_game_in_a_line_is_refused_with_its_seed(tmp_path):
    out = tmp_path / "games.jsonl"
    assert cli.main(RUN + ["--seeds", "1", "--out", str(out)]) == 0
    line = json.loads(out.read_text())
    line["record"]["moves"] = line["record"]["moves"][:-1] + "x"
    out.write_text(json.dumps(line) + "\n")
    damaged = f"the saved game of seed 1 is damaged: the record's move {line['moves']} is not a direction: 'x'"
    with pytest.raises(ConfigError, match=damaged):
        game_record(read(out)[0])


def test_each_game_is_on_disk_as_soon_as_it_ends_and_resume_plays_only_the_rest(tmp_path, monkeypatch, capsys):
    out = tmp_path / "games.jsonl"
    real_play_game = play.play_game

    def interrupted_at_seed_3(seed, config, report=None, start=None):
        if seed == 3:
            assert _seeds_in(out) == [1, 2]  # the two finished games are saved before the third ends
            raise KeyboardInterrupt
        return real_play_game(seed, config, report, start)

    monkeypatch.setattr(play, "play_game", interrupted_at_seed_3)
    assert cli.main(RUN + ["--seeds", "1-4", "--out", str(out)]) == 130
    assert _seeds_in(out) == [1, 2]
    err = capsys.readouterr().err
    assert "2 games finished" in err and "--resume" in err

    played = []

    def counting(seed, config, report=None, start=None):
        played.append(seed)
        return real_play_game(seed, config, report, start)

    monkeypatch.setattr(play, "play_game", counting)
    assert cli.main(RUN + ["--seeds", "1-4", "--out", str(out), "--resume"]) == 0
    resumed = capsys.readouterr().out
    assert played == [3, 4] and "2 of 4 games read back" in resumed
    assert _seeds_in(out) == [1, 2, 3, 4]

    fresh = tmp_path / "fresh.jsonl"
    assert cli.main(RUN + ["--seeds", "1-4", "--out", str(fresh)]) == 0
    assert _without_timing(resumed.split("\n", 2)[2]) == _without_timing(capsys.readouterr().out.split("\n", 1)[1])


def test_resume_keeps_games_of_other_seeds_and_never_writes_a_game_twice(tmp_path):
    out = tmp_path / "games.jsonl"
    assert cli.main(RUN + ["--seeds", "1,2", "--out", str(out)]) == 0
    assert cli.main(RUN + ["--seeds", "2,3", "--out", str(out), "--resume"]) == 0
    assert _seeds_in(out) == [1, 2, 3]


def test_resume_refuses_a_file_of_another_configuration(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    assert cli.main(RUN + ["--seeds", "1", "--out", str(out)]) == 0
    before = out.read_text()
    with pytest.raises(SystemExit) as exit_info:
        cli.main(
            [
                "run",
                "--algorithm",
                "expectimax",
                "--depth",
                "2",
                "--stop-tile",
                "64",
                "--seeds",
                "1",
                "--out",
                str(out),
                "--resume",
            ]
        )
    assert exit_info.value.code == 2
    assert "another configuration" in capsys.readouterr().err
    assert out.read_text() == before


def test_resume_without_out_is_refused(capsys):
    with pytest.raises(SystemExit):
        cli.main(RUN + ["--seeds", "1", "--resume"])
    assert "--resume needs --out" in capsys.readouterr().err


def test_a_last_line_cut_short_is_played_again_and_a_broken_middle_line_is_refused(tmp_path):
    out = tmp_path / "games.jsonl"
    sink = RecordFile(out)
    sink.add(play.play_game(1, CONFIG))
    sink.add(play.play_game(2, CONFIG))
    sink.close()
    text = out.read_text()
    out.write_text(text[: len(text) - 40])  # killed while writing the second line
    done, others = resumable(out, CONFIG, [1, 2])
    assert sorted(done) == [1] and others == []
    out.write_text("not json\n" + text)
    with pytest.raises(ConfigError, match=r"games.jsonl:1 is not a game record"):
        read(out)


def test_summary_prints_what_run_printed(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    assert cli.main(RUN + ["--seeds", "1-3", "--out", str(out)]) == 0
    ran = capsys.readouterr().out
    assert cli.main(["summary", str(out)]) == 0
    summarised = capsys.readouterr().out
    assert summarised.startswith("3 games; expectimax:rows depth 1")
    assert _without_timing(summarised.split("\n", 1)[1]) == _without_timing(ran.split("\n", 1)[1])


def test_a_run_of_one_game_says_so_in_the_singular(capsys):
    assert cli.main(RUN + ["--seeds", "5"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("1 game, seed 5, in this process")


def test_summary_of_a_missing_file_is_a_message(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["summary", str(tmp_path / "nothing.jsonl")])
    assert exit_info.value.code == 2 and "nothing.jsonl" in capsys.readouterr().err


def test_summary_keeps_configurations_apart_and_pools_one_configuration_over_files(tmp_path, capsys):
    first, more, other = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    assert cli.main(RUN + ["--seeds", "1-2", "--out", str(first)]) == 0
    assert cli.main(RUN + ["--seeds", "3", "--out", str(more)]) == 0
    assert cli.main(RUN[:3] + ["--depth", "2"] + RUN[5:] + ["--seeds", "1", "--out", str(other)]) == 0
    capsys.readouterr()
    assert cli.main(["summary", str(first), str(other), str(more)]) == 0
    printed = capsys.readouterr().out
    blocks = printed.split("\n\n")
    assert [block.splitlines()[0] for block in blocks] == [
        "3 games; expectimax:rows depth 1, stop tile 64",
        "1 game; expectimax:rows depth 2, stop tile 64",
    ]
    assert "games: 3 " in blocks[0] and "games: 1 " in blocks[1]


def test_summary_refuses_a_seed_saved_twice_for_one_configuration(tmp_path, capsys):
    first, again = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert cli.main(RUN + ["--seeds", "1-2", "--out", str(first)]) == 0
    assert cli.main(RUN + ["--seeds", "2", "--out", str(again)]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["summary", str(first), str(again)])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert "seed 2 of expectimax:rows depth 1 is saved twice" in err and "a.jsonl" in err and "b.jsonl" in err


@pytest.mark.parametrize(
    ("option", "played_without", "played_with", "heads"),
    [
        # Late-move reductions, off by default: old lines pool and resume with the exact search, never --reductions.
        ("reductions", [], ["--reductions"], ["alphabeta:classic depth 1", "alphabeta:classic reductions depth 1"]),
        # The rescue search, on by default: old lines pool and resume with --no-rescue, never with the default.
        ("rescue", ["--no-rescue"], [], ["alphabeta:classic no-rescue depth 1", "alphabeta:classic depth 1"]),
    ],
)
def test_old_lines_without_an_option_field_were_played_without_it(
    option, played_without, played_with, heads, tmp_path, capsys
):
    # Lines written before a search option existed have no field for it; their alpha-beta games were played
    # without it, so they are the configuration without it, whatever today's default is.
    without, with_ = tmp_path / "without.jsonl", tmp_path / "with.jsonl"
    alphabeta = ["run", "--depth", "1", "--stop-tile", "64", "--jobs", "1", "--no-progress", "--seeds", "1"]
    assert cli.main(alphabeta + played_without + ["--out", str(without)]) == 0
    assert cli.main(alphabeta + played_with + ["--out", str(with_)]) == 0
    assert [json.loads(line)[option] for line in (without.read_text(), with_.read_text())] == [False, True]
    old = tmp_path / "old.jsonl"
    old.write_text(
        "".join(
            json.dumps({k: v for k, v in json.loads(line).items() if k != option}) + "\n"
            for line in without.read_text().splitlines()
        )
    )
    capsys.readouterr()
    assert cli.main(["summary", str(old), str(with_)]) == 0
    assert [block.splitlines()[0] for block in capsys.readouterr().out.split("\n\n")] == [
        f"1 game; {head}, stop tile 64" for head in heads
    ]
    assert cli.main(alphabeta + played_without + ["--seeds", "1-2", "--out", str(old), "--resume"]) == 0
    assert _seeds_in(old) == [1, 2]
    with pytest.raises(SystemExit):
        cli.main(alphabeta + played_with + ["--seeds", "1-2", "--out", str(old), "--resume"])
    assert "another configuration" in capsys.readouterr().err


def test_expectimax_games_are_recorded_without_the_rescue_search(tmp_path):
    expectimax = [
        "run",
        "--algorithm",
        "expectimax",
        "--depth",
        "1",
        "--stop-tile",
        "16",
        "--jobs",
        "1",
        "--no-progress",
    ]
    assert cli.main(expectimax + ["--seeds", "1", "--out", str(tmp_path / "em.jsonl")]) == 0
    assert json.loads((tmp_path / "em.jsonl").read_text())["rescue"] is False
