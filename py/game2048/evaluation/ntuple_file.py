"""The network file the page downloads and the lab writes: a shape, a scale and int16 tables, zlib-compressed.

Layout (all little-endian)::

    MAGIC                        b"2048-ntuple-network\\n"
    header length                4 bytes, unsigned
    header                       JSON: {"format": 2, "shape": {"name", "tuples", "values", "stages"},
                                        "scale": float, "tables": [compressed length of each]}
    tables                       each tuple's weights, int16, zlib-compressed, in the shape's order,
                                 stage after stage

Format 1 is format 2 without stages (its shape has no ``stages``): such a
file still reads, as a network of one stage.

A weight is ``scale × int16``: 2 bytes per entry keeps the page's 4×6-tuple
network under 100 MB in the worker's memory, and the entries training never
reached are zeros that zlib all but removes.  Read with the standard library
only (``array``, ``zlib``, ``json``), so Pyodide reads it as CPython does.
Everything wrong with a file is a ``NetworkError`` whose message says what:
missing, not a network file, cut short, damaged, another shape, or bytes that
are not the ones its manifest's SHA-256 names.
"""

from __future__ import annotations

import hashlib
import json
import struct
import sys
import zlib
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .ntuple_shapes import Shape, same_weights, shape_from_json, shape_json

MAGIC = b"2048-ntuple-network\n"
FORMAT = 2
READS = (1, 2)
"""The formats this reader takes: 1 (before stages) and 2."""
INT16_MAX = 32767
MAX_HEADER = 1 << 20
"""A header longer than this is not one of ours (a shape's JSON is a few hundred bytes)."""


class NetworkError(ValueError):
    """A network file that cannot be used; the message says why, in words a person can act on."""


@dataclass(frozen=True)
class Network:
    """A trained network: its shape, and one int16 table per tuple and stage (stage after stage, each stage's
    tables in the tuples' order); a weight is ``scale`` × its entry."""

    shape: Shape
    scale: float
    tables: tuple[array[int], ...]


def encode(network: Network, level: int = 9) -> bytes:
    """The file's bytes for ``network``."""
    blobs = []
    for table in network.tables:
        raw = table if sys.byteorder == "little" else _swapped(table)
        blobs.append(zlib.compress(raw.tobytes(), level))
    shape = network.shape
    header = json.dumps(
        {
            "format": FORMAT,
            "shape": shape_json(shape),
            "scale": network.scale,
            "tables": [len(blob) for blob in blobs],
        }
    ).encode()
    return MAGIC + struct.pack("<I", len(header)) + header + b"".join(blobs)


