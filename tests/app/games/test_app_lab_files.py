"""A lab file read in the page: its games in order, each bad line refused with why, limits checked before
parsing, reading in slices that can be cancelled, and never an exception."""

from __future__ import annotations

import asyncio
import json

from app_async import run_async
from hypothesis import given, settings
from hypothesis import strategies as st

from app.games import lab_files
from app.games.lab_files import (
    MAX_CONTAINERS,
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_LINE_BYTES,
    MAX_QUOTES,
    MAX_STRING_CHARS,
    LabFile,
    Reading,
    TextSource,
    longest_string,
    read_lab,
    read_lab_file,
)
from game2048.board import legal_moves
from game2048.game_record import GameRecord, decision


def lab_line(seed: int, moves: int = 12, with_record: bool = True, started: float | None = None) -> str:
    record = GameRecord(seed, started=started)
    for _ in range(moves):
        record.append(legal_moves(record._replayed().board)[0], decision("alphabeta", "classic", 4, 10.0))
    line = {"seed": seed, "max_tile": record.result()["max_tile"], "move_think_ms": [10.0] * moves}
    if with_record:
        line["record"] = record.to_dict()
    return json.dumps(line)


def quiet() -> Reading:
    return Reading(lambda _lab: None, lambda: asyncio.sleep(0), lambda: 0.0)


def game_data(lab: LabFile, index: int):
    return run_async(lambda: lab.game_data(index))


def test_the_games_are_read_in_file_order_and_their_records_read_again_from_the_file():
    text = "\n".join(lab_line(seed) for seed in (5, 3, 9)) + "\n"
    lab = read_lab_file(text, "games.jsonl")
    assert [game.label for game in lab.games] == ["seed 5", "seed 3", "seed 9"]
    assert GameRecord.from_dict(game_data(lab, 1)).seed == 3
    assert lab.games[1].summary["seed"] == 3
    assert lab.problems == [] and lab.notice() == "games.jsonl: 3 games to replay."


def test_each_bad_line_is_refused_with_its_reason_and_the_others_stay():
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
    assert [game.label for game in lab.games] == ["seed 1", "seed 6"]
    assert lab.problems == [
        "line 2: not JSON",
        "line 3: not a game (not a JSON object)",
        "line 4: not a game (no seed)",
        "line 5: its game is damaged (the record's max tile is not a tile: 3)",
        "line 8: the last line is cut short",
    ]
    assert lab.refused[0] == (2, "not JSON")
    assert lab.without_record == 1
    notice = lab.notice()
    assert notice.startswith("run.jsonl: 2 games to replay. 1 line was written before the lab saved")
    assert "line 2: not JSON" in notice and "and 2 more." in notice
    assert GameRecord.from_dict(game_data(lab, 1)).seed == 6  # the line's bytes, past the refused ones


def test_a_file_that_is_no_lab_file_says_so():
    lab = read_lab_file("hello\nworld\n", "notes.txt")
    assert lab.games == [] and "does not look like a lab file" in lab.problems[0]
    assert read_lab_file(b"bytes", "b").problems == ["the file is not text"]
    assert read_lab_file("\n\n", "blank").problems == [] and read_lab_file("", "e").notice() == "e: 0 games to replay."


def test_a_game_with_a_time_no_date_can_show_is_refused_with_why_and_the_others_listed():
    lines = [lab_line(1, started=1_700_000_000_000), lab_line(2, started=1e20), lab_line(3)]
    damaged = json.loads(lab_line(4))
    damaged["record"]["ended"] = 9e15
    lab = read_lab_file("\n".join(lines + [json.dumps(damaged)]), "dates.jsonl")
    assert [game.label for game in lab.games] == ["seed 1", "seed 3"]
    assert lab.refused == [
        (2, "its game is damaged (its start time (1e+20 ms since 1970) is not a date)"),
        (4, "its game is damaged (its end time (9e+15 ms since 1970) is not a date)"),
    ]


