"""The house's shape: the page's packages import downward only, no import circle, no module, page class or
docstring too long.

Read from the source with ``ast`` (nothing imported): every import counts, at a module's top or inside a
function, except those under ``if TYPE_CHECKING:`` (annotations only, never run).  ``py/app``'s packages are
layered in ``APP_LAYERS``' order, each importing only the ones before it; ``main`` and ``page`` sit above them all.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from import_names import imported_names

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "py" / "app"
APP_LAYERS = ("browser", "board", "explorer", "games", "ai")
"""``py/app``'s packages, lowest first: the browser's edges, the game played, the search explained, the player's
games (replays show explanations), the AI (its panel names the glossary's words)."""
APP_TOP = {"__init__.py", "main.py", "page.py"}
MAX_APP_ENTRIES = 8
MAX_CLASS_LINES = 350
MAX_MODULE_LINES = 500
"""The longest module of ``py/``: past it a module holds more than one job (and the growth a class cap stops must
not move into free functions)."""
MAX_DOCSTRING_LINES = 30


def module_name(path: Path, root: Path = ROOT) -> str:
    """``py/app/board/view.py`` -> ``app.board.view``; ``tools/soak.py`` -> ``tools.soak``; a package is its folder."""
    rel = path.relative_to(root)
    parts = list(rel.parts[1:] if rel.parts[0] == "py" else rel.parts)
    parts[-1] = parts[-1].removesuffix(".py")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources() -> dict[str, Path]:
    """Every module of ``py/`` and ``tools/``, by name."""
    paths = [*(ROOT / "py").rglob("*.py"), *(ROOT / "tools").glob("*.py")]
    return {module_name(path): path for path in paths if "__pycache__" not in path.parts}


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Each module's imports of the others (a tool's ``import soak`` is ``tools.soak``); a module's imports of its
    own packages are left out: Python loads a package before its modules, so they close no circle."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = set()
        for imported in imported_names(ast.parse(path.read_text()), package, skip_type_checking=True):
            if package == "tools" and f"tools.{imported}" in modules:
                imported = f"tools.{imported}"
            if imported in modules and imported != name and not name.startswith(imported + "."):
                found.add(imported)
        graph[name] = found
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: its strongly connected parts of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            part = []
            while True:
                other = stack.pop()
                part.append(other)
                if other == module:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def app_layer(name: str) -> int:
    """Where an ``app`` module sits: its package's place in ``APP_LAYERS``, above them all for ``main`` and ``page``."""
    parts = name.split(".")
    if len(parts) > 1 and parts[1] in APP_LAYERS:
        return APP_LAYERS.index(parts[1])
    return len(APP_LAYERS)


def downward_breaches(graph: dict[str, set[str]]) -> list[str]:
    """``a imports b`` for each ``app`` module that imports one of a package above its own (or beside it)."""
    return [
        f"{name} imports {other}"
        for name, imported in sorted(graph.items())
        if name.startswith("app.")
        for other in sorted(imported)
        if other.startswith("app.") and app_layer(other) > app_layer(name)
    ]


def test_the_page_glue_is_a_few_packages_and_its_entry_scripts():
    entries = sorted(path.name for path in APP.iterdir() if path.name != "__pycache__")
    assert len(entries) <= MAX_APP_ENTRIES, entries
    assert set(entries) == APP_TOP | set(APP_LAYERS)
    for layer in APP_LAYERS:
        doc = ast.get_docstring(ast.parse((APP / layer / "__init__.py").read_text()))
        assert doc and len(doc.splitlines()) <= 3, f"app.{layer}'s __init__ says in a line or two what it holds"


def test_each_app_package_imports_only_the_ones_before_it():
    assert downward_breaches(import_graph(sources())) == []


def test_the_layer_check_sees_an_upward_import(tmp_path):
    low = tmp_path / "py" / "app" / "browser"
    high = tmp_path / "py" / "app" / "ai"
    for folder in (low, high):
        folder.mkdir(parents=True)
        (folder / "__init__.py").write_text("")
    (low / "storage.py").write_text("def read():\n    from app.ai.client import AiClient\n")
    (high / "client.py").write_text("from ..browser import storage\nclass AiClient: ...\n")
    modules = {module_name(path, tmp_path): path for path in (tmp_path / "py").rglob("*.py")}
    assert downward_breaches(import_graph(modules)) == ["app.browser.storage imports app.ai.client"]


def test_no_import_circle_in_py_or_tools():
    assert circles(import_graph(sources())) == []


def test_the_circle_check_sees_a_circle_through_a_function_level_import():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("path", sorted(APP.rglob("*.py")), ids=lambda path: module_name(path))
def test_no_page_class_is_longer_than_350_lines(path):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ClassDef):
            assert node.end_lineno is not None
            length = node.end_lineno - node.lineno + 1
            assert length <= MAX_CLASS_LINES, f"{node.name} is {length} lines: split it by its jobs"


def long_modules(root: Path, most: int = MAX_MODULE_LINES) -> dict[str, int]:
    """The modules below ``root`` longer than ``most`` lines, with their lengths."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        lines = len(path.read_text().splitlines())
        if "__pycache__" not in path.parts and lines > most:
            found[str(path.relative_to(root))] = lines
    return found


def test_no_module_in_py_is_longer_than_500_lines():
    assert long_modules(ROOT / "py") == {}, "split the module by its jobs, each in a module named for it"


def test_the_length_check_sees_a_long_module(tmp_path):
    (tmp_path / "short.py").write_text("x = 1\n" * 500)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "long.py").write_text("x = 1\n" * 501)
    assert long_modules(tmp_path) == {"pkg/long.py": 501}


def test_no_module_docstring_is_longer_than_30_lines():
    long = {}
    for name, path in sources().items():
        doc = ast.get_docstring(ast.parse(path.read_text()), clean=False)
        if doc and len(doc.splitlines()) > MAX_DOCSTRING_LINES:
            long[name] = len(doc.splitlines())
    assert long == {}, "a module's docstring gives its contract; history and figures go to docs/"