def decode(data: bytes | bytearray, name: str = "the network file") -> Network:
    """The network in ``data``; ``NetworkError`` says what is wrong with a file that is not whole and ours."""
    if not data.startswith(MAGIC):
        if MAGIC.startswith(data):
            raise NetworkError(f"{name} is cut short: it ends after {len(data)} bytes, inside its first line")
        raise NetworkError(f"{name} is not a network file (it does not start with {MAGIC[:-1].decode()!r})")
    at = len(MAGIC)
    if len(data) < at + 4:
        raise NetworkError(f"{name} is cut short: it ends after {len(data)} bytes, before its header")
    (size,) = struct.unpack_from("<I", data, at)
    at += 4
    if size > MAX_HEADER:
        raise NetworkError(f"{name} is damaged: its header claims {size:,} bytes")
    if len(data) < at + size:
        raise NetworkError(f"{name} is cut short: it ends after {len(data)} bytes, inside its header")
    try:
        header = json.loads(data[at : at + size].decode())
        version = header["format"]
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
        raise NetworkError(f"{name} is damaged: its header is not readable ({exc})") from None
    if version not in READS:
        raise NetworkError(
            f"{name} is format {version!r}; this page reads formats {' and '.join(map(str, READS))} "
            "(a newer version wrote it: reload the page, or bring the lab up to date)"
        )
    try:
        if version == 1 and "stages" in header["shape"]:
            raise ValueError("format 1 has no stages")
        shape = shape_from_json(header["shape"])
        scale = float(header["scale"])
        lengths = [int(n) for n in header["tables"]]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise NetworkError(f"{name} is damaged: its header is not readable ({exc})") from None
    count = len(shape.tuples) * len(shape.stage_values)
    if len(lengths) != count or any(n < 0 for n in lengths):
        raise NetworkError(f"{name} is damaged: {len(lengths)} tables for {count} tuples and stages")
    at += size
    end = at + sum(lengths)
    if len(data) < end:
        raise NetworkError(f"{name} is cut short: {len(data):,} of its {end:,} bytes")
    if len(data) > end:
        raise NetworkError(f"{name} is damaged: {len(data) - end:,} bytes after its last table")
    view = memoryview(data)
    tables = []
    tuples = len(shape.tuples)
    for t, length in enumerate(lengths):
        size = 2 * shape.table_size(t % tuples, t // tuples)
        table = _inflate(view[at : at + length], size, f"{name} is damaged: table {t + 1}")
        at += length
        tables.append(table if sys.byteorder == "little" else _swapped(table))
    return Network(shape, scale, tuple(tables))


INFLATE_CHUNK = 1 << 20
"""Bytes decompressed at a time: a table never exists twice in memory (the page's worker counts every MB)."""


def _inflate(compressed: memoryview, expected: int, damaged: str) -> array[int]:
    """The int16 table in ``compressed``, decompressed a chunk at a time straight into the array.

    The array is made at its full size first: grown chunk by chunk, each step could copy it, and the worker's
    WebAssembly heap never gives back what such copies leave behind.
    """
    table = array("h", [0]) * (expected // 2)
    into = memoryview(table).cast("B")
    inflate = zlib.decompressobj()
    pending: bytes | memoryview = compressed
    size = 0
    try:
        while True:
            chunk = inflate.decompress(pending, INFLATE_CHUNK)
            if size + len(chunk) > expected:
                size += len(chunk)
                break
            into[size : size + len(chunk)] = chunk
            size += len(chunk)
            pending = inflate.unconsumed_tail
            if not chunk and not pending:
                break
    except zlib.error as exc:
        raise NetworkError(f"{damaged} does not decompress ({exc})") from None
    finally:
        into.release()
    if not inflate.eof:
        raise NetworkError(f"{damaged} does not decompress (its data ends early)")
    if size != expected:
        raise NetworkError(f"{damaged} holds {size:,} bytes or more, not {expected:,}")
    return table


def _swapped(table: array[int]) -> array[int]:
    copy = array("h", table)
    copy.byteswap()
    return copy


def sha256(data: bytes | bytearray) -> str:
    """The hex SHA-256 a manifest names its file by."""
    return hashlib.sha256(data).hexdigest()


def check(data: bytes | bytearray, manifest: dict[str, Any], name: str = "the network file") -> Network:
    """The network in ``data`` if it is the file ``manifest`` describes: its size, SHA-256 and shape.

    The size is checked first (a download cut short says so), then the
    digest (a changed byte), then the contents (``decode``), then the shape.
    """
    size = manifest.get("bytes")
    if isinstance(size, int) and len(data) < size:
        raise NetworkError(f"{name} is cut short: {len(data):,} of its {size:,} bytes")
    if sha256(data) != manifest.get("sha256"):
        raise NetworkError(f"{name} is not the file its manifest names: its SHA-256 differs (a changed byte)")
    network = decode(data, name)
    expected = manifest.get("shape")
    if expected:
        try:
            matches = same_weights(network.shape, shape_from_json(expected))
        except (ValueError, KeyError, TypeError):
            matches = False
        if not matches:
            raise NetworkError(f"{name} holds a network of shape {network.shape.name}, not {expected.get('name')}")
    return network


def read(path: Path, manifest: dict[str, Any] | None = None) -> Network:
    """The network at ``path`` (checked against ``manifest`` when given); a missing file says so."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise NetworkError(f"no network file at {path}") from None
    return check(data, manifest, path.name) if manifest is not None else decode(data, path.name)
