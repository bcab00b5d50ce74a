"""The page's main-thread modules keep to the Python that MicroPython 1.27 runs.

The page's own interpreter is MicroPython, and some of what CPython offers is
missing there: modules (``__future__``, ``typing``, ``dataclasses``, ``enum``,
``urllib``, ``collections.abc``), unpacking in displays (``{**a}``, ``[*a]``),
some ``str`` and ``int`` methods, keyword arguments of ``json``, and
``asyncio.ensure_future``.  This reads every module ``pyscript.toml`` gives the
page and names each use, with its line, long before a browser would fail on
it; ``test_micropython_*`` run the modules under MicroPython itself.
"""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from precompile import page_modules  # noqa: E402

PAGE_MODULES = sorted(["py/app/main.py"] + page_modules(ROOT))  # the script, and the sources of what it imports
ABSENT_MODULES = {"__future__", "typing", "dataclasses", "enum", "urllib", "urllib.parse", "collections.abc"}
ABSENT_METHODS = {
    "ljust",
    "rjust",
    "center",
    "zfill",
    "title",
    "capitalize",
    "removeprefix",
    "removesuffix",
    "isalnum",
    "swapcase",
    "format_map",
    "bit_length",
    "bit_count",
    "ensure_future",
    "fullmatch",
    "monotonic",
}


def _guarded(tree: ast.Module) -> set[int]:
    """Lines of imports inside ``try: ... except ImportError`` (names for annotations only)."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(
            isinstance(handler.type, ast.Name) and handler.type.id == "ImportError" for handler in node.handlers
        ):
            lines.update(child.lineno for child in node.body if isinstance(child, ast.Import | ast.ImportFrom))
    return lines


def problems(source: str) -> list[str]:
    """Each construct of ``source`` that MicroPython lacks, as "line N: what"."""
    tree = ast.parse(source)
    guarded = _guarded(tree)
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.ImportFrom | ast.Import) and line not in guarded:
            names = [node.module] if isinstance(node, ast.ImportFrom) else [alias.name for alias in node.names]
            found += [f"line {line}: imports {name}" for name in names if name in ABSENT_MODULES]
        elif isinstance(node, ast.Dict) and None in node.keys:
            found.append(f"line {line}: ** unpacking in a dict display")
        elif isinstance(node, ast.List | ast.Tuple | ast.Set) and any(isinstance(e, ast.Starred) for e in node.elts):
            if not isinstance(getattr(node, "ctx", None), ast.Store):
                found.append(f"line {line}: * unpacking in a display")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ABSENT_METHODS:
            found.append(f"line {line}: .{node.func.attr}()")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "json"
            and node.keywords
        ):
            found.append(f"line {line}: json.{node.func.attr} with keyword arguments")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr) and isinstance(node.left, ast.Dict):
            found.append(f"line {line}: dict | dict")
    return sorted(found, key=lambda text: int(text.split(":")[0].split()[1]))


@pytest.mark.parametrize("module", PAGE_MODULES)
def test_each_page_module_keeps_to_micropython(module: str) -> None:
    assert problems((ROOT / module).read_text()) == []


CLOCK_MODULE = "py/app/browser/clock.py"
WALL_CLOCK_READINGS = {"time", "ticks_ms", "ticks_us", "ticks_diff", "ticks_add"}


def wall_clock_waits(source: str) -> list[str]:
    """Each wait or time reading of ``source`` by MicroPython's own clock, as "line N: what".

    In the browser, MicroPython's ``time.ticks_ms`` is ``Date.now()`` and its ``asyncio.sleep`` waits until that
    clock reaches a time: a clock set back stops such a wait (issue 53).  ``app.browser.clock`` waits by the
    browser's timer; ``asyncio.sleep(0)`` only lets ready tasks run."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        owner = node.func.value.id if isinstance(node.func.value, ast.Name) else ""
        if owner == "asyncio" and node.func.attr == "sleep":
            if not (len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and node.args[0].value == 0):
                found.append(f"line {node.lineno}: asyncio.sleep")
        elif owner == "time" and node.func.attr in WALL_CLOCK_READINGS:
            found.append(f"line {node.lineno}: time.{node.func.attr}()")
    return sorted(found, key=lambda text: int(text.split(":")[0].split()[1]))


@pytest.mark.parametrize("module", [module for module in PAGE_MODULES if module != CLOCK_MODULE])
def test_each_page_module_waits_by_the_browsers_timer_not_the_wall_clock(module: str) -> None:
    assert wall_clock_waits((ROOT / module).read_text()) == []


def test_the_wall_clock_check_names_each_wait() -> None:
    source = "await asyncio.sleep(0)\nawait asyncio.sleep(1)\nnow = time.ticks_ms()\nawait sleep(1)\nt = time.time()\n"
    assert wall_clock_waits(source) == ["line 2: asyncio.sleep", "line 3: time.ticks_ms()", "line 5: time.time()"]


def test_the_check_names_what_micropython_lacks() -> None:
    source = (
        "from __future__ import annotations\n"
        "from dataclasses import dataclass\n"
        "try:\n    from typing import Any\nexcept ImportError:\n    pass\n"
        "a = {**b}\nc = [*d, 1]\nx, *y = z\ne = 'a'.rjust(3)\nf = json.dumps(g, indent=1)\nh = {1: 2} | i\n"
    )
    assert problems(source) == [
        "line 1: imports __future__",
        "line 2: imports dataclasses",
        "line 7: ** unpacking in a dict display",
        "line 8: * unpacking in a display",
        "line 10: .rjust()",
        "line 11: json.dumps with keyword arguments",
        "line 12: dict | dict",
    ]


def test_the_page_loads_the_rules_and_its_glue() -> None:
    assert {"py/app/main.py", "py/game2048/board.py", "py/app/board/view.py"} <= set(PAGE_MODULES)
    searches = {module for module in PAGE_MODULES if "search" in module}
    assert searches == {"py/game2048/search/result_form.py", "py/game2048/search/split_merge.py"}  # the split's merge
    assert not any("move_tables" in module for module in PAGE_MODULES)
