"""A run's temporal-coherence accumulators beside its exported network, so ``train --init`` goes on where it was.

A network trained at the literature's rate owes its stability to the accumulators: each weight's rate is
``|E| / A`` (``kernels.tc_step``), and a run started from the network file alone starts them empty, at full
rate, and forgets what it learned (docs/results.md, "Going on from a file").  Checkpoints keep them exactly but
are too large to keep in the repository and may be gone on another machine; this file keeps them in two bytes a weight:

* ``ratio``, int8: ``round(127 × E / A)`` (the rate and the sign of the errors so far);
* ``size``, uint8: 0 for a weight never moved, else ``1 + round(SIZE_STEPS × (log2 A + SIZE_FLOOR))`` (the
  inertia: how much error has moved it, to within ``2 ** (1 / SIZE_STEPS)``).

Weights never moved are zeros in both, which ``np.savez_compressed`` all but removes.  The file names the SHA-256
of the network it belongs to; ``read`` refuses another network's or another shape's accumulators.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np

from .. import out_files

SUFFIX = ".coherence.npz"
SIZE_STEPS = 5
"""Codes per doubling of a weight's summed error size (steps of 15 %)."""
SIZE_FLOOR = 8
"""log2 of the smallest summed error size kept apart from the next (1/256 of a point); the largest is 2^42."""


class CoherenceError(ValueError):
    """Accumulators that cannot be used; the message says why."""


def path_for(network: Path) -> Path:
    """Where the accumulators of ``network`` (``4x6.ntn``) lie: ``4x6.coherence.npz`` beside it."""
    return network.with_suffix(SUFFIX)


def encode(tc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(ratio, size)`` of accumulators ``tc`` (row 0 the errors' sum ``E``, row 1 their sizes' sum ``A``)."""
    errors, sizes = tc[0].astype(np.float64), tc[1].astype(np.float64)
    moved = sizes > 0
    ratio = np.zeros(sizes.shape, dtype=np.int8)
    ratio[moved] = np.rint(127 * np.clip(errors[moved] / sizes[moved], -1, 1)).astype(np.int8)
    size = np.zeros(sizes.shape, dtype=np.uint8)
    code = np.rint(SIZE_STEPS * (np.log2(sizes[moved]) + SIZE_FLOOR))
    size[moved] = 1 + np.clip(code, 0, 254).astype(np.uint8)
    return ratio, size


def decode(ratio: np.ndarray, size: np.ndarray) -> np.ndarray:
    """The accumulators ``encode`` kept: float32 ``(2, weights)``, zeros where no weight moved."""
    moved = size > 0
    sizes = np.zeros(size.shape, dtype=np.float64)
    sizes[moved] = np.exp2((size[moved].astype(np.float64) - 1) / SIZE_STEPS - SIZE_FLOOR)
    errors = ratio.astype(np.float64) / 127 * sizes
    return np.stack([errors, sizes]).astype(np.float32)


def write(network: Path, tc: np.ndarray, network_sha256: str) -> Path:
    """Write the accumulators of the network file ``network`` (whose SHA-256 is given) beside it; its path."""
    ratio, size = encode(tc)
    path = path_for(network)
    with out_files.replacing(path, binary=True) as handle:
        np.savez_compressed(handle, ratio=ratio, size=size, network_sha256=np.array(network_sha256))
    return path


def read(network: Path, weights: int, network_sha256: str) -> np.ndarray | None:
    """The accumulators beside ``network`` for its ``weights`` weights, or None when there are none;
    ``CoherenceError`` when they are damaged or belong to another network."""
    path = path_for(network)
    if not path.exists():
        return None
    try:
        with np.load(path) as data:
            ratio, size, owner = data["ratio"], data["size"], str(data["network_sha256"])
    except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        raise CoherenceError(f"{path} is not readable coherence accumulators: {exc}") from None
    if owner != network_sha256:
        raise CoherenceError(f"{path} belongs to another network (SHA-256 {owner[:16]}…): remove it or export again")
    if ratio.dtype != np.int8 or size.dtype != np.uint8 or ratio.shape != (weights,) or size.shape != (weights,):
        raise CoherenceError(f"{path} holds accumulators of {ratio.shape} and {size.shape}, not ({weights},)")
    return decode(ratio, size)
