"""The ``learned`` preset: the n-tuple network the project ships, as an evaluation for either search.

The network is not read when the preset registers (nor its reader and
evaluation imported): the page's worker downloads it only when a player
chooses ``learned`` and hands it over with ``install``; the lab and the
tests read the shipped file from ``networks/`` on first use, checked against
its manifest.  The evaluation built from a
network is kept, so choosing the preset again costs nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..board import Board

if TYPE_CHECKING:  # the reader and the evaluation load when the network is first used, not when the worker starts
    from .ntuple_file import Network

NETWORK_DIR = Path(__file__).resolve().parents[3] / "networks"
"""Where the repository keeps the shipped network and its manifest (served to the page from there too)."""
NETWORK_FILE = "4x6.ntn"
MANIFEST_FILE = "4x6.json"

DEFAULT_WEIGHTS: dict[str, float] = {"network": 1.0}
"""The network's share of the evaluation: 1 plays it as trained; 0 leaves the tiles' score alone (a player
greedy for points), which shows what the learned part adds."""

_installed: Network | None = None
_evaluators: dict[tuple[int, float], Callable[[Board], float]] = {}


def install(network: Network | None) -> None:
    """Use ``network`` for ``learned`` from now on (the page's worker, once its download is checked);
    ``None`` forgets it, so the next use reads the shipped file again."""
    global _installed
    _installed = network
    _evaluators.clear()


def installed() -> Network | None:
    """The network ``learned`` uses, if one was installed or read."""
    return _installed


def manifest(directory: Path = NETWORK_DIR) -> dict[str, Any]:
    """The shipped network's manifest; ``NetworkError`` when it is missing or not JSON."""
    from .ntuple_file import NetworkError

    path = directory / MANIFEST_FILE
    try:
        return json.loads(path.read_text())  # type: ignore[no-any-return]
    except FileNotFoundError:
        raise NetworkError(f"no network manifest at {path}") from None
    except ValueError as exc:
        raise NetworkError(f"{path} is not a readable manifest: {exc}") from None


def network() -> Network:
    """The installed network, or the shipped one read from ``NETWORK_DIR`` and checked against its manifest."""
    if _installed is None:
        from .ntuple_file import read

        install(read(NETWORK_DIR / NETWORK_FILE, manifest()))
    assert _installed is not None
    return _installed


def make_evaluator(weights: Mapping[str, float] | None = None) -> Callable[[Board], float]:
    """The learned evaluation (``ntuple.make_evaluator``) of the current network, its value times ``network``."""
    from . import ntuple

    current = network()
    share = float({**DEFAULT_WEIGHTS, **(weights or {})}["network"])
    key = (id(current), share)
    evaluate = _evaluators.get(key)
    if evaluate is None:
        if len(_evaluators) >= 4:
            _evaluators.pop(next(iter(_evaluators)))
        evaluate = _evaluators[key] = ntuple.make_evaluator(current, share)
    return evaluate
