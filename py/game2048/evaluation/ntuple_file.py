"""The network file the page downloads and the lab writes: a shape, a scale and int16 tables, compressed.

Layout (all little-endian)::

    MAGIC                        b"2048-ntuple-network\\n"
    header length                4 bytes, unsigned
    header                       JSON: {"format": 3, "shape": {"name", "tuples", "values", "stages"},
                                        "scale": float, "tables": [compressed length of each]}
    tables                       each tuple's weights, int16, in the shape's order, stage after stage,
                                 each compressed as ``ntuple_coding`` says: format 3 byte planes in xz

Format 2 is format 3 with each table's entries zlib-compressed as they lie
in memory, format 1 is format 2 without stages (its shape has no
``stages``): such files still read, the latter as a network of one stage.

A weight is ``scale × int16``: 2 bytes per entry keeps the page's 4×6-tuple
network under 200 MB in the worker's memory, and the entries training never
reached are zeros that compression all but removes.  Read with the standard
library only (``array``, ``lzma``, ``zlib``, ``json``), so Pyodide reads it as
CPython does.
Everything wrong with a file is a ``NetworkError`` whose message says what:
missing, not a network file, cut short, damaged, another shape, or bytes that
are not the ones its manifest's SHA-256 names.
"""

from __future__ import annotations

import hashlib
import json
import struct
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .ntuple_coding import TableError, deflate, inflate, pack_planes, unpack_planes
from .ntuple_shapes import Shape, same_weights, shape_from_json, shape_json

MAGIC = b"2048-ntuple-network\n"
FORMAT = 3
READS = (1, 2, 3)
"""The formats this reader takes: 1 (before stages), 2 (zlib) and 3."""
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


def encode(network: Network, version: int = FORMAT) -> bytes:
    """The file's bytes for ``network`` in format ``version`` (3, or 2 for a reader from before format 3)."""
    if version not in (2, FORMAT):
        raise ValueError(f"this lab writes formats 2 and {FORMAT}, not {version!r}")
    blobs = [pack_planes(table) if version == FORMAT else deflate(table) for table in network.tables]
    shape = network.shape
    header = json.dumps(
        {
            "format": version,
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
            f"{name} is format {version!r}; this page reads formats {', '.join(map(str, READS[:-1]))} and {READS[-1]} "
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
    unpack = unpack_planes if version == FORMAT else inflate
    for t, length in enumerate(lengths):
        try:
            tables.append(unpack(view[at : at + length], shape.table_size(t % tuples, t // tuples)))
        except TableError as exc:
            raise NetworkError(f"{name} is damaged: table {t + 1} {exc}") from None
        at += length
    return Network(shape, scale, tuple(tables))


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
