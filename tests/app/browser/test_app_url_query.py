"""The page's own query strings (MicroPython has no urllib) read and write as ``urllib.parse`` does."""

from urllib.parse import parse_qsl, urlencode

from hypothesis import given
from hypothesis import strategies as st

from app.browser.url_query import decode_utf8, query_params, query_string

query_text = st.text(alphabet=st.sampled_from("a=&+%?2cFé☃😀 ")) | st.text()
escaped_bytes = st.binary().map(lambda data: "".join(f"%{byte:02X}" for byte in data))


@given(st.lists(st.one_of(query_text, escaped_bytes), max_size=6).map("".join))
def test_query_params_read_a_query_as_parse_qsl(query):
    search = "?" + query  # location.search: its one leading "?" is not part of the query
    assert query_params(search) == parse_qsl(query, keep_blank_values=True)
    if not query.startswith("?"):
        assert query_params(query) == query_params(search)


@given(st.lists(st.tuples(st.text(), st.text()), max_size=5))
def test_query_string_writes_as_urlencode_and_reads_back(pairs):
    assert query_string(pairs) == urlencode(pairs)
    assert query_params(query_string(pairs)) == pairs


utf8_pieces = st.one_of(
    st.binary(max_size=4),
    st.text(max_size=3).map(str.encode),
    st.sampled_from(
        [bytes([b]) for b in (0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC1, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xF5)]
    ),
)


@given(st.lists(utf8_pieces, max_size=8).map(b"".join))
def test_malformed_utf8_reads_as_cpython_replaces_it(data):
    assert decode_utf8(data) == data.decode("utf-8", "replace")


def test_utf8_edge_cases():
    for data in (b"\xc0\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x98", b"\xf0\x9f\x98\x80", b"\xff"):
        assert decode_utf8(data) == data.decode("utf-8", "replace"), data
