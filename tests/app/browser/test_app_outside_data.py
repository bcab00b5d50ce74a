"""The guard for outside data: any text in, a value or ``BadData`` out, never another exception."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.browser.outside_data import (
    MAX_DATE_MS,
    BadData,
    check_numbers,
    date_ms,
    date_problem,
    digit_run,
    finite_number,
    nesting_depth_exceeds,
    read_int,
    read_json,
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
    max_leaves=30,
)


@given(st.text())
def test_any_text_is_a_value_or_bad_data(text):
    try:
        value = read_json(text, max_chars=1000, max_depth=5)
    except BadData as exc:
        assert str(exc).startswith("it ")  # a reason, said of the text (the callers name what it is)
        return
    assert len(text) <= 1000 and value == json.loads(text)  # what it accepts is that text's JSON, within the limits


@given(json_values)
def test_json_within_the_limits_reads_back(value):
    text = json.dumps(value)
    try:
        assert read_json(text, max_chars=100_000, max_depth=100) == value
    except BadData as exc:  # only for integers longer than the limit
        assert "digits" in str(exc)


@pytest.mark.parametrize(
    "text, words",
    [
        ("[" * 100_000 + "]" * 100_000, "levels deep"),
        ('{"a":' * 30_000 + "1" + "}" * 30_000, "levels deep"),
        ("9" * 5000, "digits"),
        ("-" + "9" * 5000, "digits"),
        ("1e999", "too large"),
        ("NaN", "not a number"),
        ("-Infinity", "too large"),
        ('{"a": [1, {"b": 1e999}]}', "too large"),
        ('[0, {"seed": ' + "9" * 31 + "}]", "31 digits"),
        ("[1, " + "9" * 31 + ", -" + "9" * 31 + "]", "31 digits"),
        ("[1, 2.5, NaN]", "not a number"),
        ("x" * 2000, "characters long"),
        ("{", "not readable JSON"),
    ],
)
def test_hostile_json_is_refused_with_a_reason(text, words):
    with pytest.raises(BadData, match=words):
        read_json(text, max_chars=1_000_000, max_depth=16) if words != "characters long" else read_json(
            text, max_chars=1000, max_depth=16
        )


def test_large_finite_numbers_are_read():
    assert read_json("[1e308, 1e308, -1e308]", 100, 2) == [1e308, 1e308, -1e308]
    assert read_json("[" + "9" * 30 + ", -" + "9" * 30 + "]", 100, 2) == [10**30 - 1, 1 - 10**30]


def test_brackets_inside_strings_do_not_count_as_nesting():
    text = json.dumps(["[[[[[[[[[[{{{{{{", {"a": '\\"[[[['}])
    assert not nesting_depth_exceeds(text, 3)
    assert read_json(text, 1000, 3) == ["[[[[[[[[[[{{{{{{", {"a": '\\"[[[['}]
    assert nesting_depth_exceeds("[[[[1]]]]", 3) and not nesting_depth_exceeds("[[[1]]]", 3)


def _depth_by_each_character(text, limit):
    """The plain reading of nesting depth that ``nesting_depth_exceeds`` computes faster."""
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


@given(
    st.one_of(json_values.map(json.dumps), st.text(), st.text(alphabet='[]{}"\\ ,1a')),
    st.integers(min_value=0, max_value=6),
)
def test_nesting_depth_is_read_as_each_character_says(text, limit):
    assert nesting_depth_exceeds(text, limit) == _depth_by_each_character(text, limit)


@given(st.text())
def test_any_text_is_an_int_in_range_or_bad_data(text):
    try:
        value = read_int(text, 0, 2**63 - 1)
    except BadData:
        return
    assert 0 <= value <= 2**63 - 1 and value == int(text.strip().lstrip("0") or "0")


def test_integers_are_read_within_their_length_and_range():
    assert read_int(" 0042 ", 0, 100) == 42
    for text in ("9" * 4301, "0" * 5000 + "1" * 40, "1" * 31, "101", "-1", "1.5", "\u00b2", "", "٣"):
        with pytest.raises(BadData):
            read_int(text, 0, 100)
    assert read_int("0" * 5000 + "7", 0, 100) == 7


def test_a_negative_number_is_said_to_be_below_the_least_not_to_be_no_number():
    with pytest.raises(BadData, match="it is below 0, the least it can be"):
        read_int("-1", 0, 100)
    with pytest.raises(BadData, match="not a whole number"):
        read_int("-", 0, 100)


def test_finite_numbers():
    assert finite_number(3) == 3.0 and finite_number(2.5) == 2.5
    for value in (True, None, "3", 10**400, float("inf"), float("nan"), [1]):
        assert finite_number(value) is None, value


@given(st.text(alphabet="0123456789a\u00e9 ,", max_size=80), st.integers(min_value=0, max_value=12))
def test_a_run_of_digits_is_measured_as_a_plain_reading_finds_it(text, limit):
    runs = re.findall(f"[0-9]{{{limit + 1},}}", text)
    assert digit_run(text, limit) == (len(runs[0]) if runs else 0)


def test_a_long_integer_is_refused_before_it_is_parsed(monkeypatch):
    monkeypatch.setattr(json, "loads", lambda _text: pytest.fail("parsed"))
    with pytest.raises(BadData, match="3000000 digits"):
        read_json("[" + "7" * 3_000_000 + "]", 4_000_000, 4)


def test_a_time_is_a_date_only_within_what_a_browser_date_holds():
    assert date_ms(0) == 0 and date_ms(1_700_000_000_000) == 1_700_000_000_000 and date_ms(MAX_DATE_MS) == MAX_DATE_MS
    for value in (None, -1, MAX_DATE_MS + 1, 1e20, 10**400, float("inf"), float("nan"), True, "1"):
        assert date_ms(value) is None, value
    row = {"started": 1_700_000_000_000, "ended": None}
    assert date_problem(row) is None and date_problem({}) is None
    assert date_problem(dict(row, started=1e20)) == "its start time (1e+20 ms since 1970) is not a date"
    assert date_problem(dict(row, ended=-5)) == "its end time (-5 ms since 1970) is not a date"
    assert date_problem(dict(row, ended=10**400)) == "its end time (too large a number ms since 1970) is not a date"


@given(json_values, st.sampled_from([float("nan"), float("inf"), -float("inf"), 10**30, -(10**31)]))
def test_a_number_json_cannot_hold_is_found_wherever_it_is(value, bad):
    try:
        check_numbers(value)
    except BadData:  # an integer of more than 30 digits: that one is found
        return
    for holder in ([value, bad], [bad, value], {"a": [value, {"b": bad}]}, [1, 2.5, bad], [[bad]]):
        with pytest.raises(BadData):
            check_numbers(holder)


class _Unreadable(str):
    """A stored value whose characters must not be read: any walk through it fails the test."""

    def strip(self, *args):
        raise AssertionError("the value was read before its size was checked")

    def __iter__(self):
        raise AssertionError("the value was read before its size was checked")


def test_a_huge_whole_number_is_refused_by_its_length_before_it_is_read():
    from app.browser.outside_data import BadData, read_int

    with pytest.raises(BadData, match="characters long"):
        read_int(_Unreadable("9" * 5_000_000), 0, 10**9)
    assert read_int("  000042 ", 0, 100) == 42  # spaces and leading zeros still read
