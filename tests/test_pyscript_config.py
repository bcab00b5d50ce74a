"""The page's PyScript configuration: everything the page imports is shipped, nothing comes from elsewhere.

A module missing from ``pyscript.toml``'s [files] works in CPython and fails
only in the browser (ImportError inside Pyodide), so the list is checked
against the tree here; a stale entry would be a 404 and a console error.
"""

from __future__ import annotations

import re
import tomllib
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "pyscript.toml"
INDEX = ROOT / "index.html"
URL_PATTERN = re.compile(r"https?://", re.IGNORECASE)


def _config() -> dict:
    return tomllib.loads(CONFIG.read_text())


CPYTHON_ONLY = {"bench.py", "bench_positions.py", "search/minimax_reference.py"}
"""Engine modules the page never imports: the benchmark driver, its position generator, and the
plain-minimax reference the tests compare alpha-beta with.  Shipping them would cost a fetch each."""


def _is_lab(path: Path) -> bool:
    """The lab (numpy, matplotlib, multiprocessing) and the CPython-only tools stay off the page."""
    return path.as_posix() in CPYTHON_ONLY or any(
        part == "lab" or part.startswith("lab.") or part.startswith("lab_") for part in path.parts)


def _listed_sources() -> dict[str, str]:
    return {source.removeprefix("./"): dest for source, dest in _config()["files"].items()}


def test_every_engine_module_is_shipped_to_the_page():
    listed = _listed_sources()
    package = ROOT / "py" / "game2048"
    expected = sorted(str(p.relative_to(ROOT)) for p in package.rglob("*.py")
                      if "__pycache__" not in p.parts and not _is_lab(p.relative_to(package)))
    assert expected, "no engine modules found"
    missing = [p for p in expected if p not in listed]
    assert not missing, "add to pyscript.toml [files]:\n" + "\n".join(
        f'"./{p}" = "./{p.removeprefix("py/")}"' for p in missing)


def test_every_page_module_is_shipped_to_the_page():
    listed = _listed_sources()
    app_modules = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "py" / "app").glob("*.py"))
    assert "py/app/main.py" in app_modules
    missing = [p for p in app_modules if p not in listed]
    assert not missing, f"page modules missing from pyscript.toml [files]: {missing}"


def test_files_map_sources_to_the_same_package_path_and_exist():
    for source, dest in _listed_sources().items():
        assert (ROOT / source).is_file(), f"pyscript.toml lists {source}, which does not exist (a 404 in the page)"
        assert source.startswith("py/"), source
        assert dest.removeprefix("./") == source.removeprefix("py/"), f"{source} is copied to {dest}"


def test_interpreter_is_the_local_pyodide():
    interpreter = _config()["interpreter"]
    assert interpreter == "./node_modules/pyodide/pyodide.mjs"
    assert (ROOT / interpreter).is_file() or not (ROOT / "node_modules").exists()


def test_no_outside_url_in_page_or_config():
    for path in (INDEX, CONFIG):
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
        assert (ROOT / ref.split("?")[0]).is_file(), f"index.html refers to {ref}, which does not exist"
