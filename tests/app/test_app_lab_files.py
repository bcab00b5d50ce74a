"""A lab file read in the page: its games in order, each bad line skipped with its reason, and never an exception."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from app.lab_files import MAX_FILE_CHARS, read_lab_file
from game2048.board import legal_moves
from game2048.game_record import GameRecord, decision


def lab_line(seed: int, moves: int = 12, with_record: bool = True) -> str:
    record = GameRecord(seed)
    for _ in range(moves):
        record.append(legal_moves(record._replayed().board)[0], decision("alphabeta", "classic", 4, 10.0))
    line = {"seed": seed, "max_tile": record.result()["max_tile"], "move_think_ms": [10.0] * moves}
    if with_record:
        line["record"] = record.to_dict()
    return json.dumps(line)


def test_the_games_are_read_in_file_order():
    text = "\n".join(lab_line(seed) for seed in (5, 3, 9)) + "\n"
    lab = read_lab_file(text, "games.jsonl")
    assert [label for label, _ in lab.games] == ["seed 5", "seed 3", "seed 9"]
    assert GameRecord.from_dict(lab.games[1][1]).seed == 3
    assert lab.problems == [] and lab.notice() == "games.jsonl: 3 games to replay."


def test_each_bad_line_is_skipped_with_its_reason_and_the_others_stay():
    damaged = json.loads(lab_line(4))
    damaged["record"]["result"]["max_tile"] = 3
    lines = [
        lab_line(1),
        "{not json",
        "[1, 2]",
        json.dumps({"max_tile": 4}),
        json.dumps(damaged),
        lab_line(2, with_record=False),
        lab_line(6),
        lab_line(7)[:-40],  # the last line, cut short by a stopped run
    ]
    lab = read_lab_file("\n".join(lines), "run.jsonl")
    assert [label for label, _ in lab.games] == ["seed 1", "seed 6"]
    assert lab.problems == [
        "line 2: not JSON",
        "line 3: not a game (not a JSON object)",
        "line 4: not a game (no seed)",
        "line 5: its game is damaged (the record's max tile is not a tile: 3)",
        "line 8: the last line is cut short",
    ]
    assert lab.without_record == 1
    notice = lab.notice()
    assert notice.startswith("run.jsonl: 2 games to replay. 1 line was written before the lab saved")
    assert "line 2: not JSON" in notice and "and 2 more." in notice


def test_a_file_that_is_no_lab_file_says_so():
    lab = read_lab_file("hello\nworld\n", "notes.txt")
    assert lab.games == [] and "does not look like a lab file" in lab.problems[0]
    assert read_lab_file("x" * (MAX_FILE_CHARS + 1), "big.jsonl").problems[0].startswith("the whole file")
    assert read_lab_file(b"bytes", "b").problems == ["the file is not text"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(max_size=30),
            st.sampled_from([lab_line(3), lab_line(8, with_record=False), '{"record": {}}', '{"seed": 1e999}']),
            st.recursive(
                st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                max_leaves=8,
            ).map(json.dumps),
        ),
        max_size=8,
    )
)
def test_any_text_gives_games_and_problems_never_an_exception(lines):
    lab = read_lab_file("\n".join(lines), "any.jsonl")
    assert isinstance(lab.notice(), str)
    for _label, data in lab.games:
        assert isinstance(data, dict)
