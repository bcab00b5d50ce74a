"""Suite positions played on by the page (``tools/bench_suite_page.py``): the source game, the line, the table."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from prerequisites import browser_missing
from tool_modules import load_tool

from game2048 import board as B
from game2048.evaluation import learned
from game2048.evaluation.ntuple_shapes import get_shape
from game2048.game import Game
from game2048.game_record import GameRecord, decision, replay
from game2048.lab.config import PlayConfig
from game2048.lab.records import from_json, read, to_json
from game2048.lab.suite import SUITE_FILE, Position, Suite, read_suite

sp = load_tool("bench_suite_page")
CONFIG = PlayConfig(algorithm="expectimax", preset="learned", think_ms=100.0, stop_tile=0)
SUITE = read_suite(SUITE_FILE)


def _game_on(seed: int, source: int, page: int) -> tuple[GameRecord, Position]:
    """A record of ``source`` depth-1 moves then ``page`` timed moves (think 50 + n ms, depth 3), and its position."""
    game = Game.new(seed)
    record = GameRecord(seed)
    position = None
    for n in range(source + page):
        if n == source:
            position = Position(seed, game.board, game.score, game.moves)
        direction = B.legal_moves(game.board)[0]
        game.play(direction)
        timed = n >= source
        record.append(direction, decision("expectimax", "learned", 3 if timed else 1, 50.0 + n if timed else 0.2))
    assert position is not None
    return record, position


def test_a_page_line_counts_only_the_moves_after_the_position() -> None:
    record, position = _game_on(7, 12, 5)
    line = sp.page_line(record, CONFIG, 30.0, SUITE, position)
    game = replay(record)
    assert (line["start_moves"], line["start"], line["suite"]) == (12, position.to_json(), SUITE.digest)
    assert (line["moves"], line["score"], line["max_tile"]) == (17, game.score, 1 << B.max_rank(game.board))
    assert line["_think_ms"] == [62.0, 63.0, 64.0, 65.0, 66.0] and line["_depths"] == [3] * 5
    assert line["think_ms_max"] == 66.0 and line["depth_median"] == 3
    assert GameRecord.from_dict(line["record"]) == record
    assert from_json(to_json(line))["start_moves"] == 12  # written and read back as a lab line


def test_a_person_may_have_played_the_source_moves_but_not_the_page_moves() -> None:
    record, position = _game_on(8, 10, 3)
    source_by_hand = GameRecord(record.seed)
    for n, (move, note) in enumerate(zip(record.moves, record.decisions)):
        source_by_hand.append(move, None if n < 10 else note)
    assert sp.page_line(source_by_hand, CONFIG, 1.0, SUITE, position)["_depths"] == [3, 3, 3]
    page_by_hand = GameRecord(record.seed)
    for n, (move, note) in enumerate(zip(record.moves, record.decisions)):
        page_by_hand.append(move, None if n == 11 else note)
    with pytest.raises(ValueError, match="did not choose"):
        sp.page_line(page_by_hand, CONFIG, 1.0, SUITE, position)


def test_a_game_that_does_not_go_through_the_position_is_refused() -> None:
    record, position = _game_on(9, 10, 3)
    elsewhere = replace(position, board=position.board ^ 1)
    with pytest.raises(ValueError, match="does not go through"):
        sp.page_line(record, CONFIG, 1.0, SUITE, elsewhere)
    too_far = replace(position, moves=40)
    with pytest.raises(ValueError, match="does not go through"):
        sp.page_line(record, CONFIG, 1.0, SUITE, too_far)


def test_the_source_game_played_again_ends_on_the_suites_position() -> None:
    position = SUITE.positions[0]
    line = sp.source_game(SUITE, position)
    game = replay(GameRecord.from_dict(line["record"]))
    assert (game.board, game.score, game.moves) == (position.board, position.score, position.moves)
    assert (line["algorithm"], line["preset"], line["depth"]) == ("expectimax", "learned", 1)


def test_the_suites_source_network_is_found_by_its_digest_among_the_kept_files(tmp_path: Path) -> None:
    assert sp.source_network(SUITE) == str(learned.NETWORK_DIR / "training" / "4x6-late.ntn")
    shipped = {**SUITE.source, "network_sha256": learned.manifest()["sha256"]}
    assert sp.source_network(Suite(SUITE.tile, shipped, SUITE.positions)) is None
    (tmp_path / "training").mkdir()
    (tmp_path / "training" / "broken.json").write_text("{not json")
    with pytest.raises(sp.SourceError, match="no network under .* is the suite's \\(2ba2cd67…\\)"):
        sp.source_network(SUITE, tmp_path)


def test_making_a_source_game_leaves_learned_on_the_shipped_network() -> None:
    sp.source_game(SUITE, SUITE.positions[0])
    assert learned.network().shape == get_shape(learned.manifest()["shape"]["name"])
    assert learned.network().shape != get_shape("4x6-late")


def test_a_position_the_source_game_does_not_reach_is_refused() -> None:
    position = SUITE.positions[0]
    with pytest.raises(sp.SourceError, match="another position than the suite's"):
        sp.source_game(SUITE, replace(position, score=position.score + 4))
    other = Suite(SUITE.tile, {**SUITE.source, "player": "expectimax:learned 100 ms"}, SUITE.positions)
    with pytest.raises(sp.SourceError, match="were played by 'expectimax:learned 100 ms', not"):
        sp.source_game(other, position)


def test_the_table_says_the_think_time_of_the_page_moves_and_the_last_board() -> None:
    record, position = _game_on(7, 12, 4)
    line = sp.page_line(record, CONFIG, 120.0, SUITE, position)
    row = sp.table([line]).splitlines()[2]
    rows = B.to_rows(replay(record).board)
    assert row.startswith("| 7 | ") and "| 4 |" in row  # four moves after the position
    assert "| 63.5 / 63.5 / " in row  # mean and median of 62..65 ms
    assert " / ".join(" ".join(map(str, r)) for r in rows) in row
    cut = sp.page_line(record, CONFIG, 120.0, SUITE, position, cut=True)
    assert cut["cut"] is True
    assert sp.table([cut]).splitlines()[2].startswith(f"| 7 | {line['max_tile']}, cut still playing |")


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--positions", "100022,x"],
        ["--positions", "100022", "--think-ms", "77"],
        ["--positions", "100022", "--workers", "5"],
        ["--positions", "100022", "--stop-tile", "3000"],
    ],
)
def test_bad_options_are_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        sp.parse_args(argv)
    assert stopped.value.code == 2


def test_a_seed_the_suite_does_not_hold_is_one_line_and_exit_code_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert sp.main(["--positions", "100022,5", "--out", str(tmp_path / "o.jsonl")]) == 2
    assert capsys.readouterr().err == "error: the suite has no position of seed 5\n"


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))
def test_a_position_opens_in_the_page_from_its_source_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = SUITE.positions[0]
    out = tmp_path / "page.jsonl"
    argv = ["--positions", str(position.seed), "--stop-tile", str(SUITE.tile), "--out", str(out)]
    assert sp.main(argv) == 0
    [line] = read(out)
    record = GameRecord.from_dict(line["record"])
    assert line["start_moves"] == position.moves and line["reached_stop"] is True
    assert replay(record, position.moves).board == position.board  # the page went on from the position itself
    printed = capsys.readouterr().out
    assert f"| {position.seed} | 16384 |" in printed
    assert line["workers_said"] and f"Position {position.seed}: {line['workers_said']}" in printed  # the team, said
