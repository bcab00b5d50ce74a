"""A decision's JSON form, built in one place for ``SearchResult.to_dict`` and for a decision merged from parts.

The worker answers with ``SearchResult.to_dict()``; a decision split over
workers is merged on the page's main thread (``split_merge``), where
MicroPython has no dataclasses to build a ``SearchResult``.  Both build their
answer here, so the two cannot drift apart: a field added to ``SearchResult``
is a missing argument here, for both.

Plain Python that CPython, Pyodide and MicroPython share, like ``board``.
"""

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass


def nodes_per_second(nodes: int, elapsed_ms: float) -> float:
    """The search's speed; 0 when it took no measurable time."""
    return nodes / (elapsed_ms / 1000.0) if elapsed_ms > 0 else 0.0


def decision_form(
    move: "str | None",
    depth: int,
    nodes: int,
    cutoffs: int,
    elapsed_ms: float,
    score: float,
    algorithm: str,
    preset: "str | None",
    think_ms: "float | None",
    rescued: bool,
) -> "dict[str, Any]":
    """A decision as the worker answers it: ``SearchResult``'s fields (explained there) and ``nodes_per_second``."""
    return {
        "move": move,
        "depth": depth,
        "nodes": nodes,
        "cutoffs": cutoffs,
        "elapsed_ms": elapsed_ms,
        "score": score,
        "algorithm": algorithm,
        "preset": preset,
        "think_ms": think_ms,
        "rescued": rescued,
        "nodes_per_second": nodes_per_second(nodes, elapsed_ms),
    }
