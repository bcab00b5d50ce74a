"""Run a Python script under MicroPython (the page's main-thread interpreter) and under CPython.

``run_both(script)`` runs ``script`` in both and returns the two outputs; a
test asserts they are equal.  MicroPython runs in Node through
``tools/micropython_run.mjs`` (the npm package the page loads, pinned by the
lock), with the page's modules mounted under ``/lib``; CPython runs with
``py/`` on its path.  ``extra`` modules (a fake DOM) are given as text to both.
``json_outputs`` is the form the page's tests use: scripts print JSON, and an
asynchronous one defines ``main()``.  Skips when Node or ``node_modules`` is
missing (``make test`` installs both).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUNNER = ROOT / "tools" / "micropython_run.mjs"
PACKAGE = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
RULES = tuple(f"game2048/{name}.py" for name in ("__init__", "board", "game", "mersenne", "values", "position_text"))
"""The engine's modules the page's main thread loads (paths under ``py/``)."""
sys.path.insert(0, str(ROOT / "tools"))
from precompile import page_modules  # noqa: E402

PAGE_FILES = tuple(source.removeprefix("py/") for source in page_modules(ROOT))
"""Every module the page's main thread loads (``pyscript.toml``, precompiled from these), paths under ``py/``."""


def mounts(modules: tuple[str, ...] = PAGE_FILES) -> list[str]:
    """``tools/micropython_run.mjs`` arguments that mount ``modules`` where the page has them."""
    return [f"py/{module}={module}" for module in modules]


def run_micropython(script: str, modules: tuple[str, ...] = PAGE_FILES, extra: dict[str, str] | None = None) -> str:
    """``script``'s output under MicroPython; fails the test with the traceback if it raises."""
    node = shutil.which("node")
    if node is None or not PACKAGE.is_dir():
        pytest.skip("node or node_modules is missing: run npm ci (or make test)")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "script.py"
        path.write_text(script, encoding="utf-8")
        arguments = mounts(modules)
        for name, text in (extra or {}).items():
            (Path(folder) / name).write_text(text, encoding="utf-8")
            arguments.append(f"{Path(folder) / name}={name}")
        run = subprocess.run(
            [node, str(RUNNER), str(path), *arguments], cwd=ROOT, capture_output=True, text=True, timeout=300
        )
    assert run.returncode == 0, f"MicroPython failed:\n{run.stderr}"
    return run.stdout


def run_cpython(script: str, extra: dict[str, str] | None = None) -> str:
    """``script``'s output under this CPython, with ``py/`` on its path."""
    with tempfile.TemporaryDirectory() as folder:
        for name, text in (extra or {}).items():
            (Path(folder) / name).write_text(text, encoding="utf-8")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "py"), folder]))
        run = subprocess.run(
            [sys.executable, "-c", script], cwd=folder, capture_output=True, text=True, timeout=300, env=env
        )
    assert run.returncode == 0, f"CPython failed:\n{run.stderr}"
    return run.stdout


def run_both(
    script: str, modules: tuple[str, ...] = PAGE_FILES, extra: dict[str, str] | None = None
) -> tuple[str, str]:
    """(MicroPython's output, CPython's output) of the same script."""
    return run_micropython(script, modules, extra), run_cpython(script, extra)


def json_outputs(
    script: str, extra: dict[str, str], data: object = None, asynchronous: bool = False
) -> tuple[object, object]:
    """(MicroPython's, CPython's) output of ``script``, each parsed from the JSON it prints.

    ``data`` is handed in as ``DATA``, JSON text.  An ``asynchronous`` script
    defines ``main()``, run as a task (MicroPython's top-level coroutine
    cannot take the exceptions ``wait_for`` throws), its result printed.
    """
    prelude = "import json\n" + ("" if data is None else f"DATA = {json.dumps(data, ensure_ascii=False)!r}\n")
    micro = prelude + script + ("print(json.dumps(await asyncio.create_task(main())))\n" if asynchronous else "")
    cpython = prelude + script + ("print(json.dumps(asyncio.run(main())))\n" if asynchronous else "")
    return json.loads(run_micropython(micro, extra=extra)), json.loads(run_cpython(cpython, extra=extra))
