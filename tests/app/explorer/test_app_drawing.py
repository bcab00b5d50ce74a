"""The explorer's small drawing pieces: a number reads as ``format_value`` reads it, a tie rounded up."""

from __future__ import annotations

import pytest

from app.explorer.drawing import number, signed
from game2048.values import format_value


@pytest.mark.parametrize("value", [0, 5.254, -2.6, 0.225, 2.7, 200_000, -47, 12_346, -58_045, 1.6e6, -1e9, 7.0, 1e12])
def test_a_number_reads_as_format_value_reads_it(value: float) -> None:
    assert number(value) == format_value(value)


def test_a_tie_is_rounded_up_as_micropython_rounds_it() -> None:
    assert (number(14.625), number(1234.5), number(-0.0625)) == ("14.63", "1235", "\u22120.0625")
    assert (signed(14.625), signed(-3), signed(0)) == ("+14.63", "\u22123", "0")


def test_a_bar_runs_from_8_to_100_percent_and_ties_are_full() -> None:
    from app.explorer.drawing import bar_width

    assert (bar_width(-5.0, -5.0, 15.0), bar_width(5.0, -5.0, 15.0), bar_width(15.0, -5.0, 15.0)) == (8.0, 54.0, 100.0)
    assert bar_width(3.0, 3.0, 3.0) == 100.0
