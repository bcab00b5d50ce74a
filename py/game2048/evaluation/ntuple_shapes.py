"""N-tuple network shapes: which cells each tuple reads, how many values a cell takes, the eight symmetries.

An n-tuple network values a board as a sum of table lookups: each tuple is a
list of cells, and the ranks at those cells (capped at ``values - 1``) index
its weight table.  With *symmetric sampling* every tuple is read on the
board's eight images (rotations and reflections) through the same table, so a
network of ``m`` tuples sums ``8 m`` weights.  This module holds the one
definition of a shape and of a feature's index; the lab's trainer
(``lab.training.kernels``) and the page's reader (``evaluation.ntuple``) both
take their cells and indices from here, and tests pin them together.

Cells are numbered as in ``board``: ``4 * row + col``, row 0 on top.  The
index of a tuple's cells ``c0, c1, ...`` is ``Σ min(rank(c_j), values - 1) ×
values ** j``: with 16 values cell ``c_j`` is nibble ``j`` of the index.

A shape may have *stages* (Yeh et al. 2016; Jaśkowski 2018): boards whose
largest tile has reached a stage's rank are valued by that stage's own
tables, which may take another number of values a cell.  The weights lie
stage after stage, each stage's tables in the tuples' order.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from functools import lru_cache

from ..board import max_rank

Cells = tuple[int, ...]


@dataclass(frozen=True)
class Stage:
    """A later stage: the boards whose largest tile has rank ``from_rank`` or more, and its values per cell."""

    from_rank: int
    values: int


@dataclass(frozen=True)
class Shape:
    """A network's shape: its tuples (cells each, in index order), the values a cell takes (≤ 16) in the first
    stage, and the later stages, by rising rank (none: one set of weights for every board)."""

    name: str
    tuples: tuple[Cells, ...]
    values: int
    stages: tuple[Stage, ...] = ()

    def __post_init__(self) -> None:
        for values in self.stage_values:
            if not 2 <= values <= 16:
                raise ValueError(f"a cell takes 2 to 16 values, got {values}")
        for cells in self.tuples:
            if not cells or len(set(cells)) != len(cells) or not all(0 <= c < 16 for c in cells):
                raise ValueError(f"a tuple is distinct cells 0..15, got {cells!r}")
        ranks = [stage.from_rank for stage in self.stages]
        if ranks != sorted(set(ranks)) or not all(1 <= r <= 15 for r in ranks):
            raise ValueError(f"stages start at rising ranks from 1 to 15, got {ranks}")

    @property
    def stage_values(self) -> tuple[int, ...]:
        """The values a cell takes in each stage, the first stage's first."""
        return (self.values, *(stage.values for stage in self.stages))

    @property
    def stage_ranks(self) -> tuple[int, ...]:
        """The largest-tile rank from which each stage values a board (0 for the first)."""
        return (0, *(stage.from_rank for stage in self.stages))

    def stage_of_rank(self, rank: int) -> int:
        """The stage that values a board whose largest tile has ``rank``."""
        stage = 0
        for s, start in enumerate(self.stage_ranks):
            if rank >= start:
                stage = s
        return stage

    def stage_of(self, board: int) -> int:
        """The stage that values ``board``: the last whose rank its largest tile has reached."""
        return self.stage_of_rank(max_rank(board))

    def table_size(self, t: int, stage: int = 0) -> int:
        """Entries in tuple ``t``'s weight table in ``stage``: ``values ** len(cells)``."""
        return int(self.stage_values[stage] ** len(self.tuples[t]))

    def table_starts(self) -> list[int]:
        """Where each table starts in the weights, stage after stage (``len(tuples) × stages`` + 1 entries: the
        last is the total)."""
        starts = [0]
        for s in range(len(self.stage_values)):
            for t in range(len(self.tuples)):
                starts.append(starts[-1] + self.table_size(t, s))
        return starts

    @property
    def weights(self) -> int:
        """Entries in all the tables of every stage together."""
        return self.table_starts()[-1]

    @property
    def features(self) -> int:
        """Weights a board reads (and a TD update moves): each tuple on each of the board's eight images."""
        return SYMMETRIES * len(self.tuples)

    def describe(self) -> str:
        """One line for people: the tuples' sizes, the values per cell (and stages), the weights."""
        sizes: dict[int, int] = {}
        for cells in self.tuples:
            sizes[len(cells)] = sizes.get(len(cells), 0) + 1
        parts = "+".join(f"{n}×{k}" for k, n in sorted(sizes.items()))
        stages = "".join(f", from {1 << s.from_rank}: {s.values} values" for s in self.stages)
        return f"{self.name}: {parts}-tuples, {self.values} values per cell{stages}, {self.weights:,} weights"


def shape_json(shape: Shape) -> dict[str, object]:
    """The shape as a network file's header and its manifest write it (``shape_from_json`` reads it back)."""
    return {
        "name": shape.name,
        "tuples": [list(t) for t in shape.tuples],
        "values": shape.values,
        "stages": [[stage.from_rank, stage.values] for stage in shape.stages],
    }


