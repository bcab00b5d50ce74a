"""The n-tuple network: shapes and indices, the pure-Python value, the learned preset, and the file format."""

from __future__ import annotations

import json
import random
import struct
from array import array

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import boards, directions, game_positions, ranks

from game2048 import board as B
from game2048.evaluation import learned, ntuple, ntuple_file
from game2048.evaluation.ntuple_file import Network, NetworkError
from game2048.evaluation.ntuple_shapes import (
    SHAPES,
    Shape,
    Stage,
    get_shape,
    images,
    index,
    line_keys,
    line_plan,
    nibble_runs,
    parse_shape,
    score_of_tiles,
    shape_json,
)

SMALL = Shape("test", ((0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 4, 5), (5, 6, 9, 10, 13)), 5)
"""Lines, a square and a five-cell bend across three rows, with 5 values a cell: every kind of part."""


STAGED = Shape("staged", SMALL.tuples, 5, (Stage(6, 7), Stage(11, 16)))
"""SMALL in three stages: up to 32, then to 1024 with 7 values, then from 2048 with 16 (32768 its own value)."""


def random_network(shape: Shape, seed: int = 0) -> Network:
    rng = random.Random(seed)
    starts = shape.table_starts()
    sizes = [end - start for start, end in zip(starts, starts[1:])]
    tables = tuple(array("h", (rng.randint(-3000, 3000) for _ in range(size))) for size in sizes)
    return Network(shape, 0.25, tables)


NETWORK = random_network(SMALL)
VALUE = ntuple.make_value(NETWORK)
EVALUATE = ntuple.make_evaluator(NETWORK)
STAGED_NETWORK = random_network(STAGED, seed=1)
STAGED_VALUE = ntuple.make_value(STAGED_NETWORK)


def _entries(network: Network, board: int) -> int:
    """Σ over tuples and the 8 images of the tuple's entry at its index in the stage of the board's largest
    tile: the network's sum as defined, an exact int."""
    shape = network.shape
    largest = max((board >> (4 * c)) & 0xF for c in range(16))
    stage = max(s for s, rank in enumerate(shape.stage_ranks) if largest >= rank)
    tables = network.tables[stage * len(shape.tuples) : (stage + 1) * len(shape.tuples)]
    return sum(
        tables[t][index(board, image, shape.stage_values[stage])]
        for t, cells in enumerate(shape.tuples)
        for image in images(cells)
    )


def _by_definition(network: Network, board: int) -> float:
    """The network's value as defined: its scale × the entries' sum."""
    return network.scale * _entries(network, board)


def _plain_evaluation(network: Network, board: int, share: float = 1.0) -> float:
    """``make_evaluator``'s value as plainly stated, float operation by float operation: (share × scale) × the
    entries' sum, then each row's tiles' score added in turn, top row first."""
    value = share * network.scale * _entries(network, board)
    for row in range(4):
        value += score_of_tiles((board >> (16 * row)) & 0xFFFF)
    return value


def _boards_in_stage(shape: Shape, stage: int, count: int, seed: int = 0) -> list[int]:
    """``count`` random boards valued by ``shape``'s ``stage``: the largest tile anywhere in the stage's ranks,
    the other cells anything up to it (empty boards too, in the first stage)."""
    rng = random.Random(seed)
    low = shape.stage_ranks[stage]
    high = shape.stage_ranks[stage + 1] - 1 if stage + 1 < len(shape.stage_ranks) else B.MAX_RANK
    out = []
    for _ in range(count):
        top = rng.randint(low, high)
        cells = [rng.randint(0, top) for _ in range(16)]
        cells[rng.randrange(16)] = top
        out.append(sum(rank << (4 * c) for c, rank in enumerate(cells)))
    assert {shape.stage_of(board) for board in out} == {stage}
    return out


