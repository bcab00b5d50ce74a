"""From a trained run to the file the page carries: quantized weights, the file, and its manifest.

``quantize`` turns the trainer's float32 weights into ``ntuple_file.Network``'s
int16 tables with one scale (the largest weight maps to ±32767), so the
page's value differs from the trainer's by at most half a step per feature.
``coarsened_units`` lets a weight that training rarely moved round to a
coarser grid (in the same tables, so the page reads it as any other): it
is read as rarely, so it costs the value little and the file much.
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

MOST_DOUBLINGS = 8
"""The coarsest grid ``coarsened_units`` gives a weight: 2 ** 8 units."""


def coarsened_units(sizes: np.ndarray, fine_from: float) -> np.ndarray:
    """Each weight's grid in units (a power of two, at most ``2 ** MOST_DOUBLINGS``) from how much training moved it.

    ``sizes`` is the run's summed error sizes a weight (the coherence accumulators' second row): about how often
    the weight was read, times how wrong the value was then.  A weight read ``n`` times as often adds ``n`` times
    its squared rounding error to the value's, so at the same cost its grid is ``1 / sqrt(n)`` as coarse: one
    unit where ``sizes`` is at least ``fine_from``, twice as coarse for each quarter of that it falls short by.
    """
    short = np.maximum(fine_from / np.maximum(sizes.astype(np.float64), 1e-30), 1.0)
    doublings = np.minimum(np.floor(0.5 * np.log2(short)), MOST_DOUBLINGS)
    return np.exp2(doublings)


def quantize(
    shape: Shape,
    weights: np.ndarray,
    prune: float = 0.0,
    step: float = 0.0,
    units: np.ndarray | None = None,
) -> Network:
    """The int16 network closest to ``weights`` (flat, tuple after tuple) with one scale.

    The scale is ``step`` (the value of one unit), or more if the largest
    weight needs it to fit in int16.  Weights smaller than ``prune`` in size
    become 0: mostly entries training barely reached.  Both cost the value at
    most ``max(prune, step / 2)`` per feature, and shrink the file: fewer
    distinct entries compress better.  ``units`` (``coarsened_units``), one
    a weight, rounds each weight to a multiple of its own number of units.
    """
    if weights.shape != (shape.weights,):
        raise ValueError(f"shape {shape.name} has {shape.weights} weights, got {weights.shape}")
    if units is not None and units.shape != weights.shape:
        raise ValueError(f"{units.shape[0]:,} grids for {shape.weights:,} weights")
    if prune > 0:
        weights = np.where(np.abs(weights) < prune, np.float32(0), weights)
    largest = float(np.abs(weights).max())
    scale = max(largest / INT16_MAX, step) if largest > 0 else max(step, 1.0)
    tables = []
    starts = shape.table_starts()
    for start, end in zip(starts, starts[1:]):
        entries = weights[start:end] / scale
        if units is not None:
            grid = units[start:end]
            entries = np.clip(np.rint(entries / grid) * grid, -INT16_MAX, INT16_MAX)
        table = array("h")
        table.frombytes(np.rint(entries).astype(np.int16).tobytes())
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
