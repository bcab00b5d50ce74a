"""The PyScript configurations: each interpreter gets exactly the modules it imports, from this site alone.

A module missing from a [files] table works in CPython and fails only in the
browser (ImportError inside Pyodide); a module listed but never imported is
a fetch for nothing, and a file of the worker's in the page's table makes
the game depend on it.  So each list is compared with the imports of its
entry script: ``pyscript.toml`` with ``py/app/main.py``, and
``pyscript-worker.toml`` with ``py/app/ai/worker.py``.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from import_names import imported_names  # noqa: E402
from precompile import BUILD, source_of  # noqa: E402

CONFIG = ROOT / "pyscript.toml"
INDEX = ROOT / "index.html"
URL_PATTERN = re.compile(r"https?://", re.IGNORECASE)


WORKER_CONFIG = ROOT / "pyscript-worker.toml"
PAGE_ENTRY = ROOT / "py" / "app" / "main.py"
WORKER_ENTRY = ROOT / "py" / "app" / "ai" / "worker.py"
OUR_PACKAGES = ("app", "game2048")
PAGE_SEARCH_MODULES = {"py/game2048/search/result_form.py", "py/game2048/search/split_merge.py"}
"""The only search modules the page runs (the merge of a decision split over workers), plain Python for MicroPython."""
PAGE_EVALUATION_MODULES = {"py/game2048/evaluation/network_stages.py"}
"""The only evaluation module the page runs: the network download's stage names, which the worker's loader writes."""
UNRUN_PACKAGES = {"game2048.search"}
"""Packages the page imports modules from but never runs the ``__init__`` of (``best_move``, its options: not
MicroPython's Python): the page does not ship it, and MicroPython imports the folder as a package without one."""


def _config(path: Path = CONFIG) -> dict:
    return tomllib.loads(path.read_text())


def _listed_sources(path: Path) -> dict[str, str]:
    """Each listed file's Python source (``py/...``; a precompiled ``build/mpy/...mpy`` is made from one) and where
    the interpreter gets it."""
    return {source_of(source.removeprefix("./")): dest for source, dest in _config(path)["files"].items()}


def _module_file(name: str) -> Path:
    base = ROOT / "py" / Path(*name.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def _imports(path: Path) -> set[str]:
    """The project modules ``path`` imports (``from a.b import c`` counts ``a``, ``a.b``, and ``a.b.c`` if a module)."""
    found: set[str] = set()
    package = path.parent.relative_to(ROOT / "py").as_posix().replace("/", ".")
    for name in imported_names(ast.parse(path.read_text()), package, skip_type_checking=False):
        if name.split(".")[0] not in OUR_PACKAGES or not _module_file(name).is_file():
            continue
        parts = name.split(".")
        found.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return found


def _closure(entry: Path, bare_packages: bool = True, unrun: set[str] | None = None) -> set[str]:
    """Files (``py/...``) of every project module the entry script loads, packages' ``__init__`` included unless
    ``bare_packages`` is false and the ``__init__`` holds nothing but a docstring (``_docstring_only``), or the
    package is one of ``unrun`` (its ``__init__`` and what only it imports left out)."""
    seen: set[str] = set()
    todo = sorted(_imports(entry))
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name not in (unrun or set()):
            todo.extend(_imports(_module_file(name)) - seen)
    files = {_module_file(name) for name in seen - (unrun or set())}
    if not bare_packages:
        files = {path for path in files if not (path.name == "__init__.py" and _docstring_only(path))}
    return {path.relative_to(ROOT).as_posix() for path in files}


def _docstring_only(path: Path) -> bool:
    """Whether a module is a docstring and nothing else: MicroPython imports a folder without ``__init__`` as a
    package, so the page does not fetch such an ``__init__`` (one request fewer at the start for each)."""
    body = ast.parse(path.read_text()).body
    return len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)


def test_the_page_gets_exactly_the_modules_it_imports():
    """The page's interpreter fetches what it runs and nothing more: not the searches, not the worker's file."""
    needed, listed = _closure(PAGE_ENTRY, bare_packages=False, unrun=UNRUN_PACKAGES), set(_listed_sources(CONFIG))
    assert "py/game2048/board.py" in needed and "py/app/board/view.py" in needed
    assert "py/app/board/__init__.py" not in needed and "py/game2048/__init__.py" in needed
    assert not needed - listed, "add to pyscript.toml [files]:\n" + "\n".join(
        f'"./{p}" = "./{p.removeprefix("py/")}"' for p in sorted(needed - listed)
    )
    assert not listed - needed, f"pyscript.toml ships modules the page never imports: {sorted(listed - needed)}"
    assert PAGE_SEARCH_MODULES <= needed  # the merge of a split decision runs on the main thread
    assert PAGE_EVALUATION_MODULES <= needed  # the download's stages, read as the loader names them
    searches = {p for p in listed if "search" in p} - PAGE_SEARCH_MODULES
    evaluations = {p for p in listed if "evaluation" in p} - PAGE_EVALUATION_MODULES
    assert not searches and not evaluations and "py/app/ai/worker.py" not in listed


def test_the_worker_gets_exactly_the_modules_it_imports():
    needed, listed = _closure(WORKER_ENTRY), set(_listed_sources(WORKER_CONFIG))
    assert "py/game2048/search/alphabeta.py" in needed
    assert not needed - listed, "add to pyscript-worker.toml [files]:\n" + "\n".join(
        f'"./{p}" = "./{p.removeprefix("py/")}"' for p in sorted(needed - listed)
    )
    assert not listed - needed, (
        f"pyscript-worker.toml ships modules the worker never imports: {sorted(listed - needed)}"
    )
    assert not any("/lab/" in p or p.startswith("py/app/") for p in listed)


def test_files_map_sources_to_the_same_package_path_and_exist():
    for config in (CONFIG, WORKER_CONFIG):
        for source, dest in _listed_sources(config).items():
            assert (ROOT / source).is_file(), f"{config.name} lists {source}, which does not exist (a 404)"
            assert source.startswith("py/"), source
            module = source.removeprefix("py/")
            if config == CONFIG:  # the page's modules come precompiled, under their own names
                module = module.removesuffix(".py") + ".mpy"
            assert dest.removeprefix("./") == module, f"{source} is copied to {dest}"


def test_the_page_loads_every_module_precompiled_and_the_worker_from_source():
    page = [source.removeprefix("./") for source in _config(CONFIG)["files"]]
    assert page and all(path.startswith(BUILD) and path.endswith(".mpy") for path in page), page
    assert all(source.endswith(".py") for source in _config(WORKER_CONFIG)["files"])  # Pyodide compiles its own


def test_the_worker_is_started_with_its_own_configuration():
    starter = (ROOT / "py" / "app" / "ai" / "worker_start.py").read_text()
    assert 'AI_WORKER_CONFIG = "./pyscript-worker.toml"' in starter
    assert 'AI_WORKER_SRC = "./py/app/ai/worker.py"' in starter and WORKER_ENTRY.is_file()
    # The page declares the first worker, as worker_start declares a new one: same name, file and configuration.
    assert 'AI_WORKER_NAME = "ai"' in starter
    assert "worker_starter(window, document, workers)" in PAGE_ENTRY.read_text()
    assert "worker_starter(window, document, workers)" in (ROOT / "bench.html").read_text()
    declared = '<script type="py" worker name="ai" src="./py/app/ai/worker.py" config="./pyscript-worker.toml">'
    assert declared in INDEX.read_text()


def test_the_page_runs_the_local_micropython_and_the_worker_the_local_pyodide():
    expected = {
        CONFIG: "./node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs",
        WORKER_CONFIG: "./node_modules/pyodide/pyodide.mjs",
    }
    for config, interpreter in expected.items():
        assert _config(config)["interpreter"] == interpreter
        assert (ROOT / interpreter).is_file() or not (ROOT / "node_modules").exists()
    assert '<script type="mpy" src="./py/app/main.py" config="./pyscript.toml">' in INDEX.read_text()


def test_no_outside_url_in_page_or_config():
    for path in (INDEX, CONFIG, WORKER_CONFIG):
        found = URL_PATTERN.findall(path.read_text())
        assert not found, f"{path.name} names an outside URL: the page must load everything from its own origin"


class _Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("src", "href", "config") and value and not value.startswith("data:"):
                self.refs.append(value)


def test_every_local_reference_in_the_page_exists():
    parser = _Refs()
    parser.feed(INDEX.read_text())
    assert "./pyscript.toml" in parser.refs and "./py/app/main.py" in parser.refs
    for ref in parser.refs:
        if ref.startswith("./node_modules/") and not (ROOT / "node_modules").exists():
            continue
        if ref.startswith("#"):  # a place in the page itself: an element with that id
            assert f'id="{ref[1:]}"' in INDEX.read_text(), f"index.html links to {ref}, which it does not hold"
            continue
        assert (ROOT / ref.split("?")[0]).is_file(), f"index.html refers to {ref}, which does not exist"
