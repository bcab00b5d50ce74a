"""From a trained run to the file the page carries: quantized weights, the file, and its manifest.

``quantize`` turns the trainer's float32 weights into ``ntuple_file.Network``'s
int16 tables with one scale (the largest weight maps to ±32767), so the
page's value differs from the trainer's by at most half a step per feature.
``write`` saves the file and, beside it, the manifest: shape, size, SHA-256,
how the network was made and what it plays; the page and the lab refuse a
file that does not match its manifest.
"""

from __future__ import annotations

import json
from array import array
from pathlib import Path
from typing import Any

import numpy as np

from ...evaluation.ntuple_file import FORMAT, INT16_MAX, Network, encode, sha256
from ...evaluation.ntuple_shapes import Shape, shape_json
from .. import out_files


def quantize(shape: Shape, weights: np.ndarray, prune: float = 0.0, step: float = 0.0) -> Network:
    """The int16 network closest to ``weights`` (flat, tuple after tuple) with one scale.

    The scale is ``step`` (the value of one unit), or more if the largest
    weight needs it to fit in int16.  Weights smaller than ``prune`` in size
    become 0: mostly entries training barely reached.  Both cost the value at
    most ``max(prune, step / 2)`` per feature, and shrink the file: fewer
    distinct entries compress better.
    """
    if weights.shape != (shape.weights,):
        raise ValueError(f"shape {shape.name} has {shape.weights} weights, got {weights.shape}")
    if prune > 0:
        weights = np.where(np.abs(weights) < prune, np.float32(0), weights)
    largest = float(np.abs(weights).max())
    scale = max(largest / INT16_MAX, step) if largest > 0 else max(step, 1.0)
    tables = []
    starts = shape.table_starts()
    for start, end in zip(starts, starts[1:]):
        table = array("h")
        table.frombytes(np.rint(weights[start:end] / scale).astype(np.int16).tobytes())
        tables.append(table)
    return Network(shape, scale, tuple(tables))


def dequantized(network: Network) -> np.ndarray:
    """The network's weights as the trainer's flat float32 array (for compiled greedy games of the file)."""
    entries = np.concatenate([np.frombuffer(t.tobytes(), dtype=np.int16) for t in network.tables])
    return entries.astype(np.float32) * np.float32(network.scale)


def write(network: Network, path: Path, made: dict[str, Any], version: int = FORMAT) -> dict[str, Any]:
    """Write the network file at ``path`` (in format ``version``) and its manifest at ``path.with_suffix('.json')``;
    the manifest.

    ``made`` says how it was made and what it plays (games, seed, command, results).
    """
    data = encode(network, version)
    shape = network.shape
    manifest = {
        "file": path.name,
        "bytes": len(data),
        "sha256": sha256(data),
        "shape": shape_json(shape),
        "weights": shape.weights,
        "memory_bytes": 2 * shape.weights,
        **made,
    }
    out_files.target(path.with_suffix(".json"))  # both refused before either is written
    out_files.write_bytes(path, data)
    out_files.write_text(path.with_suffix(".json"), json.dumps(manifest, indent=1) + "\n")
    return manifest
