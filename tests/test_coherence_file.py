"""Coherence accumulators beside an exported network: two bytes a weight, read back to go on at the same rates."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game2048.evaluation import ntuple_file
from game2048.evaluation.ntuple_shapes import get_shape, parse_shape
from game2048.lab import cli
from game2048.lab.training import coherence_file, export
from game2048.lab.training import kernels as K
from game2048.lab.training.trainer import (
    TrainError,
    TrainOptions,
    initial_weights,
    load_checkpoint,
    load_coherence,
    train,
)

RUN = TrainOptions(shape="2x4", games=1500, block=500, alpha=0.05, seed=4, coherence=True)
"""A tiny run at a large rate: its accumulators spread over many sizes and rates in seconds."""
RUN_SHAPE = get_shape(RUN.shape)

sums = st.floats(min_value=2.0**-coherence_file.SIZE_FLOOR, max_value=2.0**42, allow_nan=False)
"""Summed error sizes the file tells apart (a smaller one is kept as the smallest)."""


@given(st.lists(st.tuples(sums, st.floats(min_value=-1, max_value=1)), min_size=1, max_size=50))
def test_the_kept_rate_and_inertia_are_within_their_steps_of_the_accumulators(items: list[tuple[float, float]]) -> None:
    sizes = np.array([size for size, _ in items], dtype=np.float32)
    errors = np.array([size * share for size, share in items], dtype=np.float32)
    back = coherence_file.decode(*coherence_file.encode(np.stack([errors, sizes])))
    rates, kept_rates = errors / sizes, back[0] / back[1]
    assert np.all(np.abs(kept_rates - rates) <= 0.5 / 127 + 1e-6)  # the rate to within half a step
    assert np.all(np.abs(np.log2(back[1] / sizes)) <= 0.5 / coherence_file.SIZE_STEPS + 1e-6)


def test_a_weight_never_moved_is_kept_as_never_moved() -> None:
    tc = np.array([[0.0, 5.0, -3.0], [0.0, 10.0, 3.0]], dtype=np.float32)
    ratio, size = coherence_file.encode(tc)
    assert (ratio[0], size[0]) == (0, 0) and size[1] > 0 and ratio[2] == -127
    assert coherence_file.decode(ratio, size)[:, 0].tolist() == [0.0, 0.0]


def _exported(tmp_path: Path, capsys) -> Path:  # type: ignore[no-untyped-def]
    train(RUN, tmp_path / "run")
    out = tmp_path / "net" / "tiny.ntn"
    args = ["export", "--run", str(tmp_path / "run"), "--out", str(out), "--games", "5", "--coherence"]
    assert cli.main(args) == 0
    assert "its coherence accumulators" in capsys.readouterr().out
    return out


def test_a_run_from_an_export_with_its_accumulators_goes_on_at_the_rates_they_reached(
    tmp_path: Path,
    capsys,  # type: ignore[no-untyped-def]
) -> None:
    out = _exported(tmp_path, capsys)
    shape = get_shape("2x4")
    exact = load_coherence(tmp_path / "run", shape.weights)
    _, _, kept = initial_weights(out, shape, coherence=True)
    assert kept is not None
    kept = np.stack([K.from_nibbles(shape, row) for row in kept])
    moved = exact[1] > 0
    assert moved.sum() > 100 and np.array_equal(kept[1] > 0, moved)
    assert np.allclose(kept[0][moved] / kept[1][moved], exact[0][moved] / exact[1][moved], atol=0.5 / 127 + 1e-6)
    assert initial_weights(out, shape, coherence=False)[2] is None
    state, _ = train(TrainOptions(shape="2x4", games=10, block=10, coherence=True, init=str(out)), tmp_path / "on")
    assert state.init_coherence
    assert load_checkpoint(tmp_path / "on")[1].init_coherence
    coherence_file.path_for(out).unlink()  # without the file, the run starts them empty, as before
    assert not train(TrainOptions(shape="2x4", games=10, block=10, coherence=True, init=str(out)), tmp_path / "e")[
        0
    ].init_coherence


def test_a_run_of_more_stages_starts_each_stages_accumulators_as_the_files_that_valued_its_boards(
    tmp_path: Path,
    capsys,  # type: ignore[no-untyped-def]
) -> None:
    out = _exported(tmp_path, capsys)
    shape, staged = get_shape("2x4"), parse_shape("0,1,2,3;4,5,6,7/16|9:16")
    _, _, flat = initial_weights(out, shape, coherence=True)
    kept = initial_weights(out, staged, coherence=True)[2]
    assert flat is not None and kept is not None and kept.shape == (2, 2 * flat.shape[1])
    assert np.array_equal(kept[:, : flat.shape[1]], flat) and np.array_equal(kept[:, flat.shape[1] :], flat)


def test_a_run_of_more_tuples_keeps_the_files_and_starts_the_new_ones_at_zero_and_unmoved(
    tmp_path: Path,
    capsys,  # type: ignore[no-untyped-def]
) -> None:
    out = _exported(tmp_path, capsys)
    shape, grown = get_shape("2x4"), parse_shape("0,1,2,3;0,1,4,5;4,5,6,7/16")
    weights, _, flat = initial_weights(out, shape, coherence=True)
    more, _, kept = initial_weights(out, grown, coherence=True)
    table = 16**4
    assert flat is not None and kept is not None and kept.shape == (2, 3 * table)
    for have, file in ((more, weights), (kept[0], flat[0]), (kept[1], flat[1])):
        assert np.array_equal(have[:table], file[:table]) and np.array_equal(have[2 * table :], file[table:])
        assert not have[table : 2 * table].any()
    state, _ = train(TrainOptions(shape=grown.name, games=10, block=10, coherence=True, init=str(out)), tmp_path / "g")
    assert state.init_coherence and state.games == 10
    with pytest.raises(TrainError, match="of other tuples than"):
        initial_weights(out, parse_shape("0,1,2,3;0,1,4,5/16"), coherence=True)


def test_accumulators_of_another_network_or_damaged_are_refused(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = _exported(tmp_path, capsys)
    shape = get_shape("2x4")
    beside = coherence_file.path_for(out)
    good = beside.read_bytes()
    ratio, size = coherence_file.encode(load_coherence(tmp_path / "run", shape.weights))
    np.savez_compressed(beside, ratio=ratio, size=size, network_sha256=np.array("0" * 64))
    with pytest.raises(TrainError, match="another network"):
        initial_weights(out, shape, coherence=True)
    beside.write_bytes(good[:100])
    with pytest.raises(TrainError, match="not readable coherence accumulators"):
        initial_weights(out, shape, coherence=True)
    manifest_sha = json.loads(out.with_suffix(".json").read_text())["sha256"]
    np.savez_compressed(beside, ratio=ratio[:5], size=size[:5], network_sha256=np.array(manifest_sha))
    with pytest.raises(TrainError, match="not \\(" + str(shape.weights)):
        initial_weights(out, shape, coherence=True)


def test_export_refuses_accumulators_of_a_run_without_them(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    train(TrainOptions(shape="2x4", games=20, block=20, alpha=0.01), tmp_path / "plain")
    out = tmp_path / "plain.ntn"
    with pytest.raises(SystemExit):
        cli.main(["export", "--run", str(tmp_path / "plain"), "--out", str(out), "--games", "5", "--coherence"])
    assert "trained without --coherence" in capsys.readouterr().err
    assert not out.exists()


def test_export_coarsens_the_weights_its_run_rarely_moved_and_says_so(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    train(RUN, tmp_path / "run")
    sizes = load_coherence(tmp_path / "run", RUN_SHAPE.weights)[1]
    fine_from = float(np.quantile(sizes[sizes > 0], 0.5))
    outs = {}
    for name, extra in (("plain", []), ("coarse", ["--coarsen", str(fine_from)])):
        outs[name] = tmp_path / f"{name}.ntn"
        args = ["export", "--run", str(tmp_path / "run"), "--out", str(outs[name]), "--games", "5", "--step", "0.5"]
        assert cli.main(args + extra) == 0
    plain, coarse = (json.loads(out.with_suffix(".json").read_text()) for out in outs.values())
    assert coarse["coarsen"] == fine_from and "coarsen" not in plain
    assert coarse["bytes"] < plain["bytes"]
    units = export.coarsened_units(sizes, fine_from)  # the checkpoint's layout: the file's, tuple after tuple
    read = ntuple_file.read(outs["coarse"], coarse)
    entries = np.concatenate([np.frombuffer(t.tobytes(), dtype=np.int16) for t in read.tables])
    assert (units > 1).any() and np.all(np.fmod(entries, units) == 0)
    capsys.readouterr()
    plain_run = tmp_path / "plain-run"
    train(TrainOptions(shape="2x4", games=20, block=20, alpha=0.01), plain_run)
    with pytest.raises(SystemExit):
        cli.main(["export", "--run", str(plain_run), "--out", str(tmp_path / "x.ntn"), "--coarsen", "100"])
    assert "trained without --coherence: it has no accumulators for --coarsen" in capsys.readouterr().err
    assert not (tmp_path / "x.ntn").exists()
