"""The learned evaluation, in pure Python: an n-tuple network's value of a board, fast enough to search with.

``make_value(network)`` returns ``value(board)``, the network's sum of
``8 × tuples`` weights of the board's stage (``ntuple_shapes``), computed from the board's 16 line
keys: four rows by mask and shift, four columns by the transposing tables of
``move_tables``; a line read backwards has part tables of its own, indexed by
the forward key.  Each feature is then one or two lookups of its index (a
tuple's share per row, ``LinePlan``) and one of its weight; a tuple that lies
in one row has the two folded into one 65,536-entry table.  The function is generated as source for the
network's shape and compiled once, every feature an unrolled term: about as lean as pure Python reads 32 weights.

Measured in Pyodide, where the page's worker runs it: every table is a
keyword-only default of ``value``, so a local (``LOAD_FAST``; a closure's
cell costs a ``LOAD_DEREF``); the part and stage tables are lists, whose
lookup hands back an int the list holds where an ``array``'s makes a new one
(a list's equal ints are one object, so in 32-bit WebAssembly it costs what an
``array('i')`` does); the weight tables stay ``array('h')`` (tens of millions
of entries), read through a ``memoryview``, whose lookup is a little cheaper.

``make_evaluator(network)`` is what the searches call: ``value`` plus
``ntuple_shapes.score_of_tiles``, so that comparing boards compares
points-so-far plus expected points-to-come, as the trainer's greedy player did.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable
from functools import lru_cache

from ..board import Board, reverse_line
from ..move_tables import spread_tables
from .ntuple_file import Network
from .ntuple_shapes import Cells, LinePlan, Shape, line_plan, score_of_tiles

LOST_VALUE = 0.0
"""A lost board: below every live board (whose tiles alone are worth more, and whose network value is ≥ 0)."""

_REVERSED: list[int] | None = None
_TILE_SCORES: list[int] | None = None


def _reversed() -> list[int]:
    global _REVERSED
    if _REVERSED is None:
        _REVERSED = [reverse_line(key) for key in range(1 << 16)]
    return _REVERSED


def tile_scores() -> list[int]:
    """``score_of_tiles`` of each row key: a board's is the sum over its four rows."""
    global _TILE_SCORES
    if _TILE_SCORES is None:
        _TILE_SCORES = [score_of_tiles(key) for key in range(1 << 16)]
    return _TILE_SCORES


def _shared(values: Iterable[int], canon: dict[int, int]) -> list[int]:
    """``values`` as a list in which equal ints are one object (``canon`` holds them): 4 bytes an entry in
    32-bit WebAssembly, as an ``array('i')``, instead of an int object for each entry above 256."""
    grown = [canon.setdefault(v, v) for v in values]
    return grown[:]  # a copy is allocated to size; a list grown by appends keeps up to an eighth spare


@lru_cache(maxsize=8)
def part_lists(shape: Shape, stage: int = 0) -> tuple[LinePlan, dict[tuple[int, bool], list[int]]]:
    """``line_plan(shape, stage)``'s reads (its ``parts`` left out), and each part table as a list, by
    ``(part, backwards)``: read ``backwards``, a part takes the key of the line read forwards."""
    plan = line_plan.__wrapped__(shape, stage)  # not kept in line_plan's cache: these lists replace its arrays
    rev = _reversed()
    canon: dict[int, int] = {}
    parts: dict[tuple[int, bool], list[int]] = {}
    for p, table in enumerate(plan.parts):
        forward = parts[p, False] = _shared(table, canon)
        parts[p, True] = _shared((forward[key] for key in rev), canon)
    return LinePlan(plan.tuple_of, plan.reads, ()), parts