def test_limits_are_checked_before_parsing(monkeypatch):
    def no_parse(_text):
        raise AssertionError("parsed")

    monkeypatch.setattr(lab_files.json, "loads", no_parse)
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    many = "[" + "[1]," * (MAX_CONTAINERS + 1) + "[1]]"
    lines = [deep, "[" * 200_000 + "]" * 200_000, many, '{"seed": ' + "7" * 31 + "}", '{"s": "' + "1" * 40 + '"}']
    lab = read_lab_file("\n".join(lines), "hostile.jsonl")
    deeper = f"it nests more than {MAX_DEPTH} levels deep"
    assert lab.refused == [
        (1, deeper),
        (2, "it holds 200,000 arrays and objects, more than a lab game can (101,000)"),
        (3, "it holds 101,003 arrays and objects, more than a lab game can (101,000)"),
        (4, "it holds a number with 31 digits"),
        (5, "it holds a number with 40 digits"),  # in a string too: the check is on the text
    ]
    long_line = "[" + "1," * (MAX_LINE_BYTES // 2) + "1]"
    lab = read_lab_file("\n" + long_line + "\n", "long.jsonl")
    assert lab.refused == [(2, f"it is {len(long_line):,} bytes long, longer than a lab game can be (4,000,000)")]


def test_a_line_too_long_is_skipped_to_its_end_and_the_next_lines_read():
    long_line = "x" * (MAX_LINE_BYTES + 3 * lab_files.CHUNK_BYTES + 5)
    lab = read_lab_file("\n".join([lab_line(1), long_line, lab_line(2)]), "long.jsonl")
    assert [game.label for game in lab.games] == ["seed 1", "seed 2"]
    assert lab.refused[0][0] == 2 and f"{len(long_line):,} bytes long" in lab.refused[0][1]
    assert GameRecord.from_dict(game_data(lab, 1)).seed == 2
    lab = read_lab_file(long_line, "one-line.jsonl")  # no newline at all
    assert lab.games == [] and len(lab.refused) == 1


def test_lines_longer_than_a_chunk_but_within_the_limit_are_read_whole():
    padding = " " * (2 * lab_files.CHUNK_BYTES)  # JSON allows spaces: the line is a game of 2 MB
    line = lab_line(8)[:-1] + padding + "}"
    lab = read_lab_file("\n".join([lab_line(1), line, lab_line(2)]), "wide.jsonl")
    assert [game.label for game in lab.games] == ["seed 1", "seed 8", "seed 2"]
    assert GameRecord.from_dict(game_data(lab, 1)).seed == 8


def test_a_record_of_more_moves_than_any_game_is_refused_before_it_is_parsed(monkeypatch):
    data = json.loads(lab_line(5))
    data["record"]["moves"] = "lr" * 500_000
    data["record"].pop("decisions")
    data["record"].pop("deciders")
    over = json.loads(lab_line(6))
    over["record"]["moves"] = "l" * (MAX_STRING_CHARS - 10)  # within the strings' limit: read, then refused
    monkeypatch.setattr(lab_files, "MAX_MOVES", MAX_STRING_CHARS - 20)
    quotes = json.dumps({"seed": 1, "k": ["a"] * (MAX_QUOTES // 2 + 1)})
    lab = read_lab_file("\n".join([json.dumps(data), json.dumps(over), quotes]), "million.jsonl")
    assert lab.refused == [
        (1, "it holds a string of 1,000,000 characters, more than a lab game can (100,000)"),
        (2, "its game has 99,990 moves, more than the 99,980 a record can hold"),
        (3, f"it holds {MAX_QUOTES + 6:,} quotes, more than a lab game can ({MAX_QUOTES:,})"),
    ]


def _longest_by_each_character(text: str) -> int:
    longest = length = 0
    in_string = escaped = False
    for char in text:
        if not in_string:
            in_string, length = char == '"', 0
        elif escaped:
            escaped, length = False, length + 1
        elif char == "\\":
            escaped, length = True, length + 1
        elif char == '"':
            in_string = False
        else:
            length += 1
        longest = max(longest, length)
    return longest


@given(st.one_of(st.text(alphabet='ab"\\ ,', max_size=40), st.lists(st.text(max_size=12)).map(json.dumps)))
def test_the_longest_string_is_measured_as_each_character_says(text):
    assert longest_string(text) == _longest_by_each_character(text)


def test_a_file_larger_than_any_lab_run_is_refused_unread():
    class Huge:
        size = MAX_FILE_BYTES + 1

        async def load(self, start, end):
            raise AssertionError("read")

    lab = run_async(lambda: read_lab(Huge(), "huge.jsonl", quiet()))
    assert lab.problems == [f"the whole file: it is {MAX_FILE_BYTES + 1:,} bytes long, more than any lab run writes"]
    assert lab.notice().startswith("huge.jsonl: 0 games to replay. Skipped the whole file")


def test_reading_yields_between_slices_says_its_progress_and_stops_when_cancelled():
    text = "\n".join(lab_line(seed) for seed in range(20))
    clock = [0.0]
    seen: list[tuple[int, int]] = []

    def now() -> float:
        clock[0] += lab_files.SLICE_MS / 3  # a slice is a few lines
        return clock[0]

    async def scenario(cancel_after: int | None):
        yields = []

        async def next_task():
            yields.append(True)
            if cancel_after is not None and len(yields) == cancel_after:
                reading.cancel()

        reading = Reading(lambda lab: seen.append((len(lab.games), lab.bytes_read)), next_task, now)
        lab = await read_lab(TextSource(text), "run.jsonl", reading)
        return lab, len(yields)

    lab, yields = run_async(lambda: scenario(None))
    assert len(lab.games) == 20 and yields >= 5 and len(seen) == yields
    assert [games for games, _ in seen] == sorted(games for games, _ in seen) and seen[-1][1] <= len(text.encode())
    lab, yields = run_async(lambda: scenario(2))
    assert lab is None and yields == 2


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
def test_any_text_gives_games_and_refusals_never_an_exception(lines):
    text = "\n".join(lines)
    lab = read_lab_file(text, "any.jsonl")
    assert isinstance(lab.notice(), str)
    assert lab.lines + text.count("\n") >= len(lab.games) + len(lab.refused)
    for index in range(len(lab.games)):
        assert isinstance(game_data(lab, index), dict)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200), st.integers(1, 64))
def test_any_bytes_give_a_lab_file_in_chunks_of_any_size(data, chunk):
    class Bytes(TextSource):
        def __init__(self) -> None:
            self.data, self.size, self.held = data, len(data), b""

    original = lab_files.CHUNK_BYTES
    lab_files.CHUNK_BYTES = chunk
    try:
        lab = run_async(lambda: read_lab(Bytes(), "bytes", quiet()))
    finally:
        lab_files.CHUNK_BYTES = original
    assert isinstance(lab.notice(), str)
    for number, why in lab.refused:
        assert 1 <= number <= data.count(b"\n") + 1 and why