@given(boards(ranks))
def test_the_value_is_the_sum_of_every_tuples_weight_on_every_image(board: int) -> None:
    assert VALUE(board) == pytest.approx(_by_definition(NETWORK, board), abs=1e-9)
    assert sum(w for _, w in ntuple.feature_values(NETWORK, board)) == pytest.approx(VALUE(board), abs=1e-9)


@given(boards(ranks))
def test_a_staged_value_is_its_stages_sum_of_weights_under_every_symmetry(board: int) -> None:
    value = STAGED_VALUE(board)
    assert value == pytest.approx(_by_definition(STAGED_NETWORK, board), abs=1e-9)
    assert sum(w for _, w in ntuple.feature_values(STAGED_NETWORK, board)) == pytest.approx(value, abs=1e-9)
    assert {round(STAGED_VALUE(image), 6) for image in B.symmetries(board)} == {round(value, 6)}


def test_each_stage_values_its_boards_with_its_own_tables_and_a_32768_is_a_value_of_its_own() -> None:
    low = B.from_rows([[32, 16, 8, 2], [0] * 4, [0] * 4, [0] * 4])
    middle = B.from_rows([[64, 16, 8, 2], [0] * 4, [0] * 4, [0] * 4])
    high = B.from_rows([[2048, 16, 8, 2], [0] * 4, [0] * 4, [0] * 4])
    assert [STAGED.stage_of(b) for b in (0, low, middle, high)] == [0, 0, 1, 2]
    with_16384 = B.from_rows([[16384, 16, 8, 2], [0] * 4, [0] * 4, [0] * 4])
    with_32768 = B.from_rows([[32768, 16, 8, 2], [0] * 4, [0] * 4, [0] * 4])
    assert STAGED_VALUE(with_32768) == pytest.approx(_by_definition(STAGED_NETWORK, with_32768), abs=1e-9)
    assert STAGED_VALUE(with_32768) != STAGED_VALUE(with_16384)  # 16 values: no longer read as a 16384
    assert VALUE(with_32768) == VALUE(with_16384)  # 5 values a cell: both are the last value


@pytest.mark.parametrize("network", [NETWORK, STAGED_NETWORK, random_network(get_shape("2x4"), seed=2)])
def test_the_generated_evaluation_returns_the_plain_statements_float_in_every_stage(network: Network) -> None:
    value, evaluate = ntuple.make_value(network), ntuple.make_evaluator(network)
    partly = ntuple.make_evaluator(network, share=1 / 3)  # a scale whose sums round: their order counts
    for stage in range(len(network.shape.stage_values)):
        for board in _boards_in_stage(network.shape, stage, 300, seed=stage):
            assert value(board) == _by_definition(network, board)
            assert value(board) == sum(w for _, w in ntuple.feature_values(network, board))
            assert evaluate(board) == _plain_evaluation(network, board)
            assert partly(board) == _plain_evaluation(network, board, 1 / 3)
            assert type(evaluate(board)) is float


@pytest.fixture(scope="module")
def shipped() -> Network:
    """The network the page ships, read from its file (whatever another test installed for ``learned``)."""
    return ntuple_file.read(learned.NETWORK_DIR / learned.NETWORK_FILE, learned.manifest())


def test_the_shipped_networks_evaluation_is_the_plain_statement_in_every_stage(shipped: Network) -> None:
    assert shipped.shape == get_shape("4x6-16")  # one stage of 16 values: staged files are STAGED_NETWORK's tests
    value, evaluate = ntuple.make_value(shipped), ntuple.make_evaluator(shipped)
    partly = ntuple.make_evaluator(shipped, share=1 / 3)
    for stage in range(len(shipped.shape.stage_values)):
        for board in _boards_in_stage(shipped.shape, stage, 1500, seed=10 + stage):
            assert value(board) == _by_definition(shipped, board)
            assert evaluate(board) == _plain_evaluation(shipped, board)
            assert partly(board) == _plain_evaluation(shipped, board, 1 / 3)
    for position in game_positions():
        assert evaluate(position) == _plain_evaluation(shipped, position)


