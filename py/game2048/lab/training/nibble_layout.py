"""The network's weights in the trainer's *nibble layout*, and the arrays that say where each feature's are.

The kernels keep every tuple's table at 16 entries a cell in every stage, so
a feature's index is its cells' nibbles cut from the board's line keys by
shifts (``ntuple_shapes.nibble_runs``); checkpoints and network files keep
the shape's own layout (``values ** cells`` a table).  ``features`` builds
the arrays the kernels read (``kernels.indices``); ``to_nibbles``,
``from_nibbles`` and ``promoted`` convert between the layouts and between
shapes of the same tuples.  Plain numpy, run once per run, not per move.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...evaluation.ntuple_shapes import Shape, line_plan, nibble_runs


class Features(NamedTuple):
    """A shape's features as arrays ``indices`` reads (``f`` a tuple on one image, ``p`` one of its runs).

    ``runs[f, 4p : 4p + 4]`` is run ``p`` of feature ``f`` (``ntuple_shapes.nibble_runs``): line, shift,
    mask, shift up; its share of the index is ``((keys[line] >> shift) & mask) << up`` (a mask of 0 pads a
    feature of fewer runs).  ``offsets[s, f]`` is the start of ``f``'s table in stage ``s`` in the flat
    weights.  A board is in the last stage whose ``ranks[s]`` its largest tile (``largest[row key]``, per
    row) has reached; ``caps[s, key]`` is a line key with its ranks capped at stage ``s``'s values (the key
    itself at 16 values).
    """

    runs: np.ndarray
    offsets: np.ndarray
    ranks: np.ndarray
    caps: np.ndarray
    largest: np.ndarray


def nibble_sizes(shape: Shape) -> list[int]:
    """Entries of each table in the nibble layout, stage after stage: ``16 ** cells``."""
    return [16 ** len(cells) for _ in shape.stage_values for cells in shape.tuples]


def features(shape: Shape) -> Features:
    """The arrays of ``shape``'s features, runs and stages."""
    nibble = nibble_runs(shape)
    n = len(nibble)
    runs = np.zeros((n, 4 * max(len(feature) for feature in nibble)), dtype=np.int64)
    for f, feature in enumerate(nibble):
        for p, (line, first, cells, j) in enumerate(feature):
            runs[f, 4 * p : 4 * p + 4] = line, 4 * first, (1 << 4 * cells) - 1, 4 * j
    starts = np.cumsum([0, *nibble_sizes(shape)])
    tuples = len(shape.tuples)
    tuple_of = line_plan(shape).tuple_of  # nibble_runs keeps the line plan's order of features
    offsets = np.array([[starts[s * tuples + t] for t in tuple_of] for s in range(len(shape.stage_values))])
    keys = np.arange(1 << 16, dtype=np.int64)
    nibbles = [(keys >> (4 * k)) & 0xF for k in range(4)]
    caps = [
        sum(np.minimum(nib, values - 1) << (4 * k) for k, nib in enumerate(nibbles)) for values in shape.stage_values
    ]
    return Features(
        runs,
        offsets.astype(np.int64),
        np.array(shape.stage_ranks, dtype=np.int64),
        np.array(caps, dtype=np.uint16),  # small tables: they stay in the cache
        np.maximum.reduce(nibbles).astype(np.uint8),
    )


def to_nibbles(shape: Shape, weights: np.ndarray) -> np.ndarray:
    """``weights`` in the shape's layout (``values ** cells`` a table) as the kernels' nibble layout.

    An entry the shape's values cannot tell from another (a rank past the last value) holds that entry's
    weight, so the network values every board as before; the kernels never read those copies of a stage
    they cap, and a stage of more values (``promoted``) starts from them.
    """
    return promoted(shape, weights, shape)


def grows(source: Shape, target: Shape) -> bool:
    """Whether ``target`` holds every tuple of ``source`` (it may add more): what ``promoted`` converts."""
    return set(source.tuples) <= set(target.tuples)


def promoted(source: Shape, weights: np.ndarray, target: Shape) -> np.ndarray:
    """``source``'s weights (its layout) as ``target``'s in the nibble layout; ``target`` holds every tuple of
    ``source`` and may add more.

    Each target stage starts from the source stage that valued its first boards, every rank read as that
    stage read it (capped): Jaśkowski's (2018) weight promotion, and plain conversion when the shapes match.
    A tuple the source lacks starts at 0, so the grown network values every board as the source did and its
    new tables learn what the old ones could not tell.
    """
    kept = {cells: t for t, cells in enumerate(source.tuples)}
    if not grows(source, target):
        raise ValueError(f"shape {target.name} has other tuples than {source.name}: a run may add tuples, not drop")
    if weights.shape != (source.weights,):
        raise ValueError(f"shape {source.name} has {source.weights} weights, got {weights.shape}")
    starts = source.table_starts()
    tuples = len(source.tuples)
    out = []
    for rank in target.stage_ranks:
        s = source.stage_of_rank(rank)
        values = source.stage_values[s]
        read = np.minimum(np.arange(16), values - 1)
        for cells in target.tuples:
            if cells not in kept:
                out.append(np.zeros(16 ** len(cells), dtype=np.float32))
                continue
            t = kept[cells]
            table = weights[starts[s * tuples + t] : starts[s * tuples + t + 1]].reshape((values,) * len(cells))
            for axis in range(len(cells)):
                table = np.take(table, read, axis=axis)
            out.append(table.reshape(-1))
    return np.concatenate(out).astype(np.float32)


def from_nibbles(shape: Shape, nibbles: np.ndarray) -> np.ndarray:
    """The kernels' nibble layout as the shape's own (each stage's first ``values`` entries a cell)."""
    out = []
    at = 0
    for values in shape.stage_values:
        for cells in shape.tuples:
            size = 16 ** len(cells)
            table = nibbles[at : at + size].reshape((16,) * len(cells))
            out.append(table[(slice(0, values),) * len(cells)].reshape(-1))
            at += size
    if at != nibbles.shape[0]:
        raise ValueError(f"shape {shape.name} has {at} weights in the nibble layout, got {nibbles.shape[0]}")
    return np.concatenate(out)


__all__ = ["Features", "features", "from_nibbles", "grows", "nibble_sizes", "promoted", "to_nibbles"]