def shape_from_json(data: dict[str, object]) -> Shape:
    """The shape ``shape_json`` wrote (``stages`` may be missing: a file from before stages has none);
    ``ValueError``, ``KeyError`` or ``TypeError`` for anything else."""
    tuples = data["tuples"]
    stages = data.get("stages", [])
    if not isinstance(tuples, list) or not isinstance(stages, list):
        raise TypeError("a shape's tuples and stages are lists")
    return Shape(
        str(data["name"]),
        tuple(tuple(int(c) for c in cells) for cells in tuples),
        int(data["values"]),  # type: ignore[call-overload]
        tuple(Stage(int(rank), int(values)) for rank, values in stages),
    )


def same_weights(a: Shape, b: Shape) -> bool:
    """Whether two shapes read the same weights the same way (their names aside)."""
    return a.tuples == b.tuples and a.values == b.values and a.stages == b.stages


def _rect(top: int, left: int, rows: int, cols: int) -> Cells:
    return tuple(4 * r + c for r in range(top, top + rows) for c in range(left, left + cols))


_4X6 = ((0, 1, 2, 3, 4, 5), (4, 5, 6, 7, 8, 9), _rect(0, 0, 2, 3), _rect(1, 0, 2, 3))

SHAPES: dict[str, Shape] = {
    shape.name: shape
    for shape in (
        # Szubert & Jaśkowski (2014): the straight lines of the outer and inner rows, two 2×3 rectangles.
        Shape("2x4+2x6", ((0, 1, 2, 3), (4, 5, 6, 7), _rect(0, 0, 2, 3), _rect(1, 0, 2, 3)), 15),
        # Yeh et al. (2016), TDL2048's "4x6patt": two 6-cell "L"s of two rows and two 2×3 rectangles.
        Shape("4x6", _4X6, 15),
        # The same with 16 values a cell, as TDL2048 reads it: 32768 is a value of its own.
        Shape("4x6-16", _4X6, 16),
        # Two stages: boards below 8192 (13 values are every rank they hold), then from 8192 on, 16 values.
        Shape("4x6-late", _4X6, 13, (Stage(13, 16),)),
        # A tiny network for tests and demonstrations: trains in seconds.
        Shape("2x4", ((0, 1, 2, 3), (4, 5, 6, 7)), 16),
    )
}
"""The named shapes; ``get_shape`` finds one, and a shape given as text is parsed by ``parse_shape``."""


def get_shape(name: str) -> Shape:
    """The named shape; ``ValueError`` lists the names."""
    try:
        return SHAPES[name]
    except KeyError:
        raise ValueError(f"unknown network shape {name!r}; known shapes: {sorted(SHAPES)}") from None


def parse_shape(text: str) -> Shape:
    """A shape by name, or written out: ``"0,1,2,3;4,5,6,7/15"`` (tuples of cells by ``;``, values after ``/``),
    with stages after ``|``: ``"0,1,2,3;4,5,6,7/13|13:16"`` (from rank 13, 16 values)."""
    if text in SHAPES:
        return SHAPES[text]
    body, _, rest = text.partition("/")
    values, *later = rest.split("|") if rest else ("",)
    try:
        tuples = tuple(tuple(int(c) for c in part.split(",")) for part in body.split(";") if part.strip())
        count = int(values) if values else 16
        stages = tuple(Stage(*(int(n) for n in stage.split(":", 1))) for stage in later)
    except (ValueError, TypeError):
        raise ValueError(
            f"a shape is a name ({', '.join(sorted(SHAPES))}) or tuples of cells such as '0,1,2,3;4,5,6,7/15'"
            f" (stages after '|', e.g. '/13|13:16'), got {text!r}"
        ) from None
    if not tuples:
        raise ValueError(f"a shape has at least one tuple, got {text!r}")
    return Shape(text, tuples, count, stages)


def _cell_image(cell: int, symmetry: int) -> int:
    """Where ``cell`` goes under symmetry 0..7: bit 0 mirrors left to right, bit 1 flips top to bottom,
    bit 2 transposes first (so the eight are every rotation and reflection of the square)."""
    row, col = divmod(cell, 4)
    if symmetry & 4:
        row, col = col, row
    if symmetry & 2:
        row = 3 - row
    if symmetry & 1:
        col = 3 - col
    return 4 * row + col


SYMMETRIES = 8


def images(cells: Cells) -> list[Cells]:
    """The tuple read on the board's eight images: the cells of each, in the tuple's index order."""
    return [tuple(_cell_image(c, s) for c in cells) for s in range(SYMMETRIES)]


LINES: tuple[Cells, ...] = (
    tuple(tuple(range(4 * r, 4 * r + 4)) for r in range(4))  # rows, left to right: board.row_keys
    + tuple(tuple(range(c, 16, 4)) for c in range(4))  # columns, top to bottom: board.column_keys
    + tuple(tuple(range(4 * r + 3, 4 * r - 1, -1)) for r in range(4))  # rows, right to left
    + tuple(tuple(range(12 + c, -1, -4)) for c in range(4))  # columns, bottom to top
)
"""The 16 lines a reader keys: rows, columns and both read backwards; line ``i``'s key has ``LINES[i][k]`` in
nibble ``k``.  Every row of every image of the board is one of them."""


