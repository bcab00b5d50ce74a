"""The decoded copy of a network the worker keeps beside its file: read back by copying, not by decoding again.

A format-3 file takes seconds to decode in Pyodide (xz), at every page load
with ``learned`` chosen; its tables as they lie in memory take a copy.  So
once a file has been checked and decoded, the worker also keeps::

    TABLES_MAGIC                 b"2048-ntuple-tables\\n"
    header length                4 bytes, unsigned, little-endian
    header                       JSON: {"sha256": the file's, "shape", "scale", "crc32": [one a table]}
    tables                       each table's int16 entries, little-endian, in the file's order

and the next load reads that instead.  The copy names the file it came from
(its SHA-256, which the manifest must name too) and a CRC-32 of every table,
so a copy of another network, cut short, too long or with a changed byte is
refused (``NetworkError``) and the file is decoded again.  ``TablesCopyReader``
is fed the copy chunk by chunk, as Cache Storage hands it, straight into the
tables: the worker's memory never holds the network twice (a WebAssembly heap
never shrinks).
"""

from __future__ import annotations

import json
import struct
import zlib
from array import array
from typing import Any

from .ntuple_coding import little_endian
from .ntuple_file import MAX_HEADER, Network, NetworkError
from .ntuple_shapes import same_weights, shape_from_json, shape_json

TABLES_MAGIC = b"2048-ntuple-tables\n"
NAME = "the decoded copy of the network"


def tables_url(file_url: str) -> str:
    """Where the decoded copy of the file at ``file_url`` (its address with ``?sha256=``) is kept."""
    return file_url + ("&" if "?" in file_url else "?") + "tables=1"


def tables_parts(network: Network, sha256: str) -> list[bytes | memoryview]:
    """The decoded copy of ``network``, the file ``sha256``'s, as pieces to keep one after another: the header,
    then a view of each table (no table is copied to make them)."""
    tables = [little_endian(table) for table in network.tables]
    header = json.dumps(
        {
            "sha256": sha256,
            "shape": shape_json(network.shape),
            "scale": network.scale,
            "crc32": [zlib.crc32(memoryview(table).cast("B")) for table in tables],
        }
    ).encode()
    return [TABLES_MAGIC + struct.pack("<I", len(header)) + header, *(memoryview(t).cast("B") for t in tables)]


class TablesCopyReader:
    """A decoded copy read chunk by chunk into the tables it holds; ``network()`` once every byte came.

    Refuses (``NetworkError``) a copy that is not one, names another file than ``manifest`` or another shape,
    or whose tables are cut short, too long or changed (their CRC-32).
    """

    def __init__(self, manifest: dict[str, Any]) -> None:
        self.manifest = manifest
        self._head = bytearray()
        self._tables: list[array[int]] = []
        self._views: list[memoryview] = []
        self._crc: list[int] = []
        self._want: list[int] = []
        self._scale = 0.0
        self._shape: Any = None
        self._table = 0  # the table being filled
        self._at = 0  # its bytes so far

    def feed(self, chunk: bytes | memoryview) -> None:
        """The copy's next bytes."""
        data = memoryview(chunk).cast("B")
        if self._shape is None:
            self._head += data
            data = self._header()
            if self._shape is None:
                return
        while len(data):
            if self._table >= len(self._views):
                raise NetworkError(f"{NAME} is damaged: it holds bytes after its last table")
            view = self._views[self._table]
            n = min(len(data), len(view) - self._at)
            view[self._at : self._at + n] = data[:n]
            self._crc[self._table] = zlib.crc32(data[:n], self._crc[self._table])
            self._at += n
            data = data[n:]
            if self._at == len(view):
                self._table, self._at = self._table + 1, 0

    def network(self) -> Network:
        """The network the copy held, once it all came and every table's CRC-32 is its header's."""
        if self._shape is None or self._table < len(self._views):
            raise NetworkError(f"{NAME} is cut short")
        for view in self._views:
            view.release()
        if self._crc != self._want:
            raise NetworkError(f"{NAME} is damaged: a table's CRC-32 differs (a changed byte)")
        tables = tuple(little_endian(table) for table in self._tables)
        return Network(self._shape, self._scale, tables)

    def _header(self) -> memoryview:
        """Once the header is all in ``_head``: its shape and tables made ready; the bytes after it."""
        head = self._head
        known = min(len(head), len(TABLES_MAGIC))
        if head[:known] != TABLES_MAGIC[:known]:
            raise NetworkError(f"{NAME} is not one (it does not start with {TABLES_MAGIC[:-1].decode()!r})")
        at = len(TABLES_MAGIC)
        if len(head) < at + 4:
            return memoryview(b"")
        (size,) = struct.unpack_from("<I", head, at)
        if size > MAX_HEADER:
            raise NetworkError(f"{NAME} is damaged: its header claims {size:,} bytes")
        if len(head) < at + 4 + size:
            return memoryview(b"")
        try:
            header = json.loads(bytes(head[at + 4 : at + 4 + size]).decode())
            shape = shape_from_json(header["shape"])
            scale = float(header["scale"])
            crc = [int(value) for value in header["crc32"]]
            sha = header["sha256"]
        except (ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError) as exc:
            raise NetworkError(f"{NAME} is damaged: its header is not readable ({exc})") from None
        if sha != self.manifest.get("sha256"):
            raise NetworkError(f"{NAME} is of another file than the manifest names")
        expected = self.manifest.get("shape")
        try:
            matches = not expected or same_weights(shape, shape_from_json(expected))
        except (ValueError, KeyError, TypeError):
            matches = False
        tuples = len(shape.tuples)
        count = tuples * len(shape.stage_values)
        if not matches or len(crc) != count:
            raise NetworkError(f"{NAME} holds another shape than the manifest's")
        self._tables = [array("h", [0]) * shape.table_size(t % tuples, t // tuples) for t in range(count)]
        self._views = [memoryview(table).cast("B") for table in self._tables]
        self._crc, self._want = [0] * count, crc
        self._shape, self._scale = shape, scale
        rest = bytes(head[at + 4 + size :])
        self._head = bytearray()
        return memoryview(rest)
