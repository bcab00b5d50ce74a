"""The one way the lab writes a file: records, networks, manifests, checkpoints, curves, charts, reports.

A path the user names is written only as a regular file.  A device, a named
pipe, a socket or a folder at that path is refused with ``OutPathError`` (run
as root, replacing ``/dev/null`` by a regular file breaks the machine).  A
symlink is followed and its target written, so the link stays a link.  A whole
file is written beside its target and renamed over it, so a crash leaves the
old file whole; a file with other hard links is instead rewritten in place
once the new contents are complete, so every name keeps showing one file.
"""

from __future__ import annotations

import os
import secrets
import shutil
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
)


class OutPathError(ValueError):
    """A path the lab will not write: not a regular file, nor a new one in a folder."""


def _kind(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def target(path: Path) -> Path:
    """The regular file that writing ``path`` writes: ``path`` itself, or the file a symlink leads to.

    ``OutPathError`` when that is a folder, a device, a pipe or a socket, when
    a symlink loops, or when it ends in a name with nothing to write (``.``).
    """
    path = Path(path)
    real = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        mode = real.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:  # a symlink loop, a name too long, a folder we may not read
        raise OutPathError(f"cannot write {path}: {exc.strerror or exc}") from None
    if mode is not None and not stat.S_ISREG(mode):
        where = f" (a link to {real})" if real != path else ""
        hint = f": name a file in it, e.g. {path / 'games.jsonl'}" if stat.S_ISDIR(mode) else ""
        raise OutPathError(f"{path}{where} is {_kind(mode)}, not a file; the lab writes only regular files{hint}")
    if not real.name or real.name in (".", ".."):
        raise OutPathError(f"{path} names no file")
    return real


def folder(path: Path) -> Path:
    """``path`` as a folder to write in, made (with its parents) if missing; ``OutPathError`` if it is anything else."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise OutPathError(f"{path} is {_kind(path.stat().st_mode)}, not a folder: give a folder's name")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):  # a parent is a file
        raise OutPathError(f"cannot make the folder {path}: a part of its path is a file") from None
    return path


@contextmanager
def replacing(path: Path, binary: bool = False) -> Iterator[IO[Any]]:
    """A file to write; when the block ends without an exception, its contents become ``path``'s target's.

    The target is checked first (``target``) and its folder made.  Until the
    block ends the old contents stay whole; on an exception the new ones are
    thrown away.  A replaced file keeps its permission bits.
    """
    real = target(path)
    folder(real.parent)
    temporary = real.with_name(f".{real.name}.{secrets.token_hex(4)}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with open(descriptor, "wb" if binary else "w", closefd=True) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        _put_in_place(temporary, real)
    finally:
        temporary.unlink(missing_ok=True)


def _put_in_place(temporary: Path, real: Path) -> None:
    """Make ``temporary``'s contents ``real``'s: a rename, or a copy into it when other names share its inode."""
    try:
        old = real.stat()
    except FileNotFoundError:
        os.replace(temporary, real)
        return
    if old.st_nlink > 1:
        with temporary.open("rb") as source, real.open("r+b") as destination:
            destination.truncate(0)
            shutil.copyfileobj(source, destination, 1 << 20)
        return
    os.chmod(temporary, stat.S_IMODE(old.st_mode))
    os.replace(temporary, real)


def write_text(path: Path, text: str) -> Path:
    """Write ``text`` as ``path``'s contents (``replacing``); the file written."""
    with replacing(path) as handle:
        handle.write(text)
    return target(path)


def write_bytes(path: Path, data: bytes) -> Path:
    """Write ``data`` as ``path``'s contents (``replacing``); the file written."""
    with replacing(path, binary=True) as handle:
        handle.write(data)
    return target(path)


def appending(path: Path) -> IO[str]:
    """``path``'s target opened to append text (made if missing), after the same checks as ``replacing``."""
    real = target(path)
    folder(real.parent)
    return real.open("a")