@dataclass(frozen=True)
class LinePlan:
    """How to index every feature from the board's 16 line keys, for readers that cannot afford nibble loops.

    A tuple's cells are split by the row they lie in (a *part*); ``parts[p]``
    maps a 16-bit line key to that part's share of the index (ranks capped,
    times ``values ** j``).  Feature ``f`` (tuple ``tuple_of[f]`` on one image)
    is ``Σ parts[p][key of line l]`` over its ``(l, p)`` pairs in ``reads[f]``.
    """

    tuple_of: tuple[int, ...]
    reads: tuple[tuple[tuple[int, int], ...], ...]
    parts: tuple[array[int], ...]


@lru_cache(maxsize=32)
def line_plan(shape: Shape, stage: int = 0) -> LinePlan:
    """The ``LinePlan`` of ``shape`` in ``stage``: each tuple's parts, and which line each image reads them from
    (kept)."""
    values = shape.stage_values[stage]
    top = values - 1
    tuple_of: list[int] = []
    reads: list[tuple[tuple[int, int], ...]] = []
    parts: list[array[int]] = []
    for t, cells in enumerate(shape.tuples):
        rows = sorted({c // 4 for c in cells})
        part_ids = {}
        for row in rows:
            digits = [(c % 4, values**j) for j, c in enumerate(cells) if c // 4 == row]
            table = [0] * (1 << 16)
            for key in range(1 << 16):
                total = 0
                for col, weight in digits:
                    rank = (key >> (4 * col)) & 0xF
                    total += (rank if rank < top else top) * weight
                table[key] = total
            part_ids[row] = len(parts)
            parts.append(array("i", table))  # 4 bytes an entry: the page keeps a dozen of them
        for s in range(SYMMETRIES):
            pairs = []
            for row in rows:
                image_row = tuple(_cell_image(c, s) for c in range(4 * row, 4 * row + 4))
                pairs.append((LINES.index(image_row), part_ids[row]))
            tuple_of.append(t)
            reads.append(tuple(pairs))
    return LinePlan(tuple(tuple_of), tuple(reads), tuple(parts))


Run = tuple[int, int, int, int]
"""A run of a feature's cells that lie side by side in one line: (line, first nibble in it, cells, first ``j``)."""


@lru_cache(maxsize=8)
def nibble_runs(shape: Shape) -> tuple[tuple[Run, ...], ...]:
    """Each feature's cells as runs of neighbouring nibbles of the 16 ``LINES``, in ``line_plan``'s order.

    With 16 values a cell, feature ``f``'s index is ``Σ ((key[line] >> 4 first) & (16**cells − 1)) <<
    4 j`` over its runs: bit shifts, no tables (the trainer's kernels read it so; values below 16 cap the line
    keys first).  A part's cell ``(row, col)`` is nibble ``col`` of the line its row is read from.
    """
    plan = line_plan(shape)
    runs: list[tuple[Run, ...]] = []
    for f, reads in enumerate(plan.reads):
        cells = shape.tuples[plan.tuple_of[f]]
        rows = sorted({c // 4 for c in cells})
        feature: list[Run] = []
        for row, (line, _) in zip(rows, reads, strict=True):
            for j, c in enumerate(cells):
                if c // 4 != row:
                    continue
                last = feature[-1] if feature else None
                if last and last[0] == line and last[1] + last[2] == c % 4 and last[3] + last[2] == j:
                    feature[-1] = (line, last[1], last[2] + 1, last[3])
                else:
                    feature.append((line, c % 4, 1, j))
        runs.append(tuple(feature))
    return tuple(runs)


def line_keys(board: int) -> list[int]:
    """The keys of the 16 ``LINES`` of ``board`` (the plain statement; readers compute them faster)."""
    return [sum(((board >> (4 * c)) & 0xF) << (4 * k) for k, c in enumerate(line)) for line in LINES]


def index(board: int, cells: Cells, values: int) -> int:
    """The index of ``cells`` on ``board``: ``Σ min(rank, values − 1) × values ** j`` (the one definition)."""
    top = values - 1
    out = 0
    for j in range(len(cells) - 1, -1, -1):
        rank = (board >> (4 * cells[j])) & 0xF
        out = out * values + (rank if rank < top else top)
    return out


def score_of_tiles(board: int) -> int:
    """The score a board's tiles are worth when every tile was built from 2s: Σ (rank − 1) × 2**rank.

    A move's points are exactly the rise of this sum (merging two ``2**(k-1)``
    tiles into ``2**k`` adds ``2**k``), and a new 2 adds nothing (a new 4
    adds 4).  So ``score_of_tiles(afterstate) + V(afterstate)`` orders a
    board's moves as ``points + V(afterstate)`` does, which lets a search that
    adds no points along its lines play the network as its trainer did.
    """
    total = 0
    while board:
        rank = board & 0xF
        if rank > 1:
            total += (rank - 1) << rank
        board >>= 4
    return total