def _source(network: Network, with_tiles: bool, share: float = 1.0) -> tuple[str, list[object]]:
    """The generated factory's source and its arguments: tables it hands to ``value``, in order.

    The function returns ``scale × Σ entries`` of the board's stage, plus the tiles' score when ``with_tiles``.
    """
    shape = network.shape
    args: list[object] = []
    names: dict[int, str] = {}

    def bind(obj: object, prefix: str) -> str:
        if id(obj) not in names:
            names[id(obj)] = f"{prefix}{len(args)}"
            args.append(obj)
        return names[id(obj)]

    used_lines: set[int] = set()
    canon: dict[int, int] = {}
    views: dict[int, memoryview] = {}

    def weights_of(table: array[int]) -> str:
        """The name of ``table``'s view: a memoryview's lookup is a little cheaper than the array's."""
        return bind(views.setdefault(id(table), memoryview(table)), "w")

    def stage_terms(stage: int) -> str:
        """The sum of the features' entries in ``stage``'s tables, as an expression of the line keys."""
        plan, parts = part_lists(shape, stage)
        tables = network.tables[stage * len(shape.tuples) : (stage + 1) * len(shape.tuples)]
        folded: dict[tuple[int, bool], str] = {}
        terms = []
        for f, reads in enumerate(plan.reads):
            t = plan.tuple_of[f]
            keys = [(line % 8, line >= 8, p) for line, p in reads]  # lines 8-15 are 0-7 read backwards
            used_lines.update(line for line, _, _ in keys)
            if len(keys) == 1:  # a tuple in one row: its index and weight lookups folded into one table
                line, backwards, p = keys[0]
                if (p, backwards) not in folded:
                    weights = tables[t]
                    folded[p, backwards] = bind(_shared((weights[i] for i in parts[p, backwards]), canon), "f")
                terms.append(f"{folded[p, backwards]}[k{line}]")
            else:
                index = " + ".join(f"{bind(parts[p, backwards], 'p')}[k{line}]" for line, backwards, p in keys)
                terms.append(f"{weights_of(tables[t])}[{index}]")
        return " + ".join(terms)

    sums = [stage_terms(stage) for stage in range(len(shape.stage_values))]
    tail = " + tiles[k0] + tiles[k1] + tiles[k2] + tiles[k3]" if with_tiles else ""
    returns = [f"return scale * ({terms}){tail}" for terms in sums]
    choice = ["        " + returns[0]]  # the first stage's, and the others' when the board is in theirs:
    if len(sums) > 1:  # the board's stage is the highest any row's largest tile has reached (row_stages)
        stages = bind(list(row_stages(shape)), "st")
        row = [f"{stages}[k{k}]" for k in range(4)]
        if len(sums) == 2:
            choice[:0] = [f"        if {' or '.join(row)}:", "            " + returns[1]]
        else:
            choice[:0] = [f"        stage = max({', '.join(row)})"]
            for stage in range(len(sums) - 1, 0, -1):
                choice[-1:-1] = [f"        if stage == {stage}:", "            " + returns[stage]]
    params = [*(names[id(a)] for a in args), "s0", "s1", "s2", "s3", "scale", "tiles"]
    body = [
        f"def factory({', '.join(params)}):",
        f"    def value(board, *, {', '.join(f'{name}={name}' for name in params)}):",
        "        k0 = board & 0xFFFF",
        "        k1 = (board >> 16) & 0xFFFF",
        "        k2 = (board >> 32) & 0xFFFF",
        "        k3 = board >> 48",
    ]
    if used_lines & {4, 5, 6, 7}:
        body += [
            "        x = s0[k0] | s1[k1] | s2[k2] | s3[k3]",
            "        k4 = x & 0xFFFF",
            "        k5 = (x >> 16) & 0xFFFF",
            "        k6 = (x >> 32) & 0xFFFF",
            "        k7 = x >> 48",
        ]
    body += [*choice, "    return value"]
    return "\n".join(body), [*args, *spread_tables(), share * network.scale, tile_scores()]


def row_stages(shape: Shape) -> bytes:
    """Each row key's stage in ``shape``: the stage of a board whose largest tile is that row's largest."""
    return bytes(shape.stage_of_rank(max((key >> (4 * k)) & 0xF for k in range(4))) for key in range(1 << 16))


def _compiled(network: Network, with_tiles: bool, share: float = 1.0) -> Callable[[Board], float]:
    source, args = _source(network, with_tiles, share)
    space: dict[str, object] = {}
    exec(compile(source, f"<n-tuple network {network.shape.name}>", "exec"), space)  # noqa: S102 - our own source
    return space["factory"](*args)  # type: ignore[operator,no-any-return]


def make_value(network: Network) -> Callable[[Board], float]:
    """The network's value of a board: ``scale`` × the sum of its features' entries."""
    return _compiled(network, with_tiles=False)


def make_evaluator(network: Network, share: float = 1.0) -> Callable[[Board], float]:
    """The searches' evaluation: ``share`` × network value + the score the board's tiles are worth
    (``score_of_tiles``).  Carries ``lost_value`` for expectimax, as every evaluation does.
    """
    evaluate = _compiled(network, with_tiles=True, share=share)
    evaluate.lost_value = LOST_VALUE  # type: ignore[attr-defined]
    return evaluate


def feature_values(network: Network, board: Board) -> list[tuple[tuple[int, ...], float]]:
    """Each feature of ``board`` with its weight: (the cells it reads, scale × entry), for explanations.

    The plain statement (``ntuple_shapes.index`` per image), which a test pins ``make_value`` to.
    """
    from .ntuple_shapes import images, index

    shape = network.shape
    stage = shape.stage_of(board)
    values = shape.stage_values[stage]
    tables = network.tables[stage * len(shape.tuples) :]
    out = []
    for t, cells in enumerate(shape.tuples):
        for image in images(cells):
            out.append((image, network.scale * tables[t][index(board, image, values)]))
    return out


def cell_shares(network: Network, board: Board, top: int = 3) -> tuple[list[float], list[tuple[int, Cells, float]]]:
    """Where the network's value of ``board`` comes from: each cell's share, and the ``top`` largest features.

    Each feature's weight is shared equally among the cells it reads, so the
    16 shares add up to the value; the features are (pattern number from 1, the
    cells of the image read, weight), largest first.
    """
    shares = [0.0] * 16
    features = feature_values(network, board)
    for cells, weight in features:
        for cell in cells:
            shares[cell] += weight / len(cells)
    images = len(features) // len(network.shape.tuples)  # feature_values lists each pattern's images together
    strongest = sorted(range(len(features)), key=lambda number: -features[number][1])[:top]
    return shares, [(number // images + 1, features[number][0], features[number][1]) for number in strongest]


__all__ = ["LOST_VALUE", "cell_shares", "feature_values", "make_evaluator", "make_value", "tile_scores"]
