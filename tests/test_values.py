"""``game2048.values.fixed``: decimals that read the same in CPython and MicroPython, ties rounded up."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from micropython_runner import run_micropython

from game2048.values import fixed


def test_ties_round_up_and_the_rest_as_format_does() -> None:
    assert [fixed(v, 0) for v in (0.5, 2.5, 12.5, 13.5, 0.49, 0.0)] == ["1", "3", "13", "14", "0", "0"]
    assert [fixed(v, 1) for v in (0.25, 0.75, 12.3456, 99.95, 7.0)] == ["0.3", "0.8", "12.3", "100.0", "7.0"]
    assert [fixed(v, 3) for v in (0.0625, 0.05625, 1.0)] == ["0.063", "0.056", "1.000"]
    assert [fixed(v, 1) for v in (-0.25, -0.04, -3.0)] == ["-0.3", "0.0", "-3.0"]


@given(st.floats(min_value=-1e9, max_value=1e9, allow_nan=False), st.integers(min_value=0, max_value=4))
def test_within_half_a_unit_of_the_value(value: float, places: int) -> None:
    text = fixed(value, places)
    assert abs(float(text) - value) <= 0.5 * 10**-places + 1e-9 * max(1.0, abs(value))
    if places:
        assert len(text.split(".")[1]) == places
    else:
        assert "." not in text


def test_micropython_reads_them_the_same() -> None:
    values = [i / 8 for i in range(-40, 200)] + [i + 0.5 for i in range(50)] + [12.3456, 1e6 + 0.05, 0.0625]
    script = (
        "import json\nfrom game2048.values import fixed\n"
        f"values = json.loads({json.dumps(json.dumps(values))})\n"
        "print(json.dumps([[fixed(v, p) for p in (0, 1, 3)] for v in values]))\n"
    )
    assert json.loads(run_micropython(script)) == [[fixed(v, p) for p in (0, 1, 3)] for v in values]


def test_a_sooner_win_and_a_later_loss_score_higher_and_both_pass_any_evaluation() -> None:
    from game2048.values import WIN_SCORE, format_value, loss_value, win_value

    assert win_value(3) > win_value(1) > WIN_SCORE > 1e11 and format_value(win_value(1)) == "win"
    assert loss_value(1) > loss_value(3) and loss_value(2) == -win_value(2) and format_value(loss_value(2)) == "loss"
