"""The browser's clock read as text: the same ms since 1970 as Python's datetime, for any date a browser shows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.browser.clock import iso_ms

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@given(st.datetimes(min_value=datetime(1970, 1, 1), max_value=datetime(9999, 12, 31)))
def test_iso_text_counts_the_same_ms_as_datetime(moment):
    moment = moment.replace(microsecond=moment.microsecond // 1000 * 1000, tzinfo=UTC)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
    assert iso_ms(text) == (moment - EPOCH) / timedelta(milliseconds=1)


@pytest.mark.parametrize("text", ["", "2026-11-24", "2026-11-24T15:10:00Z", "+020000-01-01T00:00:00.000Z"])
def test_other_text_is_refused(text):
    with pytest.raises(ValueError):
        iso_ms(text)
