"""How one int16 table of a network file becomes bytes and back: format 2's zlib, format 3's byte planes in xz.

Format 2 compresses the entries as they lie in memory.  Format 3 cuts a
table into blocks of ``PLANE_BLOCK`` entries and writes each block as its
entries' low bytes, then their high bytes folded by the low byte's sign
(``high ^ 0xFF`` when the low byte is 128 or more), all in one xz stream:
a weight between -128 and 127 then has a high byte of 0 wherever its sign,
so the high planes are nearly all zeros and the low planes hold the
information, which xz (LZMA) codes far better than zlib codes the
interleaved entries.  At the same size on the wire that buys a quantization
step a quarter as large.  Decoding uses only bulk operations the standard
library runs in C (``lzma``, slices with a step, ``bytes.translate``, one
``int`` XOR a block) and writes straight into the table, so Pyodide decodes
a 16-million-entry table in about a second and never holds it twice.
"""

from __future__ import annotations

import lzma
import sys
import zlib
from array import array

PLANE_BLOCK = 1 << 18
"""Entries a block of format 3: what the decoder holds besides the table is two such planes (512 KB)."""
XZ_PRESET = 9 | lzma.PRESET_EXTREME
"""The writer's effort: 1 % smaller than the default preset, paid once at export."""
SIGN_FOLD = bytes(0xFF if byte & 0x80 else 0 for byte in range(256))
"""For each low byte, what its entry's high byte is XORed with: 0xFF where the low byte reads as negative."""
INFLATE_CHUNK = 1 << 20
"""Bytes decompressed at a time: a table never exists twice in memory (the page's worker counts every MB)."""


class TableError(ValueError):
    """A table whose bytes do not decode to its entries; the message says how (the caller names the table)."""


def _xor(a: bytes, b: bytes) -> bytes:
    """``a`` and ``b`` (same length) XORed byte by byte, as one integer operation."""
    return (int.from_bytes(a, "little") ^ int.from_bytes(b, "little")).to_bytes(len(a), "little")


def little_endian(table: array[int]) -> array[int]:
    """``table`` with its entries little-endian in memory (a copy only on a big-endian machine)."""
    if sys.byteorder == "little":
        return table
    copy = array("h", table)
    copy.byteswap()
    return copy


def deflate(table: array[int], level: int = 9) -> bytes:
    """Format 2: the entries, little-endian, zlib-compressed."""
    return zlib.compress(little_endian(table).tobytes(), level)


def pack_planes(table: array[int], preset: int = XZ_PRESET) -> bytes:
    """Format 3: each block's low bytes, then its folded high bytes, in one xz stream."""
    raw = memoryview(little_endian(table)).cast("B")
    pieces = []
    for start in range(0, len(table), PLANE_BLOCK):
        end = min(len(table), start + PLANE_BLOCK)
        low = bytes(raw[2 * start : 2 * end : 2])
        high = bytes(raw[2 * start + 1 : 2 * end : 2])
        pieces += [low, _xor(high, low.translate(SIGN_FOLD))]
    return lzma.compress(b"".join(pieces), format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32, preset=preset)


def inflate(compressed: memoryview | bytes, entries: int) -> array[int]:
    """Format 2's table of ``entries`` int16, decompressed a chunk at a time straight into the array.

    The array is made at its full size first: grown chunk by chunk, each step could copy it, and the worker's
    WebAssembly heap never gives back what such copies leave behind.
    """
    expected = 2 * entries
    table = array("h", [0]) * entries
    into = memoryview(table).cast("B")
    inflater = zlib.decompressobj()
    pending: bytes | memoryview = compressed
    size = 0
    try:
        while True:
            chunk = inflater.decompress(pending, INFLATE_CHUNK)
            if size + len(chunk) > expected:
                size += len(chunk)
                break
            into[size : size + len(chunk)] = chunk
            size += len(chunk)
            pending = inflater.unconsumed_tail
            if not chunk and not pending:
                break
    except zlib.error as exc:
        raise TableError(f"does not decompress ({exc})") from None
    finally:
        into.release()
    if not inflater.eof:
        raise TableError("does not decompress (its data ends early)")
    if size != expected:
        raise TableError(f"holds {size:,} bytes or more, not {expected:,}")
    return little_endian(table)


def unpack_planes(compressed: memoryview | bytes, entries: int) -> array[int]:
    """Format 3's table of ``entries`` int16 from its xz stream of planes, block by block into the array."""
    table = array("h", [0]) * entries
    into = memoryview(table).cast("B")
    unxz = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
    pending: bytes | memoryview = compressed

    def take(count: int) -> bytes:
        nonlocal pending
        parts = []
        while count and not unxz.eof:
            part = unxz.decompress(pending, count)
            pending = b""
            if not part and unxz.needs_input:
                break
            parts.append(part)
            count -= len(part)
        if count:
            raise TableError("does not decompress (its data ends early)")
        return b"".join(parts)

    try:
        for start in range(0, entries, PLANE_BLOCK):
            end = min(entries, start + PLANE_BLOCK)
            low = take(end - start)
            high = _xor(take(end - start), low.translate(SIGN_FOLD))
            into[2 * start : 2 * end : 2] = low
            into[2 * start + 1 : 2 * end : 2] = high
        extra = b"" if unxz.eof else unxz.decompress(pending, 1)
    except lzma.LZMAError as exc:
        raise TableError(f"does not decompress ({exc})") from None
    finally:
        into.release()
    if extra:
        raise TableError(f"holds more than its {2 * entries:,} bytes")
    if not unxz.eof:
        raise TableError("does not decompress (its data ends early)")
    if unxz.unused_data:
        raise TableError(f"has {len(unxz.unused_data):,} bytes after its data")
    return little_endian(table)
