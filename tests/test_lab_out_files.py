"""The lab writes only regular files: links followed, hard links kept one file, devices, pipes and folders refused.

Devices are made with ``mknod`` in the test's scratch folder (``os.makedev(1, 3)``, the null device's numbers):
no test points at a real device path.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from game2048.lab import cli, out_files
from game2048.lab.training.trainer import TrainOptions, train

RUN = ["run", "--depth", "1", "--stop-tile", "64", "--seeds", "1-2", "--jobs", "1", "--no-progress"]


def _device(folder: Path) -> Path:
    """A character device node with the null device's numbers, in the scratch folder (root only)."""
    path = folder / "null"
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("mknod needs root")
    return path


def _is_device(path: Path) -> bool:
    return stat.S_ISCHR(os.lstat(path).st_mode)


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1
    return err


def test_run_out_onto_a_device_is_refused_and_the_device_stays_one(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    device = _device(tmp_path)
    err = _refused([*RUN, "--out", str(device)], capsys)
    assert "is a character device, not a file" in err
    assert _is_device(device)
    assert os.listdir(tmp_path) == ["null"]  # no temporary left beside it


def test_run_out_onto_a_named_pipe_is_refused_without_blocking(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    assert "is a named pipe" in _refused([*RUN, "--out", str(pipe)], capsys)
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)


def test_run_out_onto_a_folder_says_to_name_a_file_in_it(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    err = _refused([*RUN, "--out", str(tmp_path)], capsys)
    assert "is a folder, not a file" in err and "games.jsonl" in err


def test_run_out_through_a_symlink_writes_its_target_and_keeps_the_link(tmp_path: Path) -> None:
    games = tmp_path / "kept" / "games.jsonl"
    games.parent.mkdir()
    games.write_text("")
    link = tmp_path / "link.jsonl"
    link.symlink_to(games)
    assert cli.main([*RUN, "--out", str(link)]) == 0
    assert link.is_symlink() and os.readlink(link) == str(games)
    assert len(games.read_text().splitlines()) == 2
    assert sorted(os.listdir(games.parent)) == ["games.jsonl"]


def test_run_out_onto_a_hard_link_keeps_both_names_one_file(tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    games.write_text("")
    other = tmp_path / "other-name.jsonl"
    os.link(games, other)
    assert cli.main([*RUN, "--out", str(games)]) == 0
    assert os.stat(games).st_ino == os.stat(other).st_ino and os.stat(games).st_nlink == 2
    assert other.read_text() == games.read_text() and len(games.read_text().splitlines()) == 2


def test_a_symlink_to_a_device_is_refused_and_named(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    device = _device(tmp_path)
    link = tmp_path / "out.jsonl"
    link.symlink_to(device)
    err = _refused([*RUN, "--out", str(link)], capsys)
    assert f"(a link to {device}) is a character device" in err
    assert link.is_symlink() and _is_device(device)


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = tmp_path_factory.mktemp("tiny") / "run"
    train(TrainOptions(shape="2x4", games=40, block=20, seed=4), run)
    return run


def test_export_onto_a_device_a_link_and_a_hard_link(tiny_run: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    export = ["export", "--run", str(tiny_run), "--games", "2"]
    device = _device(tmp_path)
    assert "is a character device" in _refused([*export, "--out", str(device)], capsys)
    assert _is_device(device)

    network = tmp_path / "kept" / "tiny.ntn"
    network.parent.mkdir()
    link = tmp_path / "tiny.ntn"
    link.symlink_to(network)
    assert cli.main([*export, "--out", str(link)]) == 0
    assert link.is_symlink() and network.stat().st_size > 0 and (tmp_path / "tiny.json").is_file()

    twin = tmp_path / "twin.ntn"
    os.link(network, twin)
    network.write_bytes(b"old")
    assert cli.main([*export, "--out", str(network)]) == 0
    assert os.stat(twin).st_ino == os.stat(network).st_ino and twin.read_bytes() == network.read_bytes() != b"old"


def test_train_out_onto_a_device_is_refused_and_links_inside_its_folder_are_followed(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    train_args = ["train", "--shape", "2x4", "--games", "20", "--block", "20", "--no-progress"]
    device = _device(tmp_path)
    assert "not a folder" in _refused([*train_args, "--out", str(device)], capsys)
    assert _is_device(device)

    run = tmp_path / "run"
    run.mkdir()
    elsewhere = tmp_path / "elsewhere.npz"
    (run / "checkpoint.npz").symlink_to(elsewhere)
    assert cli.main([*train_args, "--out", str(run)]) == 0
    assert (run / "checkpoint.npz").is_symlink() and elsewhere.stat().st_size > 0


def test_a_failed_write_leaves_the_old_contents_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "kept.txt"
    path.write_text("old")
    with pytest.raises(RuntimeError), out_files.replacing(path) as handle:
        handle.write("half")
        raise RuntimeError("the writer failed")
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["kept.txt"]


def test_a_replaced_file_keeps_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "kept.txt"
    path.write_text("old")
    path.chmod(0o640)
    out_files.write_text(path, "new")
    assert path.read_text() == "new" and stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_symlink_loop_is_refused_with_a_message(tmp_path: Path) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    with pytest.raises(out_files.OutPathError, match="cannot write"):
        out_files.write_text(loop, "x")


def test_a_folder_to_write_in_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(out_files.OutPathError, match="not a folder"):
        out_files.folder(tmp_path / "file")
    with pytest.raises(out_files.OutPathError, match="a part of its path is a file"):
        out_files.folder(tmp_path / "file" / "below")