def test_the_evaluation_reads_the_networks_own_arrays_and_lists_of_shared_ints(shipped: Network) -> None:
    """The memory the page's worker pays: the weights stay the network's int16 arrays (a view, not a copy), and
    each 65,536-entry part list holds one int object per value, as an ``array('i')`` holds 4 bytes."""
    tables = list((ntuple.make_evaluator(shipped).__kwdefaults__ or {}).values())
    views = [t for t in tables if isinstance(t, memoryview)]
    assert sorted(id(view.obj) for view in views) == sorted(id(table) for table in shipped.tables)
    stages = range(len(shipped.shape.stage_values))
    parts = [part for stage in stages for part in ntuple.part_lists(shipped.shape, stage)[1].values()]
    lists = {id(t) for t in tables if isinstance(t, list)}
    assert {id(part) for part in parts} < lists  # beside them: the stages (if several), the transposing tables,
    assert len(lists) == len(parts) + (len(stages) > 1) + 4 + 1  # and the tiles' scores
    for part in parts:
        assert len(part) == 1 << 16 and len({id(v) for v in part}) == len(set(part))


@given(boards(ranks))
def test_symmetric_sampling_values_every_image_of_a_board_alike(board: int) -> None:
    assert {round(VALUE(image), 6) for image in B.symmetries(board)} == {round(VALUE(board), 6)}


def test_the_eight_images_of_a_tuple_are_the_squares_rotations_and_reflections() -> None:
    corner = images((0, 1))
    assert sorted(corner) == sorted([(0, 1), (3, 2), (12, 13), (15, 14), (0, 4), (3, 7), (12, 8), (15, 11)])
    for s, image in enumerate(images(tuple(range(16)))):
        assert sorted(image) == list(range(16)), s


@given(boards(ranks))
def test_the_line_plan_gives_every_features_index(board: int) -> None:
    for shape in (*SHAPES.values(), SMALL, STAGED):
        for stage, values in enumerate(shape.stage_values):
            plan = line_plan(shape, stage)
            keys = line_keys(board)
            features = [(t, image) for t, cells in enumerate(shape.tuples) for image in images(cells)]
            assert plan.tuple_of == tuple(t for t, _ in features)
            for f, (_, image) in enumerate(features):
                assert sum(plan.parts[p][keys[line]] for line, p in plan.reads[f]) == index(board, image, values)


@given(boards(ranks))
def test_the_nibble_runs_give_every_features_index_at_16_values(board: int) -> None:
    scattered = Shape("scattered", ((3, 1, 0, 2, 9), (5, 6, 7, 4)), 16)  # cells out of order: runs of one
    for shape in (*SHAPES.values(), SMALL, scattered):
        keys = line_keys(board)
        features = [image for cells in shape.tuples for image in images(cells)]
        for runs, image in zip(nibble_runs(shape), features, strict=True):
            cut = sum(((keys[line] >> (4 * at)) & ((1 << 4 * cells) - 1)) << (4 * j) for line, at, cells, j in runs)
            assert cut == index(board, image, 16)


def test_an_index_caps_ranks_at_the_values_a_cell_takes() -> None:
    board = B.from_rows([[2, 4, 32768, 0], [0] * 4, [0] * 4, [0] * 4])
    assert index(board, (0, 1, 2, 3), 16) == 1 + 2 * 16 + 15 * 256
    assert index(board, (0, 1, 2, 3), 15) == 1 + 2 * 15 + 14 * 225


@given(boards(), directions)
def test_the_points_of_a_move_are_the_rise_of_the_tiles_score(board: int, direction: str) -> None:
    after, points = B.move(board, direction)
    assert score_of_tiles(after) - score_of_tiles(board) == points


