"""A network table's two codings: format 3's byte planes in xz and format 2's zlib, each back to its entries."""

from __future__ import annotations

import lzma
import random
from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game2048.evaluation import ntuple_coding
from game2048.evaluation.ntuple_coding import TableError, deflate, inflate, pack_planes, unpack_planes

entries = st.lists(st.integers(min_value=-32768, max_value=32767), max_size=60)


@settings(max_examples=60)
@given(entries, st.integers(min_value=1, max_value=9))
def test_planes_give_back_every_entry_across_blocks(values: list[int], block: int) -> None:
    table = array("h", values)
    saved = ntuple_coding.PLANE_BLOCK
    ntuple_coding.PLANE_BLOCK = block  # blocks of a few entries: the last one short, entries split across them
    try:
        packed = pack_planes(table, preset=0)
        assert unpack_planes(packed, len(table)) == table
    finally:
        ntuple_coding.PLANE_BLOCK = saved
    assert inflate(deflate(table), len(table)) == table


def test_a_block_is_its_low_bytes_then_its_high_bytes_folded_by_the_low_bytes_sign() -> None:
    table = array("h", [1, -1, -128, 127, 300, -300, 0, -32768])
    plain = lzma.decompress(pack_planes(table))
    assert plain[:8] == bytes(v & 0xFF for v in table)
    assert plain[8:] == bytes([0, 0, 0, 0, 1, 0xFE ^ 0xFF, 0, 0x80])  # 300 = 0x012C, -300 = 0xFED4
    assert plain[8:12] == bytes(4)  # -128..127 fold to a high byte of 0, whatever their sign


def test_planes_code_small_weights_smaller_than_zlib() -> None:
    rng = random.Random(3)  # a trained table's like: half zeros, the rest small, a few large
    values = [
        0 if rng.random() < 0.5 else int(rng.gauss(0, 40 if rng.random() < 0.9 else 3000)) for _ in range(1 << 16)
    ]
    table = array("h", values)
    assert len(pack_planes(table)) < 0.85 * len(deflate(table))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda data: data[:-9], "ends early|does not decompress"),
        (lambda data: data[: len(data) // 2], "ends early"),
        (lambda data: data + b"\0", "after its data|does not decompress"),
        (lambda data: data[:40] + bytes([data[40] ^ 0x10]) + data[41:], "does not decompress"),
        (lambda data: b"", "ends early"),
    ],
)
def test_cut_or_changed_planes_are_refused_with_what_is_wrong(change, message: str) -> None:  # type: ignore[no-untyped-def]
    table = array("h", range(-500, 500))
    with pytest.raises(TableError, match=message):
        unpack_planes(change(pack_planes(table)), len(table))


def test_planes_with_more_or_fewer_entries_than_the_shape_says_are_refused() -> None:
    table = array("h", range(100))
    with pytest.raises(TableError, match="holds more than its 198 bytes"):
        unpack_planes(pack_planes(table), 99)
    with pytest.raises(TableError, match="ends early"):
        unpack_planes(pack_planes(table), 101)
    with pytest.raises(TableError, match="holds 200 bytes or more, not 198"):
        inflate(deflate(table), 99)
