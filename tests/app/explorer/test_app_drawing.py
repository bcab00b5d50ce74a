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