@given(boards(ranks))
def test_the_evaluation_is_the_value_plus_the_tiles_score(board: int) -> None:
    assert EVALUATE(board) == pytest.approx(VALUE(board) + score_of_tiles(board), abs=1e-9)
    assert EVALUATE.lost_value == ntuple.LOST_VALUE == 0.0


def test_shapes_by_name_and_written_out() -> None:
    assert get_shape("2x4+2x6").weights == 2 * 15**4 + 2 * 15**6 == 22_882_500
    assert parse_shape("0,1,2,3;4,5,6,7/15") == Shape("0,1,2,3;4,5,6,7/15", ((0, 1, 2, 3), (4, 5, 6, 7)), 15)
    assert parse_shape("0,1,2,3/13|13:16").stages == (Stage(13, 16),)
    assert get_shape("4x6-late").weights == 4 * 13**6 + 4 * 16**6
    assert "4×6-tuples" in get_shape("4x6").describe()
    assert "from 8192: 16 values" in get_shape("4x6-late").describe()
    for bad, message in (
        ("0,1/13|13:17", "2 to 16 values"),
        ("0,1/13|13:16|12:16", "rising ranks"),
        ("0,1/13|0:16", "rising ranks"),
        ("0,1/13|x", "tuples of cells"),
        ("nine", "unknown network shape|tuples of cells"),
        ("0,1,1/15", "distinct cells"),
        ("0,1,16", "distinct cells"),
        ("0,1/17", "2 to 16 values"),
        ("a,b", "tuples of cells"),
    ):
        with pytest.raises(ValueError, match=message):
            parse_shape(bad)


# The file format.

DATA = ntuple_file.encode(NETWORK)
MANIFEST = {"bytes": len(DATA), "sha256": ntuple_file.sha256(DATA), "shape": shape_json(SMALL)}


def test_a_network_reads_back_as_it_was_written() -> None:
    again = ntuple_file.check(DATA, MANIFEST)
    assert again == NETWORK
    staged = ntuple_file.encode(STAGED_NETWORK)
    manifest = {"bytes": len(staged), "sha256": ntuple_file.sha256(staged), "shape": shape_json(STAGED)}
    assert ntuple_file.check(staged, manifest) == STAGED_NETWORK
    with pytest.raises(NetworkError, match="shape staged, not test"):
        ntuple_file.check(staged, {**manifest, "shape": MANIFEST["shape"]})


def _with_header(network: Network, change, version: int = ntuple_file.FORMAT) -> bytes:  # type: ignore[no-untyped-def]
    """``network``'s file in format ``version`` with its header as ``change`` rewrites it (a file from another
    version of the lab)."""
    data = ntuple_file.encode(network, version)
    at = len(ntuple_file.MAGIC)
    (size,) = struct.unpack_from("<I", data, at)
    header = json.loads(data[at + 4 : at + 4 + size])
    change(header)
    text = json.dumps(header).encode()
    return data[:at] + struct.pack("<I", len(text)) + text + data[at + 4 + size :]


def test_format_2_and_a_format_1_file_from_before_stages_still_read_and_a_newer_format_says_so() -> None:
    two = ntuple_file.encode(STAGED_NETWORK, 2)
    assert ntuple_file.check(two, {"bytes": len(two), "sha256": ntuple_file.sha256(two)}) == STAGED_NETWORK
    assert two != ntuple_file.encode(STAGED_NETWORK)

    def older(header) -> None:  # type: ignore[no-untyped-def]
        header["format"] = 1
        del header["shape"]["stages"]

    old = _with_header(NETWORK, older, 2)
    assert ntuple_file.decode(old) == NETWORK
    manifest = {"bytes": len(old), "sha256": ntuple_file.sha256(old), "shape": {**MANIFEST["shape"]}}
    del manifest["shape"]["stages"]  # type: ignore[attr-defined]
    assert ntuple_file.check(old, manifest) == NETWORK  # an older manifest too
    with pytest.raises(NetworkError, match="format 4; this page reads formats 1, 2 and 3"):
        ntuple_file.decode(_with_header(NETWORK, lambda header: header.update(format=4)))
    with pytest.raises(NetworkError, match="damaged"):
        ntuple_file.decode(_with_header(STAGED_NETWORK, lambda header: header.update(format=1), 2))
    with pytest.raises(NetworkError, match="table 1 does not decompress"):  # format 3's tables read as zlib
        ntuple_file.decode(_with_header(NETWORK, lambda header: header.update(format=2)))
    with pytest.raises(ValueError, match="writes formats 2 and 3, not 1"):
        ntuple_file.encode(NETWORK, 1)


@given(st.integers(min_value=0, max_value=len(DATA) - 1))
def test_a_file_cut_short_anywhere_is_refused_as_cut_short(length: int) -> None:
    with pytest.raises(NetworkError, match="cut short"):
        ntuple_file.check(DATA[:length], MANIFEST)
    with pytest.raises(NetworkError, match="cut short|damaged"):
        ntuple_file.decode(DATA[:length])


@given(st.integers(min_value=0, max_value=len(DATA) - 1), st.integers(min_value=1, max_value=255))
def test_a_changed_byte_is_refused_by_its_digest_and_never_read_silently(at: int, flip: int) -> None:
    data = bytearray(DATA)
    data[at] ^= flip
    with pytest.raises(NetworkError, match="SHA-256"):
        ntuple_file.check(bytes(data), MANIFEST)
    try:
        network = ntuple_file.decode(bytes(data))
    except NetworkError as exc:
        assert "damaged" in str(exc) or "not a network file" in str(exc) or "format" in str(exc)
    else:  # a changed weight or scale digit reads as a network; only the manifest's digest can tell
        assert network.shape.tuples == SMALL.tuples


def test_another_shape_or_another_file_is_refused_with_what_it_is(tmp_path) -> None:  # type: ignore[no-untyped-def]
    other = ntuple_file.encode(random_network(get_shape("2x4")))
    manifest = {**MANIFEST, "bytes": len(other), "sha256": ntuple_file.sha256(other)}
    with pytest.raises(NetworkError, match="shape 2x4, not test"):
        ntuple_file.check(other, manifest)
    with pytest.raises(NetworkError, match="not a network file"):
        ntuple_file.decode(b"<!doctype html><title>404</title>")
    with pytest.raises(NetworkError, match="no network file"):
        ntuple_file.read(tmp_path / "missing.ntn")
    with pytest.raises(NetworkError, match="after its last table"):
        ntuple_file.decode(DATA + b"\0")


def test_the_lab_refuses_a_damaged_shipped_network_with_what_is_wrong(tmp_path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    from game2048.lab import cli

    (tmp_path / learned.NETWORK_FILE).write_bytes(DATA[:-10])
    (tmp_path / learned.MANIFEST_FILE).write_text(json.dumps(MANIFEST))
    monkeypatch.setattr(learned, "NETWORK_DIR", tmp_path)
    learned.install(None)
    argv = ["run", "--preset", "learned", "--algorithm", "expectimax", "--depth", "1", "--games", "1", "--jobs", "1"]
    with pytest.raises(SystemExit) as exited:
        cli.main([*argv, "--no-progress"])
    assert exited.value.code == 2 and "4x6.ntn is cut short" in capsys.readouterr().err


def test_the_shipped_network_is_whole_and_within_the_pages_limits() -> None:
    manifest = learned.manifest()
    network = ntuple_file.read(learned.NETWORK_DIR / learned.NETWORK_FILE, manifest)
    assert manifest["bytes"] <= 32_000_000  # on the wire
    assert manifest["memory_bytes"] == 2 * network.shape.weights <= 256_000_000  # its int16 tables in the worker
    assert network.shape.weights == sum(len(table) for table in network.tables)
